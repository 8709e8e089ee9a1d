"""Quality filters on an extracted text: each returns the reason it drops a page, or None.

Every reason becomes a stat (``rejected/filter/<reason>``). Each threshold
has a default here and an option in ``ProcessorOptions`` and on the command
line; set a threshold to its neutral value (0 words, ratio 1.0, no
languages) to switch the filter off.
"""

from __future__ import annotations

from collections.abc import Collection

MIN_WORDS_DEFAULT = 50
"""Gopher's lower bound on document length (Rae et al., 2021, "MassiveText" quality filters)."""
MAX_NONLETTER_RATIO_DEFAULT = 0.3
"""Prose stays near 0.05-0.15 (punctuation and digits); tables, code and listings pass 0.3."""

LANGUAGE = "filter/language"
TOO_SHORT = "filter/too-short"
NON_LETTERS = "filter/non-letters"


def check_language(lang: str, allowed: Collection[str]) -> str | None:
    """Drop a page whose language is not allowed; an empty ``allowed`` allows every language."""
    if allowed and lang not in allowed:
        return LANGUAGE
    return None


def check_length(n_words: int, min_words: int) -> str | None:
    """Drop a page with fewer words than ``min_words``."""
    return TOO_SHORT if n_words < min_words else None


def check_nonletters(ratio: float, max_ratio: float) -> str | None:
    """Drop a page whose visible characters are mostly digits, symbols and punctuation."""
    return NON_LETTERS if ratio > max_ratio else None
