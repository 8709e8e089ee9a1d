"""Damaged copies of a real archive, each with the pages that damage left intact.

Used by the reader tests and by ``benchmarks/damage.py``. The layout (where
each page record starts and ends) comes from reading the intact archive;
a page is intact when no damaged byte falls inside its record.
"""

from __future__ import annotations

import gzip
import random
import re
import zlib
from dataclasses import dataclass
from pathlib import Path

from corpusbot.archive.reader import ArchiveReader


@dataclass(frozen=True)
class Layout:
    """The page records of an intact archive: (url, body, start, end) each, in order."""

    data: bytes
    gzipped: bool
    pages: tuple[tuple[str, bytes, int, int], ...]

    def intact(self, touched: list[tuple[int, int]]) -> list[str]:
        """URLs of the pages whose record overlaps none of the ``touched`` byte ranges."""
        return [url for url, _, start, end in self.pages
                if not any(a < end and start < b for a, b in touched)]


def layout(path: Path) -> Layout:
    records = list(ArchiveReader().read(path))
    assert not [r for r in records if r.skipped == "archive/damaged"], "the source is damaged"
    pages = tuple((r.page.url, r.page.body, r.page.offset, r.end) for r in records if r.page)
    data = path.read_bytes()
    return Layout(data, data[:2] == b"\x1f\x8b", pages)


@dataclass(frozen=True)
class Damaged:
    """One damaged archive: its bytes and the URLs that must still come out."""

    kind: str
    data: bytes
    intact: list[str]
    suffix: str = ".warc.gz"


def truncated(source: Layout, at: int) -> Damaged:
    return Damaged("truncated", source.data[:at], source.intact([(at, len(source.data) + 1)]),
                   _suffix(source))


def flipped(source: Layout, count: int, rng: random.Random) -> Damaged:
    data = bytearray(source.data)
    spots = [rng.randrange(len(data)) for _ in range(count)]
    for spot in spots:
        data[spot] ^= rng.randrange(1, 256)
    return Damaged(f"{count} bytes flipped", bytes(data), source.intact([(s, s + 1)
                                                                         for s in spots]),
                   _suffix(source))


def text_flipped(source: Layout, count: int, rng: random.Random) -> Damaged:
    """One letter of the page text of ``count`` records of an uncompressed archive turned
    into another letter: the record still parses, only its digest can tell."""
    data = bytearray(source.data)
    touched = []
    plain = [(body, source.data.find(body[:64], start, end))
             for _, body, start, end in source.pages if len(body) >= 64]
    for body, at in rng.sample([p for p in plain if p[1] >= 0], count):
        letters = [i for i in range(at, at + len(body)) if source.data[i:i + 1].isalpha()]
        spot = rng.choice(letters)
        data[spot] = ord("q") if data[spot] != ord("q") else ord("z")
        touched.append((spot, spot + 1))
    return Damaged(f"{count} letters changed", bytes(data), source.intact(touched), ".warc")


def long_header_line(source: Layout, index: int, size: int = 10 << 20) -> Damaged:
    """A ``size``-byte header line put in the WARC header of the ``index``-th page record
    of an uncompressed archive."""
    _, _, start, end = source.pages[index]
    at = source.data.index(b"\r\n", start) + 2
    data = source.data[:at] + b"X-Long: " + b"a" * size + b"\r\n" + source.data[at:]
    return Damaged("10 MB header line", data, source.intact([(start, end)]), ".warc")


