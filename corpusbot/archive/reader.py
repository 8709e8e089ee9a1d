"""Read WARC and ARC archives into Pages, streaming, with damage counted and skipped.

    reader = ArchiveReader(ReaderOptions())
    for record in reader.read("crawl.warc.gz", start=0):
        record.page      # a Page to process, or None
        record.skipped   # else why it was passed over: "archive/skipped/status", ...
        record.end       # the offset to resume from after this record

``read(path, start, end)`` reads the records that start in ``[start, end)``
(a byte range of a large file, ``corpusbot.archive.ranges``): ``start``
must be a record start, and the record that crosses ``end`` is read to its
end.

Handles ``.warc``, ``.warc.gz`` (per-record gzip), ``.arc`` and ``.arc.gz``
through warcio, which also undoes chunked transfer encoding and gzip,
deflate (and brotli, when installed) content encoding. Only ``response``
and ``resource`` records with an allowed HTTP status (200 by default)
holding HTML or XHTML become Pages; the type is read from the headers
(HTTP ``Content-Type``, then Common Crawl's ``WARC-Identified-Payload-Type``)
and sniffed from the first bytes when no header names it. Memory stays
constant: one record at a time, each body capped at ``max_body_bytes``.

Any damage (a cut, flipped bytes, a broken gzip member, a header block
warcio cannot parse, a Content-Length that lies, whatever warcio raises on
it) is one ``archive/damaged`` record, logged once with file and offset, and
reading resumes at the next record start found after it: a gzip member
(``1f 8b 08``) that inflates to a record header, or a ``WARC/1.`` or ARC
header line. In an uncompressed WARC file a Content-Length that is too long
but still inside the file would swallow the records after it as payload:
a record whose declared end is not followed by a blank line and the next
record (or the file's end), or whose bytes hold a record start (a blank line,
``WARC/1.x`` and a header line) though it is no WARC file itself
(``application/warc``), is damaged, and reading resumes at the record it
swallowed. Reading is bounded (``corpusbot.archive.bounded``): no header
line over 1 MiB, no record inflated past ``max_record_bytes`` (skipped as
``archive/skipped/too-large``), so a decompression bomb costs neither memory
nor minutes. A file that cannot be opened yields ``archive/unreadable``.
"""

from __future__ import annotations

import errno
import glob
import logging
import os
import re
import zlib
from collections.abc import Iterator
from contextlib import redirect_stderr
from dataclasses import dataclass, replace
from pathlib import Path
from typing import BinaryIO

from warcio.archiveiterator import ArchiveIterator
from warcio.bufferedreaders import BufferedReader
from warcio.recordloader import ArcWarcRecord

from corpusbot.archive.bounded import (
    MAX_RECORD_BYTES_DEFAULT,
    ArchiveDamage,
    PayloadDamage,
    PayloadTooLarge,
    RecordTooLarge,
    bounded_iterator,
    content_stream,
)
from corpusbot.archive.sniff import (
    is_gzipped,
    next_record_start,
    warc_boundary_at,
    warc_record_inside,
)
from corpusbot.page import Page

logger = logging.getLogger(__name__)

MAX_BODY_BYTES_DEFAULT = 10 * 1024 * 1024
"""Pages above 10 MiB are almost never articles, and would blow the memory bound."""
STATUSES_DEFAULT = frozenset({200})
HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
# Types that name nothing (WHATWG MIME sniffing's "unknown" set): sniff the body instead.
UNKNOWN_TYPES = frozenset({"", "unknown/unknown", "application/unknown", "*/*",
                           "application/octet-stream", "application/x-unknown-content-type"})
SUFFIXES = (".warc", ".warc.gz", ".arc", ".arc.gz")

DAMAGED = "archive/damaged"
DAMAGED_DIGEST = "archive/damaged/digest"
UNREADABLE = "archive/unreadable"
SKIPPED_TYPE = "archive/skipped/record-type"
SKIPPED_STATUS = "archive/skipped/status"
SKIPPED_NOT_HTML = "archive/skipped/not-html"
SKIPPED_TOO_LARGE = "archive/skipped/too-large"
SKIPPED_BAD_ENCODING = "archive/skipped/bad-encoding"

_SNIFF_BYTES = 1024
_HTML_SNIFF = re.compile(rb"^\s*(<!--.*?-->\s*)*<(!doctype\s+html|html|head|body|\?xml)[\s>]",
                         re.IGNORECASE | re.DOTALL)
_PAGE_TYPES = ("response", "resource")
READ_BLOCK = 65536
"""Bytes warcio reads and inflates at a time (its default 16 KiB takes ten
rounds of Python for a typical page; 64 KiB reads 5-20 % faster)."""
_WARC_TYPES = ("application/warc",)
_URI = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:\S")


