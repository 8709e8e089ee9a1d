"""The grandparent filter: keep the one DOM region that holds most of the text.

Viveros-Jiménez, Sanchez-Perez, Gelbukh, Sidorov et al., "Improving the
Boilerpipe Algorithm for Boilerplate Removal in News Articles Using HTML Tree
Structure" (Computación y Sistemas, 2018). Each text Boilerpipe selected is
mapped to its *paragraph*, the innermost ancestor-or-self among
``PARAGRAPH_TAGS``; paragraphs are grouped by their n-th ancestor (n = 2, the
*grandparent*, measured best among n = 1 … 5); only the group with the most
text survives. News pages scatter boilerplate (related links, teasers) in
other subtrees than the article, so one group cuts most of it.
"""

from __future__ import annotations

from collections.abc import Iterable

from lxml import etree

from corpusbot.html.blocks import Block

DEFAULT_N = 2
"""Ancestor level that groups paragraphs: the paper's best, the grandparent."""

PARAGRAPH_TAGS = frozenset({
    "div", "table", "ul", "ol", "p", "section", "article",
    "h1", "h2", "h3", "h4", "h5", "h6", "header", "body",
})
"""Elements that count as a paragraph in the paper."""


def paragraph_of(element: etree._Element) -> etree._Element:
    """The innermost ancestor-or-self of ``element`` among ``PARAGRAPH_TAGS``.

    A block outside every such element (text straight under ``<html>``)
    is its own paragraph's root: the topmost ancestor.
    """
    node = element
    while True:
        if node.tag in PARAGRAPH_TAGS:
            return node
        parent = node.getparent()
        if parent is None:
            return node
        node = parent


def is_inside(element: etree._Element, container: etree._Element) -> bool:
    """Whether ``element`` is ``container`` or lies inside it."""
    return element is container or any(a is container for a in element.iterancestors())


def ancestor(element: etree._Element, n: int) -> etree._Element:
    """The n-th ancestor of ``element`` (n = 0 is itself); climbing stops at the root."""
    for _ in range(n):
        parent = element.getparent()
        if parent is None:
            break
        element = parent
    return element


def groups(blocks: Iterable[Block], n: int = DEFAULT_N) -> dict[etree._Element, list[Block]]:
    """Blocks grouped by the n-th ancestor of their paragraph, in first-seen order."""
    found: dict[etree._Element, list[Block]] = {}
    for block in blocks:
        if block.text.strip():
            key = ancestor(paragraph_of(block.element), n)
            found.setdefault(key, []).append(block)
    return found


def group_chars(blocks: Iterable[Block]) -> int:
    """The text of a group, in characters (the paper's measure of size)."""
    return sum(block.chars for block in blocks)


def filter_blocks(blocks: Iterable[Block], n: int = DEFAULT_N) -> list[Block]:
    """Keep only the group with the most text; the paper's strict rule.

    On a tie the group seen first in document order wins: the article
    usually comes before the boilerplate that copies its size. The kept
    blocks stay in their input order.
    """
    found = groups(blocks, n)
    if not found:
        return []
    # max() returns the first maximal item, i.e. the earliest group
    return max(found.values(), key=group_chars)
