"""The article headline: the page's ``<h1>`` that best matches its declared titles.

``<title>`` usually carries the site name too ("Headline | Site"), and pages
often hold several ``<h1>`` (logo, section name); the headline is the ``<h1>``
that best matches ``og:title`` or ``<title>`` both ways (most of its words in
the title, and most of the title's longest part in it, so that a logo naming
the site does not win), else ``og:title``, else the longest part of the title.
A page that declares no title has a headline only if it has one ``<h1>``.
"""

from __future__ import annotations

import re

from lxml import etree

_SEPARATORS = re.compile(r"\s+[|\-\u2013\u2014:\u00b7\u2022\u00bb/]\s+")
_WORD = re.compile(r"\w+")
# An <h1> and a declared title must share this share of each one's words for
# the <h1> to be taken as the headline; below, it is more likely a logo or a
# section name.
MIN_TITLE_OVERLAP = 0.5


def headline(root: etree._Element, title: str | None, og_title: str | None) -> str | None:
    """The article's headline, or ``None`` when the page declares none."""
    declared = [_strip_site_name(t) for t in (og_title, title) if t]
    h1s = [" ".join("".join(h1.itertext()).split()) for h1 in root.iter("h1")]
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
    return _strip_site_name(title) if title else None


def _overlap(candidate: str, declared: str) -> float:
    """The smaller of the two shares of shared words."""
    words = {w.lower() for w in _WORD.findall(candidate)}
    title = {w.lower() for w in _WORD.findall(declared)}
    if not words or not title:
        return 0.0
    shared = len(words & title)
    return min(shared / len(words), shared / len(title))


def _strip_site_name(title: str) -> str:
    parts = _SEPARATORS.split(title)
    return max(parts, key=len).strip() if len(parts) > 1 else title
