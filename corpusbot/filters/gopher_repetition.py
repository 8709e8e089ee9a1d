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
lines, on line breaks) and are compared as they are. n-grams are of
datatrove's words on English pages (spaCy's English tokens, as written,
punctuation marks included: ``filters.english``) and of corpusbot's tokens on
other pages (case-folded, no punctuation; Han and kana one per character,
where spaCy's English tokeniser makes one word of a whole run); their
characters are counted as datatrove counts them (top n-grams with the spaces
between their words, repeated n-grams without).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from corpusbot.filters import validate
from corpusbot.filters.counts import english_words, is_english, page_words
from corpusbot.steps import Drop, PageState, Step

NAME = "gopher_repetition"
TOP_NS = (2, 3, 4)
DUP_NS = (5, 6, 7, 8, 9, 10)
RULES = ("dup-para-frac", "dup-para-char-frac", "dup-line-frac", "dup-line-char-frac",
         *(f"top-{n}-gram" for n in TOP_NS), *(f"dup-{n}-gram" for n in DUP_NS))
_PARAGRAPH_BREAK = re.compile(r"\n{2,}")


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
        rule = self._pieces_rule(text)
        if rule is None:
            grams = NGrams(english_words(state) if is_english(state.lang) else page_words(state))
            rule = self._top_ngram_rule(grams, len(text)) or self._dup_ngram_rule(grams, len(text))
        return Drop(f"filter/{NAME}/{rule}") if rule else None

    def _pieces_rule(self, text: str) -> str | None:
        o = self.options
        size = max(len(text), 1)
        paragraphs = split_paragraphs(text)
        repeated, characters = repeats(paragraphs)
        if o.dup_para_frac and repeated / len(paragraphs) > o.dup_para_frac:
            return "dup-para-frac"
        if o.dup_para_char_frac and characters / size > o.dup_para_char_frac:
            return "dup-para-char-frac"
        lines = split_lines(text)
        repeated, characters = repeats(lines)
        if o.dup_line_frac and repeated / len(lines) > o.dup_line_frac:
            return "dup-line-frac"
        if o.dup_line_char_frac and characters / size > o.dup_line_char_frac:
            return "dup-line-char-frac"
        return None

    def _top_ngram_rule(self, grams: NGrams, size: int) -> str | None:
        for n in TOP_NS:
            limit = getattr(self.options, f"top_{n}_gram_frac")
            # The bound (a few array operations) clears most pages without the count (a sort).
            if limit and grams.top_chars_bound(n) / max(size, 1) > limit and (
                    grams.top_chars(n) / max(size, 1) > limit):
                return f"top-{n}-gram"
        return None

    def _dup_ngram_rule(self, grams: NGrams, size: int) -> str | None:
        limits = {n: getattr(self.options, f"dup_{n}_gram_frac") for n in DUP_NS}
        active = [n for n in DUP_NS if limits[n]]
        # Words a repeated n-gram covers are covered by repeated 5-grams too, so one bound
        # for the smallest n clears most pages for every n at once; the exact scan, a Python
        # loop, runs only where the bound cannot clear.
        if not active or grams.repeated_chars_bound(active[0]) / max(size, 1) <= min(
                limits[n] for n in active):
            return None
        for n in active:
            if grams.repeated_chars_bound(n) / max(size, 1) <= limits[n]:
                continue
            if grams.repeated_chars(n) / max(size, 1) > limits[n]:
                return f"dup-{n}-gram"
        return None


class NGrams:
    """A text's word n-grams as 64-bit hashes (one numpy array per n), for counting fast."""

    __slots__ = ("_best", "_cumulative", "_hashes", "_ids", "_lengths", "words")

    # Odd 64-bit multipliers, fixed: the same hashes in every process.
    _MULTIPLIERS = np.random.default_rng(0).integers(1, 2**63, size=max(DUP_NS),
                                                     dtype=np.uint64) | np.uint64(1)

    def __init__(self, words: list[str]) -> None:
        self.words = words
        # A word's id is its string hash: equal words, equal ids, in this process.
        self._ids = np.fromiter(map(hash, words), np.int64, len(words)).view(np.uint64)
        self._hashes: dict[int, np.ndarray] = {1: self._ids * self._MULTIPLIERS[0]}
        self._lengths: np.ndarray | None = None
        self._cumulative: np.ndarray | None = None
        self._best: dict[int, int] = {}
        """The count of the most frequent n-gram, for each n counted."""

    @property
    def lengths(self) -> np.ndarray:
        """Each word's length, made on first use: most pages need none."""
        if self._lengths is None:
            self._lengths = np.fromiter(map(len, self.words), np.int64, len(self.words))
        return self._lengths

    def hashes(self, n: int) -> np.ndarray:
        """One hash per n-gram start, in order: the sum of each word's id times the multiplier
        of its place in the n-gram (wrapping uint64 arithmetic), one place added to the
        (n-1)-grams' hashes."""
        found = self._hashes.get(n)
        if found is None:
            count = max(len(self.words) - n + 1, 0)
            found = self._ids[n - 1:n - 1 + count] * self._MULTIPLIERS[n - 1]
            found += self.hashes(n - 1)[:count]
            self._hashes[n] = found
        return found

    def top_chars(self, n: int) -> int:
        """Characters of the most frequent n-gram written with spaces, times its count (the
        first seen among equally frequent ones)."""
        hashes = self.hashes(n)
        if not hashes.size:
            return 0
        # Counted on a sorted copy (a plain sort: a third faster than a stable argsort); the
        # first seen is looked up only among the most frequent. Array methods, not numpy's
        # functions: their Python wrappers cost more than the work on a page's few hundred
        # n-grams, the more so between two extractions, with the processor's caches cold.
        ordered = hashes.copy()
        ordered.sort()
        ends = (ordered[1:] != ordered[:-1]).nonzero()[0]
        best, start = 1, 0
        if ends.size != hashes.size - 1:
            edges = np.empty(ends.size + 2, np.intp)
            edges[0], edges[1:-1], edges[-1] = -1, ends, hashes.size - 1
            counts = edges[1:] - edges[:-1]
            best = int(counts.max())
            most = ordered[edges[1:][counts == best]]
            # kind="sort": numpy 2.0's table method overflows on uint64 hashes past the C
            # long range
            start = int((hashes == most[0]).argmax() if most.size == 1
                        else np.isin(hashes, most, kind="sort").argmax())
        self._best[n] = best
        return (sum(map(len, self.words[start:start + n])) + n - 1) * best

    def top_chars_bound(self, n: int) -> int | float:
        """At least ``top_chars(n)``: no n-gram is more frequent than the most frequent
        shorter one counted before, nor longer than the longest n words in a row (infinite
        before any count)."""
        best = max((count for m, count in self._best.items() if m < n), default=0)
        if not best:
            return float("inf")
        if len(self.words) < n:
            return 0
        if self._cumulative is None:
            self._cumulative = np.zeros(len(self.words) + 1, np.int64)
            self.lengths.cumsum(out=self._cumulative[1:])
        sums = self._cumulative
        return (int((sums[n:] - sums[:-n]).max()) + n - 1) * best

    def repeated_chars_bound(self, n: int) -> int:
        """At least ``repeated_ngram_chars(words, n)``: the characters of every word that an
        n-gram seen before covers."""
        hashes = self.hashes(n)
        # A stable sort puts each n-gram's first place first among its equals.
        order = hashes.argsort(kind="stable")
        ordered = hashes[order]
        starts = order[1:][ordered[1:] == ordered[:-1]]
        if not starts.size:
            return 0
        size = len(self.words) + 1
        cover = np.bincount(starts, minlength=size)
        cover -= np.bincount(starts + n, minlength=size)
        return int(self.lengths[cover[:-1].cumsum() > 0].sum())

    def repeated_chars(self, n: int) -> int:
        """``repeated_ngram_chars(words, n)``, its scan over the hashes (an n-gram found again
        is compared word by word with the first, and the scan of the words themselves decides
        where two hashes are equal and the n-grams are not)."""
        hashes, words = self.hashes(n).tolist(), self.words
        first: dict[int, int] = {}
        characters = index = 0
        while index < len(hashes):
            seen = first.setdefault(hashes[index], index)
            if seen == index:
                index += 1
                continue
            gram = words[index:index + n]
            if words[seen:seen + n] != gram:
                return repeated_ngram_chars(words, n)
            characters += sum(map(len, gram))
            index += n
        return characters


def split_paragraphs(text: str) -> list[str]:
    """The text's paragraphs (split on runs of blank lines, ends stripped), with a plain split
    where no run is longer than one blank line: the regular expression costs five times more."""
    stripped = text.strip()
    if "\n\n\n" in stripped:
        return _PARAGRAPH_BREAK.split(stripped)
    return stripped.split("\n\n")


def split_lines(text: str) -> list[str]:
    """The text split on runs of line breaks, as ``re.split(r"\n+", text)`` splits it (an empty
    line first or last where the text starts or ends with a break), without the regular
    expression."""
    if not text:
        return [""]
    lines = list(filter(None, text.split("\n")))
    if text[0] == "\n":
        lines.insert(0, "")
    if text[-1] == "\n":
        lines.append("")
    return lines


def repeats(pieces: list[str]) -> tuple[int, int]:
    """How many of ``pieces`` repeat an earlier one, and their characters: all of them less
    the distinct ones, each counted once (a repeat is equal to its first)."""
    distinct = set(pieces)
    return len(pieces) - len(distinct), sum(map(len, pieces)) - sum(map(len, distinct))


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
