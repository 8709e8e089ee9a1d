"""The persistent dedup index: what every level asks of storage, and the SQLite backend.

``DedupIndex`` is the whole interface a storage implements: membership
tests and additions for URL keys, text hashes and paragraph hashes, each
remembering the kept document it belongs to (``doc``, the signed 64-bit
value of ``Document.id``, 0 when unknown), the LSH band lookup that returns
the signatures of near-duplicate candidates, and each kept document's count
of copies dropped for it. Additions become durable on the owner's commit.

``SQLiteIndex`` keeps the index in tables of an SQLite database shared with
the corpus checkpoint (``corpusbot.corpus.sink``), so that index and checkpoint
commit in one transaction. Lookups go to SQLite directly instead of an
in-memory LSH: memory stays flat however many documents the index holds,
and opening an index costs nothing (nothing to rebuild). ``SQLiteBackend``
is its factory for the dedup seam (``corpusbot.dedup.backends``): the
file is attached to the corpus's state database as schema ``dedup``.
"""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Iterable, Sequence
from typing import Protocol

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS {s}.dedup_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS {s}.dedup_urls (key INTEGER PRIMARY KEY, owner INTEGER)",
    "CREATE TABLE IF NOT EXISTS {s}.dedup_texts (key INTEGER PRIMARY KEY, owner INTEGER)",
    "CREATE TABLE IF NOT EXISTS {s}.dedup_paragraphs (key INTEGER PRIMARY KEY, owner INTEGER)",
    "CREATE TABLE IF NOT EXISTS {s}.dedup_signatures (doc INTEGER PRIMARY KEY, signature BLOB,"
    " owner INTEGER)",
    "CREATE TABLE IF NOT EXISTS {s}.dedup_bands (key INTEGER NOT NULL, doc INTEGER NOT NULL,"
    " PRIMARY KEY (key, doc)) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS {s}.dedup_copies (owner INTEGER PRIMARY KEY,"
    " copies INTEGER NOT NULL)",
)
_OWNED = ("dedup_urls", "dedup_texts", "dedup_paragraphs", "dedup_signatures")
"""Tables that name the kept document of each entry (a column added to older indexes)."""
_MAX_PARAMS = 500  # stay below SQLite's host-parameter limit in IN (...) lists


class IndexMismatchError(ValueError):
    """The index was built with other MinHash parameters: its signatures cannot be compared."""


