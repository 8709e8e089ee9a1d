"""Recovery inside the page's landmark: the ``<main>`` or ``<article>`` holding the kept text.

Documentation, product and service pages give much of their content in
short parts below the first paragraphs: definition lists of an API's
members, specification tables, steps, notes. jusText and Boilerpipe call
such short blocks boilerplate, and the article region ends where the last
long paragraph does. When every kept block lies inside one element the page
marks as its main content (the HTML5 landmarks ``<main>`` and
``<article>``, or ``role="main"``; else the deepest element holding all
the kept blocks, if that is not the whole body) and that element holds
much more link-poor, unnamed text than was kept, the region is a fragment
of the content and the rest of the landmark's text joins it.

On a news article the landmark adds little beyond the article itself (a
"related posts" heading, a subscription line), and that little is what the
region rightly left out: hence ``MIN_ADDED_SHARE``.
"""

from __future__ import annotations

from collections.abc import Sequence

from lxml import etree

from corpusbot.extraction.default.containers import ContainerNames
from corpusbot.html.blocks import Block

LANDMARK_TAGS = frozenset({"main", "article"})

MIN_ADDED_SHARE = 0.5
"""The landmark's text joins only when it adds this share of the kept text.
Calibrated on the three sets (0 to 1): 0 takes the trailing boilerplate of
news articles (scrapinghub 0.969 -> 0.960, multilingual-dev 0.921 -> 0.914);
0.3, 0.5, 0.7 and 1.0 leave scrapinghub unchanged and give wcxb-dev 0.834,
0.835, 0.834, 0.833 and multilingual-dev 0.923, 0.923, 0.922, 0.921.
With the common ancestor for pages without a landmark: wcxb-dev 0.837 ->
0.840 (product 0.634 -> 0.644, service 0.805 -> 0.817, documentation
0.911 -> 0.909), multilingual-dev 0.9229 -> 0.9236, scrapinghub unchanged.
Re-checked (session 15) on wcxb-dev's tuning folds alone (`benchmarks/folds.py tune`,
tuned-on / held-out): 0.3 0.8652 / 0.8689, 0.5 0.8666 / 0.8690, 0.7 0.8653 / 0.8687: 0.5."""


MAX_LINK_DENSITY = 0.3
"""The landmark's blocks join up to this share of link characters, above jusText's 0.2:
inside the content's own element, a documentation page's member signatures carry their
"[source]" and anchor links (0.2-0.3) and are content. Chosen on wcxb-dev's tuned-on
folds (0.2 -> 0.3: +0.75 pages, documentation and listings; 0.4 and 0.5 gain a little more
there but cost multilingual-dev 0.0005 and scrapinghub 0.0006); held out: -0.01 pages
(one documentation page 0.69 -> 0.64); scrapinghub and multilingual-dev unchanged."""


def landmark_of(kept: Sequence[Block]) -> etree._Element | None:
    """The innermost landmark that holds every kept block, else their deepest common ancestor.

    Many pages mark no landmark (a manual page, a shop's templates); the
    element holding all the kept text is then the page's own container.
    """
    if not kept:
        return None
    node: etree._Element | None = kept[0].element
    while node is not None:
        if node.tag in LANDMARK_TAGS or node.get("role") == "main":
            inside = set(node.iter())
            if all(b.element in inside for b in kept):
                return node
        node = node.getparent()
    return common_ancestor(kept)


def common_ancestor(kept: Sequence[Block]) -> etree._Element | None:
    """The deepest element holding every kept block, unless that is the whole body."""
    chain = [kept[0].element, *kept[0].element.iterancestors()]
    depth = {id(e): i for i, e in enumerate(chain)}
    lowest = 0
    for block in kept[1:]:
        node = block.element
        while id(node) not in depth:
            node = node.getparent()
        lowest = max(lowest, depth[id(node)])
    found = chain[lowest]
    return None if found.tag in ("body", "html") else found


def recover_in_landmark(
    blocks: Sequence[Block], kept: Sequence[Block], names: ContainerNames,
    max_link_density: float,
) -> list[Block]:
    """``kept``, plus the link-poor, unnamed blocks of its landmark when they are many."""
    landmark = landmark_of(kept)
    if landmark is None:
        return list(kept)
    inside = set(landmark.iter())
    chosen = {id(b) for b in kept}
    added = [b for b in blocks
             if b.text and id(b) not in chosen and b.element in inside
             and b.link_density <= max_link_density and not names.is_boilerplate(b.element)]
    if sum(b.chars for b in added) < MIN_ADDED_SHARE * sum(b.chars for b in kept):
        return list(kept)
    chosen |= {id(b) for b in added}
    return [b for b in blocks if id(b) in chosen]
