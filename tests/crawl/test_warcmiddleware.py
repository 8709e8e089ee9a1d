"""WARC archiving: the downloader middleware and the rotating writer, on real files."""

from __future__ import annotations

import asyncio
import gzip
import os
from ipaddress import ip_address

import pytest
from scrapy import Request
from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler
from warcio.archiveiterator import ArchiveIterator

from corpusbot.archive.writer import ArchiveBusyError, RotatingWarcWriter, recover_open_files
from corpusbot.crawl.items import META_KEY
from corpusbot.crawl.warcmiddleware import WarcMiddleware, capture

PAGE = b"<html><body><p>" + b"A paragraph of the archived page. " * 40 + b"</p></body></html>"


def _exchange(url: str = "https://news.example/a?b=1", status: int = 200):
    request = Request(url, headers={"User-Agent": "corpusbot-test", "Accept-Encoding": "gzip"})
    headers = {"Content-Type": "text/html; charset=utf-8", "Content-Encoding": "gzip",
               "Transfer-Encoding": "chunked", "Set-Cookie": ["a=1", "b=2"]}
    response = HtmlResponse(url, status=status, body=gzip.compress(PAGE), headers=headers,
                            request=request, ip_address=ip_address("192.0.2.7"),
                            protocol="HTTP/1.1")
    return request, response


def _records(directory):
    found = []
    for path in sorted(directory.glob("*.warc.gz")):
        with path.open("rb") as stream:
            for record in ArchiveIterator(stream, check_digests=True):
                found.append((record, record.content_stream().read()))
    return found


def test_the_middleware_archives_the_response_and_its_request(tmp_path):
    crawler = get_crawler(settings_dict={"CORPUSBOT_WARC_ENABLED": True,
                                         "CORPUSBOT_OUTPUT_DIR": str(tmp_path),
                                         "CORPUSBOT_WARC_PREFIX": "test",
                                         "CORPUSBOT_WARC_MAX_BYTES": 10**9,
                                         "CORPUSBOT_WARC_GZIP_LEVEL": 6,
                                         "CORPUSBOT_CONTACT": "ops@example.org"})
    middleware = build_from_crawler(WarcMiddleware, crawler)
    request, response = _exchange()
    returned = asyncio.run(middleware.process_response(request, response))
    middleware.spider_closed()
    assert returned is response
    location = request.meta[META_KEY]
    (info, _), (resp, body), (req, _) = _records(tmp_path / "archive")
    assert info.rec_type == "warcinfo"
    assert resp.rec_type == "response" and req.rec_type == "request"
    assert body == PAGE  # readers undo the content encoding the archive keeps
    headers = resp.rec_headers
    assert headers.get_header("WARC-Target-URI") == "https://news.example/a?b=1"
    assert headers.get_header("WARC-IP-Address") == "192.0.2.7"
    assert headers.get_header("WARC-Date") == location.date
    assert headers.get_header("WARC-Payload-Digest").startswith("sha1:")
    assert headers.get_header("WARC-Record-ID") == location.record_id
    assert req.rec_headers.get_header("WARC-Concurrent-To") == location.record_id
    assert resp.http_headers.get_header("Transfer-Encoding") is None
    assert resp.http_headers.get_header("Content-Encoding") == "gzip"
    assert [v for k, v in resp.http_headers.headers if k == "Set-Cookie"] == ["a=1", "b=2"]
    assert req.http_headers.get_header("Host") == "news.example"
    assert crawler.stats.get_value("corpusbot/warc/records") == 2


def test_each_record_is_its_own_gzip_member_at_the_given_offset(tmp_path):
    writer = RotatingWarcWriter(tmp_path, "t", 10**9, 6, {"software": "test"})
    request, response = _exchange()
    location = writer.write(capture(request, response))
    writer.close()
    with open(location.filename, "rb") as archive:
        archive.seek(location.offset)
        record = gzip.decompress(archive.read(location.length))
        request_record = gzip.decompress(archive.read())
    assert record.startswith(b"WARC/1.1\r\n")
    assert location.record_id.encode() in record
    assert b"\r\n\r\nHTTP/1.1 200 OK\r\n" in record
    assert b"\r\n\r\nGET /a?b=1 HTTP/1.1\r\n" in request_record


def test_files_rotate_past_the_size_limit(tmp_path):
    writer = RotatingWarcWriter(tmp_path, "t", 100, 6, {"software": "test"})
    for number in range(4):
        request, response = _exchange(f"https://news.example/{number}")
        writer.write(capture(request, response))
    writer.close()
    files = sorted(tmp_path.glob("*.warc.gz"))
    assert len(files) == 4
    assert [r.rec_type for r, _ in _records(tmp_path)].count("warcinfo") == 4
    assert not list(tmp_path.glob("*.open"))


