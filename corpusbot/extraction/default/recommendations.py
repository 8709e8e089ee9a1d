"""Sections whose heading offers other items: recommendations, not the page's text.

Shops and blogs close a page with carousels of other products and posts
under a heading that says what they are ("Similar items", "Customers also
viewed", "You may also like", "Related posts"). Where the page names the
carousel's container (``related``, ``recommend``), the container names drop
it (``corpusbot.extraction.default.containers``); shops whose class names are
generated ("x7Qa") only say it in the heading, and the cards, each a title
and a price, became a listing region beside, or instead of, a product's own
lines. A section opened by such a heading is the largest element whose text
begins with the heading's, and it stops below any element holding the text
both algorithms agreed on (a heading met before the article, in a column
placed first, would otherwise take the article with it).

Measured on wcxb-dev's folds by domain (pages of F1 gained against the
composition before): tuned-on folds +0.88 (25 pages change, one loses 0.002;
two products whose carousels had been kept instead of the item gain 0.44 and
0.25), held out -0.01. A wider list that also took short headings beginning
with "Related", "Similar", "Recommended", "Trending", "Popular", "Recently
viewed" or "More like this" gained +0.77 tuned-on (a product's "Recommended"
section was its own accessories), so it is not taken. Without the stop at
the agreed text: tuned-on -0.63, held out -1.67 (forum threads whose hidden
"Recommended posts" box came first in the thread's container).

The same headings in German, French, Spanish, Portuguese, Italian, Dutch,
Polish and Russian (session 16: written from those languages' usage, then
measured once): multilingual-dev 0.9388 -> 0.9399 (three German pages change:
two leaked snippets of "read also" teasers leave), scrapinghub 0.9703 and
wcxb-dev unchanged. Reading
such a phrase also as a line of any tag, not only a heading, was measured
and not taken: multilingual-dev no further change, scrapinghub and wcxb-dev
-0.0001 each.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lxml import etree

from corpusbot.html.blocks import Block

HEADING_TAGS = ("h2", "h3", "h4", "h5", "h6")
HEADING_PATHS = tuple(f".{tag}" for tag in HEADING_TAGS)
HEADING_MAX_CHARS = 60
"""A heading is a line; a long one that happens to say "related" is a title."""

# The phrases read lower-cased, whitespace-collapsed heading text.
_ENGLISH = (
    r"(?:similar|related|recommended|sponsored|more) (?:items|products|posts|articles|stories)"
    r"|(?:you|customers|people|shoppers)(?: who)?(?: \w+)? (?:may|might|also) (?:also )?"
    r"(?:like|love|enjoy|viewed|bought|purchased)"
    r"|also (?:viewed|bought|purchased)|recommended for you|frequently bought together"
)
# The same offers in the other languages of the stop-word lists most pages are in, as
# news sites and shops write them ("you might also like", "read also", "related
# articles", "most read"); written from the languages' usage, not from any page.
_OTHER_LANGUAGES = (
    # German
    r"das könnte (?:sie|dich) (?:auch )?interessieren|(?:ähnliche|verwandte|weitere) "
    r"(?:artikel|beiträge|produkte|nachrichten)|lesen sie auch|meistgelesen|meist gelesen"
    r"|kunden kauften auch|mehr zum thema"
    # French
    r"|articles? (?:similaires|liés|connexes|recommandés)|(?:à )?lire aussi"
    r"|vous aimerez aussi|vous aimerez peut-être|sur le même sujet|les plus lus"
    # Spanish, Portuguese, Italian
    r"|(?:artículos|noticias|productos) relacionad[oa]s|te puede interesar|lo más leído"
    r"|(?:artigos|notícias|produtos) relacionad[oa]s|leia também|mais lidas"
    r"|(?:articoli|prodotti) correlati|potrebbe interessarti|leggi anche|i più letti"
    # Dutch, Polish, Russian
    r"|gerelateerde (?:artikelen|berichten|producten)|lees ook|meest gelezen"
    r"|(?:podobne|powiązane) (?:artykuły|produkty)|czytaj (?:też|także|również)"
    r"|zobacz (?:też|także)"
    r"|читайте также|похожие (?:статьи|новости|товары)|смотрите также"
)
RECOMMENDATION_HEADINGS = re.compile(f"{_ENGLISH}|{_OTHER_LANGUAGES}")


def without_recommendations(
    blocks: Sequence[Block], kept: Sequence[Block], chosen: Sequence[Block], agreed: set[int],
) -> list[Block]:
    """``kept`` without the blocks of the sections a recommendations heading opens.

    ``blocks``: the page's; ``chosen``: the candidates, of which those both
    algorithms agreed on (``agreed``, ids) hold text no section holds.
    """
    found = sections(blocks, chosen, agreed)
    if not found:
        return list(kept)
    return [b for b in kept if b.element is None or not _inside(b.element, found)]


def sections(
    blocks: Sequence[Block], chosen: Sequence[Block], agreed: set[int],
) -> frozenset[etree._Element]:
    """The sections opened by a heading that names recommendations, none holding the
    candidates both algorithms agreed on.

    The headings are read from the blocks (a hidden one is none): a walk of
    the tree for its heading elements cost 2 % of ``default``'s time.
    """
    found = set()
    holding: set[etree._Element] | None = None
    for block in blocks:
        if (not block.dom_path.endswith(HEADING_PATHS) or len(block.text) > HEADING_MAX_CHARS
                or RECOMMENDATION_HEADINGS.search(block.text.lower()) is None):
            continue
        heading = _heading_of(block)
        if heading is None:
            continue
        if holding is None:  # read once, and only on a page with such a heading
            holding = {a for b in chosen if id(b) in agreed and b.element is not None
                       for a in b.element.iterancestors()}
        if heading not in holding:
            found.add(_opened_by(heading, holding))
    return frozenset(found)


def _heading_of(block: Block) -> etree._Element | None:
    """The heading element a block's text opened in (its element or an inline one's parent)."""
    node = block.element
    while node is not None and node.tag not in HEADING_TAGS:
        node = node.getparent()
    return node


def _opened_by(heading: etree._Element, holding: set[etree._Element]) -> etree._Element:
    """The largest element whose text begins with ``heading``'s, holding none of ``holding``."""
    node = heading
    parent = node.getparent()
    while parent is not None and parent.tag != "body" and parent not in holding:
        if (parent.text or "").strip() or any(
                (sibling.tail or "").strip() or (
                    isinstance(sibling.tag, str) and "".join(sibling.itertext()).strip())
                for sibling in node.itersiblings(preceding=True)):
            break
        node, parent = parent, parent.getparent()
    return node


def _inside(element: etree._Element, found: frozenset[etree._Element]) -> bool:
    return element in found or any(a in found for a in element.iterancestors())
