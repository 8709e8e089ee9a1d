"""What a page declares about itself: canonical URL, title, dates, authors, site name.

News pages describe themselves twice: JSON-LD (schema.org ``NewsArticle``
and friends) for search engines, and ``<meta>`` tags for social networks
(Open Graph ``og:*``, ``article:*``) and older conventions (``author``,
``pubdate``, Dublin Core). JSON-LD is preferred where both exist because it
is typed; the meta tags fill the gaps. Only the publication date of a page
that declares none is inferred, by htmldate from the page's text and URL
(on ../shared/bench/scrapinghub: 149 of 181 pages declare a date, htmldate
agrees with 132 of those to the day and finds one for 30 of the other 32,
in about 1.5 ms a page); such a date has no time of day: ``2019-11-18``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any
from urllib.parse import urljoin

from lxml import etree
from lxml.html import HtmlElement

from corpusbot.html.dates import iso_utc

ARTICLE_TYPES = frozenset({
    "Article", "NewsArticle", "AnalysisNewsArticle", "AskPublicNewsArticle",
    "BackgroundNewsArticle", "OpinionNewsArticle", "ReportageNewsArticle",
    "ReviewNewsArticle", "BlogPosting", "LiveBlogPosting", "SatiricalArticle",
    "TechArticle", "ScholarlyArticle", "Report", "AdvertiserContentArticle",
})
"""schema.org types that mark a page as one article."""

_PUBLISHED_META = (
    "article:published_time", "og:published_time", "pubdate", "publishdate",
    "publish-date", "date", "dc.date", "dc.date.issued", "dcterms.created",
    "dcterms.issued", "sailthru.date", "parsely-pub-date", "datepublished",
)
_MODIFIED_META = ("article:modified_time", "og:updated_time", "dcterms.modified", "datemodified")
_AUTHOR_META = ("author", "article:author", "dc.creator", "parsely-author", "sailthru.author")


@dataclass(slots=True, frozen=True)
class Metadata:
    """The self-description of one page; None or empty where it declares nothing."""

    canonical_url: str | None = None
    title: str | None = None
    published: str | None = None
    """ISO 8601 in UTC when declared; a bare ``YYYY-MM-DD`` when inferred."""
    modified: str | None = None
    authors: tuple[str, ...] = ()
    site_name: str | None = None

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["authors"] = list(self.authors)
        return data

    def declared(self) -> dict[str, Any]:
        """The fields the page declares, for a document's ``meta``."""
        return {key: value for key, value in self.as_dict().items() if value}


def extract_metadata(root: etree._Element, url: str) -> Metadata:
    """Read the metadata of a parsed HTML page whose address is ``url``."""
    declared = _Declarations(root)
    objects = _parsed_jsonld(declared.scripts)
    article = next((o for o in objects if types_of(o) & ARTICLE_TYPES), {})
    meta = _meta_tags(declared.metas)
    return Metadata(
        canonical_url=_canonical(declared.links, url, meta),
        # the whole-page searches run only when what is declared up front is missing
        title=_first(_text(article.get("headline")), meta.get("og:title"),
                     meta.get("twitter:title")) or _xpath_text(root, "//title"),
        published=iso_utc(_first(_text(article.get("datePublished")),
                                 *(meta.get(n) for n in _PUBLISHED_META))
                          or _itemprop(root, "datePublished")) or inferred_date(root, url),
        modified=iso_utc(_first(_text(article.get("dateModified")),
                                *(meta.get(n) for n in _MODIFIED_META))),
        authors=_authors(article, meta, root),
        site_name=_first(meta.get("og:site_name"), _publisher(article, objects),
                         meta.get("application-name")),
    )


def inferred_date(root: etree._Element, url: str) -> str | None:
    """The publication day htmldate reads from the page's text and URL, if any.

    Only a parsed tree is passed: given a string that looks like a URL,
    htmldate would download it, outside the crawl's politeness rules.
    """
    # corpusbot's own trees are lxml.html trees (dom.html_parser), which htmldate copies;
    # a plain lxml tree from elsewhere goes as its markup, which htmldate parses (a str
    # starting with "<", never taken for a URL)
    page = root if isinstance(root, HtmlElement) else etree.tostring(root, encoding="unicode")
    # Imported here: the crawl's main process reads the declarations (crawl.article) but never
    # infers a date, and htmldate's import cost it ~0.07 s; the worker pool preloads it.
    from htmldate import find_date  # noqa: PLC0415

    return find_date(page, url=url, original_date=True, extensive_search=False)


