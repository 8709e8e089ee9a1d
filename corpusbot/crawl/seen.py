"""A small persistent record of the article URLs a crawl has fetched and processed.

One SQLite table beside the corpus: URL (canonicalised), when it was
fetched, and the last change its sitemap or feed declared then. A later run
asks ``changed(url, modified)`` before fetching: a URL seen before is
skipped unless the date it is offered with now is newer than what was
known. Writes are buffered and committed by the caller, after the corpus
has committed, so that a crash can cause a re-fetch but never a lost article.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from w3lib.url import canonicalize_url

_SCHEMA = """
CREATE TABLE IF NOT EXISTS seen (
    url TEXT PRIMARY KEY,
    fetched_at TEXT,
    modified TEXT
) WITHOUT ROWID
"""


NEW, CHANGED, UNCHANGED = "new", "changed", "unchanged"
"""What ``SeenStore.status`` says of a URL."""


class SeenStore:
    """Article URLs already processed, with their fetch time and declared last change."""

    def __init__(self, path: str | Path) -> None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(str(path))
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute(_SCHEMA)
        self.db.commit()
        self.pending: dict[str, tuple[str | None, str | None]] = {}

    def changed(self, url: str, modified: str | None) -> bool:
        """True when ``url`` should be fetched: never processed, or changed since."""
        return self.status(url, modified) != UNCHANGED

    def status(self, url: str, modified: str | None) -> str:
        """``NEW`` (never processed), ``CHANGED`` or ``UNCHANGED``, in one lookup.

        ``modified`` is the date a sitemap or feed gives now (ISO 8601 UTC).
        It counts as a change when it is later than the date known at the
        last fetch or, if none was known, later than the fetch itself.
        """
        row = self.db.execute(
            "SELECT fetched_at, modified FROM seen WHERE url = ?", (canonicalize_url(url),)
        ).fetchone()
        if row is None:
            return NEW
        known = row[1] or row[0]
        return CHANGED if modified and known and modified > known else UNCHANGED

    def mark(self, url: str, fetched_at: str | None, modified: str | None) -> None:
        """Remember ``url`` as processed; written at the next ``commit``."""
        self.pending[canonicalize_url(url)] = (fetched_at, modified)

    def commit(self) -> int:
        """Write the marks made since the last commit; return how many."""
        rows = [(url, *values) for url, values in self.pending.items()]
        with self.db:
            self.db.executemany(
                "INSERT INTO seen (url, fetched_at, modified) VALUES (?, ?, ?) "
                "ON CONFLICT(url) DO UPDATE SET fetched_at = excluded.fetched_at, "
                "modified = COALESCE(excluded.modified, seen.modified)",
                rows,
            )
        self.pending.clear()
        return len(rows)

    def __len__(self) -> int:
        return self.db.execute("SELECT COUNT(*) FROM seen").fetchone()[0]

    def close(self) -> None:
        self.db.close()