def arc_space_in_url(body: bytes) -> tuple[Damaged, str]:
    """An ARC file of one response whose URL holds spaces, hand-edited style: its LF header
    lines fall short of the CRLF length declared (see tests/archive/test_reader_hardening);
    the URL it must yield."""
    desc = b"1 0 Hand made\nURL IP-address Archive-date Content-type Archive-length\n"
    head = (f"filedesc://space.arc 127.0.0.1 20140216050221 text/plain {len(desc)}\n"
            ).encode() + desc + b"\n"
    fields = ["HTTP/1.1 200 OK", "Content-Type: text/html", f"Content-Length: {len(body)}"]
    declared = len("\r\n".join(fields).encode()) + 4 + len(body)
    line = f"http://example.com/a page 93.184.216.119 20140216050221 text/html {declared}\n"
    data = head + line.encode() + "\n".join(fields).encode() + b"\n\n" + body + b"\n"
    url = "http://example.com/a%20page"
    return Damaged("ARC URL with spaces", data, [url], ".arc"), url


def broken_member(source: Layout, index: int) -> Damaged:
    """64 zero bytes over the middle of the ``index``-th page record."""
    _, _, start, end = source.pages[index]
    middle = (start + end) // 2
    data = source.data[:middle] + bytes(64) + source.data[middle + 64:]
    return Damaged("record overwritten", data, source.intact([(middle, middle + 64)]),
                   _suffix(source))


def garbage(size: int, rng: random.Random) -> Damaged:
    return Damaged("garbage", rng.randbytes(size), [])


def content_length(source: Layout, index: int, value: str) -> Damaged:
    """The ``index``-th page record with its WARC Content-Length replaced by ``value``."""
    _, _, start, end = source.pages[index]
    record = source.data[start:end]
    plain = gzip.decompress(record) if source.gzipped else record
    header_end = plain.index(b"\r\n\r\n")
    header = re.sub(rb"(?im)^content-length:[^\r\n]*", b"Content-Length: " + value.encode(),
                    plain[:header_end], count=1)
    plain = header + plain[header_end:]
    record = gzip.compress(plain) if source.gzipped else plain
    data = source.data[:start] + record + source.data[end:]
    return Damaged(f"Content-Length {value}", data, source.intact([(start, end)]),
                   _suffix(source))


def longer_content_length(source: Layout, index: int, records: float) -> Damaged:
    """The ``index``-th page record's Content-Length made too long but still inside the
    file: it runs over ``records`` of the page records after it (1.5: one and a half,
    ending inside the second; 1 or 2: exactly to the end of the one or two after it, where
    a blank line and the next record follow as after any record)."""
    _, _, start, end = source.pages[index]
    plain = gzip.decompress(source.data[start:end]) if source.gzipped else source.data[start:end]
    length = int(re.search(rb"(?im)^content-length:\s*(\d+)", plain).group(1))
    whole = int(records)
    extra = source.pages[index + whole][3] - end
    if records > whole:
        following = source.pages[index + whole + 1]
        extra += int((following[3] - following[2]) * (records - whole))
    case = content_length(source, index, str(length + extra))
    return Damaged(f"Content-Length +{records} records", case.data, case.intact, case.suffix)


def whole_file_bomb(inflated: int) -> Damaged:
    """A gzip file of ``inflated`` zero bytes: a ~1000:1 decompression bomb, made in a
    blink by repeating one fully flushed 1 MiB block (its trailer is left out: a reader
    that got that far would have inflated everything)."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
    head = compressor.compress(bytes(1 << 20)) + compressor.flush(zlib.Z_FULL_FLUSH)
    block = compressor.compress(bytes(1 << 20)) + compressor.flush(zlib.Z_FULL_FLUSH)
    return Damaged("whole-file bomb", head + block * ((inflated >> 20) - 1), [])


def appended(source: Layout, extra: bytes, kind: str) -> Damaged:
    """``extra`` records inserted after the first page: every page must still come out."""
    _, _, _, end = source.pages[0]
    data = source.data[:end] + extra + source.data[end:]
    return Damaged(kind, data, [url for url, *_ in source.pages], _suffix(source))


def _suffix(source: Layout) -> str:
    return ".warc.gz" if source.gzipped else ".warc"


def zeros_gzip(size: int, prefix: bytes = b"", suffix: bytes = b"") -> bytes:
    """One valid gzip member of ``prefix``, ``size`` zero bytes and ``suffix``, made quickly
    by repeating one fully flushed 1 MiB block, its trailer (CRC-32, size) set after."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
    block_of_zeros = bytes(1 << 20)
    head = compressor.compress(prefix) + compressor.flush(zlib.Z_FULL_FLUSH)
    block = compressor.compress(block_of_zeros) + compressor.flush(zlib.Z_FULL_FLUSH)
    tail = bytes(size % (1 << 20)) + suffix
    rest = compressor.compress(tail) + compressor.flush()
    crc = zlib.crc32(prefix)
    for _ in range(size >> 20):
        crc = zlib.crc32(block_of_zeros, crc)
    crc = zlib.crc32(tail, crc)
    total = len(prefix) + size + len(suffix)
    trailer = crc.to_bytes(4, "little") + (total % (1 << 32)).to_bytes(4, "little")
    return head + block * (size >> 20) + rest[:-8] + trailer


