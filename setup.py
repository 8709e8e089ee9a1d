"""The build's one dynamic part: the hot modules compiled by mypyc, when asked for.

Everything else about the package is in ``pyproject.toml``. With
``CORPUSBOT_COMPILE=1`` in the environment, and mypy (the ``compile`` extra)
and a C compiler present, the modules of ``corpusbot.compiled.COMPILED_MODULES``
are built as C extensions beside their Python sources; without any of the
three the package installs as pure Python, unchanged. The Python sources stay
in the wheel either way (mypyc's extension is found first on import).
"""

from __future__ import annotations

import logging
import os
import runpy
import shutil
import sysconfig
from pathlib import Path

from setuptools import setup

HERE = Path(__file__).resolve().parent
log = logging.getLogger("corpusbot.setup")


def compile_requested() -> bool:
    """Whether the environment asks for the compiled build."""
    return os.environ.get("CORPUSBOT_COMPILE", "").strip().lower() in {"1", "true", "yes"}


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
        log.warning("CORPUSBOT_COMPILE is set but %s: building pure Python", missing)
        return []
    from mypyc.build import mypycify  # noqa: PLC0415

    modules = runpy.run_path(str(HERE / "corpusbot" / "compiled.py"))["COMPILED_MODULES"]
    paths = [str(Path(*name.split(".")).with_suffix(".py")) for name in modules]
    # Type errors outside the compiled modules are not the build's concern (silent);
    # libraries without type hints are Any to mypyc.
    flags = ["--follow-imports=silent", "--ignore-missing-imports"]
    return mypycify(paths + flags, opt_level="3", debug_level="0", group_name="corpusbot")


if __name__ == "__main__":  # as setuptools runs it; tests import the functions above
    setup(ext_modules=extensions())
