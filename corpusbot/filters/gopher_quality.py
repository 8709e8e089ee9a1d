"""Gopher's quality rules (Rae et al. 2021, "Scaling Language Models", appendix A1.1.2).

A document is dropped, in this order, when its word count is outside
[``min_doc_words``, ``max_doc_words``], its mean word length outside
[``min_avg_word_length``, ``max_avg_word_length``], its "#" or ellipsis to
word ratio above ``max_symbol_word_ratio``, more than ``max_bullet_lines_ratio``
of its lines start with a bullet or more than ``max_ellipsis_lines_ratio`` end
with an ellipsis, fewer than ``min_alpha_words_ratio`` of its words have a
letter, or it has fewer than ``min_stop_words`` distinct stop words.

Thresholds and order are datatrove's ``GopherQualityFilter`` (FineWeb's),
where ``min_alpha_words_ratio`` is called ``max_non_alpha_words_ratio``. A 0
switches a rule off.

On English pages the words are datatrove's, spaCy's English tokens
(``filters.english``): the length rules count those with a character other
than punctuation, the ratios divide by all of them, and Gopher's eight stop
words are matched as written ("The" is not "the"), so every rule decides as
in FineWeb. On other pages the words are corpusbot's tokens (Han and kana one
per character, where spaCy's English tokeniser makes one word of a whole
run); the ratios divide by them plus the punctuation tokens
(``filters.scripts``); stop words are the page language's list in
``stopwords/`` (the union of all lists for a language without one), compared
case-folded.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass
from itertools import filterfalse
from operator import methodcaller

from corpusbot.filters import validate
from corpusbot.filters.counts import (
    english_words,
    is_english,
    page_words,
    tokens_with_punctuation,
)
from corpusbot.filters.scripts import is_unspaced
from corpusbot.language import stoplists
from corpusbot.steps import Drop, PageState, Step

NAME = "gopher_quality"
GOPHER_STOP_WORDS = frozenset({"the", "be", "to", "of", "and", "that", "have", "with"})
"""The paper's stop words, for English."""
RULES = ("too-few-words", "too-many-words", "short-words", "long-words", "hashes", "ellipses",
         "bullet-lines", "ellipsis-lines", "few-alpha-words", "few-stop-words")


@dataclass(slots=True, frozen=True)
class GopherQualityOptions:
    """The thresholds of Gopher's quality rules, the paper's values by default."""

    min_doc_words: int = 50
    max_doc_words: int = 100_000
    min_avg_word_length: float = 3
    max_avg_word_length: float = 10
    max_symbol_word_ratio: float = 0.1
    max_bullet_lines_ratio: float = 0.9
    max_ellipsis_lines_ratio: float = 0.3
    min_alpha_words_ratio: float = 0.8
    min_stop_words: int = 2
    stop_words: frozenset[str] = frozenset()
    """Replaces the language's stop words when given (FineWeb-2 gives each language its own)."""

    def __post_init__(self) -> None:
        validate.non_negative(NAME, self, "min_doc_words", "max_doc_words", "min_avg_word_length",
                              "max_avg_word_length", "max_symbol_word_ratio", "min_stop_words")
        validate.ratios(NAME, self, "max_bullet_lines_ratio", "max_ellipsis_lines_ratio",
                        "min_alpha_words_ratio")


