"""The article's lead: the paragraphs above its body, inside the article's own container.

News and magazine pages put a standfirst (``p.intro``, ``p.lead``, a
``div.article-intro``, a bold first paragraph) between the headline and
the body, in a different container than the body's paragraphs. The
grandparent groups (``corpusbot.extraction.grandparent``) then put it in a
small group of its own, next to the headline and the byline, below
``default.MIN_GROUP_SHARE`` of the body's group, and the article lost its
first paragraph. A candidate paragraph before the body that lies inside the
body's container, ``LEAD_LEVELS`` levels above its group, is the lead; the
short opening lines right above the body join it too (``with_opening_lines``).
"""

from __future__ import annotations

from collections.abc import Sequence

from lxml import etree

from corpusbot.extraction import grandparent
from corpusbot.html.blocks import Block

# A lead is a <p> of at least LEAD_MIN_CHARS characters, at most LEAD_MAX_LINK_DENSITY
# of them in links, inside the element LEAD_LEVELS levels above the body's group.
# Calibrated on the three sets together (F1 scrapinghub / multilingual-dev / wcxb-dev,
# before 0.9687 / 0.9215 / 0.8193): any block tag, 2 levels, 100 characters
# 0.9672 / 0.9294 / -, since scrapinghub's gold leaves out the key-point lists, quote
# boxes and <h3> decks above a body; <p> only, 2 levels: 100 characters
# 0.9683 / 0.9282, 150 characters 0.9685 / 0.9284 / 0.8204; 3 levels 0.9685 / 0.9284;
# 1 level (any tag) 0.9683 / 0.9276; only blocks both algorithms chose
# 0.9681 / 0.9257; paragraphs after the body too 0.9665 / 0.9272.
# Re-chosen (session 15) as issue 19's protocol asks, on wcxb-dev's tuning folds alone, the
# other sets only able to veto (`benchmarks/folds.py tune`, tuned-on / held-out /
# scrapinghub / multilingual-dev): levels 1 0.8665 / 0.8688 / 0.9700 / 0.9365, 2 0.8666 /
# 0.8690 / 0.9697 / 0.9383, 3 0.8667 / 0.8691 / 0.9697 / 0.9383, so 3 (after the product
# rules 3 again, 0.8688 / 0.8709, and 4 0.8688 / 0.8705 / 0.9698 / 0.9378); characters
# 100 0.8665 / 0.8691 / 0.9695 / 0.9383, 150 0.8666 / 0.8690 / 0.9697 / 0.9383, 200 the
# tuned-on best by a hair but multilingual-dev 0.9365, so 150 stays.
LEAD_LEVELS = 3
LEAD_MIN_CHARS = 150
LEAD_MAX_LINK_DENSITY = 0.2
"""jusText's bound on link text in a good paragraph (``MAX_LINK_DENSITY_DEFAULT``)."""
LEAD_TAG = "p"


def lead_blocks(candidates: Sequence[Block], body: list[Block]) -> list[Block]:
    """The candidates before ``body`` (the largest group) that read as its lead.

    Only a ``<p>``: the key-point lists, quote boxes and ``<h3>`` decks
    above a body summarise it, and gold sets that leave summaries out
    (scrapinghub) count them as boilerplate.
    """
    container = _container(body)
    if container.tag in ("body", "html"):
        return []  # the whole page is no article's container
    first = body[0].position
    return [
        b for b in candidates
        if b.position < first and _is_paragraph(b) and grandparent.is_inside(b.element, container)
    ]


def _container(body: list[Block]) -> etree._Element:
    key = grandparent.ancestor(grandparent.paragraph_of(body[0].element), grandparent.DEFAULT_N)
    return grandparent.ancestor(key, LEAD_LEVELS)


def _is_paragraph(block: Block) -> bool:
    return (
        grandparent.paragraph_of(block.element).tag == LEAD_TAG
        and block.chars >= LEAD_MIN_CHARS
        and block.link_density <= LEAD_MAX_LINK_DENSITY
    )


# The opening lines: a blog post's first paragraphs are often short lines ("But guess
# what?", "I'm still not zero waste."), in a text block of their own above the body's;
# the grandparent groups put them in a small group, under ``default.MIN_GROUP_SHARE``,
# and too short for the adjacent-sections rule, so the post lost its opening. The run
# of candidates right before the region's first block, without a block between, each a
# <p> that both algorithms chose and that ends a sentence (OPENING_ENDS), joins the
# region. Measured on the three sets (wcxb-dev pages of F1 gained, tuned-on folds 0-2 /
# held-out 3-4; scrapinghub; multilingual-dev, before 0.9697 / 0.9383): this rule +0.08
# / +0.02 (4 tuned-on pages gain, an affiliate notice costs one 0.01), 0.9697 / 0.9383;
# any block both chose +0.22 / +0.12, 0.9690 / 0.9384 (bylines, dates, decks, kickers);
# <p> only, inside the body's great-grandparent: nothing changes (the opening lines sit
# in a sibling text block several wrappers up).
OPENING_ENDS = frozenset(".!?:\u2026\u3002\uff01\uff1f")


def with_opening_lines(blocks: Sequence[Block], kept: Sequence[Block],
                       candidates: Sequence[Block], agreed: set[int]) -> list[Block]:
    """``kept`` (the region) and the opening lines right before its first block.

    ``blocks``: the page's; ``candidates``: those left after the container
    names; ``agreed``: ids of the blocks both algorithms chose.
    """
    if not kept:
        return list(kept)
    allowed = {id(b) for b in candidates if id(b) in agreed}
    run: list[Block] = []
    for block in reversed(blocks[: kept[0].position]):
        if not block.text.strip():
            continue  # an empty wrapper between two text blocks is no break
        if id(block) not in allowed or not _is_opening_line(block):
            break
        run.append(block)
    return [*run[::-1], *kept]


def _is_opening_line(block: Block) -> bool:
    return (grandparent.paragraph_of(block.element).tag == LEAD_TAG
            and block.text.rstrip()[-1:] in OPENING_ENDS)
