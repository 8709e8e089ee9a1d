"""Named compositions of the extraction algorithms over one page's blocks.

``justext``, ``boilerpipe`` and ``precise`` are the published methods;
``default`` is the best composition measured on both gold sets.
"""

from __future__ import annotations

from collections.abc import Callable

from corpusbot.extraction import boilerpipe, default, grandparent, justext
from corpusbot.extraction.context import PageBlocks
from corpusbot.html.blocks import Block


def run_justext(page: PageBlocks) -> list[Block]:
    return justext.select(page.blocks, page.stoplist)


def run_boilerpipe(page: PageBlocks) -> list[Block]:
    return boilerpipe.select(page.blocks, page.title)


def run_precise(page: PageBlocks) -> list[Block]:
    """Boilerpipe, then the strict grandparent filter (Viveros-Jiménez et al. 2018)."""
    return grandparent.filter_blocks(run_boilerpipe(page), n=grandparent.DEFAULT_N)


def run_default(page: PageBlocks) -> list[Block]:
    """The best measured composition (see ``corpusbot.extraction.default``)."""
    return default.select(page)


MODES: dict[str, Callable[[PageBlocks], list[Block]]] = {
    "default": run_default,
    "justext": run_justext,
    "boilerpipe": run_boilerpipe,
    "precise": run_precise,
}

CLEANED_MODES = frozenset({"default"})
"""Modes whose text loses soft hyphens and zero-width characters; the published
algorithms keep their text as the pages give it."""