class GopherQuality(Step):
    """Drops documents that Gopher's quality heuristics call low quality."""

    name = NAME
    Options = GopherQualityOptions
    reasons = tuple(f"filter/{NAME}/{rule}" for rule in RULES)
    summary = "Gopher quality rules: length, word length, symbols, bullets, alphabetic words"

    def apply(self, state: PageState) -> Drop | None:
        words = _english_words(state) if is_english(state.lang) else _page_words(state)
        text = state.text
        rule = (self._length_rule(words) or self._symbol_rule(text, words)
                or self._lines_rule(text, words) or self._stop_words_rule(state, words))
        return Drop(f"filter/{NAME}/{rule}") if rule else None

    def _length_rule(self, words: Words) -> str | None:
        o = self.options
        # Fewer than 50 or more than 100,000 words.
        if o.min_doc_words and words.count < o.min_doc_words:
            return "too-few-words"
        if o.max_doc_words and words.count > o.max_doc_words:
            return "too-many-words"
        # Mean word length outside 3 to 10 characters.
        if words.mean_length is None:
            return None
        if o.min_avg_word_length and words.mean_length < o.min_avg_word_length:
            return "short-words"
        if o.max_avg_word_length and words.mean_length > o.max_avg_word_length:
            return "long-words"
        return None

    def _symbol_rule(self, text: str, words: Words) -> str | None:
        o = self.options
        # A symbol-to-word ratio above 0.1, for the hash symbol or the ellipsis.
        counted = max(words.tokens, 1)
        if o.max_symbol_word_ratio and text.count("#") / counted > o.max_symbol_word_ratio:
            return "hashes"
        ellipses = text.count("...") + text.count("…")
        if o.max_symbol_word_ratio and ellipses / counted > o.max_symbol_word_ratio:
            return "ellipses"
        return None

    def _lines_rule(self, text: str, words: Words) -> str | None:
        o = self.options
        lines = text.splitlines() or [""]
        # More than 90 % of lines starting with a bullet point, or 30 % ending with an ellipsis.
        bullets = sum(map(_starts_with_bullet, map(str.lstrip, lines)))
        if o.max_bullet_lines_ratio and bullets / len(lines) > o.max_bullet_lines_ratio:
            return "bullet-lines"
        ellipses = sum(map(_ends_with_ellipsis, map(str.rstrip, lines)))
        if o.max_ellipsis_lines_ratio and ellipses / len(lines) > o.max_ellipsis_lines_ratio:
            return "ellipsis-lines"
        # 80 % of words must contain at least one alphabetic character.
        if o.min_alpha_words_ratio and words.alpha / max(words.tokens, 1) < o.min_alpha_words_ratio:
            return "few-alpha-words"
        return None

    def _stop_words_rule(self, state: PageState, words: Words) -> str | None:
        o = self.options
        # At least two of the stop words.
        if not o.min_stop_words:
            return None
        stop_words = o.stop_words or language_stop_words(state.lang)
        # Read only until enough distinct ones are found: most pages have them in their
        # first sentences.
        found: set[str] = set()
        for word in filter(stop_words.__contains__, words.vocabulary):
            found.add(word)
            if len(found) >= o.min_stop_words:
                return None
        return "few-stop-words"


_starts_with_bullet = methodcaller("startswith", ("•", "-"))
_ends_with_ellipsis = methodcaller("endswith", ("...", "…"))


@dataclass(slots=True, frozen=True)
class Words:
    """What the rules read of a text's words."""

    count: int
    """Words the length rules count."""
    mean_length: float | None
    """Their mean length in characters; None where the rule does not apply."""
    tokens: int
    """Tokens the ratios divide by, punctuation marks included."""
    alpha: int
    """Tokens with a letter."""
    vocabulary: Collection[str]
    """The words the stop words are looked up in."""


def _english_words(state: PageState) -> Words:
    """datatrove's counts: spaCy's tokens, words those with a character other than
    punctuation, stop words as written."""
    from corpusbot.filters.english import SYMBOLS  # noqa: PLC0415  (see counts.py)

    tokens = english_words(state)
    # Most tokens are all letters: a word, with a letter. Only the others are looked into,
    # each distinct one once (most are the same few marks: ",", ".", "'s").
    others = Counter(filterfalse(str.isalpha, tokens))
    count = alpha = len(tokens) - others.total()
    characters = sum(map(len, tokens)) - sum(len(token) * n for token, n in others.items())
    for token, n in others.items():
        if token.strip(SYMBOLS):
            count += n
            characters += len(token) * n
            alpha += n * any(map(str.isalpha, token))
    return Words(count, characters / count if count else None, len(tokens), alpha, tokens)


def _page_words(state: PageState) -> Words:
    """corpusbot's counts, for every script: its own tokens, case-folded."""
    words = page_words(state)
    counted, alpha = tokens_with_punctuation(state)
    # Not for a page written mostly in Han or kana, whose words corpusbot counts one per
    # character (a mean of 1, measured on the Chinese gold pages, which the rule would drop
    # every one of).
    if not words or mostly_per_character(words):
        mean = None if words else 0.0
    else:
        mean = sum(map(len, words)) / len(words)
    return Words(len(words), mean, counted, alpha, words)


def mostly_per_character(words: list[str]) -> bool:
    """Whether most words are single Han or kana characters (corpusbot's words there)."""
    single = sum(1 for word in words if len(word) == 1 and is_unspaced(word))
    return single * 2 > len(words)


def language_stop_words(lang: str) -> Collection[str]:
    """Gopher's eight for English, else the language's list from ``stopwords/``."""
    if is_english(lang):
        return GOPHER_STOP_WORDS
    return stoplists.stoplist(lang)
