"""The article headline: the page's ``<h1>`` that best matches its declared titles.

``<title>`` usually carries the site name too ("Headline | Site"), and pages
often hold several ``<h1>`` (logo, section name); the headline is the ``<h1>``
sharing most words with ``og:title`` or ``<title>``, else the longest part of
the declared title.
"""

from __future__ import annotations

import re

from lxml import etree

_SEPARATORS = re.compile(r"\s+[|\-\u2013\u2014:\u00b7\u2022\u00bb/]\s+")
_WORD = re.compile(r"\w+")
# An <h1> must share this share of its words with a declared title to be
# taken as the headline; below, it is more likely a logo or section name.
MIN_TITLE_OVERLAP = 0.5


def headline(root: etree._Element, title: str | None, og_title: str | None) -> str | None:
    """The article's headline, or ``None`` when the page declares none."""
    declared = [t for t in (og_title, title) if t]
    best, best_score = None, 0.0
    for h1 in root.iter("h1"):
        text = " ".join(h1.text_content().split())
        score = max((_overlap(text, t) for t in declared), default=0.0)
        if text and score > best_score:
            best, best_score = text, score
    if best is not None and best_score >= MIN_TITLE_OVERLAP:
        return best
    if og_title:
        return og_title
    return _strip_site_name(title) if title else None


def _overlap(candidate: str, declared: str) -> float:
    words = {w.lower() for w in _WORD.findall(candidate)}
    if not words:
        return 0.0
    return len(words & {w.lower() for w in _WORD.findall(declared)}) / len(words)


def _strip_site_name(title: str) -> str:
    parts = _SEPARATORS.split(title)
    return max(parts, key=len).strip() if len(parts) > 1 else title
