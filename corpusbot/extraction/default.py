"""The ``default`` mode: the best composition measured on both gold sets.

1. Candidates: the union of what jusText and Boilerpipe select; each misses
   text the other finds (jusText short paragraphs, Boilerpipe low-stop-word
   languages).
2. Drop candidates inside containers the page names as boilerplate
   (``corpusbot.extraction.containers``).
3. Keep the article region: the grandparent groups (Viveros-Jiménez et al.
   2018) holding at least ``MIN_GROUP_SHARE`` of the largest group's text —
   a soft form of the paper's single-group rule, because ads and wrappers
   split articles into sibling chunks — plus every candidate lying between
   the largest group's first and last block in document order, plus the
   smaller groups right next to that span that read like the article: both
   algorithms chose their text and their blocks are paragraph-long (the
   first or last sections of a long article, in sibling containers).
4. Recover the blocks neither algorithm chose that lie inside the region's
   span (first to last kept block) with few links and no boilerplate name:
   short paragraphs, list items and table cells of the article itself.
5. Drop the headline from the body: it is the extraction's ``title``.

Measured on ``scrapinghub`` / ``multilingual-dev`` (F1): union alone
0.881 / 0.891; + soft groups 0.930 / 0.902; + container names 0.946 / 0.900;
+ blocks between 0.951 / 0.910; + headline out 0.953 / 0.911; (after
hidden elements and headline fixes: 0.956 / 0.902) + recovery 0.960 / 0.904;
+ HTML5 and more names 0.967 / 0.916; + bio and sidebar names 0.969 / 0.916;
+ adjacent sections 0.969 / 0.920.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from corpusbot.extraction import boilerpipe, grandparent, justext, listing
from corpusbot.extraction.containers import ContainerNames
from corpusbot.extraction.context import PageBlocks
from corpusbot.html.blocks import Block, segment

MAX_RECOVERED_LINK_DENSITY = justext.MAX_LINK_DENSITY_DEFAULT
"""A block recovered inside the region may have jusText's share of link text at most."""

MIN_GROUP_SHARE = 0.2
"""A group is kept at this share of the largest group's characters; 0.15 and
0.1 trade scrapinghub precision for multilingual recall, 0.3 loses both."""

SHORT_PAGE_WORDS = 8
"""A page of at most this many visible words is kept whole (link-poor, unnamed
blocks); a sentence cut off at ten words is still a truncated page."""

# A listing region joins the kept text when its items hold LISTING_RATIO
# times the kept text and either LISTING_PAGE_SHARE of the page's text or
# LISTING_DOMINANT_RATIO times the kept text. Calibrated on wcxb-dev and
# scrapinghub together (ratio 1-5, share 0-0.7): a bare ratio of 2 gains
# 0.02 on wcxb-dev but takes the navigation, sliders and right rails of
# short news articles (scrapinghub -0.008); with the share, both gain.
LISTING_RATIO = 2.0
LISTING_PAGE_SHARE = 0.55
LISTING_DOMINANT_RATIO = 5.0

HOLDER_SHARE = 0.5
"""A named container holding this share of the candidates' text is not boilerplate."""

# An adjacent section joins the article when it starts or ends at most
# ADJACENT_GAP blocks from the article's span, both algorithms chose at least
# ADJACENT_MIN_AGREED of its text, and its blocks average ADJACENT_MIN_CHARS.
# Calibrated together: a gap of 4-6 or 80 characters gains more on
# multilingual-dev but takes author boxes and teasers on scrapinghub.
ADJACENT_GAP = 2
ADJACENT_MIN_AGREED = 0.8
ADJACENT_MIN_CHARS = 150


def select(page: PageBlocks) -> list[Block]:
    """The main-text blocks of the page, in document order.

    A page whose visible blocks give nothing is read again with the content
    it hides (``<noscript>``, ``hidden``: pages rendered by scripts give
    crawlers their text there), and a page of a few words keeps them.
    """
    kept = compose(page)
    if kept:
        return kept
    with_hidden = segment(page.root, skip_hidden=False)
    if len(with_hidden) > len(page.blocks):
        kept = compose(replace(page, blocks=with_hidden))
    return kept or short_page(page.blocks)


def compose(page: PageBlocks) -> list[Block]:
    """The composition of the algorithms over the page's blocks (steps 1-5 above)."""
    chosen, agreed = candidates_of(page)
    names = ContainerNames(exempt_holders(chosen, ContainerNames()))
    candidates = [b for b in chosen if not names.is_boilerplate(b.element)]
    kept = article_region(candidates, agreed)
    kept = recover_inside(page.blocks, kept, names)
    kept = with_listing(page.blocks, kept, names)
    return drop_headline(kept, page.title)


def with_listing(
    blocks: Sequence[Block], kept: Sequence[Block], names: ContainerNames
) -> list[Block]:
    """``kept``, plus a listing region that outweighs it (the constants above).

    A page whose main content is items (``corpusbot.extraction.listing``)
    gives the algorithms little; its repeated items then join the text.
    """
    kept_chars = grandparent.group_chars(kept)
    total = sum(b.chars for b in blocks)
    if LISTING_RATIO * kept_chars >= total:
        return list(kept)  # no region could outweigh the text already kept
    element, held = listing.region(blocks, names)
    if element is None or held < LISTING_RATIO * kept_chars:
        return list(kept)
    if held < LISTING_PAGE_SHARE * total and held < LISTING_DOMINANT_RATIO * kept_chars:
        return list(kept)
    chosen = {id(b) for b in kept} | {id(b) for b in listing.blocks_in(element, blocks, names)}
    return [b for b in blocks if id(b) in chosen]


