"""The SQLite backend of the dedup seam: an index file committed with the corpus.

The file is attached to the corpus's state database as schema ``dedup``,
so that one SQLite transaction commits shards' lengths, input positions and
index additions together; the index itself is ``corpusbot.dedup.index``.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar
from urllib.parse import unquote, urlsplit

from corpusbot.dedup.backends import IndexHost
from corpusbot.dedup.deduplicator import Deduplicator
from corpusbot.dedup.index import SQLiteIndex
from corpusbot.fingerprints.options import DedupOptions

_CACHE_KIB = 16 * 1024  # SQLite page cache of the index file, as the state file has


@dataclass(slots=True, frozen=True)
class SQLiteBackend:
    """The SQLite index's factory: ``""`` (the corpus's own file), a path, or ``sqlite:///PATH``
    (the URL's path, as in ``file:///``)."""

    url: str
    options: DedupOptions
    path: Path | None = None
    shared: ClassVar[bool] = False

    @classmethod
    def from_url(cls, url: str, options: DedupOptions) -> SQLiteBackend:
        if not url.lower().startswith("sqlite:"):
            return cls(url, options, Path(url) if url else None)
        path = unquote(urlsplit(url).path)
        if not path:
            raise ValueError(f"no file in {url!r} (try sqlite:///tmp/dedup.sqlite)")
        return cls(url, options, Path(path))

    def open(self, host: IndexHost, *, rebuilding: bool = False) -> Deduplicator:
        """The index attached to the corpus's database, checked against what it committed."""
        attach(host.connection, self.path or host.local_file)
        dedup = Deduplicator(SQLiteIndex(host.connection, "dedup"), self.options, host.settings)
        if not rebuilding:
            dedup.check_generation(self.url, host.out_dir)
        return dedup


def attach(connection: sqlite3.Connection, path: Path) -> None:
    """Attach the index file as schema ``dedup``, in rollback-journal mode.

    With rollback journals (not WAL) SQLite commits a transaction over
    attached databases atomically, so index and checkpoint never disagree.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    connection.execute("ATTACH DATABASE ? AS dedup", (str(path),))
    for pragma in ("journal_mode = DELETE", "synchronous = FULL", f"cache_size = -{_CACHE_KIB}"):
        connection.execute(f"PRAGMA dedup.{pragma}")

