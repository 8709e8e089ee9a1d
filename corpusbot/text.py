"""Word tokens and the normalised text every dedup level and filter reads.

A page is tokenised once: the same tokens count the words, feed the
non-letter filter, make the exact-duplicate hash and the MinHash shingles.
Han characters and kana count as one token each, since those scripts put no
spaces between words; every other token is a run of letters and digits, so
case, punctuation and whitespace vanish from the normalised form.
"""

from __future__ import annotations

import re
from hashlib import blake2b

# Han, Hiragana, Katakana and CJK compatibility ideographs: one token per character.
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
# Combining marks, which Python's \w leaves out: diacritics, Hebrew points, Arabic
# harakat, the Indic vowel signs (whole blocks, Devanagari to Sinhala), Thai, Tibetan,
# Myanmar. Without them a Bengali or Hindi word falls apart and reads as punctuation.
MARKS = ("\u0300-\u036f\u0483-\u0489\u0591-\u05c7\u0610-\u061a\u064b-\u065f\u0670"
          "\u06d6-\u06ed\u0900-\u0dff\u0e31-\u0e3a\u0e47-\u0e4e\u0f18-\u0fbc\u1000-\u109f"
          "\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f")
_TOKEN = re.compile(rf"[{_CJK}]|[^\W_{_CJK}]+(?:[{MARKS}]+[^\W_{_CJK}]*)*")

PARAGRAPH_SEPARATOR = "\n\n"
"""How ``Extraction.text`` (and so ``Document.text``) joins paragraphs."""


def tokens(text: str) -> list[str]:
    """The case-folded word tokens of ``text``."""
    return _TOKEN.findall(text.casefold())


def normalise(words: list[str]) -> str:
    """One canonical string for a token list: what "the same text" means."""
    return " ".join(words)


def hash64(data: str | bytes) -> int:
    """A stable signed 64-bit hash (fits SQLite's INTEGER), the same in every process."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    return int.from_bytes(blake2b(raw, digest_size=8).digest(), "big", signed=True)
