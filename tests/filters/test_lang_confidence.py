"""The minimum language probability, overall and per language."""

from __future__ import annotations

import pytest

from corpusbot.filters.lang_confidence import (
    LOW_PROBABILITY,
    LangConfidence,
    LangConfidenceOptions,
    min_lang_prob_overrides,
)
from corpusbot.steps import parse_option
from tests.filters.support import reason

TEXT = "Some text."


def test_below_the_overall_minimum_is_dropped():
    step = LangConfidence(LangConfidenceOptions(min_lang_prob=0.65))
    assert reason(step, TEXT, lang_prob=0.64) == LOW_PROBABILITY
    assert reason(step, TEXT, lang_prob=0.65) is None


def test_a_language_of_its_own_uses_its_minimum():
    step = LangConfidence(LangConfidenceOptions(min_lang_prob=0.5,
                                                min_lang_prob_by_language={"de": 0.8}))
    assert reason(step, TEXT, lang="de", lang_prob=0.7) == LOW_PROBABILITY
    assert reason(step, TEXT, lang="fr", lang_prob=0.7) is None


def test_zero_switches_it_off():
    assert reason(LangConfidence(LangConfidenceOptions(min_lang_prob=0)), TEXT,
                  lang_prob=0.0) is None


def test_fineweb_value_is_the_default():
    assert LangConfidenceOptions().min_lang_prob == 0.65


def test_the_command_line_form_sets_overall_and_per_language_minimums():
    assert min_lang_prob_overrides("0.65") == {"min_lang_prob": 0.65,
                                              "min_lang_prob_by_language": {}}
    assert min_lang_prob_overrides("0.5,de=0.8") == {"min_lang_prob": 0.5,
                                                    "min_lang_prob_by_language": {"de": 0.8}}
    with pytest.raises(ValueError, match=r"^--min-lang-prob: not a probability"):
        min_lang_prob_overrides("high")
    assert parse_option(LangConfidenceOptions, "min_lang_prob_by_language", "de=0.8") == {
        "de": 0.8}


@pytest.mark.parametrize(("options", "message"), [
    ({"min_lang_prob": 1.2}, r"^lang_confidence\.min_lang_prob must be a ratio in \[0, 1\]"),
    ({"min_lang_prob_by_language": {"de": 2.0}},
     r"^lang_confidence\.min_lang_prob_by_language: de=2\.0 must be a probability"),
])
def test_a_bad_value_is_refused_in_one_line(options, message):
    with pytest.raises(ValueError, match=message):
        LangConfidenceOptions(**options)
