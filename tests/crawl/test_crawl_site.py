"""A real crawl of the local news site with ``corpusbot crawl``: what is stored, fetched, archived.

One crawl per module (in a subprocess: the reactor cannot restart), many
assertions on its corpus, stats, archive and the server's hit counts. The
site is built from ../shared/bench pages when present, else from the
fixture pages.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from warcio.archiveiterator import ArchiveIterator

from tests.conftest import bench_dir
from tests.newssite.client import REPO, NewsSite, corpus_records, crawl_stats, run_crawl


def _bench() -> Path | None:
    folder = bench_dir() / "scrapinghub"
    return folder if folder.is_dir() else None


@pytest.fixture(scope="module")
def site():
    with NewsSite(bench=_bench()) as news:
        yield news


@pytest.fixture(scope="module")
def crawl(site, tmp_path_factory):
    """The crawl: its output folder, process result, stats, hits and the manifest."""
    out = tmp_path_factory.mktemp("crawl") / "out"
    result = run_crawl([f"{site.url}/"], out)
    assert result.returncode == 0, result.stderr[-3000:]
    return {"out": out, "result": result, "stats": crawl_stats(out), "hits": site.hits(),
            "manifest": site.manifest(), "base": site.url}


def _stored(crawl) -> Counter[str]:
    base = crawl["base"]
    return Counter(record["url"].removeprefix(base) for record in corpus_records(crawl["out"]))


def test_every_reachable_article_is_stored_once(crawl):
    stored = _stored(crawl)
    assert sorted(stored) == crawl["manifest"]["articles"]
    assert set(stored.values()) == {1}


def test_no_index_page_is_stored(crawl):
    stored = _stored(crawl)
    assert not set(stored) & set(crawl["manifest"]["index"])
    assert not [url for url in stored if "/calendar/" in url or "/tag/" in url]
    assert crawl["stats"]["corpusbot/pages/index"] >= len(crawl["manifest"]["index"])


def test_nothing_is_fetched_from_the_disallowed_path(crawl):
    assert not [path for path in crawl["hits"] if path.startswith("/private/")]
    assert crawl["stats"]["robotstxt/forbidden"] >= 1


def test_the_calendar_trap_is_left_after_a_few_pages(crawl):
    calendar = [path for path in crawl["hits"] if path.startswith("/calendar/")]
    assert 0 < len(calendar) <= 12
    assert crawl["stats"]["finish_reason"] == "finished"


def test_the_failing_page_is_retried_and_stored(crawl):
    flaky = crawl["manifest"]["flaky"]
    assert crawl["hits"][flaky] == 2
    assert crawl["stats"]["retry/count"] >= 1
    assert flaky in _stored(crawl)


def test_redirect_404_and_slow_page(crawl):
    source, target = crawl["manifest"]["redirect"]
    assert crawl["hits"][source] == 1 and target in _stored(crawl)
    assert crawl["hits"][crawl["manifest"]["missing"]] == 1
    assert crawl["stats"]["downloader/response_status_count/404"] >= 1
    assert crawl["manifest"]["slow"] in _stored(crawl)


def test_sitemaps_and_feeds_are_found_where_only_robots_and_head_name_them(crawl):
    hits = crawl["hits"]
    assert {"/sitemaps/index.xml", "/sitemaps/articles.xml.gz", "/sitemaps/news.xml",
            "/feeds/main.xml", "/feeds/culture.atom"} <= set(hits)
    assert crawl["stats"]["corpusbot/discovered/sitemap"] > 0
    assert crawl["stats"]["corpusbot/discovered/feed"] > 0
    # The Sitemap: lines are read from the robots.txt Scrapy fetched to obey it.
    assert hits["/robots.txt"] == 1


def test_each_article_is_fetched_once(crawl):
    fetched = {path: n for path, n in crawl["hits"].items() if path.startswith("/news/")}
    flaky = crawl["manifest"]["flaky"]
    assert {path: n for path, n in fetched.items() if path != flaky and n != 1} == {}


def test_documents_carry_metadata_and_archive_location(crawl):
    records = corpus_records(crawl["out"])
    dated = [r for r in records if r.get("meta", {}).get("published")]
    assert len(dated) >= 0.7 * len(records)
    assert all(r.get("meta", {}).get("title") for r in records)
    assert all(r["source"]["type"] == "archive" for r in records)
    # the crawl's own archive, recorded relative to OUT: true wherever OUT is moved
    assert all(r["source"]["file"].startswith("archive/") for r in records)
    assert all((crawl["out"] / r["source"]["file"]).is_file() for r in records)


def test_the_summary_names_domain_and_counts(crawl):
    output = crawl["result"].stdout
    kept = len(crawl["manifest"]["articles"])
    stats = crawl["stats"]
    refused = stats["corpusbot/domain/127.0.0.1/refused"]
    assert refused == stats["robotstxt/forbidden"] >= 1
    assert re.search(rf"^127\.0\.0\.1 +\d+ +{kept} +{refused} +0$", output, re.MULTILINE)
    assert f"articles kept      {kept}" in output
    assert f"report: corpusbot report {crawl['out']}" in output


def test_the_report_shows_the_crawled_site(crawl, tmp_path):
    pytest.importorskip("matplotlib", reason="the report needs matplotlib: corpusbot[report]")
    from corpusbot.report import write_report

    html = write_report(crawl["out"], tmp_path / "report.html").read_text()
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))
    stats = crawl["stats"]
    row = [stats[f"corpusbot/domain/127.0.0.1/{c}"] for c in ("fetched", "kept", "refused")]
    assert "Crawled sites" in text and "127.0.0.1 {:,} {:,} {:,} 0".format(*row) in text
    assert f"pages fetched (crawl) {stats['response_received_count']:,}" in text


def _archive(out: Path) -> list:
    records = []
    for path in sorted((out / "archive").glob("*.warc.gz")):
        with path.open("rb") as stream:
            for record in ArchiveIterator(stream, check_digests=True):
                body = record.content_stream().read()
                records.append((record.rec_type, record.rec_headers, record.http_headers, body))
    return records


def test_every_fetched_response_is_archived_with_its_request(crawl):
    records = _archive(crawl["out"])
    kinds = Counter(kind for kind, *_ in records)
    assert kinds["response"] == crawl["stats"]["downloader/response_count"]
    assert kinds["request"] == kinds["response"]
    responses = [headers for kind, headers, _, _ in records if kind == "response"]
    requests = {h.get_header("WARC-Concurrent-To") for kind, h, _, _ in records
                if kind == "request"}
    for headers in responses:
        assert headers.get_header("WARC-Date").endswith("Z")
        assert headers.get_header("WARC-Payload-Digest").startswith("sha1:")
        assert headers.get_header("WARC-IP-Address") == "127.0.0.1"
        assert headers.get_header("WARC-Record-ID") in requests


def test_the_archive_keeps_failures_and_encodings(crawl):
    base, flaky = crawl["base"], crawl["manifest"]["flaky"]
    statuses = [http.get_statuscode() for kind, h, http, _ in _archive(crawl["out"])
                if kind == "response" and h.get_header("WARC-Target-URI") == base + flaky]
    assert statuses == ["500", "200"]
    encodings = {http.get_header("Content-Encoding") for kind, _, http, _ in _archive(crawl["out"])
                 if kind == "response"}
    assert "gzip" in encodings


def test_corpusbot_warc_reproduces_the_crawled_corpus(crawl, tmp_path):
    again = tmp_path / "again"
    result = subprocess.run(
        [sys.executable, "-m", "corpusbot", "warc", str(crawl["out"] / "archive"), "-o",
         str(again), "-j", "1", "-q"],
        cwd=REPO, capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    crawled = {(r["url"], r["content_hash"]) for r in corpus_records(crawl["out"])}
    archived = {(r["url"], r["content_hash"]) for r in corpus_records(again)}
    assert crawled <= archived
    extra = {url.removeprefix(crawl["base"]) for url, _ in archived - crawled}
    assert not extra & set(crawl["manifest"]["articles"])


def test_without_robots_rules_the_spider_reads_robots_for_sitemaps_itself(tmp_path):
    # ROBOTSTXT_OBEY off: Scrapy fetches no robots.txt, so the spider asks for it.
    with NewsSite(bench=_bench()) as news:
        result = run_crawl([f"{news.url}/"], tmp_path / "out", "ROBOTSTXT_OBEY=False",
                           "CORPUSBOT_PROCESS_ENABLED=False", "CORPUSBOT_CORPUS_ENABLED=False",
                           "CORPUSBOT_WARC_ENABLED=False")
        assert result.returncode == 0, result.stderr[-3000:]
        hits = news.hits()
    assert hits["/robots.txt"] == 1
    assert {"/sitemaps/index.xml", "/sitemaps/news.xml"} <= set(hits)
    assert [path for path in hits if path.startswith("/private/")]  # rules not obeyed
