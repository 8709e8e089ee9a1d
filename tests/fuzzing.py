"""Property-based fuzzing of ``extract()`` and the archive reader, seeded from real inputs.

Shared by the short CI run (``tests/test_fuzz.py``) and the long local run
(``benchmarks/fuzz.py``). An input is a real page or a small real archive,
changed by a few hypothesis-drawn edits: bytes flipped, stretches deleted,
duplicated or cut, and hostile fragments inserted (deep nesting, thousands
of attributes, charset lies, NULs, broken entities, false gzip and WARC
headers). An archive is edited in its uncompressed records (so header
lines and lengths break) or in its compressed bytes.

The properties: nothing raises, every call returns within its time budget
(``check_*`` measure it in CPU seconds of this process, since on a shared
machine the wall clock also counts the other jobs' time; the callers choose
the budget), and a page body never exceeds the reader's bound.
"""

from __future__ import annotations

import gzip
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import strategies as st

from corpusbot.archive.reader import MAX_BODY_BYTES_DEFAULT, ArchiveReader
from corpusbot.extraction.core import Extraction, extract
from tests.conftest import FIXTURES_DIR, REPO, bench_dir

HOSTILE = (
    b"<div " + b" ".join(b"a%d=x" % i for i in range(3000)) + b">",
    b"<div>" * 3000, b"<p>" * 2000, b"<table><tr><td>" * 300, b"</div>" * 500,
    b"\x00", b"\xff\xfe", b"\xfe\xff", b"\xef\xbb\xbf", b"\xc3\x28\xa0\xa1",
    b'<meta charset="utf-16">', b'<meta charset="x-no-such-charset">',
    b'<meta http-equiv="Content-Type" content="text/html; charset=cp037">',
    b"<?xml version='1.0' encoding='ebcdic-cp-us'?>", b"<![CDATA[", b"<!--", b"-->",
    b"&#0;&#xD800;&#x110000;&amp&lt;&#99999999999;", b"<script>", b"<style>", b"<title>",
    b"<template>", b"<svg><foreignObject><p>", b"</body></html><html><body>",
    b"<html lang='zz-Qaaa'>", b"\r\n" * 200, b"\x1f\x8b\x08\x00", b"WARC/1.0\r\n",
    b"Content-Length: 99999999999999999999999999999999\r\n", b"Content-Length: -1\r\n",
    b"Transfer-Encoding: chunked\r\n", b"Content-Encoding: gzip\r\n", b"\r\n\r\n",
    b'<meta charset="koi8-r">', b'<meta charset="big5">', b'<meta charset="shift_jis">',
    b"WARC-Block-Digest: sha1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\r\n",
    b"WARC-Payload-Digest: md5:nothing\r\n", b"fffffffff\r\n",
)
EDITS = ("flip", "delete", "insert", "duplicate", "cut")


@dataclass
class Tally:
    """What a fuzzing run saw: inputs, the slowest (CPU seconds, wall seconds, bytes,
    label) and failures."""

    inputs: int = 0
    slowest: list[tuple[float, float, int, str]] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    def note(self, cpu: float, wall: float, size: int, label: str) -> None:
        self.inputs += 1
        if len(self.slowest) < 5 or cpu > self.slowest[-1][0]:
            self.slowest = sorted([*self.slowest, (cpu, wall, size, label)], reverse=True)[:5]


def edits() -> st.SearchStrategy:
    """Up to six edits: (kind, position, length, fragment), positions taken modulo size."""
    fragment = st.one_of(st.sampled_from(HOSTILE), st.binary(max_size=32))
    return st.lists(st.tuples(st.sampled_from(EDITS), st.integers(0, 1 << 24),
                              st.integers(1, 4096), fragment), max_size=6)


def apply(data: bytes, changes: list[tuple[str, int, int, bytes]]) -> bytes:
    """``data`` with ``changes`` applied in order."""
    for kind, position, length, fragment in changes:
        at = position % (len(data) + 1)
        if kind == "flip" and at < len(data):
            data = data[:at] + bytes([data[at] ^ (length % 255 + 1)]) + data[at + 1:]
        elif kind == "delete":
            data = data[:at] + data[at + length:]
        elif kind == "insert":
            data = data[:at] + fragment + data[at:]
        elif kind == "duplicate":
            data = data[:at + length] + data[at:at + length] + data[at + length:]
        elif kind == "cut":
            data = data[:at]
    return data


