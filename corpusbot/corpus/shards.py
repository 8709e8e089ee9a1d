"""Per-language JSONL shards: compression, rotation by size, and crash-safe commits.

Layout: ``OUT/<lang>/<lang>-<NNNNN>.jsonl.gz`` (``.jsonl.zst`` with zstd,
``.jsonl`` plain). A shard being written is named ``….part``; every commit
ends the current compression member (gzip members and zstd frames
concatenate into one valid stream), syncs the file and reports its length,
which the owner stores in the same transaction as the dedup index and the
checkpoint. A shard past ``shard_bytes`` of JSONL (uncompressed, so the
layout is the same for every codec) is finished, and renamed to its final
name once the commit that covers it is durable.

``restore`` is the recovery after a crash, driven by the stored states:
cut each ``.part`` back to its committed length, finish the renames a crash
interrupted, and delete parts the last commit never saw. It is idempotent.
"""

from __future__ import annotations

import logging
import os
import re
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Protocol

logger = logging.getLogger(__name__)

_LANGUAGE_CODE = re.compile(r"[a-z]{2,3}")
UNDETERMINED = "und"

SHARD_BYTES_DEFAULT = 256 * 1024 * 1024
"""JSONL bytes per shard before rotation (gzip makes that about a third on disk)."""
COMPRESSIONS = {"gzip": ".jsonl.gz", "zstd": ".jsonl.zst", "none": ".jsonl"}
COMPRESSION_DEFAULT = "gzip"
PART_SUFFIX = ".part"
GZIP_LEVEL = 6
ZSTD_LEVEL = 3


class _Compressor(Protocol):
    def compress(self, data: bytes) -> bytes: ...
    def flush(self) -> bytes: ...


class _Identity:
    def compress(self, data: bytes) -> bytes:
        return data

    def flush(self) -> bytes:
        return b""


def check_codec(compression: str) -> None:
    """Raise ValueError with the install command when ``compression`` needs a missing package.

    Checked when the options are made, so that a run without the package
    stops before it writes a shard or a state file.
    """
    if compression != "zstd":
        return
    try:
        import zstandard  # noqa: F401, PLC0415
    except ImportError:
        raise ValueError("zstd compression needs the zstandard package: "
                         "pip install 'corpusbot[zstd]', or choose gzip") from None


def _compressor(compression: str) -> _Compressor:
    """A fresh compressor whose ``flush`` ends one complete member (gzip) or frame (zstd)."""
    if compression == "gzip":
        return zlib.compressobj(GZIP_LEVEL, zlib.DEFLATED, 31)
    if compression == "zstd":
        import zstandard  # optional dependency: corpusbot[zstd]  # noqa: PLC0415

        return zstandard.ZstdCompressor(level=ZSTD_LEVEL).compressobj()
    return _Identity()


@dataclass(slots=True)
class ShardState:
    """What a commit records of one shard: enough to restore or name it."""

    lang: str
    number: int
    length: int = 0
    documents: int = 0
    jsonl_bytes: int = 0
    finished: bool = False

    def name(self, compression: str) -> str:
        """The final file name, relative to the corpus folder."""
        return f"{self.lang}/{self.lang}-{self.number:05d}{COMPRESSIONS[compression]}"


class _OpenShard:
    """One ``.part`` file being appended to, and its current compression member."""

    __slots__ = ("compressor", "file", "state", "unflushed", "written")

    def __init__(self, state: ShardState, file: BinaryIO, compression: str) -> None:
        self.state, self.file = state, file
        self.compressor = _compressor(compression)
        self.written = state.jsonl_bytes  # JSONL bytes in this shard, committed or not
        self.unflushed = 0  # documents since the last member ended


class ShardWriter:
    """Writes JSONL lines into per-language shards; see the module docstring."""

    def __init__(self, out_dir: Path, compression: str = COMPRESSION_DEFAULT,
                 shard_bytes: int = SHARD_BYTES_DEFAULT) -> None:
        if compression not in COMPRESSIONS:
            raise ValueError(f"unknown compression {compression!r}; choose {sorted(COMPRESSIONS)}")
        self.out_dir, self.compression, self.shard_bytes = out_dir, compression, shard_bytes
        self._open: dict[str, _OpenShard] = {}
        self._finished: list[ShardState] = []  # finished since the last commit: rename after it
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

    def write(self, lang: str, line: bytes) -> None:
        """Append one JSONL line to the open shard of ``lang``, rotating it when full.

        ``lang`` names a folder and a file: anything but a language code (the
        language identifier gives only codes, but a sink trusts no caller with a
        path) goes to ``und``.
        """
        lang = lang if _LANGUAGE_CODE.fullmatch(lang) else UNDETERMINED
        shard = self._open.get(lang) or self._start(lang)
        shard.file.write(shard.compressor.compress(line))
        shard.written += len(line)
        shard.unflushed += 1
        if shard.written >= self.shard_bytes:
            self._finish(shard)

    def flush(self) -> list[ShardState]:
        """End every member, sync the files; the states a commit must record."""
        for shard in self._open.values():
            self._end_member(shard)
        return [s.state for s in self._open.values()] + self._finished

    def publish(self) -> None:
        """Rename the shards finished before the last commit; call after it is durable."""
        for state in self._finished:
            os.replace(self._part(state), self.out_dir / state.name(self.compression))
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

    def _start(self, lang: str) -> _OpenShard:
        number = self._numbers.get(lang, 0) + 1
        self._numbers[lang] = number
        state = ShardState(lang, number)
        part = self._part(state)
        part.parent.mkdir(parents=True, exist_ok=True)
        shard = _OpenShard(state, open(part, "wb"), self.compression)
        self._open[lang] = shard
        return shard

    def _finish(self, shard: _OpenShard) -> None:
        self._end_member(shard)
        shard.file.close()
        shard.state.finished = True
        self._finished.append(shard.state)
        del self._open[shard.state.lang]

    def _end_member(self, shard: _OpenShard) -> None:
        if shard.unflushed:
            shard.file.write(shard.compressor.flush())
            shard.compressor = _compressor(self.compression)
            shard.state.documents += shard.unflushed
            shard.state.jsonl_bytes = shard.written
            shard.unflushed = 0
        shard.file.flush()
        os.fsync(shard.file.fileno())
        shard.state.length = shard.file.tell()

    def _roll_forward(self, state: ShardState, part: Path) -> None:
        final = self.out_dir / state.name(self.compression)
        if part.exists():
            _truncate(part, state.length)
            os.replace(part, final)
        elif not final.exists():
            logger.error("shard %s is missing: it was committed but deleted since", final)

    def _reopen(self, state: ShardState, part: Path) -> None:
        if not part.exists():
            logger.error("open shard %s is missing; its committed documents are lost", part)
            return
        _truncate(part, state.length)
        self._open[state.lang] = _OpenShard(state, open(part, "ab"), self.compression)

    def _part(self, state: ShardState) -> Path:
        return self.out_dir / (state.name(self.compression) + PART_SUFFIX)


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
