"""Per-key shards (a language, or a rejection stage): rotation by size, crash-safe commits.

Layout: ``<folder>/<key>/<key>-<NNNNN><ending>``, the ending the record
format's (``.jsonl.gz``, ``.parquet``; ``corpusbot.corpus.formats``). A
shard being written is named ``….part``; every commit asks the format's
writer to end what it buffered (a gzip member, a zstd frame), syncs the
file and reports its length, which the owner stores in the same
transaction as the dedup index and the checkpoint. A shard past
``shard_bytes`` of JSON-encoded records (before compression, so that the
layout is the same for every codec and format) is finished, and published
under its final name (``RecordFormat.complete``) once the commit that
covers it is durable.

``restore`` is the recovery after a crash, driven by the stored states:
cut each ``.part`` back to its committed length, finish the publications a
crash interrupted, and delete parts the last commit never saw. It is
idempotent.
"""

from __future__ import annotations

import logging
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from corpusbot.corpus.formats.base import RecordFormat, RecordWriter
from corpusbot.corpus.layout import PART_SUFFIX, shard_name

logger = logging.getLogger(__name__)

LANGUAGE_KEY = re.compile(r"[a-z]{2,3}")
UNDETERMINED = "und"

SHARD_BYTES_DEFAULT = 256 * 1024 * 1024
"""Record bytes (JSON) per shard before rotation (gzip makes that about a third on disk)."""
COMPRESSIONS = ("gzip", "zstd", "none")
COMPRESSION_DEFAULT = "gzip"


@dataclass(slots=True)
class ShardState:
    """What a commit records of one shard: enough to restore or name it.
    ``jsonl_bytes``: the JSON bytes of its records, what rotation measures."""

    lang: str
    number: int
    length: int = 0
    documents: int = 0
    jsonl_bytes: int = 0
    finished: bool = False

    def name(self, ending: str) -> str:
        """The published file name, relative to the shards' folder."""
        return shard_name(self.lang, self.number, ending)


class _OpenShard:
    """One ``.part`` file being appended to, through its format's writer."""

    __slots__ = ("file", "records", "state", "unflushed", "written")

    def __init__(self, state: ShardState, file: BinaryIO, records: RecordWriter) -> None:
        self.state, self.file, self.records = state, file, records
        self.written = state.jsonl_bytes  # record bytes in this shard, committed or not
        self.unflushed = 0  # records since the last commit


class ShardWriter:
    """Writes records into per-key shards; see the module docstring.

    ``key_pattern`` says which keys may name a folder; any other goes to ``fallback``
    (a sink trusts no caller with a path)."""

    def __init__(self, out_dir: Path, record_format: RecordFormat,
                 shard_bytes: int = SHARD_BYTES_DEFAULT,
                 key_pattern: re.Pattern[str] = LANGUAGE_KEY, fallback: str = UNDETERMINED) -> None:
        self.out_dir, self.format, self.shard_bytes = Path(out_dir), record_format, shard_bytes
        self.key_pattern, self.fallback = key_pattern, fallback
        self._open: dict[str, _OpenShard] = {}
        self._finished: list[ShardState] = []  # finished since the last commit: publish after it
        self._numbers: dict[str, int] = {}

    def restore(self, states: list[ShardState]) -> None:
        """Bring the folder back to the committed states (after a crash, or a clean stop)."""
        known = set()
        for state in states:
            self._numbers[state.lang] = max(self._numbers.get(state.lang, 0), state.number)
            part = self._part(state)
            known.add(part)
            if state.finished:
                self._roll_forward(state, part)
            else:
                self._reopen(state, part)
        for stray in self.out_dir.glob(f"*/*{PART_SUFFIX}"):
            if stray not in known:
                logger.info("removing %s, written after the last commit", stray)
                stray.unlink()

    def write(self, key: str, record: dict) -> None:
        """Append one record to the open shard of ``key``, rotating it when full."""
        key = key if self.key_pattern.fullmatch(key) else self.fallback
        shard = self._open.get(key) or self._start(key)
        shard.written += shard.records.write(record)
        shard.unflushed += 1
        if shard.written >= self.shard_bytes:
            self._finish(shard)

    def flush(self) -> list[ShardState]:
        """End what every writer buffered, sync the files; the states a commit must record."""
        for shard in self._open.values():
            self._end(shard)
        return [s.state for s in self._open.values()] + self._finished

    def publish(self) -> None:
        """Publish the shards finished before the last commit; call after it is durable."""
        for state in self._finished:
            self.format.complete(self._part(state), self.out_dir / state.name(self.format.suffix))
        if self._finished:
            _sync_dirs({self.out_dir / s.lang for s in self._finished})
        self._finished.clear()

    def finish_all(self) -> None:
        """Finish every open shard (end of a run); commit, then ``publish``."""
        for shard in list(self._open.values()):
            self._finish(shard)

    def close(self) -> None:
        """Close the files without finishing anything (what the last commit holds stays)."""
        for shard in self._open.values():
            shard.file.close()
        self._open.clear()

    def _start(self, key: str) -> _OpenShard:
        number = self._numbers.get(key, 0) + 1
        self._numbers[key] = number
        return self._attach(ShardState(key, number), "wb")

    def _attach(self, state: ShardState, mode: str) -> _OpenShard:
        part = self._part(state)
        part.parent.mkdir(parents=True, exist_ok=True)
        file = open(part, mode)
        shard = _OpenShard(state, file, self.format.writer(file))
        self._open[state.lang] = shard
        return shard

    def _finish(self, shard: _OpenShard) -> None:
        self._end(shard)
        shard.file.close()
        shard.state.finished = True
        self._finished.append(shard.state)
        del self._open[shard.state.lang]

    def _end(self, shard: _OpenShard) -> None:
        if shard.unflushed:
            shard.records.end()
            shard.state.documents += shard.unflushed
            shard.state.jsonl_bytes = shard.written
            shard.unflushed = 0
        shard.file.flush()
        os.fsync(shard.file.fileno())
        shard.state.length = shard.file.tell()

    def _roll_forward(self, state: ShardState, part: Path) -> None:
        final = self.out_dir / state.name(self.format.suffix)
        if part.exists():
            _truncate(part, state.length)
            self.format.complete(part, final)
        elif not final.exists():
            logger.error("shard %s is missing: it was committed but deleted since", final)

    def _reopen(self, state: ShardState, part: Path) -> None:
        if not part.exists():
            logger.error("open shard %s is missing; its committed records are lost", part)
            return
        _truncate(part, state.length)
        self._attach(state, "ab")

    def _part(self, state: ShardState) -> Path:
        return self.out_dir / (state.name(self.format.suffix) + PART_SUFFIX)


def _truncate(path: Path, length: int) -> None:
    size = path.stat().st_size
    if size < length:
        raise OSError(f"{path} holds {size} bytes but {length} were committed: the disk lost data")
    if size > length:
        logger.info("cutting %s back to its committed %d bytes", path, length)
        os.truncate(path, length)


def _sync_dirs(folders: set[Path]) -> None:
    # A rename is durable once its directory entry is.
    for folder in folders:
        descriptor = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
