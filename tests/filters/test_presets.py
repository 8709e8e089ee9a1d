"""The presets name known steps with options those steps accept."""

from __future__ import annotations

import pytest

from corpusbot.filters.registry import PRESETS, STEPS
from corpusbot.fingerprints.options import DedupOptions
from corpusbot.processor import Processor, ProcessorOptions

CORE_STEPS = {"extract", "language", "length", "nonletters", "fingerprints"}


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_builds_a_processor(name):
    steps = Processor(ProcessorOptions(preset=name, dedup=DedupOptions())).steps
    assert [step.name for step in steps] == [step for step, _ in PRESETS[name]]
    assert steps[-1].name == "fingerprints" and "extract" in [s.name for s in steps]


def test_fineweb_runs_datatroves_chain_in_its_order():
    order = [step for step, _ in PRESETS["fineweb"] if step not in CORE_STEPS]
    assert order == ["urls", "lang_confidence", "gopher_repetition", "gopher_quality", "c4",
                     "fineweb"]
    assert dict(PRESETS["fineweb"])["c4"] == {"filter_no_terminal_punct": False}


def test_every_quality_step_has_a_name_reasons_and_a_summary():
    for name, cls in STEPS.items():
        assert cls.name == name and cls.summary
        if name not in CORE_STEPS:
            assert all(reason.startswith(f"filter/{name}/")
                                       for reason in cls.reasons), name
