"""Listing regions: the element whose children repeat one structure and hold the text.

Listings, collections, search results, job boards and forum indexes show
their main content as items: sibling elements built alike (the same tag and
``class``), each short and often a link. jusText and Boilerpipe read each
item as a link-dense fragment and drop it, so a listing page came back
nearly empty. The region is found from the structure alone, in the spirit
of record-boundary detection by repeated sibling patterns (MDR, Liu,
Grossman and Zhai, KDD 2003): every element whose children share one
signature ``MIN_ITEMS`` times or more is a candidate, and the one whose
repeated children hold the most text is the region.

The signature is the tag and the whole ``class``; in an element holding text
already kept, where the whole attribute never repeats, one shared ``class``
token (``token_signatures``). Templates give each item tokens of its own
(WordPress's post id and categories, a page builder's element id, a CSS-in-JS
variant hash), so a section front or a recipe index was no region and the page
kept the fragment the algorithms chose: its intro, a teaser, the section
headings. Such a region then weighs only the text it adds to the kept text
(``regions.with_listing``). Issue 19, on wcxb-dev's folds by domain (pages of
F1 gained, tuned-on folds 0-2 / held-out 3-4): +1.91 / +0.46 (9 pages change,
one loses 0.002; tuned-on listing 0.668 -> 0.691, collection 0.702 -> 0.708;
held out service 0.837 -> 0.844, listing 0.719 -> 0.720); scrapinghub 0.9703
and multilingual-dev 0.9399 unchanged; extraction time the same (wcxb-dev
18.1-20.4 s before, 18.2-18.5 s after, alternating runs). Rejected, against
the whole-attribute signature alone: one token in every element +2.43 / +0.68,
but scrapinghub 0.9680 and multilingual-dev 0.9362 (a sidebar's boxes, a
menu's ``menu-item``s, an article's components around its text); so, with
tokens naming navigation left out, +3.11 / +0.72, 0.9680 / 0.9373; so, with
the added-text weighing, +1.63 / +0.43, 0.9680 / 0.9394; in holders and,
when nothing is kept, everywhere +2.49 / -0.49 (a footer's ``column`` and
``column last``); the holder rule without the added-text weighing +1.52 /
+0.71 but multilingual-dev 0.9383; items alike by a token only when each
holds a heading +0.00 / -0.55; tokens also in elements inside ``<main>``
+1.91 / +0.15 (a held-out collection loses 1.0 page of F1). Leaving tokens
naming navigation out of the holder rule changes no page of the three sets.
Two neighbouring classes of a grid cut short, measured after it and not kept:
product cards built as ``<figure>`` (a boilerplate tag) inside the region kept
+0.39 / -0.23, scrapinghub 0.9699; a region inside a container named as
boilerplate that holds half the page's text (a wrapper named ``topics-page``)
-0.03 / +0.03.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from lxml import etree

from corpusbot.extraction.default.containers import ContainerNames
from corpusbot.extraction.grandparent import is_inside
from corpusbot.html.blocks import Block

MIN_ITEMS = 4
"""Repeated children a region needs; three are a menu or a teaser row as often as a list."""

MIN_ITEM_SHARE = 0.5
"""Share of a candidate's text its repeated children must hold."""

MIN_ITEM_CHARS = 15
"""Average characters per item: menus ("Home", "News") stay below, titles above.
25 and 10 give 0.0003 less and 0.0001 more on wcxb-dev, the same elsewhere;
three items (``MIN_ITEMS``) gain 0.0003 there but cost scrapinghub 0.0006."""

EXTRA_REGION_SHARE = 0.1
"""Other regions join the largest from this share of its text. Chosen on wcxb-dev's
tuned-on folds (pages of F1 gained: 0 +1.64, 0.05 +1.64, 0.1 +1.66, 0.25 +1.51, 0.5
+0.31); at 0 a filter panel's short lists joined and scrapinghub lost 0.0002."""

# Unnamed children of these tags are layout (a page's wrappers), not items.
WRAPPER_TAGS = frozenset({"div", "span", "section", "p"})

# Elements whose lists are navigation by definition.
NAVIGATION_TAGS = frozenset({"nav", "header", "footer", "aside", "menu", "body", "html"})


def text_by_element(blocks: Sequence[Block]) -> dict[etree._Element, int]:
    """Characters of block text under each element (ancestors of every block's element).

    Bottom-up rather than block by block up to the root: blocks share most
    of their ancestors, so each element is climbed to once and its text
    added to its parent's after all its children's (deepest first).
    """
    chars: dict[etree._Element, int] = {}
    depth: dict[etree._Element, int] = {}
    for block in blocks:
        chars[block.element] = chars.get(block.element, 0) + block.chars
        _record_depths(block.element, depth)
    for element in sorted(depth, key=depth.__getitem__, reverse=True):
        parent = element.getparent()
        if parent is not None:
            chars[parent] = chars.get(parent, 0) + chars.get(element, 0)
    return chars


def _record_depths(element: etree._Element, depth: dict[etree._Element, int]) -> None:
    """Give ``element`` and its not yet seen ancestors their depth below the root."""
    chain = []
    node: etree._Element | None = element
    while node is not None and node not in depth:
        chain.append(node)
        node = node.getparent()
    level = depth[node] if node is not None else -1
    for node in chain[::-1]:  # not reversed(): mypyc 2.x crashes on it over lxml elements
        level += 1
        depth[node] = level


class Region(NamedTuple):
    """A region: its element, the text its items hold, and whether they are alike by one
    ``class`` token only (``token_signatures``) rather than by the whole attribute."""

    element: etree._Element
    chars: int
    by_token: bool = False


