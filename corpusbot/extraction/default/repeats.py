"""Copies of the kept text: a page's second rendering of the same section.

Shops and site builders write a section twice or three times, once for
wide screens and once for phones (``hidden-up-md`` / ``hidden-down-md``,
one tree per breakpoint), or once in a tab and once in an accordion; a
stylesheet shows one copy, and a reader sees the text once. Every copy
passes the tests the first one does, so the composition kept the section
twice and halved the precision of a short product page.

A copy is a run of kept blocks that repeats, block for block, a run kept
earlier, and whose element is a twin of the earlier run's: the two
elements holding each run (their deepest common ancestor) hold the same
words, so neither holds the other. The twin test tells a copy from lines a
page repeats on purpose beside text that differs: a step's notes repeated in
each tab of a documentation page, a pricing table's shared features. A
repeat that fills an element of its own is still read as a copy (an API
reference's description shared by two parameters, a note boxed alike in
every tab). A run is at least ``MIN_RUN_BLOCKS`` blocks (for one block the
twin test says nothing) and ``MIN_RUN_CHARS`` characters ("Add to cart"
twice is no section). A quoted forum post repeats the post it quotes; WCXB's
gold has it once.

Measured on wcxb-dev's folds by domain, pages of F1 gained: +3.18 tuned-on
(article +1.19, product +0.84, forum +0.73, listing +0.31, documentation
-0.11), +1.64 held out; ``MIN_RUN_CHARS`` 0 / 50 / 100 / 200 / 400: +3.14 /
+3.18 / +2.97 / +2.39 / +2.24 tuned-on. Without the twin test (200
characters): +2.38 tuned-on, +2.11 held out, but 16 tuned-on pages lose, up
to 0.2 (documentation tabs, pricing tables, offer terms); only a copy right
after its original: +1.08 tuned-on (an article copied whole for each
breakpoint is not adjacent in parts).

A product page repeats lines (``without_repeated_lines``): a label under
each variant, photo or compared item ("Dimensions (L x W x D)" once per kit
in a comparison table, "Add to cart", a colour's name, the same price), a
spec's name in the summary and again in the table. A reader reads such a
line once; WCXB's gold has it once, and FineWeb's duplicated-line rule drops
a page whose repeated lines pass 1 % of its characters. On a page that
declares itself a product (``corpusbot.html.kinds``) every line after its
first copy leaves. Measured on the tuning folds, pages of F1 gained: +0.98,
about 50 pages change (product +0.76, collection +0.19, article +0.01,
service +0.01; lines compared as they are: with case and spacing folded,
5 pages differ and the sum is the same to 0.01); a line of at least 10 / 20
characters only: +0.92 / +0.54; held out +0.20. Cost: 0.06 ms a page when
every line was normalised, a set of the lines' texts now. On every
page, not only products: -1.02 (articles -1.26 and documentation -0.86: a
heading each section repeats, a code line); lines of at most 20 characters
only: -0.50. Scrapinghub and multilingual-dev unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence

from lxml import etree

from corpusbot.extraction.context import PageBlocks
from corpusbot.extraction.default.landmarks import common_ancestor
from corpusbot.html import kinds
from corpusbot.html.blocks import Block

MIN_RUN_BLOCKS = 2
MIN_RUN_CHARS = 50


def without_copies(kept: Sequence[Block]) -> list[Block]:
    """``kept`` without the runs of blocks that copy an earlier run of it."""
    texts = [b.text for b in kept]
    first_seen: dict[str, int] = {}
    out: list[Block] = []
    i = 0
    while i < len(kept):
        earlier = first_seen.get(texts[i])
        if earlier is not None:
            length = _run_length(texts, earlier, i)
            if _is_copy(kept[earlier : earlier + length], kept[i : i + length]):
                i += length
                continue
        first_seen.setdefault(texts[i], i)
        out.append(kept[i])
        i += 1
    return out


def _run_length(texts: Sequence[str], earlier: int, start: int) -> int:
    """How many texts from ``start`` on repeat those from ``earlier`` on, not overlapping."""
    length = 0
    while (start + length < len(texts) and earlier + length < start
           and texts[start + length] == texts[earlier + length]):
        length += 1
    return length


def _is_copy(first: Sequence[Block], second: Sequence[Block]) -> bool:
    """Whether ``second`` is a section's worth of text in a twin of ``first``'s element."""
    if len(second) < MIN_RUN_BLOCKS or sum(b.chars for b in second) < MIN_RUN_CHARS:
        return False
    one, other = common_ancestor(first), common_ancestor(second)
    if one is None or other is None or one is other:
        return False
    return _words(one) == _words(other)


def _words(element: etree._Element) -> list[str]:
    # lxml's text serialisation is C; joining itertext() in Python cost twice as much
    return etree.tostring(element, method="text", encoding="unicode", with_tail=False).split()


def without_repeated_lines(page: PageBlocks, kept: Sequence[Block]) -> list[Block]:
    """``kept`` without the lines it repeats, when the page declares itself a product (and
    not an article)."""
    texts = {b.text for b in kept}
    if len(texts) == len(kept):
        return list(kept)  # most pages: nothing repeats, and the markup need not be read
    # the microdata needs a walk of the tree: read only on a page with a repeated line
    if page.article or not (page.product or kinds.has_product_microdata(page.root)):
        return list(kept)
    seen: set[str] = set()
    out: list[Block] = []
    for block in kept:
        if block.text not in seen:
            seen.add(block.text)
            out.append(block)
    return out
