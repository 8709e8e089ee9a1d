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
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

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


def region(
    blocks: Sequence[Block], names: ContainerNames
) -> tuple[etree._Element | None, int]:
    """The element whose repeated children hold the most text (None if none), and that text."""
    return _largest(text_by_element(blocks), names)


def all_regions(
    blocks: Sequence[Block], names: ContainerNames
) -> list[tuple[etree._Element, int]]:
    """The region (``region``) first, then the other regions holding at least
    ``EXTRA_REGION_SHARE`` of its text, largest first, none inside another.

    A news section or a shop's front page shows its items in several sibling
    sections ("Latest", "Releases", "Featured"), each a list of its own under
    fewer than ``MIN_ITEMS`` sections: no one element repeats them all.
    """
    chars = text_by_element(blocks)
    best, best_chars = _largest(chars, names)
    if best is None:
        return []
    floor = EXTRA_REGION_SHARE * best_chars
    others = []
    for element, total in chars.items():
        if total >= floor and element is not best:
            held = _held_as_region(element, total, chars, names)
            if held >= floor:
                others.append((element, held))
    others.sort(key=lambda pair: -pair[1])
    found = [(best, best_chars)]
    for element, held in others:
        if not any(is_inside(element, e) or is_inside(e, element) for e, _ in found):
            found.append((element, held))
    return found


def _largest(
    chars: dict[etree._Element, int], names: ContainerNames
) -> tuple[etree._Element | None, int]:
    best, best_chars = None, 0
    for element, total in chars.items():
        if total > best_chars:
            held = _held_as_region(element, total, chars, names)
            if held > best_chars:
                best, best_chars = element, held
    return best, best_chars


def _held_as_region(element: etree._Element, total: int, chars: dict[etree._Element, int],
                    names: ContainerNames) -> int:
    """The text of ``element``'s repeated children if it is a region (``total``: all its
    text), else 0."""
    if element.tag in NAVIGATION_TAGS or len(element) < MIN_ITEMS:
        return 0
    held = repeated_chars(element, chars)
    if held < MIN_ITEM_SHARE * total or names.is_boilerplate(element) or _in_navigation(element):
        return 0
    return held


def repeated_chars(element: etree._Element, chars: dict[etree._Element, int]) -> int:
    """Text held by the children that share the most common signature, if they repeat."""
    signatures = Counter(
        (child.tag, child.get("class")) for child in element if isinstance(child.tag, str)
    )
    if not signatures:
        return 0
    signature, count = signatures.most_common(1)[0]
    if count < MIN_ITEMS or (signature[1] is None and signature[0] in WRAPPER_TAGS):
        return 0
    held = sum(chars.get(child, 0) for child in element
               if (child.tag, child.get("class")) == signature)
    return held if held >= MIN_ITEM_CHARS * count else 0


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
