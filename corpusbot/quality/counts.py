"""Counts several quality steps read, computed once per page and kept in ``state.signals``."""

from __future__ import annotations

from corpusbot.quality.scripts import spacy_like_counts
from corpusbot.steps import PageState

_TOKENS_WITH_PUNCTUATION = "quality/tokens_with_punctuation"


def tokens_with_punctuation(state: PageState) -> tuple[int, int]:
    """The tokens spaCy would make of the text, punctuation marks included, and how many of
    them have a letter: the "words" datatrove's Gopher and FineWeb rules divide by."""
    # Keyed by the paragraph list, which an edit (set_paragraphs) replaces.
    key = (id(state.paragraphs), len(state.paragraphs))
    known = state.signals.get(_TOKENS_WITH_PUNCTUATION)
    if known is None or known[0] != key:
        known = (key, spacy_like_counts(state.text))
        state.signals[_TOKENS_WITH_PUNCTUATION] = known
    return known[1]
