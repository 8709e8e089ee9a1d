"""What a corpus remembers between commits: input positions, shard states, counts, runs.

Kept in the corpus's own SQLite database (``OUT/state.sqlite``), written in
the same transaction as the dedup index, so that after a crash the three
agree: the resume point of every input, the committed length of every
shard, and the counts the manifest reports.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from corpusbot.corpus.shards import ShardState

_SHARD_COLUMNS = ("lang TEXT NOT NULL, number INTEGER NOT NULL, length INTEGER NOT NULL,"
                  " documents INTEGER NOT NULL, jsonl_bytes INTEGER NOT NULL,"
                  " finished INTEGER NOT NULL, PRIMARY KEY (lang, number)")
_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS corpus_inputs (path TEXT PRIMARY KEY, offset INTEGER NOT NULL,"
    " done INTEGER NOT NULL, size INTEGER)",
    f"CREATE TABLE IF NOT EXISTS corpus_shards ({_SHARD_COLUMNS})",
    f"CREATE TABLE IF NOT EXISTS corpus_reject_shards ({_SHARD_COLUMNS})",
    "CREATE TABLE IF NOT EXISTS corpus_counts (key TEXT PRIMARY KEY, value INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS corpus_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS corpus_runs (id INTEGER PRIMARY KEY, started TEXT NOT NULL,"
    " ended TEXT, status TEXT NOT NULL, options TEXT NOT NULL)",
    # The rows the last commit changed, as they were before it (``row`` NULL: it added
    # the row); the row of table "" marks a log that covers a whole commit.
    "CREATE TABLE IF NOT EXISTS corpus_undo (tbl TEXT NOT NULL, key TEXT NOT NULL, row TEXT,"
    " PRIMARY KEY (tbl, key))",
)
_SHARD_KEY = (("lang", "number", "length", "documents", "jsonl_bytes", "finished"),
              ("lang", "number"))
_UNDONE: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "corpus_inputs": (("path", "offset", "done", "size"), ("path",)),
    "corpus_shards": _SHARD_KEY,
    "corpus_reject_shards": _SHARD_KEY,
    "corpus_counts": (("key", "value"), ("key",)),
    "corpus_meta": (("key", "value"), ("key",)),
}
"""The tables a commit writes, with their columns and key columns: what an undo restores."""


@dataclass(slots=True, frozen=True)
class InputPosition:
    """How far an input file was read: resume at ``offset``, or skip it when ``done``."""

    path: str
    offset: int
    done: bool
    size: int | None = None


def now() -> str:
    """The current UTC time, ISO 8601, to the second."""
    return datetime.now(UTC).isoformat(timespec="seconds")


class Checkpoint:
    """Reads and writes the corpus state tables; the owner runs the transactions."""

    __slots__ = ("_db",)

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._db = connection
        for statement in _SCHEMA:
            self._db.execute(statement)

    def position(self, path: str) -> InputPosition | None:
        """The committed position of input ``path``, if it was ever read."""
        row = self._db.execute(
            "SELECT offset, done, size FROM corpus_inputs WHERE path = ?", (path,)).fetchone()
        return InputPosition(path, row[0], bool(row[1]), row[2]) if row else None

    def positions(self) -> list[InputPosition]:
        rows = self._db.execute("SELECT path, offset, done, size FROM corpus_inputs ORDER BY path")
        return [InputPosition(p, o, bool(d), s) for p, o, d, s in rows]

    def save_positions(self, positions: list[InputPosition]) -> None:
        self._log_before("corpus_inputs", [(p.path,) for p in positions])
        self._db.executemany(
            "INSERT OR REPLACE INTO corpus_inputs (path, offset, done, size) VALUES (?, ?, ?, ?)",
            [(p.path, p.offset, int(p.done), p.size) for p in positions])

    def shards(self, rejects: bool = False) -> list[ShardState]:
        """The committed states of the corpus's shards, or of the rejects output's."""
        rows = self._db.execute(
            "SELECT lang, number, length, documents, jsonl_bytes, finished"
            f" FROM {_shard_table(rejects)} ORDER BY lang, number")
        return [ShardState(lang, number, length, documents, size, bool(finished))
                for lang, number, length, documents, size, finished in rows]

    def save_shards(self, states: list[ShardState], rejects: bool = False) -> None:
        self._log_before(_shard_table(rejects), [(s.lang, s.number) for s in states])
        self._db.executemany(
            f"INSERT OR REPLACE INTO {_shard_table(rejects)}"
            " (lang, number, length, documents, jsonl_bytes, finished) VALUES (?, ?, ?, ?, ?, ?)",
            [(s.lang, s.number, s.length, s.documents, s.jsonl_bytes, int(s.finished))
             for s in states])

    def counts(self) -> Counter[str]:
        return Counter(dict(self._db.execute("SELECT key, value FROM corpus_counts")))

    def add_counts(self, deltas: Counter[str]) -> None:
        self._log_before("corpus_counts", [(key,) for key, value in deltas.items() if value])
        self._db.executemany(
            "INSERT INTO corpus_counts (key, value) VALUES (?, ?)"
            " ON CONFLICT (key) DO UPDATE SET value = value + excluded.value",
            [(key, value) for key, value in deltas.items() if value])

    def setting(self, key: str, value: str) -> str:
        """The stored value of a corpus-wide setting, storing ``value`` on first use."""
        self._db.execute("INSERT OR IGNORE INTO corpus_meta (key, value) VALUES (?, ?)",
                         (key, value))
        row = self._db.execute("SELECT value FROM corpus_meta WHERE key = ?", (key,)).fetchone()
        return str(row[0])

    def save_setting(self, key: str, value: str) -> None:
        """Replace a corpus-wide setting (written with the owner's transaction)."""
        self._log_before("corpus_meta", [(key,)])
        self._db.execute("INSERT OR REPLACE INTO corpus_meta (key, value) VALUES (?, ?)",
                         (key, value))

    def begin_undo_log(self) -> None:
        """At the start of a commit's transaction: the rows it changes from here on are kept
        as they were, so that this commit can be undone (``undo_last_commit``)."""
        self._db.execute("DELETE FROM corpus_undo")
        self._db.execute("INSERT INTO corpus_undo (tbl, key, row) VALUES ('', '', NULL)")

    def undo_last_commit(self) -> bool:
        """Bring the state back to the commit before the last one, in one transaction; False
        when the last commit kept no log (a folder last committed by an older version).

        The shared Redis index asks for it when another process took this folder's pages
        over before Redis heard that its last commit had landed: that process redoes them,
        so this folder must not keep them too (``RedisIndex.lost_commit``). Opening the
        corpus then cuts the shards back to the restored states (``ShardWriter.restore``).
        """
        log = self._db.execute("SELECT tbl, key, row FROM corpus_undo").fetchall()
        if not any(table == "" for table, _, _ in log):
            return False
        self._db.execute("BEGIN IMMEDIATE")
        for table, key, row in log:
            if not table:
                continue
            columns, key_columns = _UNDONE[table]
            if row is None:
                self._db.execute(f"DELETE FROM {table} WHERE {_matching(key_columns)}",
                                 json.loads(key))
            else:
                self._db.execute(
                    f"INSERT OR REPLACE INTO {table} ({', '.join(columns)})"
                    f" VALUES ({', '.join('?' * len(columns))})", json.loads(row))
        self._db.execute("DELETE FROM corpus_undo")
        self._db.execute("COMMIT")
        return True

    def _log_before(self, table: str, keys: list[tuple[Any, ...]]) -> None:
        """Log the rows of ``keys`` as they are now (absent: NULL), unless this commit
        already did: the first image is the one the commit found. SQLite writes the JSON,
        in one statement run for every key."""
        columns, key_columns = _UNDONE[table]
        marks = ", ".join("?" * len(key_columns))
        self._db.executemany(
            f"INSERT OR IGNORE INTO corpus_undo (tbl, key, row) SELECT '{table}',"
            f" json_array({marks}), (SELECT json_array({', '.join(columns)}) FROM {table}"
            f" WHERE {_matching(key_columns)})", [(*key, *key) for key in keys])

    def start_run(self, options: dict[str, Any]) -> int:
        cursor = self._db.execute(
            "INSERT INTO corpus_runs (started, status, options) VALUES (?, 'running', ?)",
            (now(), json.dumps(options, sort_keys=True)))
        return int(cursor.lastrowid or 0)

    def end_run(self, run: int, status: str) -> None:
        self._db.execute("UPDATE corpus_runs SET ended = ?, status = ? WHERE id = ?",
                         (now(), status, run))

    def runs(self) -> list[dict[str, Any]]:
        rows = self._db.execute("SELECT id, started, ended, status, options FROM corpus_runs")
        return [{"run": i, "started": s, "ended": e, "status": st, "options": json.loads(o)}
                for i, s, e, st, o in rows]


def _matching(key_columns: tuple[str, ...]) -> str:
    """The WHERE condition selecting one row by its key columns."""
    return " AND ".join(f"{column} = ?" for column in key_columns)


def _shard_table(rejects: bool) -> str:
    return "corpus_reject_shards" if rejects else "corpus_shards"
