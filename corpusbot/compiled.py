"""Which build is loaded: the pure-Python modules, or the hot ones compiled by mypyc.

``setup.py`` compiles ``COMPILED_MODULES`` in a wheel build (``CORPUSBOT_COMPILE``
overrides) when mypy and a C compiler are there and the build succeeds (see the
README); otherwise, and in an editable install, every module stays Python. The
compiled modules behave as the Python ones do, so nothing else in the package
asks which build it runs on; this module answers for
``corpusbot --version`` and the tests. It imports nothing of the package, so
that ``setup.py`` can read the list before anything is installed.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path

COMPILED_MODULES = (
    "corpusbot.html.blocks",
    "corpusbot.extraction.boilerpipe.shallowtext",
    "corpusbot.extraction.boilerpipe.article",
    "corpusbot.extraction.justext",
    "corpusbot.extraction.grandparent",
    "corpusbot.extraction.default.composition",
    "corpusbot.extraction.default.containers",
    "corpusbot.extraction.default.edges",
    "corpusbot.extraction.default.landmarks",
    "corpusbot.extraction.default.lead",
    "corpusbot.extraction.default.listing",
    "corpusbot.extraction.default.regions",
    "corpusbot.extraction.default.continuation",
    "corpusbot.extraction.default.datelines",
    "corpusbot.extraction.default.headings",
    "corpusbot.extraction.default.labels",
    "corpusbot.extraction.default.lists",
    "corpusbot.extraction.default.panels",
    "corpusbot.extraction.default.recommendations",
    "corpusbot.extraction.default.repeats",
    "corpusbot.extraction.default.threads",
    "corpusbot.extraction.web2text.features",
    "corpusbot.extraction.web2text.model",
)
"""The modules a compiled build compiles: the per-block loops of extraction, chosen by
measured gain (README, "Compiled build")."""


def compiled_modules() -> list[str]:
    """The ``COMPILED_MODULES`` that load (or were loaded) as compiled extension modules.

    Read from each module's spec, without importing it (``--version`` must not pay
    for lxml)."""
    return [name for name in COMPILED_MODULES if _is_extension(name)]


def describe() -> str:
    """One line for ``--version``: which build is loaded."""
    done = compiled_modules()
    if not done:
        return "pure Python"
    return f"compiled by mypyc: {len(done)} of {len(COMPILED_MODULES)} hot modules"


def use_python_sources() -> None:
    """From now on, import the ``COMPILED_MODULES`` from their Python sources.

    A compiled install keeps each module's ``.py`` beside its extension; this
    lets one install run either build, so that the two can be compared on the
    same packages (the compiled-build test and benchmark). It must run before
    any of the modules is imported.
    """
    if not any(isinstance(finder, _PythonSources) for finder in sys.meta_path):
        sys.meta_path.insert(0, _PythonSources())


class _PythonSources(importlib.abc.MetaPathFinder):
    """Finds the listed modules' ``.py`` files, passing over the extensions beside them."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: object = None,
    ) -> ModuleSpec | None:
        if fullname not in COMPILED_MODULES or not path:
            return None
        for folder in path:
            source = Path(folder) / f"{fullname.rpartition('.')[2]}.py"
            if source.is_file():
                return importlib.util.spec_from_file_location(fullname, source)
        return None


def _is_extension(name: str) -> bool:
    spec = importlib.util.find_spec(name)
    origin = (spec.origin if spec is not None else None) or ""
    return origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
