"""Glue for one crawl shared by several processes through Redis.

scrapy-redis gives the shared frontier (its ``Scheduler`` keeps the request
queue in Redis, so any process pops what any process found). corpusbot adds
what it lacks, as components the add-on enables when ``CORPUSBOT_REDIS_URL``
is set:

- ``CompactDupeFilter``: the shared request-fingerprint filter, 64 bits per
  request in bucketed listpack hashes (13 bytes of Redis memory per request,
  where scrapy-redis's set of 40-character hex strings takes 101, measured by
  ``benchmarks/redis_fingerprints.py``);
- ``SharedPoliteness``: one request per site per delay across all the
  processes (the site's ``delay_seconds`` from the sites file, else
  ``DOWNLOAD_DELAY``; AutoThrottle's, when it grew past them), through a
  lease key per site (``SET NX PX``), so N processes do not hit a site N
  times as often;
- ``StartOnce``: the spider's start requests (start pages, robots.txt and
  sitemaps) come from the first process only; the others take work from
  the shared queue;
- ``SharedIdle``: a process whose queue is empty keeps waiting while
  another one is still busy (it may yet queue links), and stops when all are;
  the last one to finish clears the fingerprints and the start mark, so that
  the crawl run again starts over (its seen-store skips what is unchanged).
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import socket
import time
from collections.abc import AsyncIterator
from typing import Any, Self

from scrapy import Request, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import DontCloseSpider, NotConfigured
from scrapy.utils.asyncio import is_asyncio_available
from scrapy.utils.httpobj import urlparse_cached
from scrapy_redis.dupefilter import RFPDupeFilter

from corpusbot.crawl.default_settings import CORPUSBOT_REDIS_HEARTBEAT_SECONDS, CorpusbotSettings
from corpusbot.crawl.sites import SiteConfig, load_site_config
from corpusbot.redis_keys import bucket_count, place

logger = logging.getLogger(__name__)

BUSY_REFRESH_SECONDS = 1.0
"""How often a process with requests in progress marks itself busy again."""


def busy_seconds(heartbeat: float) -> int:
    """How long a busy mark lasts, for a crawl whose processes count as alive ``heartbeat``
    seconds after their last heartbeat (``CORPUSBOT_REDIS_HEARTBEAT_SECONDS``).

    A dead process's mark must outlive its alive key (refreshed every third of the
    heartbeat) by more than one hand-over beat (also a third; ``redis_handover``): an idle
    process then takes over the requests it held before it sees nobody busy and stops. A
    mark is at most ``BUSY_REFRESH_SECONDS`` old, so 3/2 of the heartbeat and 2 s do it with
    a sixth of the heartbeat and a second to spare. 32 s by default; a fixed 30 s once kept
    the last process of a crawl whose heartbeat is 2 s waiting 28 s for a killed one."""
    return math.ceil(heartbeat * 3 / 2) + 2


LEASE_MARGIN_SECONDS = 0.05
"""Added to each site lease: the time from taking the lease to the request reaching the
site, in a busy process. Calibrated by ``benchmarks/crawl_handover.py`` on a 2-core machine
at load 15: without it, 1 of 122 gaps between two processes' requests fell 75 ms short of
the 0.4 s delay."""
LOCAL_POLL_SECONDS = 0.05
"""How often a request waiting for its turn looks again at its busy downloader slot."""


def _redis(crawler: Crawler) -> Any:
    url = CorpusbotSettings(crawler.settings).get("CORPUSBOT_REDIS_URL")
    if not url:
        raise NotConfigured("CORPUSBOT_REDIS_URL is not set")
    import redis  # optional extra: corpusbot[distributed-crawl]  # noqa: PLC0415

    return redis.Redis.from_url(url)


def crawl_prefix(crawler: Crawler) -> str:
    """The key prefix of this crawl's shared state."""
    return f"{CorpusbotSettings(crawler.settings).get('CORPUSBOT_REDIS_CRAWL')}:"


class CompactDupeFilter(RFPDupeFilter):
    """scrapy-redis's filter with 8-byte fingerprints in bucketed hashes (module docstring)."""

    buckets = bucket_count(10_000_000)

    @classmethod
    def from_spider(cls, spider: Any) -> Self:
        made = super().from_spider(spider)
        capacity = CorpusbotSettings(spider.settings).getint("CORPUSBOT_REDIS_URLS_CAPACITY")
        made.buckets = bucket_count(capacity)
        return made

    def request_seen(self, request: Request) -> bool:
        """True when another request with the same fingerprint was seen, by any process."""
        return self.server.hsetnx(*self.place_of(request), "") == 0

    def place_of(self, request: Request) -> tuple[str, bytes]:
        """The bucket and field that mark ``request``'s fingerprint seen."""
        return place(self.key, self.buckets, int(self.request_fingerprint(request)[:16], 16))

    def clear(self) -> None:
        for name in self.server.scan_iter(match=f"{self.key}:*"):
            self.server.delete(name)


