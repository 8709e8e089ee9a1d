"""warcio's readers with bounds: no inflation past a limit, no endless line, no silent cut.

warcio's ``BufferedReader`` has three behaviours that let a damaged or
hostile archive cost more than its own damaged part:

- ``readline`` grows a line until it sees a newline, so a gzip member that
  inflates to gigabytes of zeros (a decompression bomb) is read into one
  line in memory before any parser sees it;
- a member is inflated to its end however large, so a bomb record is drained
  for minutes;
- a gzip error after the first block is written to stderr and the stream
  then reads as ended: the records after the damage are silently lost.

The subclasses here raise ``ArchiveDamage`` (or ``RecordTooLarge``) instead,
which the reader counts and recovers from by resynchronising at the next
record boundary.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable

from warcio.archiveiterator import ArchiveIterator
from warcio.bufferedreaders import BufferedReader, ChunkedDataReader, DecompressingBufferedReader
from warcio.recordloader import ArcWarcRecord

try:
    import brotli
except ImportError:  # optional, as in warcio: brotli pages are then skipped
    brotli = None

_ZLIB_TYPE = type(zlib.decompressobj())
_INFLATE_ERRORS: tuple[type[Exception], ...] = (zlib.error,) + ((brotli.error,) if brotli
                                                                else ())


class _Brotli:
    """brotli's decompressor in zlib's shape, output bounded: warcio's own wrapper calls
    ``decompress`` and sets ``unused_data``, which brotli's Decompressor (1.1 and later,
    ``process``) lacks, so every brotli page read as damage."""

    unused_data = b""

    def __init__(self) -> None:
        self._decompressor = brotli.Decompressor()

    def decompress(self, data: bytes, max_length: int = 0) -> bytes:
        if max_length:
            return self._decompressor.process(data, output_buffer_limit=max_length)
        return self._decompressor.process(data)

    def flush(self) -> bytes:
        return b""

MAX_LINE_BYTES = 1 << 20
"""A WARC, ARC or HTTP header line longer than 1 MiB is damage: real header lines
(cookies and long URLs included) stay under 64 KiB, and the cap bounds the memory a
line of bomb zeros can take."""
MAX_RECORD_BYTES_DEFAULT = 1 << 28
"""Inflated bytes of one gzip member (one record) past which it is skipped unread:
inflated at ~100 MB/s this is a few seconds, where a 10 MB bomb of 10 GiB would take
minutes. Records that large are video and software, never pages; the reader skips
them by resynchronising at the next gzip member, without inflating them."""
INFLATE_STEP = 1 << 22
"""The most one read of the archive inflates at once: a 64 KiB block of a bomb inflates
to ~64 MiB in one call (and warcio copies it into its buffer), so the rest of the block
waits as zlib's unconsumed input for the next read."""


class ArchiveDamage(ValueError):
    """Bytes that cannot be a well-formed record: the reader resynchronises after them."""


class RecordTooLarge(ArchiveDamage):
    """A record that inflates past the record limit; skipped, not counted as damage."""


class PayloadDamage(ArchiveDamage):
    """A record's HTTP payload whose gzip or deflate encoding is broken: the record is
    skipped, the archive around it is sound."""


class PayloadTooLarge(ArchiveDamage):
    """A record's HTTP payload that inflates past the body limit: the page is too large."""


class _Strict:
    """Inflation errors raised instead of ending the stream quietly (mixed into warcio's
    readers, whose ``_decompress`` they replace), and inflation bounded by its output.

    warcio hands ``_decompress`` a whole HTTP chunk at a time, however large, so a
    chunk of a few MB can inflate to gigabytes in one call: each call here inflates
    at most what is left of ``max_output`` (plus one byte, to tell "exactly the limit"
    from "past it") and raises ``PayloadTooLarge`` past it.
    """

    DECOMPRESSORS = ({**BufferedReader.DECOMPRESSORS, "br": _Brotli} if brotli
                     else BufferedReader.DECOMPRESSORS)
    decompressor: object
    decomp_type: str | None
    num_block_read: int
    num_read: int
    lenient_first_block: bool = True
    damage: type[ArchiveDamage] = PayloadDamage
    max_output: int | None = None

    def _decompress(self, data: bytes) -> bytes:
        if not self.decompressor or not data:
            return data
        try:
            return self._inflate(data)
        except _INFLATE_ERRORS as error:
            if self.num_block_read == 0 and self.decomp_type == "deflate":
                # Raw deflate, without the zlib header: warcio's second try.
                self._init_decomp("deflate_alt")  # type: ignore[attr-defined]
                return self._decompress(data)
            if (self.num_block_read == 0 and self.lenient_first_block
                    and not data.startswith(b"\x1f\x8b")):
                # Served as compressed but not: read raw, as warcio and browsers do.
                self.decompressor = None
                return data
            raise self.damage(f"compressed data is broken: {error}") from None

    def _inflate(self, data: bytes) -> bytes:
        if self.max_output is None or not isinstance(self.decompressor, _ZLIB_TYPE | _Brotli):
            return self.decompressor.decompress(data)  # type: ignore[attr-defined]
        budget = max(self.max_output - self.num_read, 0) + 1
        inflated = self.decompressor.decompress(data, budget)
        if len(inflated) >= budget:
            raise PayloadTooLarge(f"a payload inflates past {self.max_output} bytes")
        return inflated


