"""The build's one dynamic part: the hot modules compiled by mypyc, in wheels.

Everything else about the package is in ``pyproject.toml``. A wheel build
(``pip install .``, ``pip wheel .``, ``python -m build``) compiles the modules of
``corpusbot.compiled.COMPILED_MODULES`` as C extensions beside their Python
sources when mypy (a build requirement) and a C compiler with Python's headers
are present; without them, or when mypyc or the C build fails, it builds the
pure-Python package, unchanged, and says why. An editable install stays pure
(its sources are edited). ``CORPUSBOT_COMPILE=1`` asks for the compiled build in
any build, ``=0`` turns it off. The Python sources stay in the wheel either way
(mypyc's extension is found first on import).
"""

from __future__ import annotations

import logging
import os
import runpy
import shutil
import sys
import sysconfig
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CCompilerError, ExecError, PlatformError

HERE = Path(__file__).resolve().parent
log = logging.getLogger("corpusbot.setup")


def compile_requested(argv: list[str] | None = None) -> bool:
    """Whether this build compiles: as ``CORPUSBOT_COMPILE`` says, else when it builds a
    wheel (setuptools runs ``bdist_wheel``; an editable install runs ``editable_wheel``,
    and the metadata steps before a build run neither)."""
    asked = os.environ.get("CORPUSBOT_COMPILE", "").strip().lower()
    if asked in {"1", "true", "yes"}:
        return True
    if asked in {"0", "false", "no"}:
        return False
    return "bdist_wheel" in (sys.argv if argv is None else argv)


def missing_toolchain() -> str | None:
    """What the compiled build lacks here (mypy, a C compiler, Python's headers), or None."""
    try:
        import mypyc.build  # noqa: F401, PLC0415
    except ImportError:
        return "mypy is not installed (pip install 'corpusbot[compile]' first)"
    # the compiler setuptools will call: $CC, else the one Python was built with
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler}) on PATH"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file():
        return "Python's C headers (Python.h) are not installed"
    return None


def extensions() -> list:
    """mypyc's extension modules for the listed modules, or none for the pure build."""
    if not compile_requested():
        return []
    missing = missing_toolchain()
    if missing is not None:
        log.warning("not compiling corpusbot's hot modules: %s; building pure Python",
                    missing)
        return []
    from mypyc.build import mypycify  # noqa: PLC0415

    modules = runpy.run_path(str(HERE / "corpusbot" / "compiled.py"))["COMPILED_MODULES"]
    paths = [str(Path(*name.split(".")).with_suffix(".py")) for name in modules]
    # Type errors outside the compiled modules are not the build's concern (silent);
    # libraries without type hints are Any to mypyc.
    flags = ["--follow-imports=silent", "--ignore-missing-imports"]
    try:
        return mypycify(paths + flags, opt_level="3", debug_level="0", group_name="corpusbot")
    except (Exception, SystemExit) as exc:  # mypyc exits on what it cannot compile
        log.warning("not compiling corpusbot's hot modules: mypyc failed (%s); building "
                    "pure Python", exc)
        return []


class OptionalBuildExt(build_ext):
    """``build_ext`` that leaves the pure package when the C build fails (a compiler that
    rejects mypyc's code, a missing library): the compiled modules are all or none, since
    they share mypyc's group library, so every one built is removed again."""

    def run(self) -> None:
        try:
            super().run()
        except (CCompilerError, ExecError, PlatformError, OSError) as exc:
            log.warning("not compiling corpusbot's hot modules: the C build failed (%s); "
                        "building pure Python", exc)
            for extension in self.extensions:
                Path(self.get_ext_fullpath(extension.name)).unlink(missing_ok=True)
            self.extensions = []


if __name__ == "__main__":  # as setuptools runs it; tests import the functions above
    setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
