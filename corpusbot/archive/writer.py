"""Write WARC/1.1 files: one gzip member per record, rotated past a size, committed by
rename.

Each record is its own gzip member (the WARC convention that lets readers
seek), carries ``WARC-Date``, a payload digest and the server's IP address
when known. Files are written as ``*.warc.gz.open`` and renamed when
complete; a file left ``.open`` by a crash is renamed at the next start,
since every record before the cut is whole. The crawl's downloader
middleware (``corpusbot.crawl.warcmiddleware``) feeds it ``Capture``s.
"""

from __future__ import annotations

import logging
import os
import zlib
from dataclasses import dataclass
from datetime import UTC, datetime
from http import HTTPStatus
from io import BytesIO
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import scrapy
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from corpusbot import __version__
from corpusbot.archive import resume
from corpusbot.corpus.locks import try_lock

logger = logging.getLogger(__name__)

OPEN_SUFFIX = ".open"
LOCK_FILE = ".lock"
STORED = 0
"""zlib level 0: a gzip member holding its data uncompressed."""


@dataclass(slots=True, frozen=True)
class Capture:
    """One request/response exchange, in the plain values a WARC record needs."""

    url: str
    method: str
    request_headers: list[tuple[str, str]]
    request_body: bytes
    protocol: str
    status: int
    response_headers: list[tuple[str, str]]
    body: bytes
    ip_address: str | None
    date: str


@dataclass(slots=True, frozen=True)
class RecordLocation:
    """Where a response record landed: file path (once complete), offset, length of its member."""

    filename: str
    offset: int
    length: int
    record_id: str
    date: str


class RotatingWarcWriter:
    """Per-record-gzipped WARC/1.1 files, a new one past ``max_bytes``. Not thread-safe."""

    def __init__(self, directory: Path, prefix: str, max_bytes: int, level: int,
                 info: dict[str, str]) -> None:
        self.directory, self.prefix, self.max_bytes = directory, prefix, max_bytes
        self.level, self.info = level, info
        self.builder = WARCWriter(BytesIO(), gzip=False, warc_version="1.1")
        self.file: Any = None
        self.path: Path | None = None
        self.serial = 0
        directory.mkdir(parents=True, exist_ok=True)
        # Held until close: a second crawl must neither write here nor take
        # this crawl's open file for a crashed one.
        self.lock = lock_directory(directory)
        recover_open_files(directory)
        # Read whenever the last crawl did not finish, open file or not: one killed before
        # its first new record (it answered its pages from this index) or while closing a
        # file leaves none open, and its pages may still be missing from the corpus.
        self.known: resume.Known = resume.archived_since_finish(directory)

    def write(self, capture: Capture) -> RecordLocation:
        """Append the response and request records; return the response record's place
        (or that of the same response archived before a crash; see ``resume``)."""
        earlier = self.known.pop((capture.url, resume.payload_digest(capture.body)), None)
        if earlier is not None:
            return RecordLocation(*earlier)
        response = self._response_record(capture)
        record_id = response.rec_headers.get_header("WARC-Record-ID")
        request = self._request_record(capture, record_id)
        if self.file is None or self.file.tell() >= self.max_bytes:
            self._rotate()
        offset = self.file.tell()
        length = self._append(response, STORED if is_compressed(capture) else self.level)
        self._append(request)
        self.file.flush()
        final = self.path.with_name(self.path.name.removesuffix(OPEN_SUFFIX))
        return RecordLocation(str(final), offset, length, record_id, capture.date)

    def close(self) -> None:
        """Finish the current file and release the folder."""
        self._finish_file()
        resume.mark_finished(self.directory)
        if self.lock is not None:
            os.close(self.lock)
            self.lock = None

    def _finish_file(self) -> None:
        if self.file is not None:
            self.file.close()
            self.path.rename(self.path.with_name(self.path.name.removesuffix(OPEN_SUFFIX)))
            self.file = None

    def _response_record(self, capture: Capture) -> Any:
        reason = _reason(capture.status)
        http = StatusAndHeaders(f"{capture.status} {reason}", capture.response_headers,
                                protocol=capture.protocol)
        headers = {"WARC-Date": capture.date}
        if capture.ip_address:
            headers["WARC-IP-Address"] = capture.ip_address
        return self.builder.create_warc_record(
            capture.url, "response", payload=BytesIO(capture.body), length=len(capture.body),
            http_headers=http, warc_headers_dict=headers)

    def _request_record(self, capture: Capture, response_id: str) -> Any:
        target = request_target(capture.url)
        line = f"{capture.method} {target} {capture.protocol}"
        http = StatusAndHeaders(line, capture.request_headers, is_http_request=True)
        headers = {"WARC-Date": capture.date, "WARC-Concurrent-To": response_id}
        return self.builder.create_warc_record(
            capture.url, "request", payload=BytesIO(capture.request_body),
            length=len(capture.request_body), http_headers=http, warc_headers_dict=headers)

    def _append(self, record: Any, level: int | None = None) -> int:
        # warcio's own gzip runs at level 9; serialise plainly, compress here.
        self.builder.out = BytesIO()
        self.builder.write_record(record)
        level = self.level if level is None else level
        compressor = zlib.compressobj(level, zlib.DEFLATED, zlib.MAX_WBITS | 16)
        member = compressor.compress(self.builder.out.getvalue()) + compressor.flush()
        self.file.write(member)
        return len(member)

    def _rotate(self) -> None:
        self._finish_file()
        stamp = datetime.now(UTC).strftime("%Y%m%d%H%M%S")
        while True:  # never over a file already there (a recovered one may share the name)
            self.serial += 1
            name = f"{self.prefix}-{stamp}-{self.serial:05d}-{os.getpid()}.warc.gz{OPEN_SUFFIX}"
            self.path = self.directory / name
            if not self.path.with_name(name.removesuffix(OPEN_SUFFIX)).exists():
                break
        self.file = self.path.open("xb")
        info = self.builder.create_warcinfo_record(name.removesuffix(OPEN_SUFFIX), self.info)
        self._append(info)


