"""The ``news`` spider: articles of news sites, found by links, sitemaps and feeds.

``scrapy crawl news -a start_urls=https://a.example/,https://b.example/`` or
``-a seeds=FILE`` (one URL per line). From each start page it follows links
within the start pages' domains up to ``CORPUSBOT_SPIDER_DEPTH`` hops; from
each site's robots.txt it reads the ``Sitemap:`` lines (sitemap indexes,
gzip sitemaps, Google News sitemaps), from the copy Scrapy's robots.txt
middleware fetches when it is on, so that each site serves robots.txt once;
from each page's ``<head>`` the RSS and Atom feeds. Every HTML page is
classified (``corpusbot.crawl.article``): index pages are followed, articles are
also yielded as ``PageItem`` for the pipelines. A start URL may itself be a
sitemap or a feed.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterable, Iterator
from pathlib import Path
from typing import Any, Self
from urllib.parse import urlsplit

from scrapy import Request, Spider, signals
from scrapy.crawler import Crawler
from scrapy.downloadermiddlewares.robotstxt import RobotsTxtMiddleware
from scrapy.http import HtmlResponse, Response
from scrapy.settings import BaseSettings

from corpusbot.crawl.article import classify, url_shape
from corpusbot.crawl.default_settings import CorpusbotSettings
from corpusbot.crawl.discovery import (
    DROPPED,
    Entry,
    feed_links,
    parse_feed,
    parse_sitemap,
    robots_sitemaps,
    xml_body,
    xml_kind,
)
from corpusbot.crawl.items import MODIFIED_KEY, PageItem
from corpusbot.crawl.links import LinkFinder
from corpusbot.crawl.sites import SiteConfig, SiteOptions, load_site_config
from corpusbot.html.dates import iso_utc

logger = logging.getLogger(__name__)

DEPTH_KEY = "corpusbot_depth"
"""``request.meta`` key: link hops since the start page, sitemap or feed."""
# Discovery documents first, then article-looking links, then the rest.
PRIORITY_DISCOVERY = 10
PRIORITY_ARTICLE = 1


class NewsSpider(Spider):
    """Crawl news sites; yield a ``PageItem`` for every article page."""

    name = "news"

    def __init__(self, start_urls: str | Iterable[str] = (), seeds: str | None = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.start_urls = seed_urls(start_urls, seeds)
        self.sites = SiteConfig()
        self.depth = 0
        self.since: str | None = None
        self.sitemap_max_bytes = 0
        self.use_sitemaps = self.use_feeds = self.use_links = True
        self._finders: dict[SiteOptions, LinkFinder] = {}
        # Start sites whose robots.txt Scrapy's middleware will fetch: their
        # Sitemap: lines are read from that response, not fetched again.
        self._awaiting_robots: set[str] = set()

    @classmethod
    def from_crawler(cls, crawler: Crawler, *args: Any, **kwargs: Any) -> Self:
        spider = super().from_crawler(crawler, *args, **kwargs)
        spider.configure(crawler.settings)
        crawler.signals.connect(spider.await_robots, signal=signals.spider_opened)
        crawler.signals.connect(spider.robots_received, signal=signals.response_received)
        return spider

    @classmethod
    def update_settings(cls, settings: BaseSettings) -> None:
        """Give each site of the sites file its own delay and concurrency."""
        super().update_settings(settings)
        slots = load_site_config(settings.get("CORPUSBOT_SPIDER_SITES_FILE")).download_slots()
        if slots:
            merged = {**slots, **settings.getdict("DOWNLOAD_SLOTS")}
            settings.set("DOWNLOAD_SLOTS", merged, priority="spider")

    def configure(self, settings: BaseSettings) -> None:
        """Read the spider's settings; the start URLs of the sites file join the others.

        The spider is built before add-ons apply their defaults, so the
        documented defaults fill what is not set: the spider also works in a
        project without the add-on.
        """
        settings = CorpusbotSettings(settings)
        self.sites = load_site_config(settings.get("CORPUSBOT_SPIDER_SITES_FILE"))
        self.depth = settings.getint("CORPUSBOT_SPIDER_DEPTH")
        self.since = iso_utc(settings.get("CORPUSBOT_SPIDER_SINCE"))
        self.sitemap_max_bytes = settings.getint("CORPUSBOT_SPIDER_SITEMAP_MAX_BYTES")
        self.use_sitemaps = settings.getbool("CORPUSBOT_SPIDER_SITEMAPS_ENABLED")
        self.use_feeds = settings.getbool("CORPUSBOT_SPIDER_FEEDS_ENABLED")
        self.use_links = settings.getbool("CORPUSBOT_SPIDER_LINKS_ENABLED")
        extra = [url for site in self.sites.sites.values() for url in site.start]
        self.start_urls = list(dict.fromkeys([*self.start_urls, *extra]))
        if not self.start_urls:
            raise ValueError("no start URLs: pass -a start_urls=URL[,URL...] or -a seeds=FILE")
        self.allowed_domains = allowed_domains(self.start_urls, self.sites)

    # -- start ---------------------------------------------------------------

    async def start(self) -> AsyncIterator[Request]:
        sites_done: set[str] = set()
        for url in self.start_urls:
            root = site_root(url)
            yield Request(url, callback=self.parse, meta={DEPTH_KEY: 0})
            if root not in sites_done:
                sites_done.add(root)
                for request in self._discovery_requests(root, self.sites.for_url(url)):
                    yield request

    def await_robots(self) -> None:
        """``spider_opened`` handler: the start sites whose robots.txt, as Scrapy's middleware
        fetches it, names their sitemaps.

        Here, in every process, not in ``start``: in a shared crawl only one process
        sends the start requests (``StartOnce``), and its start counts as done before
        robots.txt comes. Killed in between, it would take the sitemaps along. So
        every process queues them when its own copy of robots.txt comes, and the
        shared fingerprints keep the first."""
        if self.use_sitemaps and self._robots_middleware_on():
            self._awaiting_robots.update(site_root(url) for url in self.start_urls)

    def _discovery_requests(self, root: str, site: SiteOptions) -> Iterator[Request]:
        if self.use_sitemaps and not self._robots_middleware_on():
            yield Request(f"{root}/robots.txt", callback=self.parse_robots,
                          priority=PRIORITY_DISCOVERY, meta={"handle_httpstatus_list": [404, 410]})
        for url in (*site.sitemaps, *site.feeds):
            yield self._xml_request(url)

    # -- callbacks -----------------------------------------------------------

    def parse(self, response: Response) -> Iterator[Request | PageItem]:
        """Any page: classify HTML, store articles, follow feeds and links."""
        if not isinstance(response, HtmlResponse):
            yield from self.parse_xml(response)
            return
        root = response.selector.root
        kind = classify(root, response.url)
        self._count("corpusbot/pages/article" if kind.is_article else "corpusbot/pages/index")
        if kind.is_article:
            yield PageItem.from_response(response, kind=kind.reason)
        if self.use_feeds:
            for url in feed_links(response):
                yield self._xml_request(url)
        yield from self._follow_links(response)

    def robots_received(self, response: Response, request: Request) -> None:
        """``response_received`` handler: the robots.txt Scrapy's middleware fetched."""
        from_middleware = request.meta.get("dont_obey_robotstxt")
        if not from_middleware or urlsplit(request.url).path != "/robots.txt":
            return
        # After a redirect (http -> https, a new host) the site is the one first asked.
        root = site_root((request.meta.get("redirect_urls") or [request.url])[0])
        if root in self._awaiting_robots:
            self._awaiting_robots.discard(root)
            for sitemap in self.parse_robots(response):
                self.crawler.engine.crawl(sitemap)

    def parse_robots(self, response: Response) -> Iterator[Request]:
        """The sitemaps robots.txt names; ``/sitemap.xml`` when it names none."""
        sitemaps = robots_sitemaps(response.body, response.url) if response.status == 200 else []
        for url in sitemaps or [f"{site_root(response.url)}/sitemap.xml"]:
            yield self._xml_request(url)

    def parse_xml(self, response: Response) -> Iterator[Request]:
        """A sitemap, a sitemap index or a feed, told apart by the document itself."""
        body, dropped = xml_body(response, self.sitemap_max_bytes)
        if dropped:
            self._count(f"corpusbot/xml/dropped/{dropped}")
            logger.warning("dropped %s: %s", response.url, DROPPED[dropped])
            return
        kind = xml_kind(body) if body else ""
        if kind == "sitemap":
            yield from self._sitemap_requests(body, response.url)
        elif kind == "feed":
            yield from self._entry_requests(parse_feed(body, response.url), "feed")
        else:
            self._count("corpusbot/pages/other")

    # -- requests ------------------------------------------------------------

    def _robots_middleware_on(self) -> bool:
        try:
            middlewares = self.crawler.engine.downloader.middleware.middlewares
        except (RuntimeError, AttributeError):  # no engine: outside a crawl (tests)
            return False
        return any(isinstance(m, RobotsTxtMiddleware) for m in middlewares)

    def _sitemap_requests(self, body: bytes, url: str) -> Iterator[Request]:
        kind, entries = parse_sitemap(body, url)
        if kind == "sitemapindex":
            for entry in entries:
                if self._recent(entry):
                    yield self._xml_request(entry.url)
        else:
            yield from self._entry_requests(entries, "sitemap")

    def _entry_requests(self, entries: list[Entry], source: str) -> Iterator[Request]:
        for entry in entries:
            if not self._recent(entry):
                self._count(f"corpusbot/discovered/{source}/too-old")
                continue
            self._count(f"corpusbot/discovered/{source}")
            meta = {DEPTH_KEY: 0, MODIFIED_KEY: entry.modified}
            yield Request(entry.url, callback=self.parse, meta=meta, priority=PRIORITY_ARTICLE)

    def _xml_request(self, url: str) -> Request:
        meta = {DEPTH_KEY: 0, "download_maxsize": self.sitemap_max_bytes}
        return Request(url, callback=self.parse_xml, priority=PRIORITY_DISCOVERY, meta=meta)

    def _follow_links(self, response: Response) -> Iterator[Request]:
        depth = response.meta.get(DEPTH_KEY, 0)
        site = self.sites.for_url(response.url)
        limit = site.depth if site.depth is not None else self.depth
        if not (self.use_links and site.links) or depth >= limit:
            return
        for url in self._finder(site).links(response):
            self._count("corpusbot/discovered/link")
            priority = PRIORITY_ARTICLE if url_shape(url) > 0 else 0
            yield Request(url, callback=self.parse, meta={DEPTH_KEY: depth + 1},
                          priority=priority)

    def _finder(self, site: SiteOptions) -> LinkFinder:
        if site not in self._finders:
            self._finders[site] = LinkFinder(self.allowed_domains, site.allow, site.deny)
        return self._finders[site]

    def _recent(self, entry: Entry) -> bool:
        return not (self.since and entry.modified and entry.modified < self.since)

    def _count(self, key: str) -> None:
        self.crawler.stats.inc_value(key)


