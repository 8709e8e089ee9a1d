"""Headings that are links: an article's section headings inside the region
(``with_linked_headings``), and the titles of a page's items between their kept lines
(``with_item_titles``).

Blog engines and documentation generators make every section heading a link to
itself (``<h2 id="setup"><a href="#setup">Setup</a></h2>``, the permalink a
reader copies), and buying guides make each item's heading a link to the
product it is about (``<h3><a href="https://shop.example/...">Klein Tools
MM400</a></h3>``). Such a heading is all link, so the recovery inside the
region (``default.recover_inside``) left it out as a menu entry would be, and
the article lost its headings while their sections stayed. A heading between
the region's first and last block (the region as the algorithms chose it,
``region``), in no boilerplate container, whose links all point into the page
(``#...``) or to another site (an absolute URL), and whose next text block the
region holds, is the heading of that block's section.

A heading linking to another page of the same site by a relative URL
(``/news/...``) is a teaser's title: the related stories placed inside an
article ("Related: <a>...</a>"). Measured on the three sets (wcxb-dev pages of
F1 gained, tuned-on folds 0-2 / held-out 3-4; scrapinghub; multilingual-dev,
before 0.9697 / 0.9383): any linked heading inside the recovered span +1.13 /
+0.70, 0.9700 / 0.9379; any, but only before a block of the region +0.16 /
+0.51, 0.9702 / 0.9378; in-page links only +0.10 / +0.07, 0.9697 / 0.9383;
in-page or absolute links (this rule) +0.10 / +0.50, 0.9699 / 0.9383. The step
runs after the landmark's recovery, whose share test (``landmarks.MIN_ADDED_SHARE``)
must not count the headings: run before it, a documentation page lost its
modules (0.24).
"""

from __future__ import annotations

from collections.abc import Sequence

from corpusbot.extraction.default.containers import ContainerNames
from corpusbot.html.blocks import Block

OWN_LINK_PREFIXES = ("#", "http:", "https:")
"""The links a section heading may carry: to itself in the page, or to another site."""

ITEM_PAGE_MEDIAN_WORDS = 12
"""``with_item_titles`` runs on a page whose kept blocks have at most this median length in
words: a grid of items (a brand, a price, a rating), not an article's paragraphs."""
TITLE_LINK_DENSITY = 0.5
"""An item's title is a link: at least this share of its characters are linked."""


def with_linked_headings(
    blocks: Sequence[Block], kept: Sequence[Block], region: set[int], names: ContainerNames
) -> list[Block]:
    """``kept`` and the linked headings inside the region that open one of its sections.

    ``blocks``: the page's; ``region``: ids of the blocks the article region
    chose, before any recovery.
    """
    chosen = {id(b) for b in kept}
    inside = [b for b in kept if id(b) in region]
    if not inside:
        return list(kept)
    end = inside[-1].position
    added = {
        id(block) for block in blocks[inside[0].position : end]
        if id(block) not in chosen and block.text and block.is_heading
        and _next_text_in(blocks, block.position, 1, region, end + 1)
        and links_stay_in_page_or_leave_site(block) and not names.is_boilerplate(block.element)
    }
    return _with_added(blocks, kept, chosen, added)


def _next_text_in(blocks: Sequence[Block], position: int, step: int, ids: set[int],
                  stop: int) -> bool:
    """Whether the nearest block with text from ``position`` in the direction ``step``,
    before index ``stop``, is one of ``ids``."""
    for index in range(position + step, stop, step):
        if blocks[index].text.strip():
            return id(blocks[index]) in ids
    return False


def _with_added(blocks: Sequence[Block], kept: Sequence[Block], chosen: set[int],
                added: set[int]) -> list[Block]:
    """``kept`` (ids ``chosen``) and the ``added`` blocks, in page order."""
    if not added:
        return list(kept)
    return [b for b in blocks if id(b) in chosen or id(b) in added]


def links_stay_in_page_or_leave_site(block: Block) -> bool:
    """Whether the block has links and each points into the page or to another site.

    The links are those inside the block's element and an ``<a>`` around it
    (a card's heading wrapped in its link).
    """
    element = block.element
    hrefs = [a.get("href") or "" for a in element.iter("a")]
    hrefs += [a.get("href") or "" for a in element.iterancestors("a")]
    return bool(hrefs) and all(h.strip().startswith(OWN_LINK_PREFIXES) for h in hrefs)


def with_item_titles(blocks: Sequence[Block], kept: Sequence[Block],
                     names: ContainerNames) -> list[Block]:
    """``kept`` and each linked heading whose text neighbours on both sides are kept,
    on a page of short kept lines (``ITEM_PAGE_MEDIAN_WORDS``).

    A shop's product card or a chart's row reads brand, title, price: the brand
    and the price are kept as text, while the title, a heading that is all link
    (to the item's page), was left out as a menu entry would be. Between two kept
    lines it is the item's title. On a page of paragraphs the same heading is a
    related story's teaser set between two paragraphs, so the rule reads only
    pages whose kept lines are short.

    wcxb-dev (pages of F1 gained, tuned-on folds 0-2 / held out 3-4): +1.01 /
    +0.15, 46 / 36 pages change (a pet shop's grid 0.25 -> 0.48, a film chart
    0.23 -> 0.44, a camera shop's category 0.60 -> 0.74; one shop's grid loses
    0.10, where the gold keeps some titles and not others); scrapinghub and
    multilingual-dev unchanged. Without the page test +1.04, but
    multilingual-dev 0.9410 -> 0.9399; with the item bounded to the few blocks
    of one card (3 to 20) or the titles limited to links into the page or off
    the site, 0.9404: a related story's title between its kept kicker and
    summary. The median bound: 8 words +0.88, 12 +1.01, 16 +1.01, 24 +1.01
    with multilingual-dev 0.9404 again; the smallest of the equal ones is
    taken. Linked lines that are not headings: -0.25.
    """
    if not _short_lines(kept, ITEM_PAGE_MEDIAN_WORDS):
        return list(kept)
    chosen = {id(b) for b in kept}
    added = {
        id(block) for block in blocks
        if id(block) not in chosen and block.is_heading and block.text.strip()
        and block.link_density >= TITLE_LINK_DENSITY
        and _kept_on_both_sides(blocks, block.position, chosen)
        and not names.is_boilerplate(block.element)
    }
    return _with_added(blocks, kept, chosen, added)


def _short_lines(kept: Sequence[Block], words: int) -> bool:
    """Whether the median of the kept blocks' lengths (the upper one of an even count) is at
    most ``words`` words: more than half of them are that short."""
    lengths = [len(b.text.split(None, words)) for b in kept if b.text.strip()]
    # split() stops after ``words`` cuts: an article's paragraphs are not split whole
    return bool(lengths) and sum(n <= words for n in lengths) > len(lengths) // 2


def _kept_on_both_sides(blocks: Sequence[Block], position: int, chosen: set[int]) -> bool:
    """Whether the nearest blocks with text before and after ``position`` are both kept."""
    return (_next_text_in(blocks, position, -1, chosen, -1)
            and _next_text_in(blocks, position, 1, chosen, len(blocks)))
