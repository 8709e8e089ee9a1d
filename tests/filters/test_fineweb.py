"""FineWeb's rules: one test per threshold, every other rule switched off."""
# ruff: noqa: RUF001  (texts in other scripts are the fixtures here)

from __future__ import annotations

import pytest

from corpusbot.filters.fineweb import FineWeb, FineWebOptions
from tests.filters.support import reason

LONG = "This is a line of text that is comfortably longer than thirty characters."


def step(**options: object) -> FineWeb:
    values: dict[str, object] = {"line_punct_thr": 0, "short_line_thr": 0,
                                 "char_duplicates_ratio": 0, "new_line_ratio": 0}
    values.update(options)
    return FineWeb(FineWebOptions(**values))  # type: ignore[arg-type]


@pytest.mark.parametrize(("options", "dropped", "kept", "rule"), [
    ({"line_punct_thr": 0.5}, "no end\nno end either\nends.", "no end\nends.\nends too!",
     "line-punct-ratio"),
    ({"short_line_thr": 0.5}, f"short\nshort too\n{LONG}", f"short\n{LONG}",
     "short-line-ratio"),
    ({"char_duplicates_ratio": 0.1}, f"{LONG}\n{LONG}\n{LONG} Extra.",
     f"{LONG}\n{LONG} A much longer distinct line follows. " * 1 + "x" * 800,
     "char-dup-ratio"),
    ({"new_line_ratio": 0.3}, "one\ntwo\nthree", "one two three\nfour five six",
     "list-ratio"),
])
def test_each_rule_drops_past_its_threshold_only(options, dropped, kept, rule):
    fineweb = step(**options)
    assert reason(fineweb, dropped) == f"filter/fineweb/{rule}"
    assert reason(fineweb, kept) is None


def test_no_punctuated_line_passes_when_zero_is_excluded():
    assert reason(step(line_punct_thr=0.5, line_punct_exclude_zero=True), "a\nb\nc") is None


@pytest.mark.parametrize("text", ["这是第一句话。\n这是第二句话", "यह पहला वाक्य है।\nदूसरा",
                                  "هل هذا سؤال؟\nلا"])
def test_terminal_punctuation_of_every_script_counts(text):
    assert reason(step(line_punct_thr=0.5), text) is None


def test_the_published_values_are_the_defaults():
    o = FineWebOptions()
    assert (o.line_punct_thr, o.short_line_thr, o.short_line_length, o.char_duplicates_ratio,
            o.new_line_ratio, o.line_punct_exclude_zero) == (0.12, 0.67, 30, 0.01, 0.3, False)


def test_a_bad_value_is_refused_in_one_line():
    with pytest.raises(ValueError, match=r"^fineweb\.short_line_thr must be a ratio"):
        FineWebOptions(short_line_thr=999)