@dataclass(slots=True, frozen=True)
class ReaderOptions:
    """Which records become Pages."""

    statuses: frozenset[int] = STATUSES_DEFAULT
    max_body_bytes: int = MAX_BODY_BYTES_DEFAULT
    max_record_bytes: int = MAX_RECORD_BYTES_DEFAULT
    check_digests: bool = True
    """Check the WARC-Block-Digest a record carries, or its WARC-Payload-Digest where it
    has no block digest (``check_block_digest_only``): in an uncompressed WARC no gzip CRC
    guards the bytes, and a flipped byte in a page's text would otherwise pass as clean."""


@dataclass(slots=True, frozen=True)
class Record:
    """One archive record as read: a ``page``, or the reason it was ``skipped``.

    ``start`` is the file offset of its first byte (where a damaged stretch
    began), ``end`` the offset right after it: reading again from there
    continues with the next one.
    """

    source: str
    end: int
    page: Page | None = None
    skipped: str | None = None
    start: int = 0


def is_archive(path: Path) -> bool:
    """Whether ``path`` is named like a WARC or ARC file."""
    return path.name.lower().endswith(SUFFIXES)


def is_html(content_type: str | None, body: bytes) -> bool:
    """HTML or XHTML by the declared type, or by sniffing when the type names nothing."""
    mime = (content_type or "").split(";", 1)[0].strip().lower()
    if mime in HTML_TYPES:
        return True
    head = body[:_SNIFF_BYTES].removeprefix(b"\xef\xbb\xbf")
    return mime in UNKNOWN_TYPES and bool(_HTML_SNIFF.match(head))


class ArchiveReader:
    """Streams the records of one archive file at a time; see the module docstring."""

    __slots__ = ("options",)

    def __init__(self, options: ReaderOptions | None = None) -> None:
        self.options = options or ReaderOptions()

    def read(self, path: str | Path, start: int = 0, end: int | None = None) -> Iterator[Record]:
        """Every record of ``path`` that starts at or after ``start`` (and before ``end``),
        damage included as skipped records."""
        source = str(path)
        try:
            handle = open(path, "rb")
        except OSError as error:
            logger.error("cannot open %s: %s", source, error)
            yield Record(source, start, skipped=UNREADABLE, start=start)
            return
        try:
            yield from self._read_from(handle, source, start, end)
        finally:
            handle.close()

    def _read_from(self, handle: BinaryIO, source: str, start: int,
                   end: int | None) -> Iterator[Record]:
        gzipped = is_gzipped(handle, source)
        limit = end if end is not None else float("inf")
        position: int | None = start
        # Counted once per damaged stretch: one cut or flip is one problem.
        in_damage = False
        while position is not None:
            handle.seek(position)
            records = bounded_iterator(handle, READ_BLOCK, gzipped,
                                       self.options.max_record_bytes,
                                       self.options.check_digests)
            failed_at = position
            try:
                while True:
                    # Where the next record starts; a whole-file gzip or an empty gzip
                    # member makes warcio's offsets meaningless, so never step back.
                    failed_at = max(records.offset, position)
                    if failed_at >= limit:
                        return  # the rest belongs to the next range
                    if (record := self._next(records, source, failed_at)) is None:
                        break
                    if record.start >= limit:
                        return
                    if record.skipped == DAMAGED and in_damage:
                        continue
                    in_damage = record.skipped == DAMAGED
                    yield record
                failed_at = max(records.offset, position)
                if failed_at >= limit or not _has_tail(handle, failed_at):
                    return
                problem = "unreadable bytes (a cut or damaged record)"
            except RecordTooLarge as error:
                problem = str(error)
                yield Record(source, failed_at, skipped=SKIPPED_TOO_LARGE, start=failed_at)
                in_damage = True  # what follows up to the next record is its own tail
            except Exception as error:  # any exception from a damaged file is its damage
                problem = f"{type(error).__name__}: {_short(error)}"
            position = next_record_start(handle, failed_at + 1, gzipped)
            if not in_damage:
                logger.warning("%s: damaged at offset %d: %s; %s", source, failed_at, problem,
                               "no record after it" if position is None
                               else f"reading again from offset {position}")
                yield Record(source, position if position is not None else failed_at,
                             skipped=DAMAGED, start=failed_at)
            in_damage = True

    def _next(self, records: ArchiveIterator, source: str, start: int) -> Record | None:
        # warcio writes some warnings straight to stderr; they go to the log instead.
        with redirect_stderr(_LogWriter()):
            record = next(records, None)
            if record is None:
                return None
            check_block_digest_only(record)
            return self._record(records, record, source, start)

    def _record(self, records: ArchiveIterator, record: ArcWarcRecord, source: str,
                start: int) -> Record:
        page, skipped = None, self._skip_reason(record)
        if skipped is None:
            page, skipped = self._page(record, source)
        offset = records.get_record_offset()  # drains what is left of the record
        # After the record is drained, warcio's offset is where the next one starts
        # (past the blank lines that separate uncompressed records).
        end = records.offset
        if getattr(record.raw_stream, "limit", 0) > 0:
            # Its Content-Length runs past its gzip member or the file: the records it
            # seemed to hold are found again by resynchronising after its start.
            page = _whole_payload(record, page)
            if page is None:
                raise ArchiveDamage("a record is cut short, or its Content-Length is too large")
        if records.reader.decompressor is None and record.format == "warc":
            _check_length(records, record, offset)
        if _digest_failed(record):
            logger.warning("%s: damaged at offset %d: %s", source, offset,
                           "; ".join(record.digest_checker.problems))
            return Record(source, end, skipped=DAMAGED_DIGEST, start=max(offset, start))
        if page is not None:
            page = replace(page, offset=offset)
        # A whole-file gzip stream has no record offsets: where its reading began stands in.
        return Record(source, end, page=page, skipped=skipped, start=max(offset, start))

    def _skip_reason(self, record: ArcWarcRecord) -> str | None:
        if record.rec_type not in _PAGE_TYPES:
            return SKIPPED_TYPE
        if not names_a_uri(record):
            return DAMAGED
        if record.http_headers is not None:
            status = record.http_headers.get_statuscode()
            if not status.isdigit() or int(status) not in self.options.statuses:
                return SKIPPED_STATUS
        return None

    def _page(self, record: ArcWarcRecord, source: str) -> tuple[Page | None, str | None]:
        limit = self.options.max_body_bytes
        if not _decodable(record):
            return None, SKIPPED_BAD_ENCODING
        try:
            body = content_stream(record, limit).read(limit + 1)
        except PayloadTooLarge:
            return None, SKIPPED_TOO_LARGE
        except (zlib.error, OSError, PayloadDamage) as error:
            logger.info("%s: content decoding failed: %s", source, error)
            return None, SKIPPED_BAD_ENCODING
        if len(body) > limit:
            return None, SKIPPED_TOO_LARGE
        headers = _headers(record)
        declared = record.rec_headers.get_header("WARC-Identified-Payload-Type")
        if not (is_html(headers.get("Content-Type"), body) or is_html(declared, b"")):
            return None, SKIPPED_NOT_HTML
        page = Page(
            url=record.rec_headers.get_header("WARC-Target-URI") or "",
            body=body, headers=headers, fetched_at=record.rec_headers.get_header("WARC-Date"),
            source=source, record_id=record.rec_headers.get_header("WARC-Record-ID"),
            status=_status(record),
        )
        return page, None


