"""Byte ranges of an archive: cut at record starts, every record read by exactly one range."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from corpusbot.archive.ranges import ByteRange, split
from corpusbot.archive.reader import ArchiveReader
from corpusbot.archive.sniff import next_record_start
from tests.corpus_support import Rec, page, page_names, write_arc, write_warc


def mixed_records(count: int = 30) -> list[Rec]:
    """Real pages of every size, with records that are not pages between them."""
    names = page_names()
    records = []
    for i in range(count):
        records.append(Rec(f"https://a.example/{i}", page(names[i % len(names)])))
        if i % 4 == 0:
            records.append(Rec(f"https://a.example/{i}.css", b"body{}" * 50,
                               content_type="text/css"))
        if i % 7 == 0:
            records.append(Rec(f"https://a.example/{i}/missing", b"gone", status="404 Not Found"))
    return records


def read(path: Path, start: int = 0, end: int | None = None) -> list[tuple]:
    """What the reader yields from ``start`` to ``end``, as comparable tuples."""
    return [(r.start, r.end, r.skipped, r.page.url if r.page else None)
            for r in ArchiveReader().read(path, start, end)]


def read_parts(parts: list[ByteRange]) -> list[tuple]:
    return [record for part in parts for record in read(part.path, part.start, part.end)]


@pytest.fixture(params=["warc.gz", "warc", "arc.gz", "arc"])
def archive(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    path = tmp_path / f"mixed.{request.param}"
    writer = write_arc if request.param.startswith("arc") else write_warc
    return writer(path, mixed_records())


@pytest.mark.parametrize("range_bytes", [1, 700, 4000, 20000, 90000])
def test_the_ranges_of_a_file_read_each_record_once(archive: Path, range_bytes: int) -> None:
    whole = read(archive)
    assert sum(1 for record in whole if record[3]) == 30
    parts = split(archive, range_bytes)
    assert read_parts(parts) == whole
    starts = {record[0] for record in whole}
    assert all(part.start in starts for part in parts)
    assert parts[0].start == 0 and parts[-1].end == archive.stat().st_size
    assert all(a.end == b.start for a, b in itertools.pairwise(parts))
    if range_bytes >= 4000:
        # the sizes asked for fall inside records: the cuts moved to the next start
        assert len(parts) > 1
        assert any((b.start - a.start) % range_bytes for a, b in itertools.pairwise(parts))


def test_a_range_ending_inside_a_record_reads_that_record_to_its_end(tmp_path: Path) -> None:
    path = write_warc(tmp_path / "a.warc", mixed_records(8))
    whole = read(path)
    for index in range(1, len(whole) - 1):
        start, end = whole[index][0], whole[index][1]
        inside = (start + end) // 2
        assert read(path, 0, inside) == whole[:index + 1]
        assert read(path, end, None) == whole[index + 1:]
        assert read(path, 0, start) == whole[:index]


def test_a_small_file_is_one_whole_range(tmp_path: Path) -> None:
    path = write_warc(tmp_path / "a.warc.gz", mixed_records(3))
    assert split(path, path.stat().st_size) == [ByteRange(path)]
    assert ByteRange(path).key == str(path.resolve())
    assert split(tmp_path / "missing.warc.gz", 10) == [ByteRange(tmp_path / "missing.warc.gz")]
    with pytest.raises(ValueError, match="1 byte or more"):
        split(path, 0)


QUOTED = (b"<html><head><title>How a WARC file looks</title></head><body><pre>\n"
          b"WARC/1.0\r\nWARC-Type: resource\r\nWARC-Target-URI: https://quoted.example/\r\n"
          b"WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-000000000000>\r\n"
          b"WARC-Date: 2024-01-15T12:00:00Z\r\nContent-Type: text/html\r\n"
          b"Content-Length: 39\r\n\r\n<html><body>a quoted page</body></html>\r\n\r\n"
          b"</pre><p>" + b"The lines above are an example of a record. " * 40
          + b"</p></body></html>")


def test_a_record_header_quoted_in_a_page_is_not_a_cut(tmp_path: Path) -> None:
    names = page_names()
    records = [Rec("https://a.example/0", page(names[0])),
               Rec("https://a.example/quoting", QUOTED),
               Rec("https://a.example/2", page(names[1]))]
    path = write_warc(tmp_path / "quoting.warc", records)
    whole = read(path)
    quoting = next(record for record in whole if record[3] == "https://a.example/quoting")
    quoted_at = path.read_bytes().index(b"WARC/1.0\r\nWARC-Type: resource", quoting[0])
    cut_at = quoting[0] + 10
    with open(path, "rb") as handle:  # the scan alone would cut at the quoted header
        assert next_record_start(handle, cut_at, False) == quoted_at
    parts = split(path, cut_at)
    assert quoted_at not in {part.start for part in parts}
    assert read_parts(parts) == whole
    assert "https://quoted.example/" not in {record[3] for record in whole}
