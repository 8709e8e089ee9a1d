"""The news spider's callbacks on hand-made responses (``get_crawler``, no network)."""

from __future__ import annotations

import asyncio
import gzip

import pytest
from scrapy import Request
from scrapy.http import HtmlResponse, Response, TextResponse, XmlResponse
from scrapy.settings import Settings
from scrapy.utils.test import get_crawler

from corpusbot.crawl.items import MODIFIED_KEY, PageItem
from corpusbot.crawl.sites import load_site_config
from corpusbot.spiders.news import (
    DEPTH_KEY,
    PRIORITY_DISCOVERY,
    NewsSpider,
    seed_urls,
)

SITE = "https://news.example"
ARTICLE = (
    '<html><head><meta property="og:type" content="article">'
    '<link rel="alternate" type="application/rss+xml" href="/rss.xml"></head><body>'
    '<p>Some text.</p><a href="/2024/05/another-story-about-roads.html">next</a>'
    '<a href="/world/">World</a><a href="https://elsewhere.example/x">out</a>'
    '<a href="/files/report.pdf">pdf</a></body></html>'
)


def _spider(**settings: object) -> NewsSpider:
    crawler = get_crawler(NewsSpider, settings_dict=settings)
    return NewsSpider.from_crawler(crawler, start_urls=f"{SITE}/")


def _response(url: str, body: bytes | str, meta: dict | None = None,
              cls: type[Response] = HtmlResponse) -> Response:
    data = body.encode() if isinstance(body, str) else body
    request = Request(url, meta=meta or {})
    if issubclass(cls, TextResponse):
        return cls(url, body=data, request=request, encoding="utf-8")
    return cls(url, body=data, request=request)


def _requests(results) -> list[Request]:
    return [r for r in results if isinstance(r, Request)]


def test_an_article_is_yielded_and_its_links_and_feeds_followed():
    spider = _spider()
    out = list(spider.parse(_response(f"{SITE}/2024/05/a-story-about-roads-here.html",
                                      ARTICLE, {DEPTH_KEY: 1})))
    items = [o for o in out if isinstance(o, PageItem)]
    assert len(items) == 1 and "og-article" in items[0].kind
    urls = {r.url: r for r in _requests(out)}
    assert set(urls) == {f"{SITE}/rss.xml", f"{SITE}/2024/05/another-story-about-roads.html",
                         f"{SITE}/world/"}
    assert urls[f"{SITE}/world/"].meta[DEPTH_KEY] == 2
    assert urls[f"{SITE}/rss.xml"].priority == PRIORITY_DISCOVERY
    assert urls[f"{SITE}/2024/05/another-story-about-roads.html"].priority > 0


def test_links_stop_at_the_depth_limit():
    spider = _spider(CORPUSBOT_SPIDER_DEPTH=2)
    out = _requests(spider.parse(_response(f"{SITE}/world/", ARTICLE, {DEPTH_KEY: 2})))
    assert [r.url for r in out] == [f"{SITE}/rss.xml"]


def test_an_index_page_is_followed_but_not_yielded():
    home = '<html><head><meta property="og:type" content="website"></head><body>' \
           '<a href="/world/">World</a></body></html>'
    out = list(_spider().parse(_response(f"{SITE}/", home, {DEPTH_KEY: 0})))
    assert [type(o) for o in out] == [Request]
    assert _spider().crawler.stats.get_value("corpusbot/pages/index") is None


def test_robots_sitemaps_or_the_conventional_sitemap():
    spider = _spider()
    robots = _response(f"{SITE}/robots.txt", b"Sitemap: https://news.example/s.xml\n",
                       cls=TextResponse)
    assert [r.url for r in spider.parse_robots(robots)] == [f"{SITE}/s.xml"]
    empty = _response(f"{SITE}/robots.txt", b"User-agent: *\n", cls=TextResponse)
    assert [r.url for r in spider.parse_robots(empty)] == [f"{SITE}/sitemap.xml"]


def test_a_sitemap_index_leads_to_sitemaps_and_a_urlset_to_articles():
    spider = _spider()
    index = (b'<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
             b"<sitemap><loc>https://news.example/s1.xml.gz</loc></sitemap></sitemapindex>")
    (child,) = spider.parse_xml(_response(f"{SITE}/s.xml", index, cls=XmlResponse))
    assert child.callback == spider.parse_xml and child.meta["download_maxsize"] > 0
    urlset = gzip.compress(
        b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url>'
        b"<loc>https://news.example/a.html</loc><lastmod>2024-05-01</lastmod></url></urlset>")
    (article,) = spider.parse_xml(_response(f"{SITE}/s1.xml.gz", urlset, cls=Response))
    assert article.url == f"{SITE}/a.html" and article.callback == spider.parse
    assert article.meta[MODIFIED_KEY] == "2024-05-01T00:00:00Z"
    assert article.meta[DEPTH_KEY] == 0


