"""Quality filters on an extracted text: each returns the reason it drops a page, or None.

Every reason becomes a stat (``rejected/filter/<reason>``). Each threshold
has a default here and an option in ``ProcessorOptions`` and on the command
line; set a threshold to its neutral value (0 words, ratio 1.0, no
languages) to switch the filter off.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection

import numpy as np

from corpusbot.text import MARKS

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


_NONLETTER = re.compile(rf"[\d_]|[^\w\s{MARKS}]")


def nonletter_ratio(text: str) -> float:
    """Share of the non-space characters that are not letters (digits, symbols, punctuation)."""
    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    if codes.size and codes.max() >= _BMP:
        return _nonletter_ratio_by_regex(text)
    visible_table, nonletter_table = _character_classes()
    visible = int(np.count_nonzero(visible_table[codes]))
    if visible == 0:
        return 1.0
    return int(np.count_nonzero(nonletter_table[codes])) / visible


def _nonletter_ratio_by_regex(text: str) -> float:
    visible = len("".join(text.split()))
    if visible == 0:
        return 1.0
    return len(_NONLETTER.findall(text)) / visible


_BMP = 0x10000


@functools.cache
def _character_classes() -> tuple[np.ndarray, np.ndarray]:
    """Per code point of the Basic Multilingual Plane: visible (not split on), and non-letter.

    The same definitions as ``_nonletter_ratio_by_regex`` character by
    character, so that a page costs two table lookups instead of a regex
    scan (a tenth of the time); built once per process, in about 20 ms.
    """
    characters = [chr(code) for code in range(_BMP)]
    visible = np.array([not c.isspace() for c in characters], dtype=bool)
    nonletter = np.array([_NONLETTER.match(c) is not None for c in characters], dtype=bool)
    return visible, nonletter