class _LogWriter:
    """A stand-in for stderr that sends each line to the log."""

    def write(self, text: str) -> int:
        if text.strip():
            logger.info("warcio: %s", text.strip())
        return len(text)

    def flush(self) -> None:
        pass


def names_a_uri(record: ArcWarcRecord) -> bool:
    """Whether the record's target is a URI: warcio reads any line of five words as an ARC
    header, whose "URI" is then a word of prose."""
    return bool(_URI.match(record.rec_headers.get_header("WARC-Target-URI") or ""))


def check_block_digest_only(record: ArcWarcRecord) -> None:
    """Hash the rest of the record once, for its WARC-Block-Digest, when it carries one.

    The block holds the payload, so a block that matches has an intact payload: hashing
    the payload again for its WARC-Payload-Digest was a sixth of the time spent reading a
    gzipped archive (0.74 -> 0.62 s for the 1,416 records of benchmarks/warc.py copies).
    Writers also disagree on that digest (over the body as sent, or with its
    chunked transfer coding undone), so checking it as well would call intact records
    damaged. The payload's own digest is checked where no block digest is given.
    """
    stream = record.raw_stream
    if getattr(stream, "block_digester", None) is not None:
        stream.payload_digester = None


def _digest_failed(record: ArcWarcRecord) -> bool:
    """Whether a digest the record carries did not match its bytes (an unknown digest
    algorithm is no damage)."""
    checker = getattr(record, "digest_checker", None)
    return checker is not None and any("digest failed" in p for p in checker.problems)


def _decodable(record: ArcWarcRecord) -> bool:
    """Whether warcio can undo the record's content encoding (brotli needs its package)."""
    if record.http_headers is None:
        return True
    encoding = (record.http_headers.get_header("Content-Encoding") or "identity").strip().lower()
    return encoding == "identity" or encoding in BufferedReader.get_supported_decompressors()


