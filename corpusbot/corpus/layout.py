"""The output folder: every name under ``OUT`` in one place.

    OUT/
      <lang>/<lang>-NNNNN.<ending>   the corpus, one folder per language (``.part`` while open)
      rejects/<stage>/<stage>-NNNNN.<ending>   rejected pages, when asked (--keep-rejects)
      state.sqlite                   input positions, shard lengths, counts, runs
      dedup.sqlite                   the dedup index (unless another path or Redis is given)
      manifest.json                  what the last commit holds
      README.md                      the dataset card, rewritten at every commit
      .lock                          held by the one process writing the corpus
      archive/                       the crawl's WARC files
      job/, crawl-seen.sqlite        the crawl's resume and incremental state
      crawl-stats.json               the last crawl's Scrapy stats
      tasks/<key>/                   one corpus folder per task of a Dask run
      <worker>/                      one corpus folder per process of a shared crawl

Commands, the sink, merge, the runners and the crawl's components ask a
``Layout`` for a path instead of spelling one.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

STATE = "state.sqlite"
DEDUP = "dedup.sqlite"
MANIFEST = "manifest.json"
CARD = "README.md"
LOCK = ".lock"
REJECTS = "rejects"
WARC = "archive"
TASKS = "tasks"
JOB = "job"
CRAWL_SEEN = "crawl-seen.sqlite"
STATS = "crawl-stats.json"
PART_SUFFIX = ".part"


@dataclass(frozen=True, slots=True)
class Layout:
    """The paths of one corpus folder."""

    root: Path

    def __post_init__(self) -> None:
        object.__setattr__(self, "root", Path(self.root))

    @property
    def state(self) -> Path:
        return self.root / STATE

    @property
    def dedup(self) -> Path:
        return self.root / DEDUP

    @property
    def manifest(self) -> Path:
        return self.root / MANIFEST

    @property
    def card(self) -> Path:
        return self.root / CARD

    @property
    def lock(self) -> Path:
        return self.root / LOCK

    @property
    def rejects(self) -> Path:
        return self.root / REJECTS

    @property
    def warc(self) -> Path:
        return self.root / WARC

    @property
    def tasks(self) -> Path:
        return self.root / TASKS

    @property
    def job(self) -> Path:
        return self.root / JOB

    @property
    def crawl_seen(self) -> Path:
        return self.root / CRAWL_SEEN

    @property
    def stats(self) -> Path:
        return self.root / STATS

    def parts(self) -> list[Path]:
        """Corpus folders inside this one, each with a manifest: a shared crawl's workers
        (``OUT/<worker>/``) and a Dask run's tasks (``OUT/tasks/<key>/``)."""
        found = sorted(p.parent for p in self.root.glob(f"*/{MANIFEST}"))
        return found + sorted(p.parent for p in self.tasks.glob(f"*/{MANIFEST}"))


def shard_name(key: str, number: int, ending: str) -> str:
    """A shard's path relative to its folder (the corpus, or ``rejects/``):
    ``<key>/<key>-NNNNN<ending>``, where the key is a language or a rejection stage."""
    return f"{key}/{key}-{number:05d}{ending}"


def shard_pattern(key: str, ending: str) -> str:
    """A glob matching every published shard of ``key``, those of later commits too."""
    return f"{key}/{key}-*{ending}"
