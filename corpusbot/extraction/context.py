"""What every extraction mode reads about one page."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from lxml import etree

from corpusbot.html.blocks import Block


@dataclass(slots=True, frozen=True)
class PageBlocks:
    """The parsed tree, its blocks, the page language's stop words and titles; ``product``
    when the head declares a product page, ``article`` when it declares an article
    (``corpusbot.html.kinds``)."""

    root: etree._Element
    blocks: list[Block]
    stoplist: Collection[str]
    title: str | None = None
    og_title: str | None = None
    product: bool = False
    article: bool = False