async def pause(seconds: float) -> None:
    """Sleep without blocking the reactor, on either reactor."""
    if is_asyncio_available():
        await asyncio.sleep(seconds)
        return
    from twisted.internet import reactor  # noqa: PLC0415
    from twisted.internet.task import deferLater  # noqa: PLC0415

    await deferLater(reactor, seconds, lambda: None)


class SharedPoliteness:
    """A downloader middleware: at most one request per site per delay, over all processes.

    The delay of a site is its ``delay_seconds`` in the sites file
    (``CORPUSBOT_SPIDER_SITES_FILE``, ``--sites``), else ``DOWNLOAD_DELAY``.
    With AutoThrottle on, a process whose own delay for the site has grown
    past that (the server slowed down) takes the lease for its own delay, so
    the other processes wait that long too.
    """

    def __init__(self, server: Any, prefix: str, delay: float, sites: SiteConfig, *,
                 crawler: Crawler | None = None, throttled: bool = False) -> None:
        self.server, self.prefix, self.delay, self.sites = server, prefix, delay, sites
        self.crawler, self.throttled = crawler, throttled  # (AutoThrottle on)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        settings = CorpusbotSettings(crawler.settings)
        delay = settings.getfloat("DOWNLOAD_DELAY")
        sites = load_site_config(settings.get("CORPUSBOT_SPIDER_SITES_FILE"))
        if delay <= 0 and not sites.download_slots():
            raise NotConfigured("DOWNLOAD_DELAY is 0 and no site sets a delay: "
                                "no shared rate to keep")
        return cls(_redis(crawler), crawl_prefix(crawler), delay, sites, crawler=crawler,
                   throttled=settings.getbool("AUTOTHROTTLE_ENABLED"))

    def delay_ms(self, request: Request) -> int:
        """The lease of ``request``'s site, in milliseconds (0: no delay for it)."""
        configured = self.sites.for_url(request.url).delay_seconds
        delay = self.delay if configured is None else configured
        slot = self._slot(request) if self.throttled else None
        delay = max(delay, slot.delay if slot is not None else 0.0)
        return int((delay + LEASE_MARGIN_SECONDS) * 1000) if delay > 0 else 0

    async def process_request(self, request: Request) -> None:
        """Wait until this process's downloader would send ``request`` at once, then until
        this process holds the site's lease for the next delay.

        Taking the lease first and queueing after would let the request wait
        in this process's own slot (its delay, its connections) while the
        lease runs out, and another process's request reach the site close
        behind it.
        """
        delay_ms = self.delay_ms(request)
        if delay_ms <= 0:
            return
        key = f"{self.prefix}site:{urlparse_cached(request).hostname}"
        while True:
            wait = local_wait(self._slot(request))
            if wait > 0:
                await pause(wait)
            elif self.server.set(key, b"1", px=delay_ms, nx=True):
                return
            else:
                await pause(max(int(self.server.pttl(key)), 5) / 1000)

    def _slot(self, request: Request) -> Any:
        """This process's downloader slot for ``request``'s site, once it has one."""
        engine = self.crawler.engine if self.crawler is not None else None
        if engine is None:
            return None
        return engine.downloader.slots.get(engine.downloader.get_slot_key(request))


def local_wait(slot: Any) -> float:
    """Seconds until a downloader slot sends a new request at once: nothing queued in it,
    a connection free, and its own delay passed even at its longest (randomised by up to
    half, Scrapy's ``RANDOMIZE_DOWNLOAD_DELAY``); 0 when it would now."""
    if slot is None:
        return 0.0
    if slot.queue or slot.latercall or slot.free_transfer_slots() <= 0:
        return LOCAL_POLL_SECONDS
    jitter = getattr(slot, "jitter", None)  # Scrapy 2.15 has a flag, randomize_delay
    if jitter is None:
        jitter = 0.5 if getattr(slot, "randomize_delay", False) else 0.0
    return max(0.0, slot.lastseen + slot.delay * (1 + jitter) - _clock_of(slot.lastseen))


def _clock_of(stamp: float) -> float:
    """Now, on the clock ``stamp`` was taken with: Scrapy 2.15 stamps a slot's ``lastseen``
    with ``time.time()``, later releases with ``time.monotonic()``; the wrong one made the
    wait decades long. A stamp is never in the future, so the closer clock is its own."""
    wall, steady = time.time(), time.monotonic()
    return wall if abs(wall - stamp) < abs(steady - stamp) else steady


