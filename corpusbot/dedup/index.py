"""The persistent dedup index: what every level asks of storage, and the SQLite backend.

``DedupIndex`` is the whole interface a backend implements (a Redis one can
follow): membership tests and additions for URL keys, text hashes and
paragraph hashes, and the LSH band lookup that returns the signatures of
near-duplicate candidates. Additions become durable on the owner's commit.

``SQLiteIndex`` keeps the index in tables of an SQLite database shared with
the corpus checkpoint (``corpusbot.corpus.sink``), so that index and checkpoint
commit in one transaction. Lookups go to SQLite directly instead of an
in-memory LSH: memory stays flat however many documents the index holds,
and opening an index costs nothing (nothing to rebuild).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from typing import Protocol

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS {s}.dedup_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS {s}.dedup_urls (key INTEGER PRIMARY KEY)",
    "CREATE TABLE IF NOT EXISTS {s}.dedup_texts (key INTEGER PRIMARY KEY)",
    "CREATE TABLE IF NOT EXISTS {s}.dedup_paragraphs (key INTEGER PRIMARY KEY)",
    "CREATE TABLE IF NOT EXISTS {s}.dedup_signatures (doc INTEGER PRIMARY KEY, signature BLOB)",
    "CREATE TABLE IF NOT EXISTS {s}.dedup_bands (key INTEGER NOT NULL, doc INTEGER NOT NULL,"
    " PRIMARY KEY (key, doc)) WITHOUT ROWID",
)
_MAX_PARAMS = 500  # stay below SQLite's host-parameter limit in IN (...) lists


class IndexMismatchError(ValueError):
    """The index was built with other MinHash parameters: its signatures cannot be compared."""


class DedupIndex(Protocol):
    """Storage for the dedup levels; additions become durable on the owner's commit."""

    def has_url(self, key: int) -> bool: ...
    def add_url(self, key: int) -> None: ...
    def has_text(self, key: int) -> bool: ...
    def add_text(self, key: int) -> None: ...
    def candidates(self, bands: Sequence[int]) -> list[bytes]: ...
    def add_signature(self, signature: bytes, bands: Sequence[int]) -> None: ...
    def seen_paragraphs(self, keys: Iterable[int]) -> set[int]: ...
    def add_paragraphs(self, keys: Iterable[int]) -> None: ...
    def check_parameters(self, parameters: dict[str, str]) -> None: ...


_OPTION_NAMES = {"num_perm": "MinHash num_perm", "shingle": "MinHash shingle",
                 "seed": "MinHash seed"}


def built_with(differing: dict[str, tuple[str, str]]) -> str:
    """The differing index parameters in the user's terms: the LSH bands follow from
    ``--near-threshold``, the one of them a user sets."""
    parts = []
    for key, (stored, asked) in differing.items():
        if key == "bands":
            parts.append(f"another --near-threshold (its LSH bands {stored}, this run's "
                         f"{asked})")
        else:
            parts.append(f"{_OPTION_NAMES.get(key, key)} {stored} (this run: {asked})")
    return ", ".join(parts)


class SQLiteIndex:
    """``DedupIndex`` in an SQLite connection whose transactions the owner runs."""

    __slots__ = ("_db", "_s")

    def __init__(self, connection: sqlite3.Connection, schema: str = "main") -> None:
        if not schema.isidentifier():
            raise ValueError(f"not an SQLite schema name: {schema!r}")
        self._db = connection
        self._s = schema
        for statement in _SCHEMA:
            self._db.execute(statement.format(s=schema))

    def has_url(self, key: int) -> bool:
        return self._exists(f"SELECT 1 FROM {self._s}.dedup_urls WHERE key = ?", key)

    def add_url(self, key: int) -> None:
        self._db.execute(f"INSERT OR IGNORE INTO {self._s}.dedup_urls (key) VALUES (?)", (key,))

    def has_text(self, key: int) -> bool:
        return self._exists(f"SELECT 1 FROM {self._s}.dedup_texts WHERE key = ?", key)

    def add_text(self, key: int) -> None:
        self._db.execute(f"INSERT OR IGNORE INTO {self._s}.dedup_texts (key) VALUES (?)", (key,))

    def candidates(self, bands: Sequence[int]) -> list[bytes]:
        """The signatures of the documents sharing at least one band key."""
        marks = ",".join("?" * len(bands))
        rows = self._db.execute(
            f"SELECT signature FROM {self._s}.dedup_signatures WHERE doc IN"
            f" (SELECT doc FROM {self._s}.dedup_bands WHERE key IN ({marks}))", tuple(bands))
        return [row[0] for row in rows]

    def add_signature(self, signature: bytes, bands: Sequence[int]) -> None:
        table = f"{self._s}.dedup_signatures"
        cursor = self._db.execute(f"INSERT INTO {table} (signature) VALUES (?)", (signature,))
        doc = cursor.lastrowid
        self._db.executemany(
            f"INSERT OR IGNORE INTO {self._s}.dedup_bands (key, doc) VALUES (?, ?)",
            [(key, doc) for key in bands])

    def seen_paragraphs(self, keys: Iterable[int]) -> set[int]:
        seen: set[int] = set()
        unique = list(dict.fromkeys(keys))
        for start in range(0, len(unique), _MAX_PARAMS):
            chunk = unique[start:start + _MAX_PARAMS]
            marks = ",".join("?" * len(chunk))
            rows = self._db.execute(
                f"SELECT key FROM {self._s}.dedup_paragraphs WHERE key IN ({marks})", chunk)
            seen.update(row[0] for row in rows)
        return seen

    def add_paragraphs(self, keys: Iterable[int]) -> None:
        self._db.executemany(f"INSERT OR IGNORE INTO {self._s}.dedup_paragraphs (key) VALUES (?)",
                             [(key,) for key in keys])

    def check_parameters(self, parameters: dict[str, str]) -> None:
        """Record the MinHash parameters on first use; refuse an index made with others."""
        stored = dict(self._db.execute(f"SELECT key, value FROM {self._s}.dedup_meta"))
        differing = {k: (stored[k], v) for k, v in parameters.items()
                     if k in stored and stored[k] != v}
        if differing:
            raise IndexMismatchError(
                f"the dedup index was built with {built_with(differing)}; use the same "
                "options or a new index (--dedup PATH)")
        self._db.executemany(
            f"INSERT OR IGNORE INTO {self._s}.dedup_meta (key, value) VALUES (?, ?)",
            parameters.items())

    def _exists(self, query: str, key: int) -> bool:
        return self._db.execute(query, (key,)).fetchone() is not None
