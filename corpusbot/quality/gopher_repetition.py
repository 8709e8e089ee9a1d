"""Gopher's repetition rules (Rae et al. 2021, appendix A1.1.2, table A1).

A document is dropped, in this order, when the share of its paragraphs that
repeat an earlier one exceeds ``dup_para_frac`` or their characters'
share of the text ``dup_para_char_frac``; the same for lines
(``dup_line_frac``, ``dup_line_char_frac``); when the most frequent 2-, 3- or
4-gram covers more than ``top_2_gram_frac`` ... of the characters; or when
the 5- to 10-grams that repeat an earlier one cover more than
``dup_5_gram_frac`` ... ``dup_10_gram_frac``.

Thresholds and order are datatrove's ``GopherRepetitionFilter``; a 0
switches a rule off. Paragraphs and lines are the text's (split on blank
lines, on line breaks) and are compared as they are; n-grams are of
corpusbot's tokens (case-folded, no punctuation), their characters counted
as datatrove counts them (top n-grams with the spaces between their words,
repeated n-grams without).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from corpusbot.quality import validate
from corpusbot.steps import Drop, PageState, Step

NAME = "gopher_repetition"
TOP_NS = (2, 3, 4)
DUP_NS = (5, 6, 7, 8, 9, 10)
RULES = ("dup-para-frac", "dup-para-char-frac", "dup-line-frac", "dup-line-char-frac",
         *(f"top-{n}-gram" for n in TOP_NS), *(f"dup-{n}-gram" for n in DUP_NS))
_PARAGRAPH_BREAK = re.compile(r"\n{2,}")
_LINE_BREAK = re.compile(r"\n+")


@dataclass(slots=True, frozen=True)
class GopherRepetitionOptions:
    """The thresholds of Gopher's repetition rules: table A1 of the paper."""

    dup_line_frac: float = 0.3
    dup_para_frac: float = 0.3
    dup_line_char_frac: float = 0.2
    dup_para_char_frac: float = 0.2
    top_2_gram_frac: float = 0.2
    top_3_gram_frac: float = 0.18
    top_4_gram_frac: float = 0.16
    dup_5_gram_frac: float = 0.15
    dup_6_gram_frac: float = 0.14
    dup_7_gram_frac: float = 0.13
    dup_8_gram_frac: float = 0.12
    dup_9_gram_frac: float = 0.11
    dup_10_gram_frac: float = 0.10

    def __post_init__(self) -> None:
        validate.ratios(NAME, self, "dup_line_frac", "dup_para_frac", "dup_line_char_frac",
                        "dup_para_char_frac", *(f"top_{n}_gram_frac" for n in TOP_NS),
                        *(f"dup_{n}_gram_frac" for n in DUP_NS))


class GopherRepetition(Step):
    """Drops documents whose lines, paragraphs or word n-grams repeat too much."""

    name = NAME
    Options = GopherRepetitionOptions
    reasons = tuple(f"filter/{NAME}/{rule}" for rule in RULES)
    summary = "Gopher repetition rules: repeated paragraphs, lines and word n-grams"

    def apply(self, state: PageState) -> Drop | None:
        text = state.text
        rule = (self._pieces_rule(text) or self._top_ngram_rule(state.words(), len(text))
                or self._dup_ngram_rule(state.words(), len(text)))
        return Drop(f"filter/{NAME}/{rule}") if rule else None

    def _pieces_rule(self, text: str) -> str | None:
        o = self.options
        size = max(len(text), 1)
        paragraphs = _PARAGRAPH_BREAK.split(text.strip())
        repeated, characters = repeats(paragraphs)
        if o.dup_para_frac and repeated / len(paragraphs) > o.dup_para_frac:
            return "dup-para-frac"
        if o.dup_para_char_frac and characters / size > o.dup_para_char_frac:
            return "dup-para-char-frac"
        lines = _LINE_BREAK.split(text)
        repeated, characters = repeats(lines)
        if o.dup_line_frac and repeated / len(lines) > o.dup_line_frac:
            return "dup-line-frac"
        if o.dup_line_char_frac and characters / size > o.dup_line_char_frac:
            return "dup-line-char-frac"
        return None

    def _top_ngram_rule(self, words: list[str], size: int) -> str | None:
        for n in TOP_NS:
            limit = getattr(self.options, f"top_{n}_gram_frac")
            if not limit or len(words) < n:
                continue
            grams = Counter(zip(*(words[i:] for i in range(n)), strict=False))
            gram, count = grams.most_common(1)[0]
            # The characters of the gram written with single spaces, times its count.
            if (sum(map(len, gram)) + n - 1) * count / max(size, 1) > limit:
                return f"top-{n}-gram"
        return None

    def _dup_ngram_rule(self, words: list[str], size: int) -> str | None:
        for n in DUP_NS:
            limit = getattr(self.options, f"dup_{n}_gram_frac")
            if limit and repeated_ngram_chars(words, n) / max(size, 1) > limit:
                return f"dup-{n}-gram"
        return None


def repeats(pieces: list[str]) -> tuple[int, int]:
    """How many of ``pieces`` repeat an earlier one, and their characters."""
    seen: set[str] = set()
    count = characters = 0
    for piece in pieces:
        if piece in seen:
            count += 1
            characters += len(piece)
        else:
            seen.add(piece)
    return count, characters


def repeated_ngram_chars(words: list[str], n: int) -> int:
    """Characters (spaces left out) of the word n-grams that repeat an earlier one, scanning
    left to right and skipping past a repeat, so that no character is counted twice."""
    seen: set[tuple[str, ...]] = set()
    characters = index = 0
    while index <= len(words) - n:
        gram = tuple(words[index:index + n])
        if gram in seen:
            characters += sum(map(len, gram))
            index += n
        else:
            seen.add(gram)
            index += 1
    return characters
