"""The article's lead: the paragraphs above its body, inside the article's own container.

News and magazine pages put a standfirst (``p.intro``, ``p.lead``, a
``div.article-intro``, a bold first paragraph) between the headline and
the body, in a different container than the body's paragraphs. The
grandparent groups (``corpusbot.extraction.grandparent``) then put it in a
small group of its own, next to the headline and the byline, below
``default.MIN_GROUP_SHARE`` of the body's group, and the article lost its
first paragraph. A candidate paragraph before the body that lies inside the
body's container, ``LEAD_LEVELS`` levels above its group, is the lead.
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
LEAD_LEVELS = 2
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
