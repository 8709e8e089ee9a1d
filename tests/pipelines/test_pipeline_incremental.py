"""Incremental crawling: the seen-store and the spider middleware in front of the scheduler."""

from __future__ import annotations

import pytest
from scrapy import Request
from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

from corpusbot.crawl.incremental import IncrementalMiddleware
from corpusbot.crawl.items import MODIFIED_KEY, REVISIT_KEY, PageItem
from corpusbot.crawl.seen import SeenStore
from corpusbot.crawl.signals import corpus_committed
from corpusbot.document import Rejection

URL = "https://news.example/2024/05/story.html?b=2&a=1"


@pytest.fixture
def store(tmp_path):
    seen = SeenStore(tmp_path / "seen.sqlite")
    yield seen
    seen.close()


def test_an_unknown_url_is_fetched(store):
    assert store.changed(URL, None)


def test_a_stored_url_is_skipped_unless_its_date_moved_on(store):
    store.mark(URL, "2024-06-01T00:00:00Z", "2024-05-01T00:00:00Z")
    assert store.changed(URL, None)  # not committed yet
    assert store.commit() == 1
    assert not store.changed(URL, None)
    assert not store.changed(URL, "2024-05-01T00:00:00Z")
    assert not store.changed(URL, "2024-04-01T00:00:00Z")
    assert store.changed(URL, "2024-05-02T00:00:00Z")


def test_without_a_known_date_the_fetch_time_decides(store):
    store.mark(URL, "2024-06-01T00:00:00Z", None)
    store.commit()
    assert not store.changed(URL, "2024-05-20T00:00:00Z")
    assert store.changed(URL, "2024-06-02T00:00:00Z")


def test_urls_are_compared_canonicalised(store):
    store.mark(URL, "2024-06-01T00:00:00Z", None)
    store.commit()
    assert not store.changed("https://news.example/2024/05/story.html?a=1&b=2#top", None)


def test_a_later_mark_without_a_date_keeps_the_known_date(store):
    store.mark(URL, "2024-06-01T00:00:00Z", "2024-05-01T00:00:00Z")
    store.commit()
    store.mark(URL, "2024-06-05T00:00:00Z", None)
    store.commit()
    assert not store.changed(URL, "2024-05-01T00:00:00Z")
    assert len(store) == 1


def _middleware(tmp_path, **settings):
    crawler = get_crawler(settings_dict={
        "CORPUSBOT_INCREMENTAL_ENABLED": True, "CORPUSBOT_INCREMENTAL_RESET_JOBDIR": True,
        "CORPUSBOT_OUTPUT_DIR": str(tmp_path), **settings})
    return crawler, build_from_crawler(IncrementalMiddleware, crawler)


def _item(url: str, result: object = None) -> PageItem:
    return PageItem(url=url, body=b"", fetched_at="2024-06-01T00:00:00.5Z",
                    request_url=url.replace("/story", "/old-story"),
                    modified="2024-05-01T00:00:00Z", result=result)


def test_processed_items_are_marked_and_committed_after_the_corpus(tmp_path):
    crawler, middleware = _middleware(tmp_path)
    middleware.item_dropped(_item(URL, Rejection(URL, "filter/too-short")), Exception())
    middleware.item_dropped(_item("https://news.example/error.html"), Exception())
    assert middleware.store.changed(URL, None)
    crawler.signals.send_catch_log(corpus_committed)
    assert not middleware.store.changed(URL, None)
    assert not middleware.store.changed(URL.replace("/story", "/old-story"), None)
    assert middleware.store.changed("https://news.example/error.html", None)
    assert crawler.stats.get_value("corpusbot/incremental/marked") == 2


def test_requests_for_unchanged_articles_never_reach_the_scheduler(tmp_path):
    crawler, middleware = _middleware(tmp_path)
    middleware.item_scraped(_item(URL, Rejection(URL, "x")))
    middleware.commit()
    response = HtmlResponse("https://news.example/", body=b"", request=Request("https://news.example/"))
    output = [Request(URL), Request(URL, meta={MODIFIED_KEY: "2024-07-01T00:00:00Z"}),
              Request("https://news.example/new.html"), {"not": "a request"}]
    kept = list(middleware.process_spider_output(response, output))
    assert kept == output[1:]
    assert crawler.stats.get_value("corpusbot/incremental/skipped") == 1
    # the changed article is a revisit of a stored one; the new one is not
    assert kept[0].meta.get(REVISIT_KEY) is True and REVISIT_KEY not in kept[1].meta
    assert crawler.stats.get_value("corpusbot/incremental/revisited") == 1


@pytest.mark.parametrize(("reason", "cleared"), [("finished", True), ("shutdown", False)])
def test_a_finished_crawl_clears_its_resume_state(tmp_path, reason, cleared):
    jobdir = tmp_path / "job"
    (jobdir / "requests.queue").mkdir(parents=True)
    (jobdir / "requests.seen").write_text("fingerprint\n")
    (jobdir / "spider.state").write_bytes(b"")
    _, middleware = _middleware(tmp_path, JOBDIR=str(jobdir))
    middleware.spider_closed(reason)
    assert (jobdir / "requests.seen").exists() is not cleared
    assert (jobdir / "requests.queue").exists() is not cleared
    assert (jobdir / "spider.state").exists()


def test_off_means_not_configured():
    with pytest.raises(NotConfigured):
        build_from_crawler(IncrementalMiddleware,
                           get_crawler(settings_dict={"CORPUSBOT_INCREMENTAL_ENABLED": False}))
