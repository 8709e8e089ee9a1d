"""Counts several quality steps read, computed once per paragraph and kept in ``state.signals``."""

from __future__ import annotations

from corpusbot.filters.scripts import spacy_like_counts
from corpusbot.steps import PageState

# A cache, not a measurement: the leading underscore keeps it out of any output of signals.
_BY_PARAGRAPH = "_cache/quality/spacy_like_counts"


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
