"""Counts several quality steps read, computed once per paragraph and kept in ``state.signals``."""

from __future__ import annotations

from itertools import chain

from corpusbot.filters.scripts import spacy_like_counts
from corpusbot.steps import PageState

# Caches, not measurements: the leading underscore keeps them out of any output of signals.
_BY_PARAGRAPH = "_cache/quality/spacy_like_counts"
_ENGLISH_BY_PARAGRAPH = "_cache/quality/english_tokens"
# ``filters.english`` is imported on the first English page, here and by the steps reading it:
# building its character classes cost every start of ``warc`` and ``crawl`` 0.11 s, for a main
# process that only checks the steps' options (``corpusbot.pool`` preloads it for the workers).


def is_english(lang: str) -> bool:
    """Whether a page in ``lang`` is counted as datatrove counts English (``english.py``)."""
    return lang == "en" or lang.startswith("en-")


def page_words(state: PageState) -> list[str]:
    """``state.words()``, its paragraphs' cached tokens chained in C (the method's list
    comprehension costs a Python step a word)."""
    return list(chain.from_iterable(state.paragraph_words()))


def english_words(state: PageState) -> list[str]:
    """The tokens spaCy's English tokeniser makes of the text, punctuation marks included:
    what datatrove's filters count as words. Kept by paragraph (no token spans the blank
    line between two), so that after an edit only the paragraphs it changed are cut again."""
    from corpusbot.filters.english import english_tokens  # noqa: PLC0415  (see the top)

    cache: dict[str, list[str]] = state.signals.setdefault(_ENGLISH_BY_PARAGRAPH, {})
    out: list[str] = []
    for paragraph in state.paragraphs:
        found = cache.get(paragraph)
        if found is None:
            found = cache[paragraph] = english_tokens(paragraph)
        out += found
    return out


def tokens_with_punctuation(state: PageState) -> tuple[int, int]:
    """The tokens spaCy would make of the text, punctuation marks included, and how many of
    them have a letter: the "words" datatrove's Gopher and FineWeb rules divide by.

    Counted per paragraph (no token spans the blank line between two) and kept by
    paragraph, so that after an edit only the paragraphs it changed are counted again.
    """
    cache: dict[str, tuple[int, int]] = state.signals.setdefault(_BY_PARAGRAPH, {})
    total = letters = 0
    for paragraph in state.paragraphs:
        counts = cache.get(paragraph)
        if counts is None:
            counts = cache[paragraph] = spacy_like_counts(paragraph)
        total += counts[0]
        letters += counts[1]
    return total, letters
