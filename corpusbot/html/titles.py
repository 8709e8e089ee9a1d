"""The article headline: the page's ``<h1>`` that best matches its declared titles.

``<title>`` usually carries the site name too ("Headline | Site"), and pages
often hold several ``<h1>`` (logo, section name); the headline is the ``<h1>``
that best matches ``og:title`` or ``<title>`` both ways (most of its words in
the title, and most of the title's longest part in it, so that a logo naming
the site does not win), else ``og:title``, else the longest part of the title.
A page that declares no title has a headline only if it has one ``<h1>``.

The site name is cut from a declared title when the page names its site
(``og:site_name``, ``application-name``), or when ``<title>`` and
``og:title`` differ but end (or start) with the same part: "Headline |
AOC media - Analyse Opinion Critique" becomes "Headline" though the name
holds a separator itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from lxml import etree

from corpusbot.html.dom import HeadElements, head_elements

_SEPARATORS = re.compile(r"\s+[|\-\u2013\u2014:\u00b7\u2022\u00bb/]\s+")
_WORD = re.compile(r"\w+")
_NOT_ALNUM = re.compile(r"[\W_]+")
# The <meta> names and properties by which a page names its site.
SITE_NAME_METAS = frozenset({"og:site_name", "application-name", "apple-mobile-web-app-title"})
# An <h1> and a declared title must share this share of each one's words for
# the <h1> to be taken as the headline; below, it is more likely a logo or a
# section name.
MIN_TITLE_OVERLAP = 0.5


def headline(root: etree._Element, title: str | None, og_title: str | None,
             elements: HeadElements | None = None) -> str | None:
    """The article's headline, or ``None`` when the page declares none (``elements``: the
    root's ``dom.head_elements``, when already found)."""
    elements = elements or head_elements(root)
    names = site_names(elements.metas, title, og_title)
    og_title = strip_site_name(og_title, names) if og_title else None
    title = strip_site_name(title, names) if title else None
    declared = [_longest_part(t) for t in (og_title, title) if t]
    h1s = [" ".join("".join(h1.itertext()).split()) for h1 in elements.h1s]
    if not declared:
        # nothing to match against: a lone <h1> is the headline
        return h1s[0] if len(h1s) == 1 and h1s[0] else None
    best, best_score = None, 0.0
    for text in h1s:
        score = max((_overlap(text, t) for t in declared), default=0.0)
        if text and score > best_score:
            best, best_score = text, score
    if best is not None and best_score >= MIN_TITLE_OVERLAP:
        return best
    if og_title:
        return og_title
    return _longest_part(title) if title else None


def site_names(metas: Iterable[etree._Element], title: str | None, og_title: str | None,
               ) -> set[str]:
    """The names the page gives its site: declared in its ``metas``, or shared by its titles."""
    names = set()
    for meta in metas:
        content = meta.get("content")
        # no set of the two keys made per meta: a page has dozens of metas
        if content and ((meta.get("property") or "").strip().lower() in SITE_NAME_METAS
                        or (meta.get("name") or "").strip().lower() in SITE_NAME_METAS):
            names.add(content)
    if title and og_title:
        names |= _shared_affixes(title, og_title)
    return {name for name in names if _key(name)}


def strip_site_name(title: str, names: Iterable[str]) -> str:
    """``title`` without a leading or trailing site name and its separator."""
    text = " ".join(title.split())
    keys = {_key(name) for name in names}
    for match in _SEPARATORS.finditer(text):
        before, after = text[: match.start()], text[match.end():]
        if _key(after) in keys and _key(before):
            return before
        if _key(before) in keys and _key(after):
            return after
    return text


def _shared_affixes(first: str, second: str) -> set[str]:
    """The first or last parts two different titles share ("A | Site" and "B | Site")."""
    a, b = _SEPARATORS.split(" ".join(first.split())), _SEPARATORS.split(" ".join(second.split()))
    if len(a) < 2 or len(b) < 2 or _key(first) == _key(second):
        return set()
    # A site name is the shorter side: two titles of one headline share their long first part.
    return {x for x, y in ((a[0], b[0]), (a[-1], b[-1]))
            if _key(x) == _key(y) and 2 * len(x) < min(len(first), len(second))}


def _key(text: str) -> str:
    """Letters and digits only, lower-cased: "AOC media" and "aoc-media" are one name."""
    return _NOT_ALNUM.sub("", text).lower()


def _overlap(candidate: str, declared: str) -> float:
    """The smaller of the two shares of shared words."""
    words = {w.lower() for w in _WORD.findall(candidate)}
    title = {w.lower() for w in _WORD.findall(declared)}
    if not words or not title:
        return 0.0
    shared = len(words & title)
    return min(shared / len(words), shared / len(title))


def _longest_part(title: str) -> str:
    parts = _SEPARATORS.split(title)
    return max(parts, key=len).strip() if len(parts) > 1 else title
