"""The compiled build (``setup.py``, ``corpusbot.compiled``): which build is loaded, the
pure fallback when the toolchain is missing, and the same outputs as the Python sources.

CI's compiled pass sets ``CORPUSBOT_EXPECT_COMPILED=1``, so that a build which fell back
to pure Python there fails instead of passing unnoticed.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

from corpusbot import compiled
from corpusbot.cli import main
from tests.conftest import REPO, bench_dir

try:  # at collection: setuptools takes over distutils only if imported before it
    import setuptools  # noqa: F401  (setup.py's tests; a later README block may import distutils)
except ImportError:
    pass

EXPECT_COMPILED = os.environ.get("CORPUSBOT_EXPECT_COMPILED") == "1"
MODES = ("default", "justext", "boilerpipe", "precise", "web2text")


def test_the_compiled_pass_runs_every_listed_module_compiled() -> None:
    if not EXPECT_COMPILED:
        pytest.skip("CORPUSBOT_EXPECT_COMPILED=1 is CI's compiled pass")
    assert compiled.compiled_modules() == list(compiled.COMPILED_MODULES)
    for name in compiled.COMPILED_MODULES:
        module = __import__(name, fromlist=["_"])
        assert not module.__file__.endswith(".py"), f"{name} loaded from {module.__file__}"


def test_the_version_line_names_the_build(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--version"])
    line = capsys.readouterr().out.strip()
    done = compiled.compiled_modules()
    build = f"compiled by mypyc: {len(done)} of " if done else "(pure Python)"
    assert build in line


def _setup_module() -> dict:
    return runpy.run_path(str(REPO / "setup.py"), run_name="corpusbot_setup")


def test_a_wheel_compiles_and_an_editable_install_stays_pure(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    requested = _setup_module()["compile_requested"]
    monkeypatch.delenv("CORPUSBOT_COMPILE", raising=False)
    # setuptools' commands for pip install ., pip install -e . and the metadata step
    assert requested(["setup.py", "bdist_wheel", "--dist-dir", "/tmp/x"])
    assert not requested(["setup.py", "editable_wheel", "--dist-dir", "/tmp/x"])
    assert not requested(["setup.py", "dist_info", "--output-dir", "/tmp/x"])
    monkeypatch.setattr(sys, "argv", ["setup.py", "egg_info"])
    assert _setup_module()["extensions"]() == []
    monkeypatch.setenv("CORPUSBOT_COMPILE", "0")
    assert not requested(["setup.py", "bdist_wheel"])
    monkeypatch.setenv("CORPUSBOT_COMPILE", "1")
    assert requested(["setup.py", "editable_wheel"])


def test_without_a_compiler_the_build_falls_back_to_pure(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
) -> None:
    pytest.importorskip("mypyc", reason="mypy (the compile extra) is not installed")
    monkeypatch.setenv("CORPUSBOT_COMPILE", "1")
    monkeypatch.setenv("CC", "corpusbot-no-such-compiler")  # what setuptools would call
    with caplog.at_level(logging.WARNING):
        assert _setup_module()["extensions"]() == []
    assert "no C compiler" in caplog.text


_PROBE_BUILD = """
import logging, runpy, sys
import setuptools
logging.basicConfig(level=logging.WARNING)
setup = runpy.run_path(sys.argv[1], run_name="corpusbot_setup")
dist = setuptools.Distribution({
    "name": "probe", "ext_modules": [setuptools.Extension("probe", ["probe.c"])],
    "cmdclass": {"build_ext": setup["OptionalBuildExt"]},
})
command = dist.get_command_obj("build_ext")
command.build_lib, command.build_temp = "lib", "temp"
command.ensure_finalized()
command.run()
print("outputs", command.get_outputs())
"""


def test_a_failing_c_build_leaves_the_pure_package(tmp_path: Path) -> None:
    pytest.importorskip("setuptools")
    (tmp_path / "probe.c").write_text("this is not C\n")
    # a process of its own: setuptools must replace distutils before anything imports it
    done = subprocess.run([sys.executable, "-c", _PROBE_BUILD, str(REPO / "setup.py")],
                          check=False, cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "outputs []" in done.stdout and "the C build failed" in done.stderr
    assert not list((tmp_path / "lib").glob("probe*"))


def _digests(pages: list[tuple[bytes, str | None]]) -> list[str]:
    """One hash per page and mode over every field of the extraction."""
    from corpusbot import extract

    out = []
    for html, url in pages:
        for mode in MODES:
            fields = extract(html, url=url, mode=mode).__repr__()
            out.append(hashlib.sha256(fields.encode()).hexdigest()[:16])
    return out


_PURE_DIGESTS = """
import json, sys
from corpusbot import compiled
compiled.use_python_sources()
sys.path.append({repo!r})  # after site-packages: the tests, not the folder's corpusbot
from tests.test_compiled import _digests, _pages
assert not compiled.compiled_modules(), compiled.compiled_modules()
print(json.dumps(_digests(_pages())))
"""


def _pages() -> list[tuple[bytes, str | None]]:
    """scrapinghub's gold pages (its 181 hold every mode's paths), else the fixtures."""
    from corpusbot.eval.goldsets import load_gold

    folder = bench_dir() / "scrapinghub"
    if folder.is_dir():
        return [(page.html, page.url) for page in load_gold(folder).pages]
    return [(path.read_bytes(), None) for path in sorted((REPO / "tests" / "fixtures").rglob(
        "*.html"))]


def test_compiled_outputs_equal_the_python_sources(tmp_path: Path) -> None:
    """Every mode on every page: the compiled modules against their own Python sources,
    loaded from the same install in a fresh interpreter."""
    if not compiled.compiled_modules():
        pytest.skip("this build is pure Python: nothing to compare")
    script = _PURE_DIGESTS.format(repo=str(REPO))
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True,
                          text=True, check=True, timeout=600)
    assert json.loads(done.stdout) == _digests(_pages())


def test_the_python_sources_can_be_loaded_from_any_install(tmp_path: Path) -> None:
    script = ("from corpusbot import compiled; compiled.use_python_sources(); "
              "import corpusbot.html.blocks as b; print(b.__file__)")
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True,
                          text=True, check=True, timeout=60)
    assert done.stdout.strip().endswith("blocks.py")