def seed_urls(start_urls: str | Iterable[str], seeds: str | None) -> list[str]:
    """Start URLs from the argument (comma- or space-separated) and the seeds file.

    The seeds file has one URL per line; blank lines and ``#`` comments are
    skipped. A URL without a scheme gets ``https://``; one without a host,
    with another scheme than http(s), or a bare word raises ValueError.
    """
    if isinstance(start_urls, str):
        start_urls = start_urls.replace(",", " ").split()
    urls = list(start_urls)
    if seeds:
        lines = (line.strip() for line in Path(seeds).read_text(encoding="utf-8").splitlines())
        urls += [line for line in lines if line and not line.startswith("#")]
    return [_start_url(url) for url in dict.fromkeys(urls)]


def _start_url(text: str) -> str:
    """``text`` as an http(s) URL; ValueError when it is not one.

    A name without a scheme must look like a host name with a domain
    (``news.example``), so that a mistyped word is not crawled as ``https://word``.
    """
    url = text if "://" in text else f"https://{text}"
    parts = urlsplit(url)
    host = parts.hostname or ""
    named = "://" in text or "." in host or host == "localhost"
    if parts.scheme not in ("http", "https") or not host or not named:
        raise ValueError(f"not a URL: {text!r} (give one such as https://news.example/)")
    return url


def allowed_domains(urls: Iterable[str], sites: SiteConfig) -> list[str]:
    """The domains links may lead to: the start URLs' hosts (without ``www.``) and the sites'."""
    hosts = {(urlsplit(url).hostname or "").removeprefix("www.") for url in urls}
    return sorted(h for h in hosts | set(sites.sites) if h)


def site_root(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"
