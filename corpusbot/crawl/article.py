"""Tell an article page from a home, section, tag or other index page.

A crawl follows index pages (they lead to articles) but stores only
articles. The page's own declarations decide first (JSON-LD type,
``og:type``); the URL's shape and the amount of running text settle the
pages that declare nothing. Each signal adds to a score; the reason names
the signals, so that a wrong call can be traced in the stats.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from lxml import etree

from corpusbot.html.metadata import ARTICLE_TYPES, jsonld_objects, types_of

INDEX_TYPES = frozenset({"CollectionPage", "ItemList", "SearchResultsPage", "ProfilePage"})
"""schema.org types that mark a listing of other pages."""

LONG_PARAGRAPH_CHARS = 80
"""A paragraph this long is running text, not a teaser title or a menu entry."""
TEXT_ARTICLE_CHARS = 1200
"""Running text of an article; a teaser list rarely has this much outside links."""
TEXT_INDEX_CHARS = 300
"""Below this much running text, a page holds no article."""
ARTICLE_SCORE = 1
"""The score from which a page counts as an article.

Calibrated on the 181 pages of ``../shared/bench/scrapinghub`` (all
articles) and the index pages of the test site: at 1, 180 of the 181 are
articles under their own URL and every index page scores -3 or less. Moves
with the points of each signal below.
"""

_DATE_PATH = re.compile(r"/(19|20)\d{2}/(0?[1-9]|1[0-2])(/|$)")
_INDEX_PATH = re.compile(
    r"/(tag|tags|topic|topics|category|categories|section|sections|author|authors|"
    r"page|archive|archives|search|calendar)(/|$)",
    re.IGNORECASE,
)
_ID_QUERY = re.compile(r"(^|&)(id|idx|aid|articleid|article_id|story_id|no)=\d{3,}", re.I)
_PAGE_QUERY = re.compile(r"(^|&)(page|p|offset|start)=\d+", re.IGNORECASE)
# Paragraph-like elements: <p>, and leaf <div>/<td> for sites that write
# paragraphs as <div> or with <br> (CNN, many Korean and Brazilian sites).
_PARAGRAPHS = (
    f"//p[string-length(normalize-space()) >= {LONG_PARAGRAPH_CHARS}]"
    f" | //div[not(descendant::div or descendant::p)]"
    f"[string-length(normalize-space()) >= {LONG_PARAGRAPH_CHARS}]"
    f" | //td[not(descendant::td or descendant::p or descendant::div)]"
    f"[string-length(normalize-space()) >= {LONG_PARAGRAPH_CHARS}]"
)
_OUTSIDE = "[not(ancestor::nav or ancestor::footer or ancestor::header)]"
MAX_LINK_SHARE = 0.5
"""A paragraph that is mostly link text is a teaser or a menu, not running text."""


@dataclass(slots=True, frozen=True)
class PageKind:
    """The verdict on one page, with the signals that led to it."""

    is_article: bool
    score: int
    reason: str


def classify(root: etree._Element, url: str) -> PageKind:
    """Decide whether the parsed page at ``url`` is an article."""
    signals = [
        _jsonld_signal(root),
        _og_signal(root),
        _url_signal(url),
        _text_signal(root),
    ]
    score = sum(points for points, _ in signals)
    reason = ",".join(name for points, name in signals if points)
    return PageKind(score >= ARTICLE_SCORE, score, reason or "no-signal")


def _jsonld_signal(root: etree._Element) -> tuple[int, str]:
    kinds: set[str] = set()
    for obj in jsonld_objects(root):
        kinds |= types_of(obj)
    if kinds & INDEX_TYPES:
        return -3, "jsonld-index"
    if kinds & ARTICLE_TYPES:
        return 3, "jsonld-article"
    return 0, ""


def _og_signal(root: etree._Element) -> tuple[int, str]:
    values = root.xpath('//meta[@property="og:type"]/@content')
    kind = str(values[0]).strip().lower() if values else ""
    if kind == "article":
        return 2, "og-article"
    if kind == "website":
        # Many article pages wrongly say "website"; it only leans.
        return -1, "og-website"
    return 0, ""


def url_shape(url: str) -> int:
    """+1 for an article-shaped path, -2 for an index-shaped one, else 0.

    Articles: a dated path with a slug after the date, a long hyphenated
    slug, a long numeric id. Index pages: the root, a path ending in ``/``
    with one or two segments, tag/section/author/page/calendar paths.
    """
    parts = urlsplit(url)
    path = parts.path or "/"
    segments = [s for s in path.split("/") if s]
    last = segments[-1] if segments else ""
    if not segments or _INDEX_PATH.search(path):
        return -2
    if last.count("-") >= 3 or re.search(r"\d{5,}", last) or _ID_QUERY.search(parts.query):
        return 1
    if _PAGE_QUERY.search(parts.query):
        return -2
    if path.endswith("/") and len(segments) <= 2:
        return -2
    if _DATE_PATH.search(path) and not last.isdigit():
        return 1
    return 0


def _url_signal(url: str) -> tuple[int, str]:
    points = url_shape(url)
    return points, {1: "url-article", -2: "url-index"}.get(points, "")


def running_text_chars(root: etree._Element) -> int:
    """Characters in long paragraphs that are not mostly links."""
    total = 0
    for element in root.xpath(_PARAGRAPHS.replace(" | ", f"{_OUTSIDE} | ") + _OUTSIDE):
        chars = len(element.xpath("normalize-space()"))
        linked = sum(len(a.xpath("normalize-space()")) for a in element.iter("a"))
        if linked <= MAX_LINK_SHARE * chars:
            total += chars
    return total


def _text_signal(root: etree._Element) -> tuple[int, str]:
    chars = running_text_chars(root)
    if chars >= TEXT_ARTICLE_CHARS:
        return 2, "text-long"
    if chars < TEXT_INDEX_CHARS:
        # Only leans: some articles are short, or keep their text in scripts.
        return -1, "text-short"
    return 0, ""
