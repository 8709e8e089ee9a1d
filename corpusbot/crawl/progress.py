"""Extension: live progress of a crawl (pages fetched, articles kept, per domain).

Counts responses and kept articles per domain from Scrapy's signals, and
reports them every ``CORPUSBOT_PROGRESS_INTERVAL_SECONDS`` as a log line,
or, with ``CORPUSBOT_PROGRESS_BAR``, as a one-line bar on stderr refreshed
each second. At the end the per-domain counts go into the crawl stats
(``corpusbot/domain/<host>/fetched``), where ``corpusbot crawl`` finds them
for its summary.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from typing import Any, Self
from urllib.parse import urlsplit

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import Request, Response
from scrapy.utils.asyncio import create_looping_call
from tqdm import tqdm

from corpusbot.crawl.default_settings import CorpusbotSettings

logger = logging.getLogger(__name__)

TOP_DOMAINS = 3
"""Domains named in a progress line; the rest are summed up."""


class CrawlProgress:
    """Per-domain counts of a crawl, reported as it goes."""

    def __init__(self, crawler: Crawler, interval: float, bar: bool) -> None:
        self.stats = crawler.stats
        self.interval = interval if not bar else 1.0
        self.bar: tqdm | None = tqdm(unit=" pages", dynamic_ncols=True) if bar else None
        self.fetched: Counter[str] = Counter()
        self.kept: Counter[str] = Counter()
        self.started = time.monotonic()
        self.task: Any = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        settings = CorpusbotSettings(crawler.settings)
        if not settings.getbool("CORPUSBOT_PROGRESS_ENABLED"):
            raise NotConfigured("CORPUSBOT_PROGRESS_ENABLED is off")
        progress = cls(crawler, settings.getfloat("CORPUSBOT_PROGRESS_INTERVAL_SECONDS"),
                       settings.getbool("CORPUSBOT_PROGRESS_BAR"))
        crawler.signals.connect(progress.response_received, signal=signals.response_received)
        crawler.signals.connect(progress.item_scraped, signal=signals.item_scraped)
        crawler.signals.connect(progress.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(progress.spider_closed, signal=signals.spider_closed)
        return progress

    def spider_opened(self) -> None:
        self.started = time.monotonic()
        self.task = create_looping_call(self.report)
        self.task.start(self.interval, now=False)

    def response_received(self, response: Response, request: Request) -> None:
        self.fetched[_domain(response.url)] += 1

    def item_scraped(self, item: Any) -> None:
        url = getattr(item, "url", None) or (item.get("url") if isinstance(item, dict) else None)
        if url:
            self.kept[_domain(url)] += 1

    def report(self) -> None:
        line = self.line()
        if self.bar is None:
            logger.info("%s", line)
            return
        self.bar.n = self.fetched.total()
        self.bar.set_postfix_str(line, refresh=True)

    def line(self) -> str:
        """``fetched 120 (11.8/s), kept 45 · a.example 80/30 · b.example 40/15``."""
        fetched = self.fetched.total()
        rate = fetched / max(time.monotonic() - self.started, 1e-9)
        parts = [f"fetched {fetched} ({rate:.1f}/s), kept {self.kept.total()}"]
        top = self.fetched.most_common(TOP_DOMAINS)
        parts += [f"{domain} {count}/{self.kept[domain]}" for domain, count in top]
        if len(self.fetched) > TOP_DOMAINS:
            parts.append(f"+{len(self.fetched) - TOP_DOMAINS} more")
        return " · ".join(parts)

    def spider_closed(self) -> None:
        if self.task is not None and self.task.running:
            self.task.stop()
        if self.bar is not None:
            self.report()
            self.bar.close()
        for domain in self.fetched.keys() | self.kept.keys():
            self.stats.set_value(f"corpusbot/domain/{domain}/fetched", self.fetched[domain])
            self.stats.set_value(f"corpusbot/domain/{domain}/kept", self.kept[domain])


def _domain(url: str) -> str:
    return (urlsplit(url).hostname or "").removeprefix("www.")
