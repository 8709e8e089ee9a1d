"""The corpus sink: dedup against the persistent index, write shards, commit all together.

    corpus = Corpus(Path("out"), CorpusOptions())
    with corpus:                                   # closing commits and finishes the shards
        for page in pages:
            refused = corpus.admit(page)           # URL already processed? skip the work
            corpus.add(refused or processor.process(page))   # True when the document is kept
            corpus.commit()                        # now and then: every few thousand pages

``add_verdict`` is ``add`` returning the reason a result was not kept (None
when it was), for callers that report it, such as the crawl's pipeline.

One ``Corpus`` per output folder and process; calls must not overlap. The
crawl uses it the same way from its main process (``corpusbot.pipelines``).

``add`` runs the dedup levels in call order (``corpusbot.dedup.deduplicator``),
appends kept documents to the per-language shards (``corpusbot.corpus.shards``) and
counts every outcome: ``documents/<lang>``, ``rejected/<reason>``, and each cut made
to a page's markup before its parse, ``html/cut/<reason>``.
``commit`` makes the shards, the dedup index, the input positions and the
counts durable together: shards are synced first, then one SQLite
transaction over ``OUT/state.sqlite`` and the attached index
(``OUT/dedup.sqlite`` unless ``dedup_path`` says otherwise) commits, then
finished shards get their final names and ``manifest.json`` is rewritten.
A crash anywhere leaves the previous commit, which opening the corpus
again restores (``ShardWriter.restore``); nothing kept is lost or doubled.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import uuid
from collections import Counter
from dataclasses import asdict, dataclass, field, is_dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from corpusbot import __version__
from corpusbot.corpus.checkpoint import Checkpoint, InputPosition, now
from corpusbot.corpus.locks import try_lock
from corpusbot.corpus.shards import (
    COMPRESSION_DEFAULT,
    COMPRESSIONS,
    SHARD_BYTES_DEFAULT,
    ShardWriter,
    check_codec,
)
from corpusbot.dedup.deduplicator import LSH_FP_WEIGHT, URL, Deduplicator
from corpusbot.dedup.index import SQLiteIndex
from corpusbot.dedup.near import optimal_bands
from corpusbot.dedup.options import DedupOptions
from corpusbot.dedup.redis_dedup import RedisDeduplicator, signature_bytes
from corpusbot.dedup.redis_index import RedisAddress, RedisIndex
from corpusbot.document import SCHEMA_VERSION, Document, Rejection, reject
from corpusbot.page import Page

logger = logging.getLogger(__name__)

STATE_FILE = "state.sqlite"
DEDUP_FILE = "dedup.sqlite"
MANIFEST_FILE = "manifest.json"
LOCK_FILE = ".lock"
_CACHE_KIB = 16 * 1024  # SQLite page cache per database file


class CorpusBusyError(RuntimeError):
    """Another process is writing to the same corpus folder."""


class CorpusMismatchError(ValueError):
    """The folder holds a corpus written with settings that cannot be mixed."""


@dataclass(slots=True, frozen=True)
class CorpusOptions:
    """How the corpus is stored and deduplicated."""

    compression: str = COMPRESSION_DEFAULT
    shard_bytes: int = SHARD_BYTES_DEFAULT
    dedup: DedupOptions = field(default_factory=DedupOptions)
    dedup_path: Path | None = None
    dedup_url: str | None = None  # redis://host:port/db: the index shared by many processes

    def __post_init__(self) -> None:
        if self.dedup_url is not None:
            RedisAddress.parse(self.dedup_url)  # a bad URL fails here, in one line
        if self.compression not in COMPRESSIONS:
            raise ValueError(f"unknown compression {self.compression!r}; "
                             f"known: {', '.join(COMPRESSIONS)}")
        check_codec(self.compression)
        if self.shard_bytes <= 0:
            raise ValueError(f"shard size must be positive, got {self.shard_bytes}")


class Corpus:
    """Per-language JSONL corpus with persistent dedup; see the module docstring."""

    def __init__(self, out_dir: Path, options: CorpusOptions | None = None,
                 run_options: dict[str, Any] | None = None) -> None:
        self.out_dir = Path(out_dir)
        self.options = options or CorpusOptions()
        self.out_dir.mkdir(parents=True, exist_ok=True)
        self._lock = _lock(self.out_dir / LOCK_FILE)
        self._db = _open_database(self.out_dir / STATE_FILE,
                                  self.options.dedup_path or self.out_dir / DEDUP_FILE)
        self._writer = ShardWriter(self.out_dir, self.options.compression,
                                   self.options.shard_bytes)
        self._pending: Counter[str] = Counter()
        self._positions: dict[str, InputPosition] = {}
        self._closed = False
        self._shared: RedisIndex | None = None
        try:
            self._checkpoint = Checkpoint(self._db)
            self._check_compression()
            self._dedup = self._open_dedup()
            self._writer.restore(self._checkpoint.shards())
            self._committed = self._checkpoint.counts()
            self._db.execute("BEGIN IMMEDIATE")
            self._run = self._checkpoint.start_run(run_options or {})
        except BaseException:
            self._release()  # a refused folder stays free for the next attempt
            raise

    def _open_dedup(self) -> Deduplicator:
        """The SQLite index committed with the shards, or the shared Redis one.

        With Redis, this folder owns its additions until their shards commit:
        the epoch committed last is stored with the checkpoint, and opening
        adopts or releases what an earlier run of this folder left pending.
        """
        if self.options.dedup_url is None:
            return Deduplicator(SQLiteIndex(self._db, "dedup"), self.options.dedup)
        owner = self._checkpoint.setting("dedup_owner", uuid.uuid4().hex)
        committed = int(self._checkpoint.setting("dedup_epoch", "0"))
        dedup = self.options.dedup
        self._shared = RedisIndex.connect(
            RedisAddress.parse(self.options.dedup_url), owner, committed,
            bands=optimal_bands(dedup.threshold, dedup.num_perm, LSH_FP_WEIGHT)[0],
            signature_bytes=signature_bytes(dedup))
        return RedisDeduplicator(self._shared, dedup)

    @property
    def shared_index(self) -> RedisIndex | None:
        """The shared Redis dedup index this folder owns entries in, if it uses one."""
        return self._shared

    def admit(self, page: Page) -> Rejection | None:
        """None when ``page`` should be processed; a ``dedup/url`` Rejection when its URL was."""
        if self._dedup.admit(page.url_key):
            return None
        return reject(page, URL)

    def add(self, result: Document | Rejection) -> bool:
        """Dedup ``result`` and write it when kept; True when a document was written."""
        return self.add_verdict(result) is None

    def add_verdict(self, result: Document | Rejection, revisit: bool = False) -> str | None:
        """As ``add``; None when the document was written, else the reason it was not
        (the Rejection's own, or ``dedup/<level>``). ``revisit``: see ``Deduplicator.check``."""
        self._pending["pages"] += 1
        self._pending.update(result.cuts)
        verdict = self._dedup.check(result, revisit)
        if isinstance(verdict, Document):
            self._write(verdict)
            return None
        reason = result.reason if isinstance(result, Rejection) else str(verdict)
        self._pending[f"rejected/{reason}"] += 1
        return reason

    def _write(self, doc: Document) -> None:
        line = json.dumps(doc.to_record(self.out_dir), ensure_ascii=False, separators=(",", ":"))
        self._writer.write(doc.lang, line.encode("utf-8") + b"\n")
        self._pending.update({"documents": 1, f"documents/{doc.lang}": 1,
                              f"words/{doc.lang}": doc.n_words})

    def count(self, key: str, n: int = 1) -> None:
        """Add ``n`` to the stat ``key`` (committed with everything else)."""
        self._pending[key] += n

    def advance(self, position: InputPosition) -> None:
        """Record how far an input was read; it becomes the resume point at the next commit."""
        self._positions[position.path] = position

    def position(self, path: str) -> InputPosition | None:
        """The committed position of input ``path``, if it was read before."""
        return self._checkpoint.position(path)

    @property
    def stats(self) -> Counter[str]:
        """Every count so far, committed or not."""
        return self._committed + self._pending

    def commit(self) -> None:
        """Make everything added so far durable, together; see the module docstring."""
        self._commit()
        self._db.execute("BEGIN IMMEDIATE")

    def _commit(self) -> None:
        self._checkpoint.save_shards(self._writer.flush())
        self._checkpoint.save_positions(list(self._positions.values()))
        self._checkpoint.add_counts(self._pending)
        if self._shared is not None:
            self._checkpoint.save_setting("dedup_epoch", str(self._shared.epoch))
        self._db.execute("COMMIT")
        if self._shared is not None:
            self._shared.committed()
        self._committed.update(self._pending)
        self._pending.clear()
        self._positions.clear()
        self._writer.publish()
        self._write_manifest()

    def close(self, status: str = "done") -> None:
        """Commit, finish every open shard, and release the folder."""
        if self._closed:
            return
        self._writer.finish_all()
        self._checkpoint.end_run(self._run, status)
        self._commit()
        self._release()

    def abort(self) -> None:
        """Release the folder without committing: the next open restores the last commit."""
        if not self._closed:
            if self._db.in_transaction:  # not when a Ctrl-C landed just after a COMMIT
                self._db.execute("ROLLBACK")
            if self._shared is not None:
                self._shared.release()  # what was not committed stops blocking other workers
            self._release()

    def __enter__(self) -> Corpus:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if kind is None:
            self.close()
        else:
            self.abort()

    def manifest(self) -> dict[str, Any]:
        """The committed state as ``manifest.json`` describes it."""
        return build_manifest(self._checkpoint, self.options)

    def _check_compression(self) -> None:
        stored = self._checkpoint.setting("compression", self.options.compression)
        if stored != self.options.compression:
            raise CorpusMismatchError(
                f"{self.out_dir} holds {stored} shards; pass --compression {stored}"
                " or write to another folder")

    def _write_manifest(self) -> None:
        target = self.out_dir / MANIFEST_FILE
        temporary = target.with_suffix(".json.tmp")
        temporary.write_text(json.dumps(self.manifest(), indent=2, ensure_ascii=False) + "\n")
        os.replace(temporary, target)

    def _release(self) -> None:
        if self._shared is not None:
            self._shared.close()
        self._writer.close()
        self._db.close()
        os.close(self._lock)
        self._closed = True


def build_manifest(checkpoint: Checkpoint, options: CorpusOptions) -> dict[str, Any]:
    """Counts per language, rejections per reason, markup cuts per reason, shards, inputs and
    runs."""
    counts = checkpoint.counts()
    languages: dict[str, Any] = {}
    for state in checkpoint.shards():
        entry = languages.setdefault(state.lang, {
            "documents": counts[f"documents/{state.lang}"],
            "words": counts[f"words/{state.lang}"], "shards": []})
        entry["shards"].append({"file": state.name(options.compression),
                                "documents": state.documents, "bytes": state.length,
                                "complete": state.finished})
    prefixed = _by_prefix(counts)
    runs = checkpoint.runs()
    return {
        "schema": SCHEMA_VERSION, "corpusbot": __version__, "updated": now(),
        "documents": counts["documents"], "pages": counts["pages"],
        "languages": dict(sorted(languages.items())),
        "rejections": prefixed.get("rejected", {}), "archive": prefixed.get("archive", {}),
        "html": prefixed.get("html", {}),
        "inputs": [{"path": p.path, "offset": p.offset, "done": p.done}
                   for p in checkpoint.positions()],
        "options": _dedup_once(runs[-1]["options"]) if runs else {},
        "runs": [_run_listed(run, runs[-1]["options"]) for run in runs],
    }


def _dedup_once(options: dict[str, Any]) -> dict[str, Any]:
    """The options with the dedup settings once: under ``processor`` (which computes the
    features), not again under ``corpus`` when they are the same."""
    corpus, processor = options.get("corpus"), options.get("processor")
    if isinstance(corpus, dict) and isinstance(processor, dict) \
            and corpus.get("dedup") == processor.get("dedup"):
        options = {**options, "corpus": {k: v for k, v in corpus.items() if k != "dedup"}}
    return options


def _run_listed(run: dict[str, Any], latest: dict[str, Any]) -> dict[str, Any]:
    # A run carries its options only when they differ from the manifest's "options" (the
    # last run's): one run's settings are written once.
    if run["options"] == latest:
        return {key: value for key, value in run.items() if key != "options"}
    return {**run, "options": _dedup_once(run["options"])}


def recorded_options(options: object) -> object:
    """A run's options (dataclasses, sets, paths) as plain JSON for the manifest."""
    if is_dataclass(options) and not isinstance(options, type):
        options = asdict(options)
    if isinstance(options, dict):
        return {key: recorded_options(item) for key, item in options.items()}
    if isinstance(options, (set, frozenset)):
        return sorted(options)
    if isinstance(options, Path):
        return str(options)
    return options


def _by_prefix(counts: Counter[str]) -> dict[str, dict[str, int]]:
    grouped: dict[str, dict[str, int]] = {}
    for key, value in sorted(counts.items()):
        prefix, _, rest = key.partition("/")
        if rest:
            grouped.setdefault(prefix, {})[rest] = value
    return grouped


def _lock(path: Path) -> int:
    descriptor = try_lock(path)
    if descriptor is None:
        raise CorpusBusyError(f"another corpusbot run is writing to {path.parent}")
    return descriptor


def _open_database(state: Path, dedup: Path) -> sqlite3.Connection:
    """The state database with the dedup index attached, both in rollback-journal mode.

    With rollback journals (not WAL) SQLite commits a transaction over
    attached databases atomically, so index and checkpoint never disagree.
    """
    dedup.parent.mkdir(parents=True, exist_ok=True)
    connection = sqlite3.connect(state, isolation_level=None, check_same_thread=False)
    connection.execute("ATTACH DATABASE ? AS dedup", (str(dedup),))
    for schema in ("main", "dedup"):
        connection.execute(f"PRAGMA {schema}.journal_mode = DELETE")
        connection.execute(f"PRAGMA {schema}.synchronous = FULL")
        connection.execute(f"PRAGMA {schema}.cache_size = -{_CACHE_KIB}")
    return connection
