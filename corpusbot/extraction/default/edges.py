"""The region's edges: the article's short first and last paragraphs.

The ``default`` composition recovers the short, link-poor blocks between
the first and the last kept block (``default.recover_inside``). An
article's first or last paragraphs are often just as short (an address, a
closing line, the last steps of a recipe) and lie just outside that span,
beside the kept paragraphs in the same container. The span grows over the
blocks next to it whose paragraph has the same parent as the paragraph of
the kept block at that end: the article's own siblings, not the related
links or share boxes that follow it in containers of their own. At the end
it stops at a heading: a heading after the body opens another section
("More from the paper" and its sign-up line), not the article's last line.

Measured (F1 scrapinghub / multilingual-dev / wcxb-dev): 0.9685 / 0.9320 /
0.8207 before, 0.9695 / 0.9326 / 0.8218 after, every wcxb page type the
same or higher. The wider choice, every block inside the lowest common
ancestor of the span's ends, took the headings of the related-link boxes
inside an article's container ("Auch interessant"): 0.9667 / 0.9162.
With the landmark step of ``corpusbot.extraction.default.landmarks`` beside it,
stopping at a trailing heading: 0.9695 / 0.9346 / 0.8410 without the stop,
0.9695 / 0.9354 / 0.8408 with it (wcxb page types within 0.002).
"""

from __future__ import annotations

from collections.abc import Sequence

from lxml import etree

from corpusbot.extraction import grandparent
from corpusbot.html.blocks import Block


def sibling_span(blocks: Sequence[Block], kept: Sequence[Block]) -> tuple[int, int]:
    """The kept span, grown at each end over the blocks in that end's container."""
    first, last = kept[0].position, kept[-1].position
    head, tail = _container(kept[0]), _container(kept[-1])
    while first > 0 and _container(blocks[first - 1]) is head:
        first -= 1
    while (last + 1 < len(blocks) and _container(blocks[last + 1]) is tail
           and not blocks[last + 1].is_heading):
        last += 1
    return first, last


def _container(block: Block) -> etree._Element | None:
    return grandparent.paragraph_of(block.element).getparent()