class _Declarations:
    """The page's ``<meta>``, ``<link>`` and JSON-LD ``<script>`` elements, in document order.

    One walk with lxml's tag filter (in C) instead of an XPath search of the
    whole tree per kind: the three searches were a third of this module's time.
    """

    __slots__ = ("links", "metas", "scripts")

    def __init__(self, root: etree._Element) -> None:
        self.metas: list[etree._Element] = []
        self.links: list[etree._Element] = []
        self.scripts: list[etree._Element] = []
        for element in root.iter("meta", "link", "script"):
            if element.tag == "meta":
                self.metas.append(element)
            elif element.tag == "link":
                self.links.append(element)
            elif element.get("type") == JSONLD_TYPE:
                self.scripts.append(element)


JSONLD_TYPE = "application/ld+json"


def jsonld_objects(root: etree._Element) -> list[dict[str, Any]]:
    """Every JSON-LD object of the page, with ``@graph`` and lists flattened.

    Broken JSON-LD is common (trailing commas, raw newlines in strings); a
    script that does not parse is skipped, not repaired.
    """
    return _parsed_jsonld(element for element in root.iter("script")
                          if element.get("type") == JSONLD_TYPE)


def _parsed_jsonld(scripts: Iterable[etree._Element]) -> list[dict[str, Any]]:
    objects: list[dict[str, Any]] = []
    for script in scripts:
        try:
            data = json.loads(script.xpath("string()"), strict=False)
        except ValueError:
            continue
        _flatten(data, objects, depth=0)
    return objects


def types_of(obj: dict[str, Any]) -> set[str]:
    """The schema.org types of one object, without the ``https://schema.org/`` prefix."""
    kinds = obj.get("@type", ())
    kinds = [kinds] if isinstance(kinds, str) else kinds
    return {k.rsplit("/", 1)[-1] for k in kinds if isinstance(k, str)}


def _flatten(data: Any, out: list[dict[str, Any]], depth: int) -> None:
    if depth > 3:
        return
    if isinstance(data, list):
        for item in data:
            _flatten(item, out, depth + 1)
    elif isinstance(data, dict):
        if "@type" in data:
            out.append(data)
        for key in ("@graph", "mainEntity"):
            if key in data:
                _flatten(data[key], out, depth + 1)


def _meta_tags(metas: list[etree._Element]) -> dict[str, str]:
    """``<meta>`` values by lower-cased name, property or itemprop; the first one wins."""
    found: dict[str, str] = {}
    for tag in metas:
        if tag.get("content") is None:
            continue
        key = tag.get("property") or tag.get("name") or tag.get("itemprop")
        value = (tag.get("content") or "").strip()
        if key and value:
            found.setdefault(key.strip().lower(), value)
    return found


def _canonical(links: list[etree._Element], url: str, meta: dict[str, str]) -> str | None:
    hrefs = (link.get("href") or "" for link in links
             if "canonical" in (link.get("rel") or "").split())
    href = next((h.strip() for h in hrefs if h.strip()), None) or meta.get("og:url")
    return urljoin(url, href) if href else None


def _authors(
    article: dict[str, Any], meta: dict[str, str], root: etree._Element
) -> tuple[str, ...]:
    names = _names(article.get("author"))
    if not names:
        names = [meta[n] for n in _AUTHOR_META if n in meta]
    if not names:
        names = [str(t) for t in root.xpath('//a[@rel="author"]/text()')]
    cleaned = (" ".join(n.split()) for n in names)
    unique = dict.fromkeys(n for n in cleaned if n and "://" not in n)
    return tuple(unique)


def _names(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return _names(value.get("name"))
    if isinstance(value, list):
        return [name for item in value for name in _names(item)]
    return []


def _publisher(article: dict[str, Any], objects: list[dict[str, Any]]) -> str | None:
    publisher = article.get("publisher")
    if isinstance(publisher, dict) and isinstance(publisher.get("name"), str):
        return publisher["name"]
    site = next((o for o in objects if "WebSite" in types_of(o)), {})
    return _text(site.get("name"))


def _itemprop(root: etree._Element, prop: str) -> str | None:
    for element in root.xpath(f'//*[@itemprop="{prop}"]'):
        value = element.get("datetime") or element.get("content")
        if value:
            return value
    return None


def _xpath_text(root: etree._Element, path: str) -> str | None:
    nodes = root.xpath(path)
    return _text(nodes[0].xpath("string()")) if nodes else None


def _text(value: Any) -> str | None:
    if isinstance(value, list) and value:
        value = value[0]
    if not isinstance(value, str):
        return None
    value = " ".join(value.split())
    return value or None


def _first(*values: str | None) -> str | None:
    return next((v for v in values if v), None)
