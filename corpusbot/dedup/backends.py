"""The dedup seam: one URL names the index, its scheme picks the backend.

    index = open_index("redis://127.0.0.1:6379/0", options)   # or a path, or ""
    corpus = Corpus(out, CorpusOptions(dedup=url), index=index)

``open_index`` parses the URL once (a bad one fails here, in one line) and
returns the backend's ``IndexFactory``: a small picklable value (URL and
``DedupOptions``) that a Dask task can carry. The corpus opens it against
its own state (``IndexHost``): the SQLite backend attaches its file to the
corpus's database so that both commit in one transaction; the Redis
backend keeps its owner id and commit epoch in the corpus's settings.

What the corpus then calls is ``OpenIndex``: the dedup decisions
(``admit``, ``check``) and the commit hooks, run around the corpus's own
SQLite commit: ``prepare`` (inside the transaction: store what the index
must find again), ``committed`` (after it: the additions now count),
``release`` (abort: take back what was not committed) and ``close``.

Adding a backend is one module (a factory with ``from_url``, ``open``,
``url``, ``options`` and ``shared``) and one line in ``BACKENDS``.
"""

from __future__ import annotations

import importlib
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from corpusbot.document import Document, Rejection
from corpusbot.fingerprints.options import DedupOptions

BACKENDS: dict[str, str] = {
    "sqlite": "corpusbot.dedup.sqlite:SQLiteBackend",
    "redis": "corpusbot.dedup.redis_dedup:RedisBackend",
    "rediss": "corpusbot.dedup.redis_dedup:RedisBackend",
    "unix": "corpusbot.dedup.redis_dedup:RedisBackend",
}
"""URL scheme -> ``module:class`` of its factory, imported only when that scheme is used
(the Redis client is an optional extra). A URL without a scheme is an SQLite path."""


class IndexLostError(RuntimeError):
    """The index no longer holds what the corpus committed against it (emptied, replaced)."""


class IndexHandedOverError(IndexLostError):
    """Another process took this one for dead and released its uncommitted entries."""


class IndexUnavailableError(ConnectionError):
    """The index stopped answering and did not come back within its retry time."""


class Settings(Protocol):
    """Corpus-wide settings, written with the corpus's transaction, and the undoing of the
    last commit (``Checkpoint``)."""

    def setting(self, key: str, value: str) -> str: ...
    def save_setting(self, key: str, value: str) -> None: ...
    def undo_last_commit(self) -> bool: ...


@dataclass(slots=True, frozen=True)
class IndexHost:
    """What a corpus lends the index it opens: its folder, database and settings."""

    out_dir: Path
    connection: sqlite3.Connection
    settings: Settings
    local_file: Path
    """Where the SQLite index lives when its URL names no file (the corpus's layout says)."""


@dataclass(slots=True, frozen=True)
class Verdict:
    """What dedup made of one result: the document to write, or why not, and of what the
    dropped page is a copy (``Document.id`` of the kept one, when the index knows it)."""

    document: Document | None = None
    reason: str | None = None
    duplicate_of: str | None = None

    @property
    def kept(self) -> bool:
        return self.document is not None


class OpenIndex(Protocol):
    """The dedup index as the corpus uses it; see the module docstring."""

    options: DedupOptions

    def admit(self, key: int) -> bool: ...
    def check(self, result: Document | Rejection, revisit: bool = False) -> Verdict: ...
    def add(self, doc: Document) -> None: ...
    def copies(self, ids: Iterable[str]) -> dict[str, int]: ...
    def prepare(self) -> None: ...
    def committed(self) -> None: ...
    def release(self) -> None: ...
    def close(self) -> None: ...


class IndexFactory(Protocol):
    """A backend's parsed URL and options; ``open`` makes the index a corpus uses."""

    url: str
    options: DedupOptions
    shared: bool
    """True when many processes and machines may use the index at once."""

    def open(self, host: IndexHost, *, rebuilding: bool = False) -> OpenIndex: ...


def scheme_of(url: str) -> str:
    """The backend name of ``url``: its scheme, or ``sqlite`` for a plain path (or "")."""
    scheme, separator, _ = url.partition("://")
    return scheme.lower() if separator and scheme.isalnum() else "sqlite"


def open_index(url: str | Path | None, options: DedupOptions) -> IndexFactory:
    """The factory of the index ``url`` names (``""``: the corpus's own SQLite file)."""
    if not isinstance(url, str | Path | None):
        # str() of anything would make a path: a DedupOptions given as the URL became an
        # SQLite file named after its repr in the working folder
        raise TypeError(f"a dedup index is named by a path or URL, not {type(url).__name__}: "
                        "give the options as open_index's second argument")
    text = str(url or "")
    scheme = scheme_of(text)
    if scheme not in BACKENDS:
        raise ValueError(f"unknown dedup index {text!r}: give a path, sqlite:///PATH or "
                         "redis://HOST:PORT/DB")
    module, _, name = BACKENDS[scheme].partition(":")
    backend: Any = getattr(importlib.import_module(module), name)
    return backend.from_url(text, options)  # type: ignore[no-any-return]


def lost_message(url: str, out_dir: Path) -> str:
    """The one line that says an index lost a corpus's commits, and how to recover."""
    shown = url or "the corpus's own dedup.sqlite"
    return (f"the dedup index ({shown}) no longer holds what {out_dir} committed (emptied or "
            f"replaced): rebuild it from the committed corpora with `corpusbot dedup rebuild "
            f"{out_dir} [more corpus folders...]{' --dedup ' + url if url else ''}`, "
            "then run again")