def _whole_payload(record: ArcWarcRecord, page: Page | None) -> Page | None:
    """The page of a record that ends before its declared length, when it still holds its
    whole HTTP body by the body's own Content-Length (what follows it being the blank line
    that ends a record): hand-edited ARC files, warcio's own test files among them, hold
    LF header lines where the declared length counted CRLF."""
    if page is None or record.http_headers is None or "Content-Encoding" in page.headers:
        return None
    declared = record.http_headers.get_header("Content-Length") or ""
    if not declared.isdigit() or len(page.body) < int(declared):
        return None
    body, rest = page.body[:int(declared)], page.body[int(declared):]
    return replace(page, body=body) if not rest.strip(b"\r\n") else None


def _headers(record: ArcWarcRecord) -> dict[str, str]:
    # The HTTP headers of a response; a resource record has only its WARC Content-Type.
    if record.http_headers is None:
        content_type = record.rec_headers.get_header("Content-Type")
        return {"Content-Type": content_type} if content_type else {}
    headers: dict[str, str] = {}
    for name, value in record.http_headers.headers:
        headers.setdefault(_title_case(name), value)
    return headers


def _title_case(name: str) -> str:
    return "-".join(part.capitalize() for part in name.split("-"))


def _status(record: ArcWarcRecord) -> int:
    if record.http_headers is None:
        return 200
    status = record.http_headers.get_statuscode()
    return int(status) if status.isdigit() else 0


def _check_length(records: ArchiveIterator, record: ArcWarcRecord, offset: int) -> None:
    """Raise ``ArchiveDamage`` when an uncompressed WARC record's Content-Length ran into the
    records after it (see the module docstring); its offset is where the record starts."""
    fd = records.fh.fileno()
    end = offset + records.get_record_length()
    if warc_boundary_at(fd, end) and _is_warc_file(record):
        return  # an archived WARC file holds record starts of its own
    inner = warc_record_inside(fd, offset, end)
    if inner is not None:
        raise ArchiveDamage(f"its Content-Length runs over the record at offset {inner}")


def _is_warc_file(record: ArcWarcRecord) -> bool:
    declared = [record.rec_headers.get_header("Content-Type") or ""]
    if record.http_headers is not None:
        declared.append(record.http_headers.get_header("Content-Type") or "")
    return any(t.split(";", 1)[0].strip().lower() in _WARC_TYPES for t in declared)


def _has_tail(handle: BinaryIO, end: int) -> bool:
    """Whether anything but blank space follows ``end``, where warcio stopped reading."""
    handle.seek(end)
    return bool(handle.read(_SNIFF_BYTES).strip(b"\r\n\t \x00"))


def _short(error: Exception) -> str:
    """An exception's message cut to one short line: warcio quotes whole damaged lines."""
    text = " ".join(str(error).split())
    if "warcio recompress" in text:
        return ("one gzip stream over several records, where each record needs its own"
                " gzip member: rewrite the file with `warcio recompress IN OUT`")
    return text if len(text) <= 120 else text[:117] + "..."


def find_archives(patterns: list[str]) -> tuple[list[Path], list[str]]:
    """The archive files named by ``patterns`` (files, folders, globs), and the patterns that
    matched nothing. Folders are searched recursively for archive names; order is sorted
    within each pattern and kept across patterns, and no file is listed twice."""
    found: dict[Path, Path] = {}  # by resolved path: one file named two ways is read once
    missing = []
    for pattern in patterns:
        matches = _expand(pattern)
        if not matches:
            missing.append(pattern)
        for match in matches:
            found.setdefault(match.resolve(), match)
    return list(found.values()), missing


def _expand(pattern: str) -> list[Path]:
    path = Path(pattern)
    if path.is_dir():
        return sorted(p for p in path.rglob("*") if p.is_file() and is_archive(p))
    if path.is_file():
        return [path]
    if glob.has_magic(pattern):
        hits = (Path(p) for p in glob.glob(pattern, recursive=True))
        return sorted(p for p in hits if p.is_file() and is_archive(p))
    return []


def why_missing(pattern: str) -> str:
    """Why ``pattern`` named no archive, for the line that names it."""
    try:
        is_dir = Path(pattern).is_dir()
        os.stat(pattern)
    except OSError as error:
        if error.errno == errno.ELOOP:
            return "it is a symbolic link loop"
        if glob.has_magic(pattern):
            return "the pattern matches no archive"
        return error.strerror or str(error)
    if is_dir:
        return f"the folder holds no {', '.join(SUFFIXES)} file"
    return "it is not a file or folder"
