"""The headline anchors the main text: a side box kept instead of a short post gives way.

Both algorithms need paragraph-long text to call a block content. On a page
whose main text is short — a blog post of two lines under its title, a
report's table of contents (all links), an event notice of one sentence —
they choose the longest prose elsewhere instead: the sidebar's "About me"
box, the footer's "About us" paragraph, the breadcrumb (issue 19, classes
b, c, d). The page's headline (``PageBlocks.title``, found again as a
heading among the blocks) says where the main text is: in the container the
headline opens (else the page's one ``<h1>``). When everything kept is a
small box outside that container, and that box sits where pages put their
frame — before the headline and short (a breadcrumb, a left menu), in a
page-frame element (``<footer>``, ``<aside>``, ``<nav>``, ``<header>``) or a
container named boilerplate (``sidebar``, ``footer``), or, opening with a
heading of its own, in a column of headed link lists (a blog's sidebar of
widgets) — the learned labelling (``web2text``) of the headline's container
after the headline replaces it. When all that is kept lies in the headline's container but
is a few words (a date line and a heading above a table of contents), that labelling of the
container joins it.

Never keyed on a site: the rule reads the tree's shape and the headline.
"""

from __future__ import annotations

from collections.abc import Sequence

from lxml import etree

from corpusbot.extraction.context import PageBlocks
from corpusbot.extraction.default.containers import ContainerNames, in_page_frame
from corpusbot.extraction.grandparent import is_inside
from corpusbot.extraction.web2text import model as web2text
from corpusbot.html.blocks import Block

SIDE_BOX_BLOCKS = 4
"""A side box: a heading and a paragraph or two (the blocks kept)."""
SIDEBAR_MIN_BOXES = 2
"""Headed boxes besides the kept one that make a column a sidebar of widgets."""
LINK_RICH_DENSITY = 0.5
"""A block this much inside links is a link of a list (a blogroll, an archive)."""
BEFORE_MAX_WORDS = 30
"""Kept text above the headline this short is its frame (a breadcrumb is 5-15 words)."""
SCRAPS_MAX_WORDS = 15
"""Kept text of the headline's own container this short is scraps (a date line, a heading):
the container's learned content joins it. No gold page changes at 15 or 30 words; a report's
table of contents whose footer no longer counts as the text's holder needs it."""


def instead_of_side_box(
    page: PageBlocks, kept: Sequence[Block], model: web2text.Model | None = None
) -> list[Block]:
    """``kept``, or the headline's own content when ``kept`` is a side box beside it
    (``model``: the learned labelling's, else the shipped one)."""
    if not kept or len(kept) > SIDE_BOX_BLOCKS:
        return list(kept)
    at = _headline_index(page)
    if at is None or at + 1 >= len(page.blocks):
        return list(kept)
    headline = page.blocks[at]
    container = _common_ancestor(headline.element, page.blocks[at + 1].element)
    if all(is_inside(b.element, container) for b in kept):
        return _with_learned_content(page, kept, headline, container, model)
    if any(is_inside(b.element, container) for b in kept) or not _is_page_frame(
            page, headline, kept):
        return list(kept)
    return _learned_content(page, headline, container, model) or list(kept)


def _with_learned_content(page: PageBlocks, kept: Sequence[Block], headline: Block,
                          container: etree._Element,
                          model: web2text.Model | None) -> list[Block]:
    """``kept``, and when it is only scraps of the headline's own container (a date line,
    a heading) the container's learned content with it."""
    if sum(b.words for b in kept) >= SCRAPS_MAX_WORDS:
        return list(kept)
    chosen = {id(b) for b in kept}
    chosen.update(id(b) for b in _learned_content(page, headline, container, model))
    return [b for b in page.blocks if id(b) in chosen]


def _learned_content(page: PageBlocks, headline: Block, container: etree._Element,
                     model: web2text.Model | None) -> list[Block]:
    names = ContainerNames()
    return [b for b in web2text.select(page, model)
            if b.position > headline.position and is_inside(b.element, container)
            and not names.is_boilerplate(b.element)]


def _headline_index(page: PageBlocks) -> int | None:
    """The index of the first heading block that reads as the page's headline, else of
    the page's one ``<h1>`` (the headline found may be the site's name)."""
    target = normalised(page.title or "")
    h1s = []
    for index, block in enumerate(page.blocks):
        if block.is_heading and normalised(block.text) == target:
            return index
        if block.element.tag == "h1":
            h1s.append(index)
    return h1s[0] if len(h1s) == 1 else None


def _is_page_frame(page: PageBlocks, headline: Block, kept: Sequence[Block]) -> bool:
    """Whether ``kept`` sits where pages put their frame, not their content."""
    if all(b.position < headline.position for b in kept):
        # a breadcrumb, a left menu's heading; not an article above a repeated title
        return sum(b.words for b in kept) <= BEFORE_MAX_WORDS
    first = kept[0].element
    if in_page_frame(first):
        return True
    if ContainerNames().is_boilerplate(first):
        return True  # a named sidebar or footer that the composition exempted
    if not _opens_with_heading(page.blocks, kept[0], headline):
        return False  # a box opens with its own heading; a short article body does not
    column = _child_towards(_common_ancestor(headline.element, first), first)
    return column is not None and _is_widget_column(page.blocks, column, kept)


def _opens_with_heading(blocks: Sequence[Block], first: Block, headline: Block) -> bool:
    """Whether ``first`` is a heading or follows one that comes after the headline (the
    composition may drop a box's heading and keep its paragraph)."""
    if first.is_heading:
        return True
    before = blocks[first.position - 1] if 0 < first.position <= len(blocks) else None
    return before is not None and before.is_heading and before.position > headline.position


def _is_widget_column(
    blocks: Sequence[Block], column: etree._Element, kept: Sequence[Block]
) -> bool:
    """A column of headed boxes that are mostly lists of links, beside the kept box."""
    chosen = {id(b) for b in kept}
    inside = [b for b in blocks if id(b) not in chosen and is_inside(b.element, column)]
    headings = sum(b.is_heading for b in inside)
    links = sum(b.link_density >= LINK_RICH_DENSITY for b in inside)
    return headings >= SIDEBAR_MIN_BOXES and 2 * links >= len(inside) - headings > 0


def _common_ancestor(one: etree._Element, other: etree._Element) -> etree._Element:
    """The innermost element holding both (either may hold the other)."""
    mine = {one, *one.iterancestors()}  # lxml keeps one proxy per node while it lives
    for element in (other, *other.iterancestors()):
        if element in mine:
            return element
    return other.getroottree().getroot()


def _child_towards(ancestor: etree._Element, element: etree._Element) -> etree._Element | None:
    """The child of ``ancestor`` on the way down to ``element``."""
    for node in (element, *element.iterancestors()):
        if node.getparent() is ancestor:
            return node
    return None


def normalised(text: str) -> str:
    """``text`` as headlines are compared: words joined by one space, lower-cased."""
    return " ".join(text.split()).lower()
