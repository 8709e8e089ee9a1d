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

The dedup index is handed in (``index=open_index(url, dedup_options)``,
``corpusbot.dedup.backends``; by default the SQLite file ``OUT/dedup.sqlite``
with default options) and opened against this corpus's state: the sink
knows no backend, only the index's commit hooks.
``commit`` makes the shards, the dedup index, the input positions and the
counts durable together: shards are synced first, then one SQLite
transaction over ``OUT/state.sqlite`` (with the index's ``prepare``: the
SQLite index is attached to it, the Redis one stores its epoch there)
commits, then the index is told (``committed``), finished shards are
published under their final names, and ``manifest.json`` and the dataset card
``README.md`` are rewritten (``corpusbot.corpus.layout``).
With ``keep_rejects``, every page not kept is written too, through the same
record format, to ``rejects/<stage>/`` shards committed in the same step.
A crash anywhere leaves the previous commit, which opening the corpus
again restores (``ShardWriter.restore``); nothing kept is lost or doubled.
"""

from __future__ import annotations

import json
import logging
import os
import re
import sqlite3
from collections import Counter
from contextlib import suppress
from dataclasses import asdict, dataclass, is_dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from corpusbot import __version__
from corpusbot.corpus.card import write_card
from corpusbot.corpus.checkpoint import Checkpoint, InputPosition, now
from corpusbot.corpus.diskfull import names_disk_full
from corpusbot.corpus.formats import FORMAT_DEFAULT, get_format
from corpusbot.corpus.formats.base import RecordFormat
from corpusbot.corpus.layout import REJECTS, Layout
from corpusbot.corpus.locks import try_lock
from corpusbot.corpus.shards import (
    COMPRESSION_DEFAULT,
    SHARD_BYTES_DEFAULT,
    ShardState,
    ShardWriter,
)
from corpusbot.dedup.backends import IndexFactory, IndexHost, OpenIndex, Verdict, open_index
from corpusbot.dedup.deduplicator import URL
from corpusbot.document import (
    RECORD_FIELDS,
    REJECTION_FIELDS,
    SCHEMA_VERSION,
    Document,
    Rejection,
    reject,
)
from corpusbot.fingerprints.options import DedupOptions
from corpusbot.page import Page

logger = logging.getLogger(__name__)

_STAGE = re.compile(r"[a-z][a-z0-9-]{0,31}")
_CACHE_KIB = 16 * 1024  # SQLite page cache per database file


class CorpusBusyError(RuntimeError):
    """Another process is writing to the same corpus folder."""


class CorpusMismatchError(ValueError):
    """The folder holds a corpus written with settings that cannot be mixed."""


@dataclass(slots=True, frozen=True)
class CorpusOptions:
    """How the corpus is stored and deduplicated."""

    compression: str = COMPRESSION_DEFAULT
    format: str = FORMAT_DEFAULT
    shard_bytes: int = SHARD_BYTES_DEFAULT
    keep_rejects: bool = False  # write every page not kept to rejects/<stage>/
    dedup: str = ""
    """The dedup index's URL (``corpusbot.dedup.backends``): "" for ``OUT/dedup.sqlite``, a
    path or ``sqlite:///PATH``, or ``redis://host:port/db`` shared by many processes."""

    def __post_init__(self) -> None:
        open_index(self.dedup, DedupOptions())  # a bad URL fails here, in one line
        self.record_format()  # an unknown format or compression, or a missing package
        if self.shard_bytes <= 0:
            raise ValueError(f"shard size must be positive, got {self.shard_bytes}")

    def record_format(self, rejects: bool = False) -> RecordFormat:
        """The format writing documents, or the rejects output."""
        fields = REJECTION_FIELDS if rejects else RECORD_FIELDS
        return get_format(self.format)(self.compression, fields)


