"""The dedup settings shared by the Processor (which computes the features) and the index."""

from __future__ import annotations

from dataclasses import dataclass

from corpusbot.fingerprints.minhash import (
    NUM_PERM_DEFAULT,
    SEED_DEFAULT,
    SHINGLE_DEFAULT,
    THRESHOLD_DEFAULT,
)

LEVELS = ("url", "exact", "near", "paragraph")
"""Every dedup level, in the order a document meets them."""
LEVELS_DEFAULT = frozenset({"url", "exact", "near"})
"""Paragraph dedup changes the documents it keeps, so it is asked for explicitly."""
PARAGRAPH_MIN_WORDS_DEFAULT = 10
"""Shorter paragraphs ("Read more", "Share this") repeat by chance, not by copying."""
MIN_WORDS_LEFT_DEFAULT = 50
"""A document left with fewer words after paragraph dedup is dropped (as ``min_words``)."""


@dataclass(slots=True, frozen=True)
class DedupOptions:
    """Which dedup levels run, and the MinHash/LSH and paragraph parameters.

    The MinHash parameters (``num_perm``, ``shingle``, ``seed``) are stored
    in the index on creation: signatures made with others would never match.
    """

    levels: frozenset[str] = LEVELS_DEFAULT
    threshold: float = THRESHOLD_DEFAULT
    num_perm: int = NUM_PERM_DEFAULT
    shingle: int = SHINGLE_DEFAULT
    seed: int = SEED_DEFAULT
    paragraph_min_words: int = PARAGRAPH_MIN_WORDS_DEFAULT
    min_words_left: int = MIN_WORDS_LEFT_DEFAULT

    def __post_init__(self) -> None:
        unknown = set(self.levels) - set(LEVELS)
        if unknown:
            known = ", ".join(LEVELS)
            raise ValueError(f"unknown dedup level(s) {sorted(unknown)}; known: {known}")
        if not 0.0 < self.threshold <= 1.0:
            raise ValueError(f"near-duplicate threshold must be in (0, 1], got {self.threshold}")

    def uses(self, level: str) -> bool:
        """Whether ``level`` is switched on."""
        return level in self.levels
