"""A set of disclosure panels whose one panel the text took in part gives the others.

Product pages fold their sections into accordions and tabs: the
description in the first panel, the specifications, the contents of the
box and the care notes in the next ones. The description is prose and
becomes the article region; the other panels are short lines and table
cells the algorithms call boilerplate, so the specifications were lost
beside a kept description. A panel is an element the page marks as one:
``<details>``, or the ARIA roles of a tab's and an accordion's content
(``tabpanel``, ``region``; ``corpusbot.html.blocks`` reads such panels
when they are hidden). Where a kept block lies in a panel, the nearest
element above the panel that holds another panel (at most ``GROUP_DEPTH``
levels up) is the set: its link-poor, unnamed blocks join, the panels'
titles with them.

Measured on wcxb-dev's folds by domain (pages of F1 gained against the
composition before): +0.35 tuned-on (products +0.19: specification tables
beside descriptions; a service page's tabs +0.12), +0.20 held out;
``GROUP_DEPTH`` 2 / 4 / 6 / 8: +0.26 / +0.26 / +0.35 / +0.28 tuned-on (8
takes the lines of other boxes around a product's tabs); the ``tabpanel``
role alone: +0.05; a panel at most 8 elements above the kept block instead
of any: the same within 0.01.
"""

from __future__ import annotations

from collections.abc import Sequence

from lxml import etree

from corpusbot.extraction.default.containers import ContainerNames
from corpusbot.html.blocks import Block

PANEL_ROLES = frozenset({"tabpanel", "region"})
GROUP_DEPTH = 6
"""How far above a panel the set may be: an accordion's item, the accordion, its wrappers."""


def completed(
    blocks: Sequence[Block], kept: Sequence[Block], names: ContainerNames,
    max_link_density: float,
) -> list[Block]:
    """``kept``, plus the link-poor, unnamed blocks of each set of panels it reaches."""
    panels = _panels_holding(kept)
    sets = {found for panel in panels if (found := _set_of(panel)) is not None}
    if not sets:
        return list(kept)
    inside = {element for found in sets for element in found.iter()}
    chosen = {id(b) for b in kept}
    chosen.update(id(b) for b in blocks
                  if b.text and b.element in inside and b.link_density <= max_link_density
                  and not names.is_boilerplate(b.element))
    return [b for b in blocks if id(b) in chosen]


def _is_panel(element: etree._Element) -> bool:
    return element.tag == "details" or element.get("role") in PANEL_ROLES


def _panels_holding(kept: Sequence[Block]) -> set[etree._Element]:
    """The panels that hold a kept block; each element is read once (blocks share ancestors)."""
    seen: set[etree._Element] = set()
    found: set[etree._Element] = set()
    for block in kept:
        node = block.element
        while node is not None and node not in seen:
            seen.add(node)
            if _is_panel(node):
                found.add(node)
            node = node.getparent()
    return found


def _set_of(panel: etree._Element) -> etree._Element | None:
    """The nearest element above ``panel`` that holds another panel, if near enough."""
    own = set(panel.iter())
    node = panel.getparent()
    for _ in range(GROUP_DEPTH):
        if node is None or node.tag == "body":
            return None
        if any(_is_panel(e) for e in node.iter() if e not in own):
            return node
        node = node.getparent()
    return None