class Corpus:
    """Per-language corpus with persistent dedup; see the module docstring."""

    @names_disk_full
    def __init__(self, out_dir: Path, options: CorpusOptions | None = None,
                 run_options: dict[str, Any] | None = None, *,
                 index: IndexFactory | None = None,
                 recipe: dict[str, Any] | None = None) -> None:
        self.out_dir = Path(out_dir)
        self.options = options or CorpusOptions()
        self.index_factory = _index_factory(self.options, index)
        self.layout = Layout(self.out_dir)
        self.out_dir.mkdir(parents=True, exist_ok=True)
        self._lock = _lock(self.layout.lock)
        self._db = _open_database(self.layout.state)
        self._writer = ShardWriter(self.out_dir, self.options.record_format(),
                                   self.options.shard_bytes)
        self._rejects = ShardWriter(self.layout.rejects, self.options.record_format(rejects=True),
                                    self.options.shard_bytes, _STAGE, "other")
        self._pending: Counter[str] = Counter()
        self._positions: dict[str, InputPosition] = {}
        self._closed = False
        self._dedup: OpenIndex | None = None
        try:
            self._checkpoint = Checkpoint(self._db)
            self._check_settings()
            self._check_recipe(recipe)
            self._dedup = self.index_factory.open(IndexHost(
                self.out_dir, self._db, self._checkpoint, self.layout.dedup))
            self._writer.restore(self._checkpoint.shards())
            self._rejects.restore(self._checkpoint.shards(rejects=True))
            self._committed = self._checkpoint.counts()
            self._db.execute("BEGIN IMMEDIATE")
            self._run = self._checkpoint.start_run(run_options or {})
        except BaseException:
            self._release()  # a refused folder stays free for the next attempt
            raise

    @property
    def index(self) -> OpenIndex:
        """The dedup index this corpus decides against."""
        assert self._dedup is not None, "the corpus is closed"
        return self._dedup

    @property
    def dedup_options(self) -> DedupOptions:
        """The options the index checks with: the Processor's fingerprints must match them."""
        return self.index_factory.options

    def admit(self, page: Page) -> Rejection | None:
        """None when ``page`` should be processed; a ``dedup/url`` Rejection when its URL was."""
        if self.index.admit(page.url_key):
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
        if isinstance(result, Document) and result.edits:
            self._pending.update(result.edits)
        verdict = self.index.check(result, revisit)
        if verdict.document is not None:
            self._write(verdict.document)
            return None
        rejection = _rejection(result, verdict)
        self._pending[f"rejected/{rejection.reason}"] += 1
        if self.options.keep_rejects:
            self._rejects.write(rejection.stage, rejection.to_record(self.out_dir))
        return rejection.reason

    @names_disk_full
    def _write(self, doc: Document) -> None:
        self._writer.write(doc.lang, doc.to_record(self.out_dir))
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

    @names_disk_full
    def commit(self) -> None:
        """Make everything added so far durable, together; see the module docstring."""
        self._commit()
        self._db.execute("BEGIN IMMEDIATE")

    def _commit(self) -> None:
        self._checkpoint.begin_undo_log()
        self._checkpoint.save_shards(self._writer.flush())
        self._checkpoint.save_shards(self._rejects.flush(), rejects=True)
        self._checkpoint.save_positions(list(self._positions.values()))
        self._checkpoint.add_counts(self._pending)
        self.index.prepare()
        self._db.execute("COMMIT")
        self.index.committed()
        self._committed.update(self._pending)
        self._pending.clear()
        self._positions.clear()
        self._writer.publish()
        self._rejects.publish()
        manifest = self.manifest()
        _replace_text(self.layout.manifest, json.dumps(manifest, indent=2, ensure_ascii=False))
        write_card(self.layout, manifest)

    @names_disk_full
    def close(self, status: str = "done") -> None:
        """Commit, finish every open shard, and release the folder."""
        if self._closed:
            return
        self._writer.finish_all()
        self._rejects.finish_all()
        self._checkpoint.end_run(self._run, status)
        self._commit()
        self._release()

    def abort(self) -> None:
        """Release the folder without committing: the next open restores the last commit."""
        if not self._closed:
            # The error that ended the run is the one to report: after a failed COMMIT (a
            # full disk) no transaction is left to roll back.
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            self.index.release()  # what was not committed stops blocking other workers
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

    def _check_settings(self) -> None:
        for name in ("compression", "format"):
            mine = getattr(self.options, name)
            # A corpus from before formats were chosen is JSONL.
            first = FORMAT_DEFAULT if name == "format" and self._checkpoint.shards() else mine
            stored = self._checkpoint.setting(name, first)
            if stored != mine:
                raise CorpusMismatchError(
                    f"{self.out_dir} holds {stored} shards; pass --{name} {stored}"
                    " or write to another folder")

    def _check_recipe(self, recipe: dict[str, Any] | None) -> None:
        """Refuse a run whose recipe (the settings that decide what the corpus holds: the
        processing steps with every option, the statuses read) differs from the first run's."""
        if recipe is None:
            return
        given = json.dumps(recipe, sort_keys=True)
        stored = json.loads(self._checkpoint.setting("recipe", given))
        difference = first_difference(stored, json.loads(given))
        if difference:
            raise CorpusMismatchError(
                f"{self.out_dir} was written with other settings ({difference}): run with the "
                "settings of its first run, or write to another folder")

    def _release(self) -> None:
        if self._closed:
            return
        # Marked first: a second Ctrl-C landing inside the release (the database already
        # closed, the flag not yet set) must not send abort() to a closed database.
        self._closed = True
        try:
            if self._dedup is not None:
                self._dedup.close()
            with suppress(OSError):  # a full disk fails the flush of a shard being closed
                self._writer.close()
                self._rejects.close()
        finally:
            self._db.close()
            os.close(self._lock)


