"""Paragraph dedup features: one key per paragraph long enough to mean something."""

from __future__ import annotations

from corpusbot.text import hash64, normalise


def paragraph_hash(words: list[str], min_words: int) -> int:
    """The dedup key of one paragraph's tokens, or 0 when it is too short to mean anything."""
    if len(words) < min_words:
        return 0
    return hash64(normalise(words)) or 1  # 0 means "too short"; a real hash of 0 moves aside
