"""Byte ranges of large archive files, cut at record starts, so that one file is many tasks.

    parts = split(Path("big.warc.gz"), range_bytes=256 << 20)
    for part in parts:
        part.start, part.end, part.key      # offsets, and the name its position is saved under

A file no larger than ``range_bytes`` is one range, the whole file. A
larger one is cut about every ``range_bytes``: each cut is moved forward to
the next record start, found by the reader's resynchronisation scan (a gzip
member that inflates to a record header in ``.warc.gz``/``.arc.gz``, a
``WARC/1.`` or ARC header line in uncompressed files), and kept only when a
whole record reads from there and ends where another record starts or the
file ends: a ``WARC/1.0`` line quoted inside a payload is not a cut.

A record belongs to the range its first byte is in. The reader, given a
range's ``end``, reads no record that starts at or after it, and reads the
record that crosses it to its end; so the ranges of a file hold each of its
records exactly once. A file compressed as one gzip stream has no member
starts to cut at and stays one range.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from warcio.recordloader import ArcWarcRecord

from corpusbot.archive.bounded import bounded_iterator
from corpusbot.archive.reader import READ_BLOCK, names_a_uri
from corpusbot.archive.sniff import is_gzipped, next_record_start

logger = logging.getLogger(__name__)

_WITHOUT_URI = frozenset({"warcinfo", "arc_header"})

RANGE_BYTES_DEFAULT = 256 << 20
"""Bytes per range. A Common Crawl WARC file (about 1 GiB, 30,000-45,000 pages) becomes
four tasks of about 10,000 pages, a minute or two of one core at 100-150 pages/s. A task's
fixed cost (its corpus folder, the Redis journal, its page process and that process's
warm-up) measured about 0.5 CPU-seconds (benchmarks/dask_scaling.py --one-file --pages 600:
22.6 CPU-seconds in 6 ranges against 20.0 as one task), under 1 % of such a task. Smaller
ranges spread a few files over more workers and pay that cost more often."""


@dataclass(slots=True, frozen=True)
class ByteRange:
    """The records of ``path`` that start in ``[start, end)``; ``end`` None is the whole file."""

    path: Path
    start: int = 0
    end: int | None = None

    @property
    def whole(self) -> bool:
        """Whether this is the whole file rather than a part of it."""
        return self.start == 0 and self.end is None

    @property
    def key(self) -> str:
        """The name the input's position is saved under: the file's path, plus the range."""
        resolved = str(self.path.resolve())
        return resolved if self.whole else f"{resolved}#bytes={self.start}-{self.end}"

    def __str__(self) -> str:
        return str(self.path) if self.whole else f"{self.path} [{self.start}:{self.end}]"


def split(path: Path, range_bytes: int = RANGE_BYTES_DEFAULT) -> list[ByteRange]:
    """``path`` as ranges of at least ``range_bytes`` (the last may be shorter), cut at
    record starts; one whole-file range when it is not larger or cannot be cut."""
    if range_bytes < 1:
        raise ValueError(f"a range must be 1 byte or more, got {range_bytes}")
    try:
        size = path.stat().st_size
        if size <= range_bytes:
            return [ByteRange(path)]
        with open(path, "rb") as handle:
            cuts = _cuts(handle, str(path), size, range_bytes)
    except OSError:  # the task that reads it reports the file as unreadable
        return [ByteRange(path)]
    if len(cuts) == 1:
        return [ByteRange(path)]
    ends = [*cuts[1:], size]
    return [ByteRange(path, start, end) for start, end in zip(cuts, ends, strict=True)]


def _cuts(handle: BinaryIO, source: str, size: int, range_bytes: int) -> list[int]:
    """The range starts: 0, then the first verified record start ``range_bytes`` or more
    after the previous one, until none is left."""
    gzipped = is_gzipped(handle, source)
    cuts = [0]
    while cuts[-1] + range_bytes < size:
        start = verified_record_start(handle, cuts[-1] + range_bytes, gzipped)
        if start is None:
            break
        cuts.append(start)
    return cuts


def verified_record_start(handle: BinaryIO, position: int, gzipped: bool) -> int | None:
    """The first offset at or after ``position`` where a whole record reads and ends at the
    next record or the file's end; None when there is none."""
    while (candidate := next_record_start(handle, position, gzipped)) is not None:
        if _reads_whole_record(handle, candidate, gzipped):
            return candidate
        position = candidate + 1
    return None


def _reads_whole_record(handle: BinaryIO, offset: int, gzipped: bool) -> bool:
    """Whether a record starting at ``offset`` reads to its declared end, followed by the
    end of the file or another record."""
    if not gzipped and offset > 0 and os.pread(handle.fileno(), 1, offset - 1) != b"\n":
        return False  # an uncompressed record starts a line
    handle.seek(offset)
    records = bounded_iterator(handle, READ_BLOCK, gzipped)
    try:
        first = next(records, None)
        if first is None or not _plausible(first):
            return False
        records.get_record_offset()  # drains the record
        if getattr(first.raw_stream, "limit", 0) > 0:
            return False  # its Content-Length runs past its member or the file
        second = next(records, None)  # the next record's headers parse, or the file ends
    except Exception:  # whatever the bytes there make warcio raise: not a record start
        return False
    return second is None or _plausible(second)


def _plausible(record: ArcWarcRecord) -> bool:
    """Every WARC record but ``warcinfo`` names its target URI, and so does every ARC one."""
    return record.rec_type in _WITHOUT_URI or names_a_uri(record)
