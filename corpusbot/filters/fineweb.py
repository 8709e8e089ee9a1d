"""FineWeb's own quality rules (Penedo et al. 2024, "The FineWeb Datasets", section 3.5),
as datatrove's ``FineWebQualityFilter``.

Over the text's non-blank lines, in this order, a document is dropped when
fewer than ``line_punct_thr`` of its lines end in terminal punctuation
(unless none does and ``line_punct_exclude_zero``), more than
``short_line_thr`` are ``short_line_length`` characters or shorter, the lines
that repeat an earlier one hold more than ``char_duplicates_ratio`` of its
characters (line breaks left out), or it has more than ``new_line_ratio`` line
breaks per word.

Terminal punctuation is Unicode's Sentence_Terminal set, every script's (on
English pages datatrove's list of it, which lacks 16 marks of a later Unicode).
Words are datatrove's on English pages (spaCy's English tokens, punctuation
marks included: ``filters.english``), corpusbot's tokens plus punctuation
tokens on other pages. Line breaks are counted as they stand: a
paragraph break in corpusbot's text is a blank line, two breaks. A 0
switches a rule off (``line_punct_thr`` 0 never drops).
"""

from __future__ import annotations

from dataclasses import dataclass

from corpusbot.filters import validate
from corpusbot.filters.counts import english_words, is_english, tokens_with_punctuation
from corpusbot.filters.gopher_repetition import repeats
from corpusbot.filters.scripts import TERMINAL_PUNCTUATION
from corpusbot.steps import Drop, PageState, Step

NAME = "fineweb"
RULES = ("empty", "line-punct-ratio", "short-line-ratio", "char-dup-ratio", "list-ratio")


@dataclass(slots=True, frozen=True)
class FineWebOptions:
    """FineWeb's thresholds, as published with its pipeline."""

    line_punct_thr: float = 0.12
    line_punct_exclude_zero: bool = False
    short_line_thr: float = 0.67
    short_line_length: int = 30
    char_duplicates_ratio: float = 0.01
    new_line_ratio: float = 0.3

    def __post_init__(self) -> None:
        validate.ratios(NAME, self, "line_punct_thr", "short_line_thr", "char_duplicates_ratio")
        validate.non_negative(NAME, self, "short_line_length", "new_line_ratio")


class FineWeb(Step):
    """Drops documents that FineWeb's own heuristics call low quality."""

    name = NAME
    Options = FineWebOptions
    reasons = tuple(f"filter/{NAME}/{rule}" for rule in RULES)
    summary = "FineWeb rules: line punctuation, short lines, duplicated lines, line breaks"

    def apply(self, state: PageState) -> Drop | None:
        rule = self._rule(state)
        return Drop(f"filter/{NAME}/{rule}") if rule else None

    def _rule(self, state: PageState) -> str | None:
        o = self.options
        text = state.text
        lines = [line for line in text.split("\n") if line.strip()]
        if not lines:
            return "empty"
        ends = TERMINAL_PUNCTUATION
        if is_english(state.lang):
            # imported on the first English page (counts.py says why)
            from corpusbot.filters.english import DATATROVE_TERMINAL_PUNCTUATION  # noqa: PLC0415

            ends = DATATROVE_TERMINAL_PUNCTUATION
        ratio = sum(line.endswith(ends) for line in lines) / len(lines)
        if ratio < o.line_punct_thr and not (ratio == 0 and o.line_punct_exclude_zero):
            return "line-punct-ratio"
        short = sum(len(line) <= o.short_line_length for line in lines) / len(lines)
        if o.short_line_thr and short > o.short_line_thr:
            return "short-line-ratio"
        repeated = repeats(lines)[1] / max(len(text) - text.count("\n"), 1)
        if o.char_duplicates_ratio and repeated > o.char_duplicates_ratio:
            return "char-dup-ratio"
        words = (len(english_words(state)) if is_english(state.lang)
                 else tokens_with_punctuation(state)[0])
        breaks = text.count("\n") / max(words, 1)
        if o.new_line_ratio and breaks > o.new_line_ratio:
            return "list-ratio"
        return None
