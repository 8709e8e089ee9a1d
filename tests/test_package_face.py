"""The package face loads extraction on first use, so a submodule import does not pay for it;
nor does the main process of ``warc`` and ``crawl``, which builds the steps without running them."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import corpusbot
from tests.conftest import REPO

HEAVY = ("lxml", "langdetect", "corpusbot.extraction.core")
WORKERS_ONLY = ("corpusbot.extraction.core", "htmldate", "corpusbot.filters.english")
"""What the steps import on their first page (corpusbot.pool's workers preload it)."""
BUILD_EVERY_PRESET = """
from corpusbot.filters.registry import PRESETS
from corpusbot.processor import Processor, ProcessorOptions
for preset in PRESETS:
    Processor(ProcessorOptions(preset=preset))
"""


def _loaded_after(statement: str, modules: tuple[str, ...] = HEAVY) -> dict[str, bool]:
    """Which of ``modules`` a fresh interpreter holds after running ``statement``."""
    report = f"json.dumps({{m: m in sys.modules for m in {modules!r}}})"
    probe = f"import json, sys\n{statement}\nprint({report})"
    done = subprocess.run([sys.executable, "-c", probe], cwd=REPO, capture_output=True,
                          text=True, check=True, timeout=60)
    return json.loads(done.stdout)


@pytest.mark.parametrize("module", ["corpusbot", "corpusbot.corpus.merge"])
def test_importing_the_package_loads_no_extraction(module: str) -> None:
    assert not any(_loaded_after(f"import {module}").values())


@pytest.mark.parametrize("command", ["warc", "crawl"])
def test_a_command_builds_its_steps_without_what_they_run_a_page_with(command: str) -> None:
    # imported with the steps, these cost every start 0.3 s, --help included
    loaded = _loaded_after(f"import corpusbot.commands.{command}\n{BUILD_EVERY_PRESET}",
                           WORKERS_ONLY)
    assert not any(loaded.values()), loaded


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