class StartOnce:
    """A spider middleware: only the first process of a crawl sends the start requests."""

    def __init__(self, server: Any, prefix: str, me: str = "",
                 busy_for: int = busy_seconds(CORPUSBOT_REDIS_HEARTBEAT_SECONDS)) -> None:
        self.server, self.prefix, self.busy_for = server, prefix, busy_for
        self.me = me or f"{socket.gethostname()}:{os.getpid()}"

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(_redis(crawler), crawl_prefix(crawler), identity(crawler),
                   _busy_for(crawler))

    async def process_start(self, start: AsyncIterator[Any]) -> AsyncIterator[Any]:
        if not self._mine():
            return
        # busy from now on, so that no process that starts meanwhile stops for lack of work
        self.server.set(busy_key(self.prefix, self.me), b"1", ex=self.busy_for)
        async for item_or_request in start:
            yield item_or_request
        self.server.set(f"{self.prefix}started:done", b"1")

    def _mine(self) -> bool:
        """Whether this process sends the start requests: the first one does, and so does
        one that finds them unfinished by a process that was stopped (this one before a
        restart, or one whose heartbeat expired); the fingerprint filter drops those
        that had been queued."""
        if self.server.set(f"{self.prefix}started", self.me.encode(), nx=True):
            return True
        starter = self.server.get(f"{self.prefix}started").decode()
        if self.server.exists(f"{self.prefix}started:done") or (
                starter != self.me and self.server.exists(f"{self.prefix}alive:{starter}")):
            logger.info("the start requests were queued by %s: taking work from the queue",
                        starter)
            return False
        logger.warning("the start requests of %s were not all queued: queueing them", starter)
        self.server.set(f"{self.prefix}started", self.me.encode())
        return True


class SharedIdle:
    """An extension: a process with nothing to do waits while another one is busy.

    Each process marks itself busy (a key that expires) every second while its
    engine has requests in progress, on every request it schedules, and in the
    same Redis script that hands it a request from the shared queue
    (``redis_handover``), so that it is never seen idle holding one.
    """

    def __init__(self, crawler: Crawler, server: Any, prefix: str, name: str,
                 busy_for: int = busy_seconds(CORPUSBOT_REDIS_HEARTBEAT_SECONDS)) -> None:
        self.crawler, self.server, self.prefix = crawler, server, prefix
        self.key, self.busy_for = busy_key(prefix, name), busy_for
        self._refreshed = 0.0
        self._beat: Any = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        idle = cls(crawler, _redis(crawler), crawl_prefix(crawler), identity(crawler),
                   _busy_for(crawler))
        crawler.signals.connect(idle.opened, signal=signals.spider_opened)
        crawler.signals.connect(idle.busy, signal=signals.request_scheduled)
        crawler.signals.connect(idle.busy, signal=signals.response_received)
        crawler.signals.connect(idle.idle, signal=signals.spider_idle)
        crawler.signals.connect(idle.closed, signal=signals.spider_closed)
        return idle

    def opened(self) -> None:
        from twisted.internet.task import LoopingCall  # noqa: PLC0415  (after the reactor)

        self._beat = LoopingCall(self._heartbeat)
        self._beat.start(BUSY_REFRESH_SECONDS, now=False)

    def _heartbeat(self) -> None:
        engine = self.crawler.engine
        if engine is not None and not engine.spider_is_idle():
            self.busy()

    def busy(self) -> None:
        now = time.monotonic()
        if now - self._refreshed >= BUSY_REFRESH_SECONDS:
            self.server.set(self.key, b"1", ex=self.busy_for)
            self._refreshed = now

    def idle(self) -> None:
        """Called when this process's engine has nothing left: wait for the others."""
        self.server.delete(self.key)
        self._refreshed = 0.0
        others = list(self.server.scan_iter(match=busy_key(self.prefix, "*")))
        logger.debug("idle; processes still busy: %s", [o.decode() for o in others])
        if others:
            raise DontCloseSpider(f"{len(others)} other process(es) still busy")

    def closed(self, reason: str) -> None:
        if self._beat is not None and self._beat.running:
            self._beat.stop()
        self.server.delete(self.key)
        if reason == "finished" and not any(
                self.server.scan_iter(match=busy_key(self.prefix, "*"))):
            self._forget_frontier()

    def _forget_frontier(self) -> None:
        """The crawl is done: forget which requests were seen and that the start requests
        were sent, so that running it again starts from the start pages (as a crawl with
        ``JOBDIR`` does); the shared seen-store alone then skips unchanged articles."""
        spider = self.crawler.spider
        key = self.crawler.settings.get("SCHEDULER_DUPEFILTER_KEY", "%(spider)s:dupefilter") % {
            "spider": spider.name if spider is not None else ""}
        names = [*self.server.scan_iter(match=f"{key}:*"), f"{self.prefix}started",
                 f"{self.prefix}started:done"]
        self.server.delete(*names)
        logger.info("crawl finished: cleared its shared frontier, so that a run again starts "
                    "from the start pages")


def busy_key(prefix: str, name: str) -> str:
    """The key that marks the process ``name`` busy (a ``*`` matches every process)."""
    return f"{prefix}busy:{name}"


def _busy_for(crawler: Crawler) -> int:
    heartbeat = CorpusbotSettings(crawler.settings).getfloat("CORPUSBOT_REDIS_HEARTBEAT_SECONDS")
    return busy_seconds(heartbeat)


def identity(crawler: Crawler) -> str:
    """The process's name in the crawl: its worker name (a process started again under it
    replaces its own busy mark), else host and process id."""
    return (CorpusbotSettings(crawler.settings).get("CORPUSBOT_REDIS_WORKER")
            or f"{socket.gethostname()}:{os.getpid()}")
