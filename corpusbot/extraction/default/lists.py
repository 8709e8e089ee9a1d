"""A list whose items the text took in part gives the rest of its items.

The algorithms judge each block alone, so a list in the main text comes
back with holes: a reading list's entries that are mostly a link, a
definition list's short terms, a table's cells of figures. Where the
composition kept an item of a list (``<ul>``, ``<ol>``, ``<dl>`` or
``<table>`` at most ``LIST_DEPTH`` elements above the block), the page's
author put the other items beside it as the same kind of text: they join,
unless a container names them boilerplate. A list none of whose items was
kept (a menu, related links, a tag cloud) stays out.

Measured on wcxb-dev's folds by domain (tuned on 0-2, reported on 3-4),
pages of F1 gained against the composition before: any item kept
(``MIN_KEPT_ITEMS`` 1) +2.46 tuned-on / +1.96 held out, 2 items +2.05 /
+1.72, 3 items +1.88 / +1.47; a share of the items kept as well (a quarter,
a half) gained less; ``LIST_DEPTH`` 3 / 4 / 5: +1.44 / +2.46 / +2.51
tuned-on (4: fewer pages change). Run after the other steps: before the
landmark's recovery it changed what that step adds (its bound is a share
of the kept text) and lost a documentation page.
"""

from __future__ import annotations

from collections.abc import Sequence

from lxml import etree

from corpusbot.extraction.default.containers import ContainerNames
from corpusbot.html.blocks import Block

LIST_TAGS = frozenset({"ul", "ol", "dl", "table"})
LIST_DEPTH = 4
"""How far above a block its list may be: an item's paragraph, a cell's list, a row's cell."""
MIN_KEPT_ITEMS = 1


def list_of(
    element: etree._Element, layouts: dict[etree._Element, bool] | None = None,
) -> etree._Element | None:
    """The nearest list at most ``LIST_DEPTH`` elements above ``element``; a layout table
    (``lays_out``) is none. ``layouts`` keeps each table's verdict: the test reads the
    table's subtree, and a layout table holds most of a page."""
    node = element.getparent()
    for _ in range(LIST_DEPTH):
        if node is None:
            return None
        if node.tag in LIST_TAGS:
            if node.tag != "table":
                return node
            if layouts is None:
                layouts = {}
            if node not in layouts:
                layouts[node] = lays_out(node)
            return None if layouts[node] else node
        node = node.getparent()
    return None


LAYOUT_ROLES = frozenset({"presentation", "none"})


# Pages built before CSS layout (most of an archive's older captures) set their columns
# in a table: the menu in one cell, the article in the next. Its cells are no items of one
# list, and the article's cell being kept gave the menu's cell too. A table lays out the
# page when ARIA says so, when it holds another table (data tables do not nest, layouts
# do), or when it has a single row and no header cell (a data table of one row, a product
# comparison, has its header cells). On wcxb-dev's tuning folds (pages of F1 gained):
# +0.002, two pages change (a blog's sidebar cell leaves, a catalog's "Filed under" line
# in a layout cell too); a single row alone as the test, header cells or not, lost a
# comparison table (-0.003). Scrapinghub and multilingual-dev unchanged.
def lays_out(table: etree._Element) -> bool:
    """Whether ``table`` lays out the page rather than holding data (above)."""
    if table.get("role") in LAYOUT_ROLES or next(table.iterdescendants("table"), None) is not None:
        return True
    rows = table.iter("tr")
    if next(rows, None) is not None and next(rows, None) is not None:
        return False
    return next(table.iter("th"), None) is None


def completed(blocks: Sequence[Block], kept: Sequence[Block], names: ContainerNames) -> list[Block]:
    """``kept``, plus every unnamed item of a list with ``MIN_KEPT_ITEMS`` items kept."""
    counts: dict[etree._Element, int] = {}
    layouts: dict[etree._Element, bool] = {}
    for block in kept:
        if (found := list_of(block.element, layouts)) is not None:
            counts[found] = counts.get(found, 0) + 1
    holding = [found for found, n in counts.items() if n >= MIN_KEPT_ITEMS]
    if not holding:
        return list(kept)
    # Only the lists' own subtrees are walked: most blocks of a page are in no such list.
    by_element: dict[etree._Element, list[Block]] = {}
    for block in blocks:
        by_element.setdefault(block.element, []).append(block)
    chosen = {id(b) for b in kept}
    for found in holding:
        for element in found.iter():
            items = by_element.get(element)
            if (items and list_of(element, layouts) is found
                    and not names.is_boilerplate(element)):
                chosen.update(id(b) for b in items if b.text)
    return [b for b in blocks if id(b) in chosen]
