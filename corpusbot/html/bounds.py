"""Bounds on what reaches libxml2, checked on the decoded text before the parse.

libxml2 cannot be interrupted: a signal that should stop a page waits until
the parse returns, and some inputs make the parse very long or very large —
one element with 100,000 attributes holds it for minutes (its duplicate
attribute check is quadratic), a million elements take 13 s and 1.2 GB. And
past its own limits (a text node over 10 MB, nesting deeper than 256) it
stops and the rest of the page is silently lost. So each bound is applied
first, on purpose, and every cut is reported with its reason:

- ``text``: a text run longer than ``MAX_TEXT_CHARS`` keeps its start;
- ``attributes``: an element with more than ``MAX_ATTRIBUTES`` attributes,
  or a tag longer than ``MAX_TAG_CHARS``, keeps its name only;
- ``size``: the text is cut at a tag boundary after ``MAX_HTML_CHARS``;
- ``elements``: past ``MAX_ELEMENTS`` tags, runs of opening tags are dropped
  as for ``nesting`` below, then the text is cut before the last tag allowed;
- ``nesting``: when libxml2 reports nesting past its limit, a run of more
  than ``MAX_OPEN_RUN`` opening tags with nothing between them (the shape of
  a nesting bomb) is dropped and the page parsed again, so the text after it
  is kept (``corpusbot.html.dom``).

With these bounds the parse of any page stays well under a second, so lxml's
``huge_tree`` (which would lift libxml2's limits and its protection with them)
stays off.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_HTML_CHARS = 8 * 1024 * 1024
"""Calibrated on ../shared/bench: the largest gold page is 5.3 MB, and parsing 8 MiB
of markup takes about half a second."""
MAX_ELEMENTS = 100_000
"""Tags (counted as ``<``) before the cut: the gold pages have at most 21,646; 100,000
elements parse in about a second and 120 MB, where 10^6 took 13.5 s and 1.2 GB."""
MAX_ATTRIBUTES = 1000
"""Attributes of one element: the gold pages have at most 136. libxml2's cost grows
with the square of the count (20,000 attributes: 1.1 s; 1,000: under 5 ms)."""
MAX_TEXT_CHARS = 1 << 20
"""One text run (between two tags): the longest gold paragraph is far below 1 MiB, and
libxml2 drops the whole page past 10 MB."""
MAX_TAG_CHARS = 1 << 20
"""One tag with its attributes: leaves room for inline data: images of 700 KB."""
MAX_OPEN_RUN = 200
"""Opening tags in a row with nothing between them: the gold pages nest at most 55
deep, and libxml2 stops at 256 without ``huge_tree``."""

LONG_TAG_CHARS = 4000
"""Tags with this many characters of attributes are checked against ``MAX_ATTRIBUTES``
and ``MAX_TAG_CHARS``; a shorter tag holds too few distinct attributes to slow libxml2
(1,000 distinct names with their spaces take about 4,000 characters)."""
_LONG_TAG = rf"<([A-Za-z][^\s<>/]*+)([^<>]{{{LONG_TAG_CHARS},}}+)>"
# Starts only after a ">" so that each run is scanned once (the text before the first
# tag is handled apart).
_LONG_TEXT = rf"(?<=>)[^<>]{{{MAX_TEXT_CHARS + 1},}}"
_ATTRIBUTE = r"""[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]*))?"""
# Maximal runs, each matched once: a bounded repetition would be retried from every tag.
_OPEN_RUN = r"(?:<[A-Za-z][^<>]*>\s*)+"
_DEEP_RUN = rf"(?:<[A-Za-z][^<>]*+>\s*+){{{MAX_OPEN_RUN + 1}}}"


class _Patterns:
    """The patterns above for ``str`` and for UTF-8 ``bytes`` (the decoder's fast path)."""

    def __init__(self, kind: type) -> None:
        def make(pattern: str) -> re.Pattern:
            return re.compile(pattern if kind is str else pattern.encode())
        self.long_tag, self.attribute, self.open_run, self.long_text, self.deep_run = map(
            make, (_LONG_TAG, _ATTRIBUTE, _OPEN_RUN, _LONG_TEXT, _DEEP_RUN))
        self.lt = "<" if kind is str else b"<"
        self.gt = ">" if kind is str else b">"


_PATTERNS = {str: _Patterns(str), bytes: _Patterns(bytes)}

Markup = str | bytes


@dataclass(slots=True, frozen=True)
class Bounded:
    """The markup to parse, and what was cut from it (``"html/cut/size"``, ...)."""

    text: Markup
    cuts: tuple[str, ...] = ()


def bound(text: Markup) -> Bounded:
    """``text`` within the size, element and attribute bounds of the module docstring."""
    patterns = _PATTERNS[type(text)]
    cuts = []
    for reason, step in (("text", _cut_text), ("attributes", _cut_attributes),
                         ("size", _cut_size), ("elements", _cut_elements)):
        text, changed = step(text, patterns)
        if changed:
            cuts.append(f"html/cut/{reason}")
    return Bounded(text, tuple(cuts))


def cut_open_runs(text: Markup) -> Markup:
    """``text`` without its runs of more than ``MAX_OPEN_RUN`` opening tags: called only
    when libxml2 reported excessive depth, since it costs a call per run of tags."""
    patterns = _PATTERNS[type(text)]
    if not patterns.deep_run.search(text):  # one pass without a call per run of tags
        return text

    def drop(match: re.Match) -> Markup:
        run = match.group(0)
        return run if run.count(patterns.lt) <= MAX_OPEN_RUN else run[:0]

    return patterns.open_run.sub(drop, text)


def _cut_size(text: Markup, patterns: _Patterns) -> tuple[Markup, bool]:
    if len(text) <= MAX_HTML_CHARS:
        return text, False
    end = text.rfind(patterns.lt, 0, MAX_HTML_CHARS)
    return text[:end if end > 0 else MAX_HTML_CHARS], True


def _cut_text(text: Markup, patterns: _Patterns) -> tuple[Markup, bool]:
    if len(text) <= MAX_TEXT_CHARS:
        return text, False
    # Only the stretches between two "<" that are long enough can hold a long run; the
    # pattern runs on those alone (over a whole page it costs ten times more).
    pieces = text.split(patterns.lt)
    changed = False
    if len(pieces[0]) > MAX_TEXT_CHARS:  # text before the first tag
        pieces[0], changed = pieces[0][:MAX_TEXT_CHARS], True
    for index, piece in enumerate(pieces[1:], start=1):
        if len(piece) > MAX_TEXT_CHARS:
            pieces[index], count = patterns.long_text.subn(
                lambda match: match.group(0)[:MAX_TEXT_CHARS], piece)
            changed = changed or count > 0
    return (patterns.lt.join(pieces), True) if changed else (text, False)


def _cut_elements(text: Markup, patterns: _Patterns) -> tuple[Markup, bool]:
    if text.count(patterns.lt) <= MAX_ELEMENTS:
        return text, False
    text = cut_open_runs(text)
    if text.count(patterns.lt) <= MAX_ELEMENTS:
        return text, True
    at = -1
    for _ in range(MAX_ELEMENTS):
        at = text.find(patterns.lt, at + 1)
    return text[:at], True


def _cut_attributes(text: Markup, patterns: _Patterns) -> tuple[Markup, bool]:
    # A long tag lies inside one stretch between two ">": the pattern, which steps through
    # every tag, runs on the end of each long stretch alone (over a whole page it cost a
    # quarter of the parse on pages with a long inline script).
    spans = _long_stretches(text, patterns)
    if not spans:
        return text, False
    changed = False

    def shorten(match: re.Match) -> Markup:
        nonlocal changed
        if (len(match.group(2)) <= MAX_TAG_CHARS
                and len(patterns.attribute.findall(match.group(2))) <= MAX_ATTRIBUTES):
            return match.group(0)
        changed = True
        return patterns.lt + match.group(1) + match.group(0)[-1:]

    pieces, at = [], 0
    for stretch, end in spans:
        # The tag can only start at the stretch's last "<": it ends at the stretch's ">".
        start = text.rfind(patterns.lt, stretch, end)
        if start >= 0:
            pieces += (text[at:start], patterns.long_tag.sub(shorten, text[start:end]))
            at = end
    pieces.append(text[at:])
    return (text[:0].join(pieces), True) if changed else (text, False)


def _long_stretches(text: Markup, patterns: _Patterns) -> list[tuple[int, int]]:
    """Where the stretches of ``LONG_TAG_CHARS`` or more without a ">" are, each from the
    ">" before it (or the start) to the ">" that ends it (or the end).

    Such a stretch holds a whole aligned block of half that length, so only the blocks
    are searched for a ">" (a fast byte search each); a block without one is widened to
    its stretch. A pattern or a split over every ">" of the page cost ten times more.
    """
    gt, size, step = patterns.gt, len(text), LONG_TAG_CHARS // 2
    spans, after = [], 0
    for block in range(0, size, step):
        if block < after or text.find(gt, block, block + step) >= 0:
            continue
        before, end = text.rfind(gt, 0, block), text.find(gt, block)
        after = size if end < 0 else end + 1
        if (size if end < 0 else end) - before - 1 >= LONG_TAG_CHARS:
            spans.append((max(before, 0), after))
    return spans