def test_a_file_left_open_by_a_crash_is_cut_after_its_last_whole_record(tmp_path):
    writer = RotatingWarcWriter(tmp_path, "t", 10**9, 6, {"software": "test"})
    request, response = _exchange()
    writer.write(capture(request, response))
    whole = writer.file.tell()
    member = gzip.compress(b"WARC/1.1\r\nWARC-Type: response\r\n" + PAGE)
    torn = member[: len(member) // 2]
    writer.file.write(torn)  # a record cut short by a crash
    writer.file.flush()
    assert len(list(tmp_path.glob("*.warc.gz.open"))) == 1
    (recovered,) = recover_open_files(tmp_path)
    assert recovered.stat().st_size == whole
    assert [r.rec_type for r, _ in _records(tmp_path)] == ["warcinfo", "response", "request"]


def test_a_response_archived_before_a_crash_is_not_archived_again(tmp_path):
    first = RotatingWarcWriter(tmp_path, "t", 10**9, 6, {"software": "test"})
    request, response = _exchange()
    before = first.write(capture(request, response))
    os.close(first.lock)  # the process dies: its lock goes, its file stays open
    again = RotatingWarcWriter(tmp_path, "t", 10**9, 6, {"software": "test"})
    location = again.write(capture(request, response))
    assert (location.filename, location.offset) == (before.filename, before.offset)
    other_request, other = _exchange("https://news.example/other")
    again.write(capture(other_request, other))
    again.close()
    responses = [r.rec_headers.get_header("WARC-Target-URI") for r, _ in _records(tmp_path)
                 if r.rec_type == "response"]
    assert sorted(responses) == ["https://news.example/a?b=1", "https://news.example/other"]


def test_a_resumed_crawl_killed_before_its_first_new_record_still_archives_nothing_twice(
        tmp_path):
    # The run after a crash answers its first pages from the crashed run's records and
    # opens no file of its own; killed then, it leaves no open file, and the run after it
    # must still know those records (CI's kill -9 test, under load: an article twice).
    first = RotatingWarcWriter(tmp_path, "t", 10**9, 6, {"software": "test"})
    request, response = _exchange()
    before = first.write(capture(request, response))
    os.close(first.lock)  # killed: the lock goes, the file stays open
    resumed = RotatingWarcWriter(tmp_path, "t", 10**9, 6, {"software": "test"})
    assert resumed.write(capture(request, response)).offset == before.offset
    assert resumed.file is None  # nothing new written, no file opened
    os.close(resumed.lock)  # killed again
    last = RotatingWarcWriter(tmp_path, "t", 10**9, 6, {"software": "test"})
    location = last.write(capture(request, response))
    last.close()
    assert (location.filename, location.offset) == (before.filename, before.offset)
    responses = [r for r, _ in _records(tmp_path) if r.rec_type == "response"]
    assert len(responses) == 1


def test_after_a_clean_finish_no_earlier_record_is_read_or_reused(tmp_path):
    first = RotatingWarcWriter(tmp_path, "t", 10**9, 6, {"software": "test"})
    request, response = _exchange()
    first.write(capture(request, response))
    first.close()
    again = RotatingWarcWriter(tmp_path, "t", 10**9, 6, {"software": "test"})
    assert again.known == {}
    again.write(capture(request, response))  # a new crawl archives what it fetches
    again.close()
    assert [r.rec_type for r, _ in _records(tmp_path)].count("response") == 2


def test_off_means_not_configured():
    crawler = get_crawler(settings_dict={"CORPUSBOT_WARC_ENABLED": False})
    with pytest.raises(NotConfigured):
        build_from_crawler(WarcMiddleware, crawler)


def test_a_second_writer_on_the_same_folder_is_refused(tmp_path):
    first = RotatingWarcWriter(tmp_path, "t", 10**9, 6, {"software": "test"})
    request, response = _exchange()
    first.write(capture(request, response))
    with pytest.raises(ArchiveBusyError, match="another crawl"):
        RotatingWarcWriter(tmp_path, "t", 10**9, 6, {"software": "test"})
    assert len(list(tmp_path.glob("*.warc.gz.open"))) == 1  # the live file is left alone
    first.close()
    RotatingWarcWriter(tmp_path, "t", 10**9, 6, {"software": "test"}).close()


def test_content_encoded_bodies_are_stored_not_deflated_again(tmp_path):
    writer = RotatingWarcWriter(tmp_path, "t", 10**9, 6, {"software": "test"})
    request, response = _exchange()
    encoded = writer.write(capture(request, response))
    plain = HtmlResponse("https://news.example/plain", body=PAGE, request=request,
                         headers={"Content-Type": "text/html"})
    identity = writer.write(capture(request, plain))
    writer.close()
    with open(encoded.filename, "rb") as archive:
        archive.seek(encoded.offset)
        stored = archive.read(encoded.length)
        archive.seek(identity.offset)
        deflated = archive.read(identity.length)
    assert gzip.compress(PAGE) in stored  # the gzip body sits in the member as it came
    assert PAGE not in deflated and len(deflated) < len(PAGE) / 2  # plain HTML is deflated
    assert [body for _, body in _records(tmp_path)][1::2] == [PAGE, PAGE]


def test_records_keep_fetch_order_when_plain_and_encoded_responses_mix(tmp_path):
    # Plain responses go to the writer's thread, encoded ones are written
    # inline: an encoded one arriving while a plain one waits must queue behind it.
    crawler = get_crawler(settings_dict={"CORPUSBOT_WARC_ENABLED": True,
                                         "CORPUSBOT_OUTPUT_DIR": str(tmp_path),
                                         "CORPUSBOT_CONTACT": "ops@example.org"})
    middleware = build_from_crawler(WarcMiddleware, crawler)
    exchanges = []
    for number in range(30):
        request, encoded = _exchange(f"https://news.example/{number}")
        if number % 3 == 0:
            plain = HtmlResponse(request.url, body=PAGE * 20, request=request,
                                 headers={"Content-Type": "text/html"})
            exchanges.append((request, plain))
        else:
            exchanges.append((request, encoded))

    async def fetch_all():
        # Started in fetch order, as the downloader hands responses over.
        await asyncio.gather(*(middleware.process_response(request, response)
                               for request, response in exchanges))

    asyncio.run(fetch_all())
    middleware.spider_closed()
    responses = [record for record, _ in _records(tmp_path / "archive")
                 if record.rec_type == "response"]
    assert [r.rec_headers.get_header("WARC-Target-URI") for r in responses] == [
        request.url for request, _ in exchanges]
    offsets = [request.meta[META_KEY].offset for request, _ in exchanges]
    assert offsets == sorted(offsets)
