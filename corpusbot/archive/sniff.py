"""Telling archives by their bytes: the one place that knows what a WARC or ARC file looks like.

Two questions, answered differently on purpose:

- ``not_an_archive``: is this input an archive at all? Asked once per input,
  before reading, by the commands. Lenient: any record mark in the first
  bytes (a ``WARC/`` version line of any version, an ARC ``filedesc://``
  record), or a gzip start that cannot be inflated, leaves the file to the
  reader, which counts its damage; only inputs that are plainly something
  else (an HTML page, a README renamed ``.warc``) are named.
- ``next_record_start``: where does the next record start after damage?
  (and, for an uncompressed WARC record, ``warc_boundary_at`` its end and
  ``warc_record_inside`` it: does its Content-Length run over the next?)
  Asked by the reader and the range splitter inside a file known to be an
  archive. Strict: a WARC 1.0/1.1 header line or a whole ARC record header
  line, and in a gzipped file a gzip member that inflates to one, since the
  magic bytes also occur by chance inside compressed data.
"""

from __future__ import annotations

import os
import re
import zlib
from pathlib import Path
from typing import BinaryIO

SNIFF_BYTES = 4096
"""Bytes read from the start of an input to tell an archive from anything else."""
GZIP_MAGIC = b"\x1f\x8b\x08"
"""A gzip member's first bytes: the magic and deflate, the only method gzip defines."""

# Any record mark: one anywhere in the first bytes (after some damage) makes the
# file the reader's.
_RECORD_MARK = re.compile(rb"(?:^|\n)(?:WARC/\d|filedesc://)")
# A record's own first line, to resynchronise on.
_WARC_START = re.compile(rb"(?:^|\n)(WARC/1\.[01]\r?\n)")
_ARC_START = re.compile(rb"(?:^|\n)(\S+ \d{1,3}(?:\.\d{1,3}){3} \d{14} \S* \d+\n)")
# Where records meet in an uncompressed WARC: the blank line that ends the record
# before, the version line, and a header line; and what may follow a record's end.
_INNER_START = re.compile(rb"\r\n\r\n(WARC/1\.[01]\r\n[!-9;-~]+:)")
_BOUNDARY = re.compile(rb"(?:\r?\n)*(?:WARC/1\.[01]\r?\n|\Z)")
_MEMBER_HEAD = 1024
_SCAN_BYTES = 1 << 20


def not_an_archive(path: Path) -> str | None:
    """Why ``path`` is not a WARC or ARC file, or None when it starts like one.

    A gzip file whose start cannot be inflated, or whose first record start
    follows some damage, is left to the reader, which counts the damage: only
    inputs that are plainly something else are named.
    """
    with path.open("rb") as handle:
        head = handle.read(SNIFF_BYTES)
    if not head:
        return "it is empty"
    if head.startswith(GZIP_MAGIC):
        try:
            head = zlib.decompressobj(31).decompress(head)
        except zlib.error:
            return None
    if _RECORD_MARK.search(head):
        return None
    return f"no WARC or ARC record in its first bytes, which read {head[:24]!r}"


def is_gzipped(handle: BinaryIO, source: str) -> bool:
    """Whether the archive is gzip-compressed: by its name, or its first bytes."""
    handle.seek(0)
    return source.lower().endswith(".gz") or handle.read(len(GZIP_MAGIC)) == GZIP_MAGIC


def next_record_start(handle: BinaryIO, position: int, gzipped: bool) -> int | None:
    """The offset of the next record start at or after ``position``, if any: a gzip
    member that inflates to a record header, or a record header line."""
    handle.seek(position)
    carry = b""
    base = position
    while chunk := handle.read(_SCAN_BYTES):
        window = carry + chunk
        origin = base - len(carry)
        found = (_find_member(handle, window, origin) if gzipped
                 else record_start(window))
        if found is not None:
            return origin + found
        carry = window[-64:]
        base += len(chunk)
    return None


def record_start(window: bytes) -> int | None:
    """Where the first WARC or ARC record header line in ``window`` starts, if any."""
    match = _WARC_START.search(window) or _ARC_START.search(window)
    return match.start(1) if match else None


def _find_member(handle: BinaryIO, window: bytes, origin: int) -> int | None:
    """The first gzip magic in ``window`` whose member starts with a record header; the
    three magic bytes also occur by chance inside compressed data."""
    found = window.find(GZIP_MAGIC)
    while found >= 0:
        head = os.pread(handle.fileno(), _MEMBER_HEAD, origin + found)
        try:
            text = zlib.decompressobj(31).decompress(head, 64)
        except zlib.error:
            text = b""
        if record_start(text) == 0:
            return found
        found = window.find(GZIP_MAGIC, found + 1)
    return None


def warc_boundary_at(fd: int, offset: int) -> bool:
    """Whether a record of an uncompressed WARC may end at ``offset``: blank lines, then
    the next record's version line or the end of the file."""
    return _BOUNDARY.match(os.pread(fd, 64, offset)) is not None


def warc_record_inside(fd: int, start: int, end: int) -> int | None:
    """The offset of the first WARC record start strictly inside [start, end), if any."""
    position = start
    while position < end:
        window = os.pread(fd, min(_SCAN_BYTES, end - position) + 64, position)
        if match := _INNER_START.search(window):
            found = position + match.start(1)
            return found if found < end else None
        position += _SCAN_BYTES
    return None
