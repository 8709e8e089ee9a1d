"""Downloader middleware: per site, the requests refused and the fetches that failed, and why.

Placed before Scrapy's own middlewares on the way out (order 40), it sees a
request's exception last on the way back: after the retry middleware gave
up (a retried failure is counted once) and for requests a middleware
refused (robots.txt, the private-network guard). At the end it writes
``corpusbot/domain/<host>/refused`` and ``…/failed`` (beside the fetched
and kept counts of ``corpusbot.crawl.progress``) and
``corpusbot/fetch-failed/<reason>`` into the stats, where ``corpusbot
crawl`` finds them to say why nothing could be fetched, and the report
shows them per site.
"""

from __future__ import annotations

from collections import Counter
from typing import Self
from urllib.parse import urlsplit

from scrapy import Request, exceptions, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import IgnoreRequest
from twisted.internet import error as twisted_errors

from corpusbot.crawl.netguard import PrivateNetworkRefused

ROBOTS_MESSAGE = "Forbidden by robots.txt"
"""What Scrapy's RobotsTxtMiddleware says when it refuses a request."""


def _kinds(*names: str) -> tuple[type[BaseException], ...]:
    # Scrapy's own download exceptions (2.19) where it has them, else Twisted's (2.15).
    found = [getattr(exceptions, name, None) or getattr(twisted_errors, name, None)
             for name in names]
    return tuple(kind for kind in found if kind is not None)


_REASONS = (
    (_kinds("DownloadConnectionRefusedError", "ConnectionRefusedError"), "connection refused"),
    (_kinds("CannotResolveHostError", "DNSLookupError"), "host not found"),
    (_kinds("DownloadTimeoutError", "TimeoutError", "TCPTimedOutError"), "timed out"),
    (_kinds("ResponseDataLossError", "ConnectionLost", "ConnectionDone"), "connection lost"),
)


def reason_of(exception: BaseException) -> str:
    """A fetch failure in a few words: ``connection refused``, ``host not found``, …"""
    for kinds, reason in _REASONS:
        if isinstance(exception, kinds):
            return reason
    names = {type(c).__name__ for c in getattr(exception, "reasons", [])}  # ResponseFailed
    return ", ".join(sorted(names)) if names else type(exception).__name__


class FetchOutcomes:
    """Counts refused and failed requests per site; see the module docstring."""

    def __init__(self, crawler: Crawler) -> None:
        self.stats = crawler.stats
        self.refused: Counter[str] = Counter()
        self.failed: Counter[str] = Counter()
        self.reasons: Counter[str] = Counter()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        outcomes = cls(crawler)
        crawler.signals.connect(outcomes.spider_closed, signal=signals.spider_closed)
        return outcomes

    def process_exception(self, request: Request, exception: BaseException) -> None:
        host = _domain(request.url)
        if isinstance(exception, PrivateNetworkRefused) or (
                isinstance(exception, IgnoreRequest) and str(exception) == ROBOTS_MESSAGE):
            self.refused[host] += 1
        elif not isinstance(exception, IgnoreRequest):  # offsite and the like: not a fetch
            self.failed[host] += 1
            self.reasons[reason_of(exception)] += 1

    def spider_closed(self) -> None:
        for host, count in self.refused.items():
            self.stats.set_value(f"corpusbot/domain/{host}/refused", count)
        for host, count in self.failed.items():
            self.stats.set_value(f"corpusbot/domain/{host}/failed", count)
        for reason, count in self.reasons.items():
            self.stats.set_value(f"corpusbot/fetch-failed/{reason}", count)


def _domain(url: str) -> str:
    # as corpusbot.crawl.progress names a site
    return (urlsplit(url).hostname or "").removeprefix("www.")
