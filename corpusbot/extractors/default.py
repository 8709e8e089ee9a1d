"""The ``default`` mode: the best composition measured on both gold sets."""

from __future__ import annotations

from corpusbot.blocks import Block
from corpusbot.extractors import justext
from corpusbot.extractors.context import PageBlocks


def select(page: PageBlocks) -> list[Block]:
    """First version: jusText alone; the composition is tuned next."""
    return justext.select(page.blocks, page.stoplist)
