"""The archive reader on real WARC and ARC files made from real pages."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from corpusbot.archive.reader import (
    DAMAGED,
    SKIPPED_BAD_ENCODING,
    SKIPPED_NOT_HTML,
    SKIPPED_STATUS,
    SKIPPED_TOO_LARGE,
    SKIPPED_TYPE,
    UNREADABLE,
    ArchiveReader,
    ReaderOptions,
    find_archives,
    is_html,
)
from tests.archive import damage
from tests.corpus_support import (
    Rec,
    chunked,
    deflate_gzip,
    html_records,
    page,
    page_names,
    write_arc,
    write_warc,
)

PNG = b"\x89PNG\r\n\x1a\n" + bytes(200)


def read(path: Path, **options: object) -> list:
    return list(ArchiveReader(ReaderOptions(**options)).read(path))  # type: ignore[arg-type]


def pages(records: list) -> list:
    return [r.page for r in records if r.page is not None]


@pytest.mark.parametrize("name", ["a.warc.gz", "a.warc", "a.arc", "a.arc.gz"])
def test_every_format_yields_the_html_responses(tmp_path: Path, name: str) -> None:
    records = html_records()
    writer = write_arc if ".arc" in name else write_warc
    found = pages(read(writer(tmp_path / name, records)))
    assert [p.url for p in found] == [r.url for r in records]
    assert [p.body for p in found] == [r.body for r in records]
    assert all(p.source == str(tmp_path / name) and p.status == 200 for p in found)
    assert all(p.headers["Content-Type"].startswith("text/html") for p in found)
    assert all(p.fetched_at and p.record_id for p in found)


@pytest.mark.parametrize("name", ["a.warc.gz", "a.warc", "a.arc.gz", "a.arc"])
def test_offsets_locate_records_and_ends_resume(tmp_path: Path, name: str) -> None:
    writer = write_arc if ".arc" in name else write_warc
    path = writer(tmp_path / name, html_records())
    records = read(path)
    for record in records:
        if record.page is not None:  # reading from a page's offset starts with that page
            again = next(iter(ArchiveReader().read(path, record.page.offset)))
            assert again.page is not None and again.page.url == record.page.url
    middle = [r for r in records if r.page][1]
    rest = pages(list(ArchiveReader().read(path, middle.end)))
    assert [p.url for p in rest] == [p.url for p in pages(records)][2:]


def test_resource_records_holding_html_are_pages(tmp_path: Path) -> None:
    path = write_warc(tmp_path / "r.warc.gz", [
        Rec("https://example.org/doc", page("en-anarcat"), rec_type="resource"),
        Rec("https://example.org/img", PNG, content_type="image/png", rec_type="resource"),
    ])
    records = read(path)
    assert [p.url for p in pages(records)] == ["https://example.org/doc"]
    assert [r.skipped for r in records if r.page is None] == [SKIPPED_TYPE, SKIPPED_NOT_HTML]


def test_other_record_types_are_skipped(tmp_path: Path) -> None:
    path = write_warc(tmp_path / "t.warc.gz", [
        Rec("https://example.org/a", b"GET /a HTTP/1.1\r\n\r\n", None, rec_type="request"),
        Rec("https://example.org/a", b"fetchTimeMs: 10\r\n", "application/warc-fields",
            rec_type="metadata"),
    ])
    assert [r.skipped for r in read(path)] == [SKIPPED_TYPE] * 3  # with the warcinfo


def test_only_status_200_by_default(tmp_path: Path) -> None:
    body = page("en-anarcat")
    path = write_warc(tmp_path / "s.warc.gz", [
        Rec("https://example.org/ok", body),
        Rec("https://example.org/gone", body, status="404 Not Found"),
        Rec("https://example.org/moved", body, status="301 Moved Permanently"),
    ])
    assert [p.url for p in pages(read(path))] == ["https://example.org/ok"]
    assert sum(r.skipped == SKIPPED_STATUS for r in read(path)) == 2
    wider = pages(read(path, statuses=frozenset({200, 404})))
    assert [(p.url, p.status) for p in wider] == [("https://example.org/ok", 200),
                                                  ("https://example.org/gone", 404)]


def test_html_by_header_and_by_sniffing(tmp_path: Path) -> None:
    body = page("en-anarcat")
    path = write_warc(tmp_path / "h.warc.gz", [
        Rec("https://example.org/xhtml", body, "application/xhtml+xml"),
        Rec("https://example.org/none", body, None),
        Rec("https://example.org/octet", body, "application/octet-stream"),
        Rec("https://example.org/png", PNG, "application/octet-stream"),
        Rec("https://example.org/json", b'{"a": "<html>"}', "application/json"),
        Rec("https://example.org/css", b"body{}", "text/css"),
    ])
    kept = [p.url.rsplit("/", 1)[1] for p in pages(read(path))]
    assert kept == ["xhtml", "none", "octet"]


def test_sniffing_rules() -> None:
    assert is_html(None, b"\xef\xbb\xbf  <!DOCTYPE html><html>")
    assert is_html("", b"  <!-- c --><html lang=en>")
    assert is_html("TEXT/HTML; charset=x", b"")
    assert not is_html("application/pdf", b"<html>")
    assert not is_html(None, b"plain words <html>")


def test_transfer_and_content_encodings_are_undone(tmp_path: Path) -> None:
    body = page("de-feuerwehr")
    path = write_warc(tmp_path / "e.warc.gz", [
        Rec("https://example.org/chunked", chunked(body),
            headers=[("Transfer-Encoding", "chunked")]),
        Rec("https://example.org/gzip", deflate_gzip(body), headers=[("Content-Encoding", "gzip")]),
        Rec("https://example.org/both", chunked(deflate_gzip(body)),
            headers=[("Transfer-Encoding", "chunked"), ("Content-Encoding", "gzip")]),
    ])
    found = pages(read(path))
    assert [p.url.rsplit("/", 1)[1] for p in found] == ["chunked", "gzip", "both"]
    assert all(p.body == body for p in found)


def test_content_encodings_that_cannot_be_undone_are_skipped(tmp_path: Path) -> None:
    path = write_warc(tmp_path / "u.warc.gz", [
        Rec("https://example.org/lzw", b"\x1f\x9d\x90 compressed", headers=[
            ("Content-Encoding", "compress")]),
        # Labelled gzip but sent plain, as some servers do: read as it is.
        Rec("https://example.org/plain", b"<p>not gzip at all</p>", headers=[
            ("Content-Encoding", "gzip")]),
    ])
    records = read(path)
    assert records[1].skipped == SKIPPED_BAD_ENCODING
    assert records[2].page is not None and records[2].page.body == b"<p>not gzip at all</p>"


def test_too_large_bodies_are_skipped(tmp_path: Path) -> None:
    path = write_warc(tmp_path / "l.warc.gz", html_records())
    records = read(path, max_body_bytes=20_000)
    assert all(len(p.body) <= 20_000 for p in pages(records))
    assert any(r.skipped == SKIPPED_TOO_LARGE for r in records)


def _corrupt(path: Path, at: int, length: int = 64) -> None:
    data = bytearray(path.read_bytes())
    data[at:at + length] = b"\x00" * length
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("name", ["d.warc.gz", "d.warc"])
def test_a_damaged_record_is_counted_and_reading_goes_on(tmp_path: Path, name: str) -> None:
    path = write_warc(tmp_path / name, html_records())
    good = read(path)
    second = [r for r in good if r.page][1]
    # Inside the deflate stream of a gzip member; over the version line of a plain record.
    _corrupt(path, second.page.offset + (20 if name.endswith(".gz") else 0))
    records = read(path)
    urls = [p.url for p in pages(records)]
    expected = [p.url for p in pages(good)]
    assert urls == expected[:1] + expected[2:]
    assert [r.skipped for r in records].count(DAMAGED) == 1


def test_a_truncated_file_keeps_what_came_before(tmp_path: Path) -> None:
    path = write_warc(tmp_path / "t.warc.gz", html_records())
    last = pages(read(path))[-1]
    path.write_bytes(path.read_bytes()[:last.offset + 300])
    records = read(path)
    assert len(pages(records)) == len(html_records()) - 1
    assert records[-1].skipped == DAMAGED


def test_not_an_archive_and_missing_files(tmp_path: Path) -> None:
    junk = tmp_path / "junk.warc.gz"
    junk.write_bytes(b"this is not an archive at all\n" * 10)
    junk_records = read(junk)
    assert junk_records and {r.skipped for r in junk_records} == {DAMAGED}
    assert [r.skipped for r in read(tmp_path / "missing.warc")] == [UNREADABLE]


def test_non_chunked_gzip_is_damage_that_names_the_fix(tmp_path: Path, caplog) -> None:
    plain = write_warc(tmp_path / "p.warc", html_records())
    whole = tmp_path / "whole.warc.gz"
    whole.write_bytes(deflate_gzip(plain.read_bytes()))
    records = read(whole)
    assert DAMAGED in [r.skipped for r in records]
    assert "recompress" in caplog.text


def test_find_archives_takes_files_folders_and_globs(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    a = write_warc(tmp_path / "a.warc.gz", [])
    b = write_arc(tmp_path / "sub" / "b.arc", [])
    (tmp_path / "notes.txt").write_text("x")
    found, missing = find_archives([str(tmp_path), str(tmp_path / "*.warc.gz"),
                                    str(tmp_path / "sub" / ".." / "a.warc.gz"), "nowhere/*.warc"])
    assert found == [a, b]
    assert missing == ["nowhere/*.warc"]


def test_a_false_gzip_header_inside_damage_counts_once(tmp_path: Path) -> None:
    path = write_warc(tmp_path / "f.warc.gz", html_records())
    good = read(path)
    second = [r for r in good if r.page][1]
    data = bytearray(path.read_bytes())
    start = second.page.offset + 20
    data[start:start + 64] = b"\x00" * 64
    # bytes that look like the start of a gzip member, then garbage
    data[start + 64:start + 80] = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03" + b"\xff" * 6
    path.write_bytes(bytes(data))
    records = read(path)
    assert [r.skipped for r in records].count(DAMAGED) == 1
    assert [p.url for p in pages(records)] == [p.url for p in pages(good)][:1] + [
        p.url for p in pages(good)][2:]


# -- Damage of every kind (tests/archive/damage.py makes the damaged copies) ---------------

def _layout(tmp_path: Path, name: str = "s.warc.gz") -> damage.Layout:
    return damage.layout(write_warc(tmp_path / name, html_records()))


def _recovered(tmp_path: Path, case: damage.Damaged, **options: object) -> tuple[list, list]:
    path = tmp_path / f"case{case.suffix}"
    path.write_bytes(case.data)
    records = read(path, **options)
    return records, [p.url for p in pages(records)]


@pytest.mark.parametrize("name", ["s.warc.gz", "s.warc"])
def test_every_cut_point_keeps_the_records_before_it(tmp_path: Path, name: str) -> None:
    source = _layout(tmp_path, name)
    for at in range(1, len(source.data), max(1, len(source.data) // 41)):
        case = damage.truncated(source, at)
        records, urls = _recovered(tmp_path, case)
        assert set(case.intact) <= set(urls)
        assert [r.skipped for r in records].count(DAMAGED) <= 1


@pytest.mark.parametrize("seed", range(6))
def test_flipped_bytes_cost_only_the_records_they_touch(tmp_path: Path, seed: int) -> None:
    import random

    source = _layout(tmp_path)
    case = damage.flipped(source, 1 + seed * 3, random.Random(seed))
    records, urls = _recovered(tmp_path, case)
    assert set(case.intact) <= set(urls)
    problems = [r for r in records if r.skipped == DAMAGED]
    assert len(problems) <= 1 + seed * 3


@pytest.mark.parametrize("name", ["s.warc.gz", "s.warc"])
@pytest.mark.parametrize("value", ["99999999", "100", "1" + "0" * 30, "-5", "abc"])
def test_a_lying_content_length_costs_its_record_only(tmp_path: Path, name: str,
                                                      value: str) -> None:
    source = _layout(tmp_path, name)
    case = damage.content_length(source, 2, value)
    records, urls = _recovered(tmp_path, case)
    assert set(case.intact) <= set(urls)
    assert DAMAGED in [r.skipped for r in records]


@pytest.mark.parametrize("records", [1, 1.5, 2])
def test_a_content_length_too_long_inside_a_plain_warc_keeps_the_records_it_ran_over(
        tmp_path: Path, records: float, caplog: pytest.LogCaptureFixture) -> None:
    source = _layout(tmp_path, "s.warc")
    case = damage.longer_content_length(source, 2, records)
    swallowed = source.pages[3][0]
    assert swallowed in case.intact
    with caplog.at_level(logging.WARNING):
        found, urls = _recovered(tmp_path, case)
    assert urls == case.intact  # every other record, in order, each once
    assert [r.skipped for r in found].count(DAMAGED) == 1
    damaged_at = source.pages[2][2]
    assert [f"case.warc: damaged at offset {damaged_at}" in m for m in caplog.messages
            ].count(True) == 1


def test_an_archived_warc_file_is_not_taken_for_damage(tmp_path: Path) -> None:
    inner = write_warc(tmp_path / "inner.warc", html_records("https://inner.example/"))
    outer = write_warc(tmp_path / "outer.warc", [
        Rec("https://a.example/page", page(page_names()[0])),
        Rec("https://a.example/inner.warc", inner.read_bytes(), "application/warc"),
        Rec("https://a.example/after", page(page_names()[1]))])
    found = read(outer)
    assert DAMAGED not in [r.skipped for r in found]
    assert [p.url for p in pages(found)] == ["https://a.example/page", "https://a.example/after"]


@pytest.mark.parametrize("name", ["s.warc.gz", "s.warc"])
def test_bombs_and_broken_payloads_among_good_records(tmp_path: Path, name: str) -> None:
    source = _layout(tmp_path, name)
    for case in damage.hostile_records(source, 24 << 20):
        records, urls = _recovered(tmp_path, case, max_record_bytes=8 << 20)
        assert set(case.intact) <= set(urls), case.kind
        assert not [u for u in urls if "bomb" in u or "broken-gzip" in u], case.kind
        skipped = {r.skipped for r in records}
        if "bomb" in case.kind:
            assert SKIPPED_TOO_LARGE in skipped, case.kind
        if case.kind == "broken gzip payload":
            assert SKIPPED_BAD_ENCODING in skipped


def test_a_whole_file_bomb_is_read_in_bounded_memory(tmp_path: Path) -> None:
    import subprocess
    import sys

    bomb = tmp_path / "bomb.warc.gz"
    bomb.write_bytes(damage.whole_file_bomb(4 << 30).data)  # 4 MB inflating to 4 GiB
    # The peak of the child's own memory (VmHWM): Linux carries ru_maxrss across exec, so
    # that figure would start at the size of the pytest process that forked it.
    script = ("import re, sys; from corpusbot.archive.reader import ArchiveReader;"
              "skipped = [r.skipped for r in ArchiveReader().read(sys.argv[1])];"
              "status = open('/proc/self/status').read();"
              "print(skipped, int(re.search(r'VmHWM:\\s*(\\d+)', status).group(1)) // 1024)")
    done = subprocess.run([sys.executable, "-c", script, str(bomb)], capture_output=True,
                          text=True, timeout=120, check=True)
    skipped, peak_mb = done.stdout.rsplit(" ", 1)
    assert skipped == str([DAMAGED])
    # The interpreter and the reader's imports take ~35 MB; one inflation step is 4 MiB.
    assert int(peak_mb) < 150


def test_garbage_named_like_an_archive_is_one_problem(tmp_path: Path) -> None:
    import random

    records, urls = _recovered(tmp_path, damage.garbage(200_000, random.Random(3)))
    assert urls == [] and [r.skipped for r in records] == [DAMAGED]