def short_page(blocks: Sequence[Block]) -> list[Block]:
    """All link-poor, unnamed blocks of a page whose whole text is a few words.

    Both algorithms need paragraph-long text to call a block content; a
    page of ``SHORT_PAGE_WORDS`` words or fewer has nothing else to offer.
    """
    if sum(b.words for b in blocks) > SHORT_PAGE_WORDS:
        return []
    names = ContainerNames()
    return [b for b in blocks
            if b.link_density <= MAX_RECOVERED_LINK_DENSITY and not names.is_boilerplate(b.element)]


def candidates_of(page: PageBlocks) -> tuple[list[Block], set[int]]:
    """The blocks jusText or Boilerpipe selects, and the ids of those both select."""
    by_justext = {id(b) for b in justext.select(page.blocks, page.stoplist)}
    by_boilerpipe = {id(b) for b in boilerpipe.select(page.blocks, page.title)}
    chosen = by_justext | by_boilerpipe
    return [b for b in page.blocks if id(b) in chosen], by_justext & by_boilerpipe


def exempt_holders(chosen: Sequence[Block], names: ContainerNames) -> frozenset:
    """Boilerplate-named containers that hold most of the candidates' text.

    A forum thread inside ``div#comments``, its posts each in a
    ``div.comment``, an article inside ``div.share_wrapper`` or
    ``aside.blogPost``, a product's sections in ``details.disclosure``: a
    name on the containers of most of the good text is not boilerplate.
    Each removed candidate is charged to its outermost named container;
    the containers of one tag and name that together hold ``HOLDER_SHARE``
    of all candidate text are exempt from their name.
    """
    total = grandparent.group_chars(chosen)
    held: dict[tuple, int] = {}
    containers: dict[tuple, list] = {}
    for block in chosen:
        if names.is_boilerplate(block.element):
            container = names.container_of(block.element)
            if container is not None:
                key = (container.tag, container.get("class"), container.get("id"))
                held[key] = held.get(key, 0) + block.chars
                containers.setdefault(key, []).append(container)
    return frozenset(c for key, chars in held.items() if chars >= HOLDER_SHARE * total
                     for c in containers[key])


def article_region(
    candidates: Sequence[Block], agreed: set[int], n: int = grandparent.DEFAULT_N
) -> list[Block]:
    """Large-enough groups, what lies between the largest's ends, and adjacent sections."""
    found = grandparent.groups(candidates, n)
    if not found:
        return []
    sizes = {key: grandparent.group_chars(blocks) for key, blocks in found.items()}
    largest = max(sizes, key=sizes.__getitem__)
    floor = MIN_GROUP_SHARE * sizes[largest]
    kept = [blocks for key, blocks in found.items() if sizes[key] >= floor]
    first, last = found[largest][0].position, found[largest][-1].position
    kept.append([b for b in candidates if first <= b.position <= last])
    kept += adjacent_sections(found, first, last, agreed)
    ids = {id(b) for blocks in kept for b in blocks}
    return [b for b in candidates if id(b) in ids]


def adjacent_sections(
    found: dict[object, list[Block]], first: int, last: int, agreed: set[int]
) -> list[list[Block]]:
    """Groups that read like the article and touch its span, growing it outwards."""
    sections = [blocks for blocks in found.values() if _reads_like_article(blocks, agreed)]
    sections.sort(key=lambda blocks: blocks[0].position)
    joined: list[list[Block]] = []
    grown = True
    while grown:
        grown = False
        for blocks in sections:
            start, end = blocks[0].position, blocks[-1].position
            if blocks in joined or first <= start <= last:
                continue
            if 0 < start - last <= ADJACENT_GAP or 0 < first - end <= ADJACENT_GAP:
                joined.append(blocks)
                first, last = min(first, start), max(last, end)
                grown = True
    return joined


def _reads_like_article(blocks: list[Block], agreed: set[int]) -> bool:
    chars = grandparent.group_chars(blocks)
    agreed_chars = sum(b.chars for b in blocks if id(b) in agreed)
    return (
        chars >= ADJACENT_MIN_CHARS * len(blocks)
        and agreed_chars >= ADJACENT_MIN_AGREED * chars
    )


def recover_inside(
    blocks: Sequence[Block], kept: Sequence[Block], names: ContainerNames
) -> list[Block]:
    """``kept``, plus the link-poor, unnamed blocks between its first and last."""
    if not kept:
        return []
    chosen = {id(b) for b in kept}
    for block in blocks[kept[0].position : kept[-1].position + 1]:
        if (
            block.text
            and block.link_density <= MAX_RECOVERED_LINK_DENSITY
            and not names.is_boilerplate(block.element)
        ):
            chosen.add(id(block))
    return [b for b in blocks if id(b) in chosen]


def drop_headline(blocks: Sequence[Block], headline: str | None) -> list[Block]:
    """The blocks other than the headline, which the extraction returns as its title."""
    if not headline:
        return list(blocks)
    target = _normalised(headline)
    # the first letter tells most paragraphs apart without normalising them
    return [b for b in blocks
            if b.text.lstrip()[:1].lower()[:1] != target[:1] or _normalised(b.text) != target]


def _normalised(text: str) -> str:
    return " ".join(text.split()).lower()