class DedupIndex(Protocol):
    """Storage for the dedup levels; additions become durable on the owner's commit."""

    def url_owner(self, key: int) -> int | None: ...
    def add_url(self, key: int, owner: int = 0) -> None: ...
    def text_owner(self, key: int) -> int | None: ...
    def add_text(self, key: int, owner: int = 0) -> None: ...
    def candidates(self, bands: Sequence[int]) -> list[tuple[bytes, int]]: ...
    def add_signature(self, signature: bytes, bands: Sequence[int], owner: int = 0) -> None: ...
    def seen_paragraphs(self, keys: Iterable[int]) -> dict[int, int]: ...
    def add_paragraphs(self, keys: Iterable[int], owner: int = 0) -> None: ...
    def add_copy(self, owner: int) -> None: ...
    def copies(self, owners: Sequence[int]) -> dict[int, int]: ...
    def generation(self) -> str: ...
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
        for table in _OWNED:  # an index made before owners were kept
            columns = {row[1] for row in self._db.execute(f"PRAGMA {schema}.table_info({table})")}
            if "owner" not in columns:
                self._db.execute(f"ALTER TABLE {schema}.{table} ADD COLUMN owner INTEGER")

    def url_owner(self, key: int) -> int | None:
        return self._owner(f"SELECT owner FROM {self._s}.dedup_urls WHERE key = ?", key)

    def add_url(self, key: int, owner: int = 0) -> None:
        self._db.execute(f"INSERT INTO {self._s}.dedup_urls (key, owner) VALUES (?, ?)"
                         " ON CONFLICT (key) DO UPDATE SET owner = excluded.owner"
                         " WHERE excluded.owner != 0", (key, owner))

    def text_owner(self, key: int) -> int | None:
        return self._owner(f"SELECT owner FROM {self._s}.dedup_texts WHERE key = ?", key)

    def add_text(self, key: int, owner: int = 0) -> None:
        self._db.execute(f"INSERT OR IGNORE INTO {self._s}.dedup_texts (key, owner) VALUES (?, ?)",
                         (key, owner))

    def candidates(self, bands: Sequence[int]) -> list[tuple[bytes, int]]:
        """The signatures (and owners) of the documents sharing at least one band key."""
        marks = ",".join("?" * len(bands))
        rows = self._db.execute(
            f"SELECT signature, owner FROM {self._s}.dedup_signatures WHERE doc IN"
            f" (SELECT doc FROM {self._s}.dedup_bands WHERE key IN ({marks})) ORDER BY doc",
            tuple(bands))
        return [(row[0], row[1] or 0) for row in rows]

    def add_signature(self, signature: bytes, bands: Sequence[int], owner: int = 0) -> None:
        table = f"{self._s}.dedup_signatures"
        cursor = self._db.execute(f"INSERT INTO {table} (signature, owner) VALUES (?, ?)",
                                  (signature, owner))
        doc = cursor.lastrowid
        self._db.executemany(
            f"INSERT OR IGNORE INTO {self._s}.dedup_bands (key, doc) VALUES (?, ?)",
            [(key, doc) for key in bands])

    def seen_paragraphs(self, keys: Iterable[int]) -> dict[int, int]:
        """Of ``keys``, those seen before, each with its owner (0 when unknown)."""
        seen: dict[int, int] = {}
        unique = list(dict.fromkeys(keys))
        for start in range(0, len(unique), _MAX_PARAMS):
            chunk = unique[start:start + _MAX_PARAMS]
            marks = ",".join("?" * len(chunk))
            rows = self._db.execute(
                f"SELECT key, owner FROM {self._s}.dedup_paragraphs WHERE key IN ({marks})",
                chunk)
            seen.update((key, owner or 0) for key, owner in rows)
        return seen

    def add_paragraphs(self, keys: Iterable[int], owner: int = 0) -> None:
        self._db.executemany(
            f"INSERT OR IGNORE INTO {self._s}.dedup_paragraphs (key, owner) VALUES (?, ?)",
            [(key, owner) for key in keys])

    def add_copy(self, owner: int) -> None:
        """One more copy of the kept document ``owner`` was dropped."""
        self._db.execute(f"INSERT INTO {self._s}.dedup_copies (owner, copies) VALUES (?, 1)"
                         " ON CONFLICT (owner) DO UPDATE SET copies = copies + 1", (owner,))

    def copies(self, owners: Sequence[int]) -> dict[int, int]:
        """The copies dropped for each of ``owners`` that has any."""
        found: dict[int, int] = {}
        for start in range(0, len(owners), _MAX_PARAMS):
            chunk = list(owners[start:start + _MAX_PARAMS])
            marks = ",".join("?" * len(chunk))
            found.update(self._db.execute(
                f"SELECT owner, copies FROM {self._s}.dedup_copies WHERE owner IN ({marks})",
                chunk))
        return found

    def generation(self) -> str:
        """The index's generation id, made on first use: a new file gets a new one."""
        self._db.execute(f"INSERT OR IGNORE INTO {self._s}.dedup_meta (key, value)"
                         " VALUES ('generation', ?)", (uuid.uuid4().hex,))
        row = self._db.execute(
            f"SELECT value FROM {self._s}.dedup_meta WHERE key = 'generation'").fetchone()
        return str(row[0])

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

    def _owner(self, query: str, key: int) -> int | None:
        row = self._db.execute(query, (key,)).fetchone()
        return None if row is None else (row[0] or 0)