def build_manifest(checkpoint: Checkpoint, options: CorpusOptions) -> dict[str, Any]:
    """Counts per language, rejections per reason, markup cuts per reason, shards, inputs and
    runs."""
    counts = checkpoint.counts()
    ending = options.record_format().suffix
    languages: dict[str, Any] = {}
    for state in checkpoint.shards():
        entry = languages.setdefault(state.lang, {
            "documents": counts[f"documents/{state.lang}"],
            "words": counts[f"words/{state.lang}"], "shards": []})
        entry["shards"].append(_shard_entry(state, ending))
    rejects: dict[str, Any] = {}
    for state in checkpoint.shards(rejects=True):
        rejects.setdefault(state.lang, []).append(_shard_entry(state, ending, f"{REJECTS}/"))
    prefixed = _by_prefix(counts)
    runs = checkpoint.runs()
    return {
        "schema": SCHEMA_VERSION, "corpusbot": __version__, "updated": now(),
        "format": options.format, "compression": options.compression,
        "documents": counts["documents"], "pages": counts["pages"],
        "languages": dict(sorted(languages.items())),
        "rejections": prefixed.get("rejected", {}), "rejects": rejects,
        "archive": prefixed.get("archive", {}),
        "html": prefixed.get("html", {}),
        "inputs": [{"path": p.path, "offset": p.offset, "done": p.done}
                   for p in checkpoint.positions()],
        "options": _dedup_once(runs[-1]["options"]) if runs else {},
        "runs": [_run_listed(run, runs[-1]["options"]) for run in runs],
    }


def _shard_entry(state: ShardState, ending: str, folder: str = "") -> dict[str, Any]:
    return {"file": folder + state.name(ending), "documents": state.documents,
            "bytes": state.length, "complete": state.finished}


def _rejection(result: Document | Rejection, verdict: Verdict) -> Rejection:
    """What was not kept, as a Rejection: the Processor's own, or the dedup index's verdict
    on a document, naming the kept document it duplicates where the index knows it."""
    if isinstance(result, Rejection):
        return result
    return Rejection(url=result.url, reason=verdict.reason or "dedup", source=result.source,
                     record_id=result.record_id, offset=result.offset, url_key=result.url_key,
                     text=result.text, duplicate_of=verdict.duplicate_of)


def _replace_text(target: Path, text: str) -> None:
    """Write ``target`` whole or not at all (readers never see half a file)."""
    temporary = target.with_name(target.name + ".tmp")
    temporary.write_text(text + "\n", encoding="utf-8")
    os.replace(temporary, target)


def first_difference(stored: Any, given: Any, where: str = "") -> str | None:
    """The first place two JSON values differ, as ``where: stored -> given``; None when equal."""
    if isinstance(stored, dict) and isinstance(given, dict):
        for key in sorted(stored.keys() | given.keys()):
            found = first_difference(stored.get(key), given.get(key), f"{where}.{key}".lstrip("."))
            if found:
                return found
        return None
    if isinstance(stored, list) and isinstance(given, list) and len(stored) == len(given):
        for index, (old, new) in enumerate(zip(stored, given, strict=True)):
            label = old.get("step", index) if isinstance(old, dict) else index
            found = first_difference(old, new, f"{where}[{label}]")
            if found:
                return found
        return None
    return None if stored == given else f"{where or 'settings'}: {stored!r} then, {given!r} now"


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


def _index_factory(options: CorpusOptions, index: IndexFactory | None) -> IndexFactory:
    """The index handed in, which must be the one the options name; by default that one with
    default dedup options."""
    if index is None:
        return open_index(options.dedup, DedupOptions())
    if index.url != options.dedup:
        raise ValueError(f"the corpus options name the dedup index {options.dedup!r}, "
                         f"the index handed in is {index.url!r}")
    return index


def _open_database(state: Path) -> sqlite3.Connection:
    """The state database, in rollback-journal mode (an SQLite index is attached to it, and
    SQLite commits a transaction over attached databases atomically only without WAL)."""
    connection = sqlite3.connect(state, isolation_level=None, check_same_thread=False)
    connection.execute("PRAGMA journal_mode = DELETE")
    connection.execute("PRAGMA synchronous = FULL")
    connection.execute(f"PRAGMA cache_size = -{_CACHE_KIB}")
    return connection