def response(url: str, headers: list[tuple[str, str]], body: bytes, gzipped: bool) -> bytes:
    """One WARC response record, as its own gzip member when ``gzipped``."""
    from io import BytesIO

    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    out = BytesIO()
    writer = WARCWriter(out, gzip=gzipped)
    http = StatusAndHeaders("200 OK", [("Content-Type", "text/html"), *headers],
                            protocol="HTTP/1.1")
    writer.write_record(writer.create_warc_record(url, "response", payload=BytesIO(body),
                                                  http_headers=http))
    return out.getvalue()


def chunked_bomb(url: str, size: int, gzipped: bool) -> bytes:
    """A response whose payload is gzip-encoded and sent as one HTTP chunk that inflates to
    ``size`` zero bytes: a reader that inflates a chunk whole holds all of it."""
    bomb = zeros_gzip(size)
    body = b"%x\r\n%s\r\n0\r\n\r\n" % (len(bomb), bomb)
    return response(url, [("Content-Encoding", "gzip"), ("Transfer-Encoding", "chunked")],
                    body, gzipped)


def record_bomb(url: str, size: int) -> bytes:
    """A resource record whose gzip member inflates to ``size`` zero bytes."""
    header = (f"WARC/1.0\r\nWARC-Type: resource\r\nWARC-Target-URI: {url}\r\n"
              f"WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-000000000000>\r\n"
              f"WARC-Date: 2024-01-01T00:00:00Z\r\nContent-Type: text/html\r\n"
              f"Content-Length: {size}\r\n\r\n").encode()
    return zeros_gzip(size, header, b"\r\n\r\n")


def hostile_records(source: Layout, bomb_bytes: int) -> list[Damaged]:
    """Bad records put among good ones: bombs, broken encodings."""
    gz = source.gzipped
    page = source.pages[0][1]
    broken_gzip = bytearray(gzip.compress(page))
    broken_gzip[len(broken_gzip) // 2:len(broken_gzip) // 2 + 32] = bytes(32)
    made = [
        ("payload bomb", response("https://bad.example/payload-bomb",
                                  [("Content-Encoding", "gzip")], zeros_gzip(bomb_bytes), gz)),
        ("chunked payload bomb", chunked_bomb("https://bad.example/chunked-bomb", bomb_bytes, gz)),
        ("broken gzip payload", response("https://bad.example/broken-gzip",
                                         [("Content-Encoding", "gzip")], bytes(broken_gzip), gz)),
        ("broken chunked payload", response("https://bad.example/broken-chunked",
                                            [("Transfer-Encoding", "chunked")],
                                            b"zz\r\n" + page[:500] + b"\r\n5\r\nab", gz)),
    ]
    if gz:
        made.append(("record bomb", record_bomb("https://bad.example/record-bomb", bomb_bytes)))
    return [appended(source, extra, kind) for kind, extra in made]