def test_entries_older_than_since_are_skipped():
    spider = _spider(CORPUSBOT_SPIDER_SINCE="2024-05-02")
    rss = (b"<rss><channel><item><link>https://news.example/old.html</link>"
           b"<pubDate>Wed, 01 May 2024 08:00:00 GMT</pubDate></item>"
           b"<item><link>https://news.example/new.html</link>"
           b"<pubDate>Fri, 03 May 2024 08:00:00 GMT</pubDate></item>"
           b"<item><link>https://news.example/undated.html</link></item></channel></rss>")
    out = spider.parse_xml(_response(f"{SITE}/rss.xml", rss, cls=XmlResponse))
    assert [r.url for r in out] == [f"{SITE}/new.html", f"{SITE}/undated.html"]
    assert spider.crawler.stats.get_value("corpusbot/discovered/feed/too-old") == 1


def test_a_start_url_may_be_a_feed():
    rss = b"<rss><channel><item><link>https://news.example/a.html</link></item></channel></rss>"
    out = list(_spider().parse(_response(f"{SITE}/rss.xml", rss, cls=XmlResponse)))
    assert [r.url for r in out] == [f"{SITE}/a.html"]


def test_start_requests_the_seeds_robots_and_configured_feeds(tmp_path):
    sites = tmp_path / "sites.toml"
    sites.write_text('[site."news.example"]\nfeeds = ["https://news.example/f.xml"]\n')
    crawler = get_crawler(NewsSpider, {"CORPUSBOT_SPIDER_SITES_FILE": str(sites)})
    spider = NewsSpider.from_crawler(crawler, start_urls=f"{SITE}/, {SITE}/world/")

    async def collect():
        return [r.url async for r in spider.start()]

    assert asyncio.run(collect()) == [f"{SITE}/", f"{SITE}/robots.txt", f"{SITE}/f.xml",
                                      f"{SITE}/world/"]
    assert spider.allowed_domains == ["news.example"]


def test_seed_files_skip_comments_and_add_a_scheme(tmp_path):
    seeds = tmp_path / "seeds.txt"
    seeds.write_text("# news sites\n\nhttps://a.example/\nb.example\n  https://a.example/  \n")
    assert seed_urls("https://c.example/", str(seeds)) == [
        "https://c.example/", "https://a.example/", "https://b.example"]


def test_a_start_url_without_a_host_is_an_error():
    with pytest.raises(ValueError, match="not a URL"):
        seed_urls("https:///path", None)


def test_no_start_url_is_an_error():
    crawler = get_crawler(NewsSpider)
    with pytest.raises(ValueError, match="start_urls"):
        NewsSpider.from_crawler(crawler)


def test_per_site_options_allow_deny_depth_and_slots(tmp_path):
    sites = tmp_path / "sites.toml"
    sites.write_text('[defaults]\ndepth = 1\n[site."news.example"]\n'
                     'deny = ["/world/"]\ndelay_seconds = 2.5\nconcurrency = 1\n')
    spider = _spider(CORPUSBOT_SPIDER_SITES_FILE=str(sites))
    out = _requests(spider.parse(_response(f"{SITE}/2024/05/a-b-c-d.html", ARTICLE,
                                           {DEPTH_KEY: 0})))
    assert f"{SITE}/world/" not in [r.url for r in out]
    assert load_site_config(sites).for_url("https://www.news.example/x").depth == 1
    settings = Settings({"CORPUSBOT_SPIDER_SITES_FILE": str(sites)})
    NewsSpider.update_settings(settings)
    # the site's delay is a floor: no random variation below it (jitter, or randomize_delay
    # for Scrapy before 2.19)
    assert settings.getdict("DOWNLOAD_SLOTS")["news.example"] == {
        "delay": 2.5, "concurrency": 1, "jitter": 0.0, "randomize_delay": False}


def test_a_misspelt_site_option_names_the_file(tmp_path):
    sites = tmp_path / "sites.toml"
    sites.write_text('[site."news.example"]\ndepht = 2\n')
    with pytest.raises(ValueError, match="depht"):
        load_site_config(sites)


