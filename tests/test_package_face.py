"""The package face loads extraction on first use, so a submodule import does not pay for it."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import corpusbot
from tests.conftest import REPO

HEAVY = ("lxml", "langdetect", "corpusbot.extraction.core")


def _loaded_after(statement: str) -> dict[str, bool]:
    """Which of ``HEAVY`` a fresh interpreter holds after running ``statement``."""
    report = f"json.dumps({{m: m in sys.modules for m in {HEAVY!r}}})"
    probe = f"import json, sys\n{statement}\nprint({report})"
    done = subprocess.run([sys.executable, "-c", probe], cwd=REPO, capture_output=True,
                          text=True, check=True, timeout=60)
    return json.loads(done.stdout)


@pytest.mark.parametrize("module", ["corpusbot", "corpusbot.corpus.merge"])
def test_importing_the_package_loads_no_extraction(module: str) -> None:
    assert not any(_loaded_after(f"import {module}").values())


def test_the_first_use_of_a_name_loads_extraction() -> None:
    assert all(_loaded_after("from corpusbot import extract_text").values())


def test_the_lazy_names_are_the_extraction_call() -> None:
    from corpusbot.extraction import core

    assert (corpusbot.extract, corpusbot.extract_text, corpusbot.Extraction) == (
        core.extract, core.extract_text, core.Extraction)
    assert set(corpusbot.__all__) <= set(dir(corpusbot))


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'extractt'"):
        _ = corpusbot.extractt  # type: ignore[attr-defined]