class BoundedArchiveReader(_Strict, DecompressingBufferedReader):
    """The reader under ``ArchiveIterator``: strict gzip, bounded lines and members."""

    lenient_first_block = False
    damage = ArchiveDamage

    def __init__(self, stream: object, block_size: int, gzipped: bool,
                 max_record_bytes: int) -> None:
        super().__init__(stream, block_size=block_size, decomp_type="gzip" if gzipped else None)
        self.max_record_bytes = max_record_bytes
        self.member_bytes = 0
        # warcio starts a record where the record before it ended, so the record after an
        # empty gzip member (legal, and some writers leave them) would start inside it.
        self.after_empty_member: Callable[[], None] | None = None

    def _inflate(self, data: bytes) -> bytes:
        if not isinstance(self.decompressor, _ZLIB_TYPE):
            return super()._inflate(data)
        inflated = self.decompressor.decompress(data, INFLATE_STEP)
        # warcio's next fill takes ``starting_data`` before the stream; the tail has left
        # the file already, so offsets (file position less unused data) stay right.
        self.starting_data = self.decompressor.unconsumed_tail or None
        return inflated

    def _process_read(self, data: bytes) -> None:
        super()._process_read(data)  # type: ignore[misc]
        if self.decompressor:
            self.member_bytes += self.buff_size
            if self.member_bytes > self.max_record_bytes:
                raise RecordTooLarge(f"a record inflates past {self.max_record_bytes} bytes")

    def read_next_member(self) -> bool:
        ended_empty = self.member_bytes == 0
        self.member_bytes = 0
        found = super().read_next_member()
        if found and ended_empty and self.after_empty_member is not None:
            self.after_empty_member()
        return found

    def readline(self, length: int | None = None) -> bytes:
        # warcio's readline can return part of a long line without its newline (it
        # miscounts what is left at block boundaries): read on until the newline or the cap.
        cap = MAX_LINE_BYTES if not length or length > MAX_LINE_BYTES else length
        parts, size = [], 0
        while size < cap and (part := super().readline(cap - size)):
            parts.append(part)
            size += len(part)
            if part.endswith(b"\n"):
                break
        line = b"".join(parts)
        if size >= MAX_LINE_BYTES and not line.endswith(b"\n"):
            raise ArchiveDamage(f"a header line runs past {MAX_LINE_BYTES} bytes")
        return line


class _StrictChunked(_Strict, ChunkedDataReader):
    pass


class _StrictBuffered(_Strict, BufferedReader):
    pass


def bounded_iterator(handle: object, block_size: int, gzipped: bool,
                     max_record_bytes: int = MAX_RECORD_BYTES_DEFAULT,
                     check_digests: bool = False) -> ArchiveIterator:
    """An ``ArchiveIterator`` over ``handle`` reading through ``BoundedArchiveReader``;
    with ``check_digests`` each record's ``digest_checker`` tells, once the record is read
    to its end, whether its WARC-Block-Digest and WARC-Payload-Digest matched."""
    records = ArchiveIterator(handle, arc2warc=True, block_size=block_size,
                              check_digests=check_digests)
    reader = records.reader = BoundedArchiveReader(records.fh, block_size, gzipped,
                                                   max_record_bytes)

    def next_member_starts_here() -> None:
        # what the file gave past the empty member waits in ``starting_data``
        records.offset = (records.fh.tell() - reader.rem_length()
                          - len(reader.starting_data or b""))

    reader.after_empty_member = next_member_starts_here
    return records


def content_stream(record: ArcWarcRecord, max_bytes: int | None = None) -> object:
    """The record's payload with transfer and content encodings undone, as warcio's
    ``content_stream``, except that a broken gzip or deflate payload raises
    ``ArchiveDamage`` rather than reading as a shorter page, and one that inflates past
    ``max_bytes`` raises ``PayloadTooLarge`` before more than that is inflated."""
    headers = record.http_headers
    if not headers:
        return record.raw_stream
    encoding = (headers.get_header("content-encoding") or "").lower() or None
    if encoding not in BufferedReader.get_supported_decompressors():
        encoding = None
    stream: _Strict
    if headers.get_header("transfer-encoding") == "chunked":
        stream = _StrictChunked(record.raw_stream, decomp_type=encoding)
    elif encoding:
        stream = _StrictBuffered(record.raw_stream, decomp_type=encoding)
    else:
        return record.raw_stream
    stream.max_output = max_bytes
    return stream
