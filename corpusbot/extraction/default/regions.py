"""Regions the article rules miss: the page's own container, and listings.

Two steps of the ``default`` composition for pages that are not one
article (``corpusbot.extraction.default.composition``): a page whose candidates are
spread over many small sections gets the container that holds most of
them, and a page whose content is a list of items gets its listing region
(``corpusbot.extraction.default.listing``) when that outweighs what was kept.
"""

from __future__ import annotations

from collections.abc import Sequence

from lxml import etree

from corpusbot.extraction import grandparent
from corpusbot.extraction.default import listing
from corpusbot.extraction.default.containers import ContainerNames
from corpusbot.html.blocks import Block

# A listing region joins the kept text when its items hold LISTING_RATIO
# times the kept text and either LISTING_PAGE_SHARE of the page's text or
# LISTING_DOMINANT_RATIO times the kept text. Calibrated on wcxb-dev and
# scrapinghub together (ratio 1-5, share 0-0.7): a bare ratio of 2 gains
# 0.02 on wcxb-dev but takes the navigation, sliders and right rails of
# short news articles (scrapinghub -0.008); with the share, both gain.
LISTING_RATIO = 2.0
LISTING_PAGE_SHARE = 0.55
LISTING_DOMINANT_RATIO = 5.0
LISTING_MAX_KEPT = 3000
"""Above this many kept characters the page is an article and no region is
searched: on wcxb-dev this costs 0.0004 F1 and skips the search on 70 % of
the pages (55 % on scrapinghub, where nothing changes)."""

# The page's own container joins when the region holds under
# WEAK_REGION_SHARE of the candidates' text; it is the deepest element
# holding CONTAINER_SHARE of it. Calibrated on the three sets: 0.5 gains
# 0.0015 on wcxb-dev but takes right rails of two scrapinghub articles;
# 0.35 gains 0.001 there (documentation 0.881 -> 0.887) and loses nowhere.
CONTAINER_SHARE = 0.8
WEAK_REGION_SHARE = 0.35


def with_main_container(candidates: Sequence[Block], kept: Sequence[Block]) -> list[Block]:
    """``kept``, plus the candidates of the deepest element holding most candidate text.

    Landing pages, documentation and product pages spread their text over
    many short sections several levels deep, which the grandparent groups
    split into small groups: the region then keeps under ``WEAK_REGION_SHARE``
    of the candidates' text. The deepest element holding
    ``CONTAINER_SHARE`` of that text is the page's own container, and its
    candidates join.
    """
    total = grandparent.group_chars(candidates)
    if grandparent.group_chars(kept) >= WEAK_REGION_SHARE * total:
        return list(kept)
    chars = listing.text_by_element(candidates)
    container = _deepest_holding(chars, total * CONTAINER_SHARE)
    if container is None:
        return list(kept)
    chosen = {id(b) for b in kept}
    chosen |= {id(b) for b in candidates if grandparent.is_inside(b.element, container)}
    return [b for b in candidates if id(b) in chosen]


def _deepest_holding(chars: dict[etree._Element, int], floor: float) -> etree._Element | None:
    """The element with at least ``floor`` characters that has the most ancestors."""
    best, best_depth = None, -1
    for element, held in chars.items():
        if held >= floor:
            depth = sum(1 for _ in element.iterancestors())
            if depth > best_depth:
                best, best_depth = element, depth
    return best


def with_listing(
    blocks: Sequence[Block], kept: Sequence[Block], names: ContainerNames
) -> list[Block]:
    """``kept``, plus the listing regions that together outweigh it (the constants above).

    A page whose main content is items (``corpusbot.extraction.default.listing``)
    gives the algorithms little; its repeated items then join the text. A
    section front's items sit in several sibling lists (``listing.all_regions``):
    the largest weighs its text, the others the text they add to ``kept``.
    Measured against the largest region alone (wcxb-dev, pages of F1 gained):
    tuned-on folds +1.66, held out +2.02 (14 pages change, 12 gain; a news
    section 0.24 -> 0.93, a thread whose changelog list joined 0.29 -> 0.62);
    scrapinghub and multilingual-dev unchanged. The others weighing all their
    text cost multilingual-dev 0.0005: a short article in repeated chunks is a
    region too, and it helped a grid of teasers over the bounds.
    """
    kept_chars = grandparent.group_chars(kept)
    if kept_chars >= LISTING_MAX_KEPT:
        return list(kept)
    total = sum(b.chars for b in blocks)
    if LISTING_RATIO * kept_chars >= total:
        return list(kept)  # no region could outweigh the text already kept
    found = listing.all_regions(blocks, names)
    if not found:
        return list(kept)
    chosen = {id(b) for b in kept}
    joining = [listing.blocks_in(element, blocks, names) for element, _ in found]
    # the other regions weigh only the text they add: an article split into repeated
    # chunks is a region too, and its text is already kept
    held = found[0][1] + sum(b.chars for inside in joining[1:] for b in inside
                             if id(b) not in chosen)
    if held < LISTING_RATIO * kept_chars:
        return list(kept)
    if held < LISTING_PAGE_SHARE * total and held < LISTING_DOMINANT_RATIO * kept_chars:
        return list(kept)
    for inside in joining:
        chosen.update(id(b) for b in inside)
    return [b for b in blocks if id(b) in chosen]