def is_compressed(capture: Capture) -> bool:
    """Whether the response body is content-encoded (gzip, br, ...), so compresses no further.

    Deflating gzip data again at level 6 costs half a millisecond a page on
    the crawl's main process and saves nothing; such a record's gzip member
    stores its bytes as they are.
    """
    return any(name.lower() == "content-encoding" and value.strip().lower() not in ("", "identity")
               for name, value in capture.response_headers)


class ArchiveBusyError(RuntimeError):
    """Another crawl is writing to the same archive folder."""


def lock_directory(directory: Path) -> int:
    """An exclusive lock on ``directory/.lock``, as a file descriptor to close to release it."""
    descriptor = try_lock(directory / LOCK_FILE)
    if descriptor is None:
        raise ArchiveBusyError(f"another crawl is writing to {directory}")
    return descriptor


def recover_open_files(directory: Path) -> list[Path]:
    """Finish ``.open`` files left by a crashed run: cut a torn last record, rename.

    Every record is its own gzip member and is flushed whole, so only the
    last member can be torn; the file is cut after the last whole one.
    """
    recovered = []
    for path in sorted(directory.glob(f"*.warc.gz{OPEN_SUFFIX}")):
        whole = whole_members_length(path)
        if whole < path.stat().st_size:
            os.truncate(path, whole)
        final = path.with_name(path.name.removesuffix(OPEN_SUFFIX))
        path.rename(final)
        logger.warning("recovered %s, left open by an interrupted crawl (%d bytes kept)",
                       final, whole)
        recovered.append(final)
    return recovered


def whole_members_length(path: Path, chunk: int = 1 << 20) -> int:
    """Bytes of ``path`` taken by complete gzip members, from the start."""
    end = fed = 0
    inflater = zlib.decompressobj(zlib.MAX_WBITS | 16)
    with path.open("rb") as stream:
        while data := stream.read(chunk):
            fed += len(data)
            while data:
                try:
                    inflater.decompress(data)
                except zlib.error:
                    return end
                if not inflater.eof:
                    break
                data = inflater.unused_data
                end = fed - len(data)
                inflater = zlib.decompressobj(zlib.MAX_WBITS | 16)
    return end


def request_target(url: str) -> str:
    """The request-target of the request line: path and query."""
    parts = urlsplit(url)
    return (parts.path or "/") + (f"?{parts.query}" if parts.query else "")


def _reason(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Unknown"


def warcinfo(user_agent: str, contact: str, robots: bool) -> dict[str, str]:
    """The ``warcinfo`` fields each file starts with (WARC 1.1, annex C)."""
    return {
        "software": f"corpusbot/{__version__} (Scrapy {scrapy.__version__})",
        "format": "WARC File Format 1.1",
        "conformsTo": "https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/",
        "http-header-user-agent": user_agent,
        "operator": contact,
        "robots": "obey" if robots else "ignore",
    }
