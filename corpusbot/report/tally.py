"""One pass over a corpus's records, in bounded memory: what the report's charts show.

Every figure is a fixed-size histogram or counter, so memory does not grow
with the corpus: words per document in log-spaced bins, ``lang_prob`` in
bins of 0.05, the kept documents per domain (pruned to the most frequent
when there are very many domains), and a seeded reservoir of a few
documents per language (Vitter's algorithm R), each cut to a preview.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import numpy as np

WORD_EDGES = np.unique(np.round(np.logspace(0, 6, 37)).astype(int)).tolist()
"""Bin edges of words per document, 1 to a million, six bins a decade."""
PROB_BINS = 20
"""``lang_prob`` bins of 0.05 (a value of exactly 1.0 goes to the last)."""
DOMAINS_KEPT = 100_000
"""Domains counted before the rarest are pruned: the top of the list stays right."""
PREVIEW_CHARS = 600
"""Characters of a sample document's text kept for the report."""


@dataclass(slots=True)
class LanguageTally:
    """What one language's records add up to."""

    documents: int = 0
    words: int = 0
    lengths: list[int] = field(default_factory=lambda: [0] * (len(WORD_EDGES) + 1))
    probs: list[int] = field(default_factory=lambda: [0] * PROB_BINS)
    samples: list[dict[str, Any]] = field(default_factory=list)


class Tally:
    """Counts records as they stream past; ``add`` one record at a time."""

    def __init__(self, samples_per_language: int = 3, seed: int = 1) -> None:
        self.languages: dict[str, LanguageTally] = {}
        self.domains: Counter[str] = Counter()
        self.extractors: Counter[str] = Counter()
        self.samples_per_language = samples_per_language
        self._random = random.Random(seed)

    def add(self, lang: str, record: dict[str, Any]) -> None:
        """Count one record of the shards of ``lang``."""
        tally = self.languages.setdefault(lang, LanguageTally())
        tally.documents += 1
        words = _integer(record.get("n_words"))
        tally.words += words
        tally.lengths[bisect_right(WORD_EDGES, words)] += 1
        prob = _probability(record.get("lang_prob"))
        tally.probs[min(int(prob * PROB_BINS), PROB_BINS - 1)] += 1
        self.extractors[str(record.get("extractor"))] += 1
        self._count_domain(record.get("url"))
        self._sample(tally, record)

    def _count_domain(self, url: object) -> None:
        host = urlsplit(url).hostname if isinstance(url, str) else None
        self.domains[(host or "(none)").removeprefix("www.")] += 1
        if len(self.domains) > 2 * DOMAINS_KEPT:
            self.domains = Counter(dict(self.domains.most_common(DOMAINS_KEPT)))

    def _sample(self, tally: LanguageTally, record: dict[str, Any]) -> None:
        # Algorithm R: the n-th record replaces a random sample with probability k/n.
        if len(tally.samples) < self.samples_per_language:
            tally.samples.append(preview(record))
            return
        slot = self._random.randrange(tally.documents)
        if slot < self.samples_per_language:
            tally.samples[slot] = preview(record)


def preview(record: dict[str, Any]) -> dict[str, Any]:
    """The part of a record the report shows: where it came from and how it begins."""
    text = str(record.get("text") or "")
    return {"url": record.get("url"), "title": record.get("title"),
            "n_words": record.get("n_words"), "lang_prob": record.get("lang_prob"),
            "source": record.get("source"), "fetched_at": record.get("fetched_at"),
            "text": text[:PREVIEW_CHARS], "cut": len(text) > PREVIEW_CHARS}


def _integer(value: object) -> int:
    return value if isinstance(value, int) and value >= 0 else 0


def _probability(value: object) -> float:
    if isinstance(value, (int, float)) and 0.0 <= value <= 1.0:
        return float(value)
    return 0.0
