"""Sitemaps, feeds, robots.txt and dates: the parsers behind the spider's discovery."""

from __future__ import annotations

import gzip

from scrapy.http import HtmlResponse, Response

from corpusbot.crawl.discovery import (
    Entry,
    feed_links,
    parse_feed,
    parse_sitemap,
    robots_sitemaps,
    xml_body,
    xml_kind,
)
from corpusbot.html.dates import iso_utc

URLSET = b"""<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://news.example/a.html</loc><lastmod>2024-05-01</lastmod></url>
  <url><loc> https://news.example/b.html </loc></url>
  <url><lastmod>2024-05-01</lastmod></url>
</urlset>"""

INDEX = b"""<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>/sitemap-1.xml.gz</loc><lastmod>2024-05-02T10:00:00+02:00</lastmod></sitemap>
</sitemapindex>"""

GOOGLE_NEWS = b"""<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
  xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">
  <url><loc>https://news.example/c.html</loc><news:news>
    <news:publication><news:name>X</news:name><news:language>en</news:language></news:publication>
    <news:publication_date>2024-05-03T07:30:00Z</news:publication_date>
    <news:title>C</news:title></news:news></url>
</urlset>"""

RSS = b"""<?xml version="1.0"?><rss version="2.0"><channel><title>T</title>
  <item><title>A</title><link>https://news.example/a.html</link>
    <pubDate>Wed, 01 May 2024 08:00:00 +0200</pubDate></item>
  <item><title>G</title><guid>https://news.example/g.html</guid></item>
  <item><title>No link</title><guid isPermaLink="false">42</guid></item>
</channel></rss>"""

ATOM = b"""<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://news.example/culture/">
  <entry><link rel="self" href="/self"/><link href="d.html"/>
    <published>2024-05-01T00:00:00Z</published><updated>2024-05-04T00:00:00Z</updated></entry>
</feed>"""

RDF = b"""<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
  xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <item><link>https://news.example/e.html</link><dc:date>2024-05-05</dc:date></item>
</rdf:RDF>"""


def test_a_urlset_lists_locations_with_their_lastmod():
    kind, entries = parse_sitemap(URLSET, "https://news.example/sitemap.xml")
    assert kind == "urlset"
    assert entries == [Entry("https://news.example/a.html", "2024-05-01T00:00:00Z"),
                       Entry("https://news.example/b.html", None)]


def test_a_sitemap_index_lists_sitemaps_resolved_against_its_url():
    kind, entries = parse_sitemap(INDEX, "https://news.example/robots-sitemap.xml")
    assert kind == "sitemapindex"
    assert entries == [Entry("https://news.example/sitemap-1.xml.gz", "2024-05-02T08:00:00Z")]


def test_a_google_news_sitemap_gives_the_publication_date():
    _, entries = parse_sitemap(GOOGLE_NEWS, "https://news.example/news.xml")
    assert entries == [Entry("https://news.example/c.html", "2024-05-03T07:30:00Z")]


def test_broken_or_foreign_xml_is_no_sitemap():
    assert parse_sitemap(b"<html><body>no</body></html>", "https://x/") == ("", [])
    assert parse_sitemap(b"\x00\x01 not xml", "https://x/") == ("", [])


def test_gzip_sitemaps_are_unpacked_and_capped():
    packed = gzip.compress(URLSET)
    response = Response("https://news.example/s.xml.gz", body=packed)
    assert xml_body(response, max_size=10_000) == (URLSET, None)
    assert xml_body(response, max_size=100) == (None, "too-large")
    plain = Response("https://news.example/s.xml", body=URLSET)
    assert xml_body(plain, max_size=100) == (URLSET, None)
    broken = Response("https://news.example/b.xml.gz", body=packed[:30])
    assert xml_body(broken, max_size=10_000) == (None, "broken-gzip")


def test_a_sitemap_that_declares_entities_is_dropped():
    bomb = (b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;">]>'
            + URLSET.split(b"?>", 1)[-1])
    response = Response("https://news.example/bomb.xml", body=bomb)
    assert xml_body(response, max_size=10_000) == (None, "entities")


def test_xml_kind_tells_sitemaps_from_feeds():
    assert xml_kind(URLSET) == xml_kind(INDEX) == "sitemap"
    assert xml_kind(RSS) == xml_kind(ATOM) == xml_kind(RDF) == "feed"
    assert xml_kind(b"<html/>") == xml_kind(b"") == ""


def test_rss_items_link_or_permalink_guid():
    entries = parse_feed(RSS, "https://news.example/rss")
    assert entries == [Entry("https://news.example/a.html", "2024-05-01T06:00:00Z"),
                       Entry("https://news.example/g.html", None)]


def test_atom_entries_use_the_alternate_link_xml_base_and_latest_date():
    entries = parse_feed(ATOM, "https://news.example/feed.atom")
    assert entries == [Entry("https://news.example/culture/d.html", "2024-05-04T00:00:00Z")]


def test_rss_1_0_items():
    assert parse_feed(RDF, "https://news.example/rdf") == [
        Entry("https://news.example/e.html", "2024-05-05T00:00:00Z")]


def test_feeds_announced_in_head():
    html = b"""<html><head>
      <link rel="alternate" type="application/rss+xml" href="/rss.xml">
      <link rel="Alternate home" type="application/atom+xml" href="https://news.example/a.atom">
      <link rel="alternate" type="text/html" hreflang="de" href="/de/">
      <link rel="stylesheet" type="application/rss+xml" href="/not-a-feed">
    </head><body></body></html>"""
    response = HtmlResponse("https://news.example/", body=html)
    assert feed_links(response) == ["https://news.example/rss.xml", "https://news.example/a.atom"]


def test_robots_sitemap_lines():
    body = b"User-agent: *\nDisallow: /private/\nSitemap: https://news.example/s.xml\n" \
           b"sitemap: /relative.xml\n"
    assert robots_sitemaps(body, "https://news.example/robots.txt") == [
        "https://news.example/s.xml", "https://news.example/relative.xml"]


def test_dates_in_the_forms_sites_write_them():
    assert iso_utc("2024-05-01") == "2024-05-01T00:00:00Z"
    assert iso_utc("2024-05-01T10:00:00.123456+0200") == "2024-05-01T08:00:00Z"
    assert iso_utc("2024-05-01 10:00:00") == "2024-05-01T10:00:00Z"
    assert iso_utc("Wed, 01 May 2024 10:00:00 GMT") == "2024-05-01T10:00:00Z"
    assert iso_utc("2024-13-45") is None
    assert iso_utc("yesterday") is None
    assert iso_utc(None) is None


def test_dates_with_non_ascii_digits_in_the_offset_are_no_dates():
    assert iso_utc("2020-08-29T10:46:06+\u09e6\u09e7:\u09e6\u09e6") is None  # Bengali 01:00
    assert iso_utc("2020-08-29T10:46:06+01:00") == "2020-08-29T09:46:06Z"
