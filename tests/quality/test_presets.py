"""The presets name known steps with options those steps accept."""

from __future__ import annotations

import pytest

from corpusbot.quality.presets import PRESETS, QUALITY_STEPS, step_classes

CORE_STEPS = {"extract", "language", "length", "nonletters", "fingerprints"}


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_step_is_known_and_its_overrides_valid(name):
    classes = step_classes()
    for step, overrides in PRESETS[name]:
        assert step in CORE_STEPS or step in classes, step
        if step in classes:
            classes[step](classes[step].Options(**overrides))  # validates


def test_fineweb_runs_datatroves_chain_in_its_order():
    order = [step for step, _ in PRESETS["fineweb"] if step in QUALITY_STEPS]
    assert order == ["urls", "lang_confidence", "gopher_repetition", "gopher_quality", "c4",
                     "fineweb"]
    assert dict(PRESETS["fineweb"])["c4"] == {"filter_no_terminal_punct": False}


def test_every_step_has_a_name_reasons_and_a_summary():
    for name, cls in step_classes().items():
        assert cls.name == name and cls.summary
        assert all(reason.startswith(f"filter/{name}/") for reason in cls.reasons)