def seed_pages(limit: int | None = None, max_bytes: int = 300_000) -> list[bytes]:
    """Real pages: the fixtures, and the gold sets when present (up to ``limit``)."""
    paths = sorted(FIXTURES_DIR.rglob("*.html*"))
    bench = bench_dir()
    if bench.is_dir():
        paths += sorted(bench.rglob("*.html*"))[:limit]
    pages = []
    for path in paths:
        data = path.read_bytes()
        data = gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data
        if len(data) <= max_bytes:
            pages.append(data)
    return pages + mislabelled_pages()


def mislabelled_pages() -> list[bytes]:
    """Real text declaring a wrong charset of its own script family (the charset matrix)."""
    from tests.html.charset_cases import cases

    try:
        return [case.body() for case in cases({}) if case.kind == "family"]
    except OSError:  # no gold sets here
        return []


def check_extract(html: bytes, tally: Tally, budget: float) -> Extraction:
    """``extract(html)`` returns an Extraction within ``budget`` CPU seconds."""
    started, clock = time.process_time(), time.perf_counter()
    result = extract(html)
    seconds = time.process_time() - started
    tally.note(seconds, time.perf_counter() - clock, len(html), "page")
    assert isinstance(result, Extraction)
    assert seconds < budget, f"extract took {seconds:.1f} CPU s on {len(html)} bytes"
    return result


def seed_archives(records_per_seed: int = 3) -> list[list[bytes]]:
    """Small real archives: runs of uncompressed records from the bundled sample and the
    fixture archive, as lists of record bytes."""
    from tests.corpus_support import html_records, write_warc

    records = _members(REPO / "sample" / "sample.warc.gz")
    with tempfile.TemporaryDirectory() as folder:
        records += _members(write_warc(Path(folder) / "fixture.warc.gz", html_records()))
    seeds = [records[i:i + records_per_seed] for i in range(0, len(records), records_per_seed)]
    return [*seeds, [records[0], chunked_gzip_record(), records[-1]]]


def chunked_gzip_record() -> bytes:
    """An uncompressed response record whose page is gzip-encoded and sent chunked, with
    its digests: the payload path a chunked bomb took."""
    from tests.archive.damage import response
    from tests.corpus_support import chunked, page, page_names

    body = chunked(gzip.compress(page(page_names()[0])), 700)
    return response("https://example.org/chunked-gzip", [("Content-Encoding", "gzip"),
                    ("Transfer-Encoding", "chunked")], body, gzipped=False)


def _members(path: Path) -> list[bytes]:
    data = path.read_bytes()
    ends = [r.end for r in ArchiveReader().read(path)]
    starts = [0, *ends[:-1]]
    return [gzip.decompress(data[a:b]) for a, b in zip(starts, ends, strict=True) if b > a]


def build_archive(records: list[bytes], gzipped: bool, changes: list, after: bool) -> bytes:
    """The archive bytes: ``changes`` applied to the records (or, when ``after``, to the
    compressed file)."""
    if not after:
        records = [apply(record, changes[i::len(records)]) for i, record in
                   enumerate(records)]
    data = b"".join(gzip.compress(r, 1) if gzipped else r for r in records)
    return apply(data, changes) if after else data


def check_reader(data: bytes, path: Path, tally: Tally, budget: float,
                 reader: Callable[[Path], list] | None = None) -> list:
    """Reading ``data`` as ``path`` gives records, within ``budget`` CPU seconds."""
    path.write_bytes(data)
    started, clock = time.process_time(), time.perf_counter()
    records = list(ArchiveReader().read(path)) if reader is None else reader(path)
    seconds = time.process_time() - started
    tally.note(seconds, time.perf_counter() - clock, len(data), path.name)
    assert seconds < budget, f"reading took {seconds:.1f} CPU s on {len(data)} bytes"
    assert all(len(r.page.body) <= MAX_BODY_BYTES_DEFAULT for r in records if r.page)
    return records
