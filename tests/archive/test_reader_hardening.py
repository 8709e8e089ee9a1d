"""Reader cases from the second hardening round (issue 21), on real archive files."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from corpusbot.archive.reader import (
    DAMAGED,
    DAMAGED_DIGEST,
    SKIPPED_TOO_LARGE,
    ArchiveReader,
    ReaderOptions,
)
from tests.corpus_support import html_records, page, page_names, write_warc

ARC_DATE = "20140216050221"


def _arc_with_lf_lines(url: str, body: bytes) -> bytes:
    """An ARC file of one response whose URL holds spaces, laid out as a hand-edited ARC
    often is: the declared length counts CRLF header lines that the file holds as LF, so
    the record ends a few bytes before its declared end, at the end of the file."""
    desc = b"1 0 Hand made\nURL IP-address Archive-date Content-type Archive-length\n"
    head = (f"filedesc://space.arc 127.0.0.1 {ARC_DATE} text/plain {len(desc)}\n"
            ).encode() + desc + b"\n"
    fields = ["HTTP/1.1 200 OK", "Content-Type: text/html; charset=utf-8",
              f"Content-Length: {len(body)}"]
    declared = len("\r\n".join(fields).encode()) + 4 + len(body)
    http = "\n".join(fields).encode() + b"\n\n" + body
    line = f"{url} 93.184.216.119 {ARC_DATE} text/html {declared}\n".encode()
    return head + line + http + b"\n"


def test_an_arc_record_whose_url_holds_spaces_is_read(tmp_path: Path) -> None:
    path = tmp_path / "space-in-url.arc"
    body = page(page_names()[0])
    path.write_bytes(_arc_with_lf_lines("http://example.com/some page/with spaces.html", body))
    records = list(ArchiveReader().read(path))
    assert DAMAGED not in [r.skipped for r in records]
    pages = [r.page for r in records if r.page is not None]
    assert [p.url for p in pages] == ["http://example.com/some%20page/with%20spaces.html"]
    assert pages[0].body == body


def test_a_record_cut_inside_its_body_is_still_damage(tmp_path: Path) -> None:
    path = tmp_path / "cut.arc"
    data = _arc_with_lf_lines("http://example.com/a b", page(page_names()[0]))
    path.write_bytes(data[:-200])
    assert [r.skipped for r in ArchiveReader().read(path)][1:] == [DAMAGED]


@pytest.mark.parametrize("where", [b"WARC-Date:", b"Content-Type: text/html"])
def test_a_10_mb_header_line_in_a_plain_warc_is_one_damaged_record(tmp_path: Path,
                                                                     where: bytes) -> None:
    source = write_warc(tmp_path / "s.warc", html_records())
    data = source.read_bytes()
    second = data.index(b"WARC/1.", data.index(b"WARC-Type: response"))  # the 2nd page
    at = data.index(where, second)
    path = tmp_path / "long.warc"
    path.write_bytes(data[:at] + b"X-Long: " + b"a" * (10 << 20) + b"\r\n" + data[at:])
    records = list(ArchiveReader().read(path))
    urls = [r.page.url for r in records if r.page is not None]
    assert [r.skipped for r in records].count(DAMAGED) == 1
    assert len(urls) == len(html_records()) - 1


def _flip_inside_bodies(data: bytes, seed: int, count: int = 3) -> tuple[bytes, set[int]]:
    """``count`` bytes flipped inside the page text of distinct records (letters turned
    into other letters, so the page still parses and reads as altered text); the record
    starts touched."""
    rng = random.Random(seed)
    starts = [m.start() for m in re.finditer(rb"WARC/1\.[01]\r\n", data)]
    spans = [(starts[i], starts[i + 1] if i + 1 < len(starts) else len(data))
             for i in range(len(starts)) if b"WARC-Type: response" in
             data[starts[i]:starts[i] + 400]]
    flipped = bytearray(data)
    touched = set()
    texts = {start: [i for i in range(_body(data, start), end) if data[i:i + 1].isalpha()]
             for start, end in spans}
    for start in rng.sample([start for start, letters in texts.items() if letters], count):
        spot = rng.choice(texts[start])
        flipped[spot] = ord("q") if data[spot] != ord("q") else ord("z")
        touched.add(start)
    return bytes(flipped), touched


def _body(data: bytes, start: int) -> int:
    """Where the HTTP body of the response record at ``start`` begins."""
    return data.index(b"\r\n\r\n", data.index(b"\r\n\r\n", start) + 4) + 4


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_flipped_bytes_in_a_plain_warc_are_damage(tmp_path: Path, seed: int) -> None:
    source = write_warc(tmp_path / "s.warc", html_records())
    data, touched = _flip_inside_bodies(source.read_bytes(), seed)
    path = tmp_path / "flipped.warc"
    path.write_bytes(data)
    records = list(ArchiveReader().read(path))
    assert sorted(r.start for r in records if r.skipped == DAMAGED_DIGEST) == sorted(touched)
    intact = {r.page.url: r.page.body for r in ArchiveReader().read(source)
              if r.page is not None}
    assert all(intact[r.page.url] == r.page.body for r in records if r.page is not None)
    unchecked = list(ArchiveReader(ReaderOptions(check_digests=False)).read(path))
    assert DAMAGED_DIGEST not in [r.skipped for r in unchecked]


@pytest.mark.parametrize("chunked", [False, True])
def test_a_brotli_page_is_read_and_a_brotli_bomb_is_too_large(tmp_path: Path,
                                                              chunked: bool) -> None:
    brotli = pytest.importorskip("brotli")
    from tests.archive.damage import response

    def record(url: str, payload: bytes) -> bytes:
        headers = [("Content-Encoding", "br")]
        if chunked:
            headers.append(("Transfer-Encoding", "chunked"))
            payload = b"%x\r\n%s\r\n0\r\n\r\n" % (len(payload), payload)
        return response(url, headers, payload, gzipped=False)

    body = page(page_names()[0])
    bomb = brotli.compress(bytes(64 << 20), quality=1)
    path = tmp_path / "br.warc"
    path.write_bytes(record("https://x.example/page", brotli.compress(body))
                     + record("https://x.example/bomb", bomb))
    records = list(ArchiveReader().read(path))
    assert [r.page.body for r in records if r.page is not None] == [body]
    assert [r.skipped for r in records] == [None, SKIPPED_TOO_LARGE]


def _warc_record(kind: str, body: bytes, uri: str = "") -> bytes:
    head = [b"WARC/1.0", b"WARC-Type: " + kind.encode(),
            b"WARC-Record-ID: <urn:uuid:7a5a9613-6009-4ccc-a67c-d7cbdaa2a79a>",
            b"WARC-Date: 2026-11-25T06:28:30Z"]
    if uri:
        head += [b"WARC-Target-URI: " + uri.encode(),
                 b"Content-Type: application/http; msgtype=response"]
    head.append(b"Content-Length: %d" % len(body))
    return b"\r\n".join(head) + b"\r\n\r\n" + body + b"\r\n\r\n"


def test_an_empty_gzip_member_before_a_damaged_one_is_damage_not_a_crash(tmp_path: Path) -> None:
    """Found by the fuzz test: after an empty gzip member warcio's offsets run behind the
    file (here below zero), and seeking to the damage after them raised ``OSError``."""
    import gzip

    http = (b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<html><body><p>"
            + b"Words of a page. " * 200 + b"</p></body></html>")
    response = _warc_record("response", http, "https://example.org/a")
    response = response[:8] + b"\x0f" + response[9:]  # "WARC/1.0" ends in a flipped byte
    members = (_warc_record("warcinfo", b"software: tests\r\n"), b"", response + response)
    path = tmp_path / "empty-member.warc.gz"
    path.write_bytes(b"".join(gzip.compress(member, 1) for member in members))
    records = list(ArchiveReader().read(path))
    assert [r.page.url for r in records if r.page] == ["https://example.org/a"]
    assert [r.skipped for r in records].count(DAMAGED) == 1


def test_a_record_after_an_empty_gzip_member_starts_where_its_member_does(tmp_path: Path) -> None:
    """warcio starts a record where the one before it ended; after an empty member (legal
    gzip) that is inside the empty member, and a range cut at the next member would read the
    record twice (once as the range before's, its start being below the cut)."""
    import gzip

    http = (b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<html><body><p>"
            + b"Words of a page. " * 200 + b"</p></body></html>")
    members = [gzip.compress(_warc_record("response", http, f"https://example.org/{name}"), 1)
               for name in ("a", "b")]
    empty = gzip.compress(b"", 1)
    path = tmp_path / "empty-member-between.warc.gz"
    path.write_bytes(members[0] + empty + members[1])
    records = list(ArchiveReader().read(path))
    assert [(r.page.url, r.start) for r in records] == [
        ("https://example.org/a", 0), ("https://example.org/b", len(members[0]) + len(empty))]


def _chunked_record(body: bytes) -> bytes:
    from tests.archive.damage import response

    chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
    return response("https://a.example/c", [("Transfer-Encoding", "chunked")], chunked,
                    gzipped=False)


def _set_header(record: bytes, name: bytes, value: bytes | None) -> bytes:
    """The record with one WARC header line replaced, or removed when ``value`` is None
    (the block is untouched, so its Content-Length still holds)."""
    line = re.compile(rb"^" + name + rb": [^\r]*\r\n", re.MULTILINE)
    return line.sub(b"" if value is None else name + b": " + value + b"\r\n", record, count=1)


def test_a_payload_digest_over_the_dechunked_body_is_no_damage(tmp_path: Path) -> None:
    # The WARC standard digests the payload with its chunked coding undone; many writers
    # digest it as sent. The block digest decides where the record carries one.
    import base64
    import hashlib

    body = page(page_names()[0])
    spec = b"sha1:" + base64.b32encode(hashlib.sha1(body).digest())
    path = tmp_path / "chunked.warc"
    path.write_bytes(_set_header(_chunked_record(body), b"WARC-Payload-Digest", spec))
    [record] = ArchiveReader().read(path)
    assert record.skipped is None and record.page.body == body


def test_without_a_block_digest_the_payload_digest_still_finds_damage(tmp_path: Path) -> None:
    body = page(page_names()[0])
    record = _set_header(_chunked_record(body), b"WARC-Block-Digest", None)
    spot = record.index(b"</p>") - 1
    path = tmp_path / "flipped.warc"
    path.write_bytes(record[:spot] + (b"q" if record[spot:spot + 1] != b"q" else b"z")
                     + record[spot + 1:])
    assert [r.skipped for r in ArchiveReader().read(path)] == [DAMAGED_DIGEST]
    path.write_bytes(record)
    assert [r.skipped for r in ArchiveReader().read(path)] == [None]
