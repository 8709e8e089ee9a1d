"""Incremental crawling: skip articles stored by an earlier run unless they changed.

``IncrementalMiddleware`` is a spider middleware. Before a request is
scheduled it asks the seen-store (``corpusbot.crawl.seen``) whether the URL
was processed before, passing the date a sitemap or feed now gives for it;
an unchanged URL is dropped before Scrapy's duplicate filter ever records
it. Every article item that reached a final outcome (kept, or rejected with
a reason) is marked; the marks are committed after the corpus commits.

With ``JOBDIR`` a crawl can be paused and resumed; once a crawl has
*finished*, its request queue and seen-requests file are removed (unless
``CORPUSBOT_INCREMENTAL_RESET_JOBDIR`` is off) so that the next run starts
from the start pages again and the seen-store alone decides what is new.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Self

from itemadapter import ItemAdapter
from scrapy import Request, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import Response
from scrapy.spidermiddlewares.base import BaseSpiderMiddleware

from corpusbot.crawl.default_settings import CorpusbotSettings
from corpusbot.crawl.items import MODIFIED_KEY, REVISIT_KEY
from corpusbot.crawl.jobstate import clear_job_state
from corpusbot.crawl.seen import CHANGED, UNCHANGED, SeenStore
from corpusbot.crawl.signals import corpus_committed
from corpusbot.html.dates import iso_utc

logger = logging.getLogger(__name__)

def _store(settings: CorpusbotSettings) -> SeenStore:
    """The SQLite store beside the corpus, or the crawl's shared one when it uses Redis."""
    if settings.get("CORPUSBOT_REDIS_URL"):
        import redis  # optional extra: corpusbot[distributed-crawl]  # noqa: PLC0415

        from corpusbot.crawl.redis_seen import RedisSeenStore  # noqa: PLC0415
        from corpusbot.redis_keys import CrawlKeys  # noqa: PLC0415

        return RedisSeenStore(  # type: ignore[return-value]
            redis.Redis.from_url(settings.get("CORPUSBOT_REDIS_URL")),
            CrawlKeys(settings.get("CORPUSBOT_REDIS_CRAWL")).seen(),
            settings.getint("CORPUSBOT_REDIS_URLS_CAPACITY"))
    return SeenStore(settings.get("CORPUSBOT_INCREMENTAL_STORE") or (
        settings.layout().crawl_seen))


class IncrementalMiddleware(BaseSpiderMiddleware):
    """Drop requests for unchanged, already processed articles; remember processed ones."""

    def __init__(self, crawler: Crawler, store: SeenStore, reset_jobdir: bool,
                 with_corpus: bool = True) -> None:
        super().__init__(crawler)
        self.store = store
        self.with_corpus = with_corpus
        self.stats = crawler.stats
        self.jobdir = crawler.settings.get("JOBDIR")
        self.reset_jobdir = reset_jobdir
        self.skipped: set[str] = set()  # pages, not the links to them

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        settings = CorpusbotSettings(crawler.settings)
        if not settings.getbool("CORPUSBOT_INCREMENTAL_ENABLED"):
            raise NotConfigured("CORPUSBOT_INCREMENTAL_ENABLED is off")
        middleware = cls(crawler, _store(settings),
                         settings.getbool("CORPUSBOT_INCREMENTAL_RESET_JOBDIR"),
                         settings.getbool("CORPUSBOT_CORPUS_ENABLED"))
        crawler.signals.connect(middleware.item_scraped, signal=signals.item_scraped)
        crawler.signals.connect(middleware.item_dropped, signal=signals.item_dropped)
        crawler.signals.connect(middleware.commit, signal=corpus_committed)
        crawler.signals.connect(middleware.spider_closed, signal=signals.spider_closed)
        return middleware

    def get_processed_request(self, request: Request, response: Response | None) -> Request | None:
        status = self.store.status(request.url, request.meta.get(MODIFIED_KEY))
        if status == UNCHANGED:
            self._skip(request.url)
            return None
        if status == CHANGED:
            request.meta[REVISIT_KEY] = True
            self.stats.inc_value("corpusbot/incremental/revisited")
        return request

    def _skip(self, url: str) -> None:
        if url in self.skipped:
            return
        if not self.skipped:
            # A user's own spider is skipped too: say so, once, with the way out.
            logger.info("skipping pages an earlier run stored that did not change since, such "
                        "as %s (CORPUSBOT_INCREMENTAL_ENABLED=False fetches them again)", url)
        self.skipped.add(url)
        self.stats.set_value("corpusbot/incremental/skipped", len(self.skipped))

    def item_scraped(self, item: Any) -> None:
        self._mark(item)

    def item_dropped(self, item: Any, exception: BaseException) -> None:
        self._mark(item)

    def _mark(self, item: Any) -> None:
        adapter = ItemAdapter(item)
        # Only pages that went through processing have a final outcome; an
        # item dropped by an error is fetched again next time.
        if adapter.get("result") is None:
            return
        fetched = iso_utc(adapter.get("fetched_at")) or datetime.now(UTC).strftime(
            "%Y-%m-%dT%H:%M:%SZ")
        urls = {adapter.get("url"), adapter.get("request_url")} - {None}
        for url in urls:
            self.store.mark(url, fetched, adapter.get("modified"))

    def commit(self) -> None:
        self.stats.inc_value("corpusbot/incremental/marked", self.store.commit())

    def spider_closed(self, reason: str) -> None:
        if self.skipped:
            logger.info("skipped %d pages stored by an earlier run and unchanged",
                        len(self.skipped))
        if not self.with_corpus:
            self.commit()
        # With the corpus, its closing commit committed the marks (``corpus_committed``);
        # marks made since are of pages it did not commit (it stopped on an error, or was
        # taken over): committed, they would skip those pages in the next run.
        self.store.close()
        if reason == "finished" and self.jobdir and self.reset_jobdir:
            clear_job_state(Path(self.jobdir))
            logger.info("crawl finished: cleared the resume state in %s", self.jobdir)
