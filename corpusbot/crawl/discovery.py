"""Where article URLs come from besides links: sitemaps, feeds, robots.txt.

Sitemaps (plain, gzip, sitemap indexes, Google News) and feeds (RSS 2.0,
RSS 1.0, Atom) are parsed into ``Entry`` objects: a URL and, when the
source says, when it last changed. That date is what lets a re-run skip an
article it already stored. Sitemap parsing follows Scrapy's
``scrapy.utils.sitemap.Sitemap`` (same hardened lxml iterparse) but also
reads ``news:publication_date``, which Scrapy's parser drops.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from io import BytesIO
from urllib.parse import urljoin

from lxml import etree
from scrapy.http import Response
from scrapy.utils.gz import gunzip, gzip_magic_number
from scrapy.utils.sitemap import sitemap_urls_from_robots

from corpusbot.html.dates import iso_utc

FEED_TYPES = ("application/rss+xml", "application/atom+xml", "application/rdf+xml")
"""``<link rel="alternate">`` types that announce a feed."""

_FEED_ROOTS = {"rss", "feed", "RDF"}
_SITEMAP_ROOTS = {"urlset", "sitemapindex"}
# rel and type are case-insensitive in HTML.
_LOWER = 'translate({}, "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")'
_TYPE = _LOWER.format("normalize-space(@type)")
_FEED_LINKS = (
    f'//link[contains(concat(" ", normalize-space({_LOWER.format("@rel")}), " "), " alternate ")]'
    f"[{_TYPE} = $t1 or {_TYPE} = $t2 or {_TYPE} = $t3]/@href"
)


@dataclass(slots=True, frozen=True)
class Entry:
    """A URL a sitemap or feed lists, with its last change (ISO 8601 UTC) if given."""

    url: str
    modified: str | None = None


def robots_sitemaps(body: bytes, robots_url: str) -> list[str]:
    """The ``Sitemap:`` URLs of a robots.txt body."""
    return list(sitemap_urls_from_robots(body, base_url=robots_url))


def feed_links(response: Response) -> list[str]:
    """Feeds the page announces with ``<link rel="alternate" type="...">``."""
    hrefs = response.xpath(_FEED_LINKS, t1=FEED_TYPES[0], t2=FEED_TYPES[1], t3=FEED_TYPES[2])
    return [response.urljoin(h.strip()) for h in hrefs.getall() if h.strip()]


DROPPED = {
    "too-large": "it inflates past CORPUSBOT_SPIDER_SITEMAP_MAX_BYTES (a gzip bomb?)",
    "broken-gzip": "its gzip data is broken",
    "entities": "it declares XML entities, which no sitemap or feed needs "
                "(an entity bomb or an external entity?)",
}
"""Why a sitemap or feed is dropped unread: the stat's last part, and the log's words."""


def xml_body(response: Response, max_size: int) -> tuple[bytes | None, str | None]:
    """The response body, gunzipped when it is a gzip file, or None and why it is dropped
    (a key of ``DROPPED``).

    Gzip sitemaps arrive as ``application/gzip`` files, not as a
    ``Content-Encoding``, so Scrapy's compression middleware leaves them.
    """
    body = response.body
    if gzip_magic_number(response):
        try:
            body = gunzip(response.body, max_size=max_size)
        except ValueError:  # Scrapy's error when the size limit is passed
            return None, "too-large"
        except (OSError, EOFError):
            return None, "broken-gzip"
    return (None, "entities") if declares_entities(body) else (body, None)


def declares_entities(body: bytes) -> bool:
    """Whether the XML document's internal DTD declares entities (which the parse never
    expands, but whose references would leave the URLs around them wrong)."""
    try:
        _, root = next(etree.iterparse(BytesIO(body), events=("start",), **_SAFE))
    except (etree.XMLSyntaxError, StopIteration):
        return False
    dtd = root.getroottree().docinfo.internalDTD
    return dtd is not None and any(True for _ in dtd.iterentities())


def xml_kind(body: bytes) -> str:
    """``"sitemap"``, ``"feed"`` or ``""``: what the XML document's root element says."""
    try:
        _, root = next(etree.iterparse(BytesIO(body), events=("start",), **_SAFE))
    except (etree.XMLSyntaxError, StopIteration):
        return ""
    name = _local(root.tag)
    if name in _SITEMAP_ROOTS:
        return "sitemap"
    return "feed" if name in _FEED_ROOTS else ""


_SAFE = {"recover": True, "resolve_entities": False, "remove_comments": True,
         "remove_pis": True, "no_network": True, "huge_tree": False}


def parse_sitemap(body: bytes, base_url: str) -> tuple[str, list[Entry]]:
    """The sitemap's type (``urlset`` or ``sitemapindex``) and its entries."""
    events = etree.iterparse(BytesIO(body), events=("start", "end"), **_SAFE)
    try:
        _, root = next(events)
    except (etree.XMLSyntaxError, StopIteration):
        return "", []
    kind = _local(root.tag)
    if kind not in _SITEMAP_ROOTS:
        return "", []
    return kind, list(_sitemap_entries(events, base_url))


def _sitemap_entries(events: Iterator[tuple[str, etree._Element]], base: str) -> Iterator[Entry]:
    try:
        for event, elem in events:
            if event != "end" or _local(elem.tag) not in {"url", "sitemap"}:
                continue
            fields = {_local(child.tag): (child.text or "").strip() for child in elem.iter()}
            if fields.get("loc"):
                modified = fields.get("lastmod") or fields.get("publication_date")
                yield Entry(urljoin(base, fields["loc"]), iso_utc(modified))
            elem.clear()
    except etree.XMLSyntaxError:
        return


def parse_feed(body: bytes, base_url: str) -> list[Entry]:
    """The article links of an RSS 2.0, RSS 1.0 or Atom feed, newest first as listed."""
    try:
        root = etree.fromstring(body, etree.XMLParser(**_SAFE))
    except etree.XMLSyntaxError:
        return []
    if root is None:
        return []
    entries = []
    for item in root.iter("{*}item", "{*}entry"):
        url = _item_link(item)
        if url:
            base = item.base or base_url
            entries.append(Entry(urljoin(base, url), _item_date(item)))
    return entries


def _item_link(item: etree._Element) -> str | None:
    for link in item.iterchildren("{*}link"):
        rel = link.get("rel", "alternate")
        href = link.get("href") or (link.text or "").strip()
        if href and rel == "alternate":
            return href
    for guid in item.iterchildren("{*}guid"):
        if guid.get("isPermaLink", "true") != "false" and (guid.text or "").startswith("http"):
            return guid.text.strip()
    return None


def _item_date(item: etree._Element) -> str | None:
    """The latest of the item's dates: an update counts as a change."""
    dates = (
        iso_utc(child.text)
        for child in item.iterchildren()
        if _local(child.tag) in {"updated", "pubDate", "published", "date", "modified"}
    )
    return max((d for d in dates if d), default=None)


def _local(tag: object) -> str:
    if not isinstance(tag, str):
        return ""
    return tag.rsplit("}", 1)[-1]