def region(
    blocks: Sequence[Block], names: ContainerNames
) -> tuple[etree._Element | None, int]:
    """The element whose repeated children hold the most text (None if none), and that text."""
    best = _largest(text_by_element(blocks), names, frozenset())
    return (best.element, best.chars) if best else (None, 0)


def all_regions(
    blocks: Sequence[Block], names: ContainerNames, kept: Sequence[Block] = ()
) -> list[Region]:
    """The region (``region``) first, then the other regions holding at least
    ``EXTRA_REGION_SHARE`` of its text, largest first, none inside another.

    A news section or a shop's front page shows its items in several sibling
    sections ("Latest", "Releases", "Featured"), each a list of its own under
    fewer than ``MIN_ITEMS`` sections: no one element repeats them all.
    An element holding ``kept`` blocks may have items alike by one ``class``
    token (``token_signatures``) where the whole attribute differs.
    """
    chars = text_by_element(blocks)
    holding = holders(kept)
    best = _largest(chars, names, holding)
    if best is None:
        return []
    floor = EXTRA_REGION_SHARE * best.chars
    others = []
    for element, total in chars.items():
        if total >= floor and element is not best.element:
            found = _as_region(element, total, chars, names, holding)
            if found is not None and found.chars >= floor:
                others.append(found)
    others.sort(key=lambda r: -r.chars)
    regions = [best]
    for other in others:
        if not any(is_inside(other.element, r.element) or is_inside(r.element, other.element)
                   for r in regions):
            regions.append(other)
    return regions


def holders(kept: Sequence[Block]) -> frozenset[etree._Element]:
    """The elements holding a block of ``kept`` (its elements and their ancestors)."""
    found: set[etree._Element] = set()
    for block in kept:
        node: etree._Element | None = block.element
        while node is not None and node not in found:
            found.add(node)
            node = node.getparent()
    return frozenset(found)


def _largest(chars: dict[etree._Element, int], names: ContainerNames,
             holding: frozenset[etree._Element]) -> Region | None:
    best = None
    for element, total in chars.items():
        if total > (best.chars if best else 0):
            found = _as_region(element, total, chars, names, holding)
            if found and found.chars > (best.chars if best else 0):
                best = found
    return best


def _as_region(element: etree._Element, total: int, chars: dict[etree._Element, int],
               names: ContainerNames, holding: frozenset[etree._Element]) -> Region | None:
    """``element`` as a region if it is one (``total``: all its text): items alike by
    their whole ``class``, else, in an element of ``holding``, by one token."""
    if element.tag in NAVIGATION_TAGS or len(element) < MIN_ITEMS:
        return None
    found = Region(element, repeated_chars(element, chars, class_signature))
    if not found.chars and element in holding:
        found = Region(element, repeated_chars(element, chars, token_signatures), True)
    if not found.chars or found.chars < MIN_ITEM_SHARE * total:
        return None
    if names.is_boilerplate(element) or _in_navigation(element):
        return None
    return found


Signatures = Callable[[etree._Element], set[tuple[str, str | None]]]


def repeated_chars(element: etree._Element, chars: dict[etree._Element, int],
                   signatures: Signatures) -> int:
    """Text held by the children that share the most common signature, if they repeat."""
    items = repeated_items(element, signatures)
    if len(items) < MIN_ITEMS:
        return 0
    held = sum(chars.get(child, 0) for child in items)
    return held if held >= MIN_ITEM_CHARS * len(items) else 0


def repeated_items(element: etree._Element, signatures: Signatures) -> list[etree._Element]:
    """The children sharing the most common of their ``signatures``.

    Counted in a plain dict: ``Counter.update``, a Python function, cost 2 % of
    ``default`` called once per child. The most common is the first of the most
    frequent, in the order first seen, as ``Counter.most_common(1)`` takes it."""
    children = [child for child in element if isinstance(child.tag, str)]
    marks = [signatures(child) for child in children]
    counts: dict[tuple[str, str | None], int] = {}
    for found in marks:
        for mark in found:
            counts[mark] = counts.get(mark, 0) + 1
    if not counts:
        return []
    signature = max(counts, key=counts.__getitem__)
    if signature[1] is None and signature[0] in WRAPPER_TAGS:
        return []
    return [child for child, found in zip(children, marks, strict=True) if signature in found]


def class_signature(child: etree._Element) -> set[tuple[str, str | None]]:
    """An item's tag and whole ``class`` attribute: the items of a list built alike."""
    return {(child.tag, child.get("class"))}


def token_signatures(child: etree._Element) -> set[tuple[str, str | None]]:
    """An item's tag with each of its ``class`` tokens.

    Templates mark each item with its own tokens beside the shared ones
    (WordPress's ``post-94972 category-dinner``, Elementor's
    ``elementor-element-6e4d78d``, styled-components' per-variant hash,
    a card's ``--featured`` modifier), and the whole attribute then never
    repeats: the grid of teasers was no region, and a page kept the one
    teaser or the section headings the algorithms chose.
    """
    tokens = (child.get("class") or "").split()
    if not tokens:
        return {(child.tag, None)}
    return {(child.tag, token) for token in tokens}


def _in_navigation(element: etree._Element) -> bool:
    return any(a.tag in NAVIGATION_TAGS and a.tag not in ("body", "html")
               for a in element.iterancestors())


def blocks_in(region_element: etree._Element, blocks: Sequence[Block],
              names: ContainerNames) -> list[Block]:
    """The blocks under the region, minus those under boilerplate names inside it."""
    inside = []
    for block in blocks:
        node = block.element
        while node is not None and node is not region_element:
            node = node.getparent()
        if node is not None and not names.is_boilerplate(block.element):
            inside.append(block)
    return inside
