"""Named compositions of the extraction algorithms over one page's blocks.

``justext``, ``boilerpipe`` and ``precise`` are the published methods;
``web2text`` the learned method of Vogels et al. (2018) trained on WCXB;
``default`` is the best composition measured on both gold sets.
"""

from __future__ import annotations

from collections.abc import Callable

from corpusbot.extraction import grandparent, justext
from corpusbot.extraction.boilerpipe import article as boilerpipe
from corpusbot.extraction.context import PageBlocks
from corpusbot.extraction.default import composition as default
from corpusbot.extraction.web2text import model as web2text
from corpusbot.html.blocks import Block

# Every mode returns the headline as the extraction's title, not also as the
# first paragraph: it is dropped after the published selection, which stays as is.


def run_justext(page: PageBlocks) -> list[Block]:
    return default.drop_headline(justext.select(page.blocks, page.stoplist), page.title)


def run_boilerpipe(page: PageBlocks) -> list[Block]:
    return default.drop_headline(boilerpipe.select(page.blocks, page.title), page.title)


def run_precise(page: PageBlocks) -> list[Block]:
    """Boilerpipe, then the strict grandparent filter (Viveros-Jiménez et al. 2018)."""
    selected = grandparent.filter_blocks(boilerpipe.select(page.blocks, page.title),
                                         n=grandparent.DEFAULT_N)
    return default.drop_headline(selected, page.title)


def run_default(page: PageBlocks, model: web2text.Model | None = None) -> list[Block]:
    """The best measured composition (see ``corpusbot.extraction.default.composition``).

    ``model``: the learned labelling some of its steps consult, else the shipped one.
    """
    return default.select(page, model)


def run_web2text(page: PageBlocks, model: web2text.Model | None = None) -> list[Block]:
    """Learned block scores and Viterbi decoding (Vogels, Ganea, Eickhoff 2018).

    ``model``: else the shipped one.
    """
    return default.drop_headline(web2text.select(page, model), page.title)


# The names are also ``mode_names.MODE_NAMES``, which the options check without these imports.
MODES: dict[str, Callable[[PageBlocks], list[Block]]] = {
    "default": run_default,
    "justext": run_justext,
    "boilerpipe": run_boilerpipe,
    "precise": run_precise,
    "web2text": run_web2text,
}

LEARNED_MODES: dict[str, Callable[[PageBlocks, web2text.Model | None], list[Block]]] = {
    "default": run_default,
    "web2text": run_web2text,
}
"""Modes that read the learned model, and take another in place of the shipped one
(``benchmarks/folds.py`` passes each page the model trained without its domain)."""

CLEANED_MODES = frozenset({"default"})
"""Modes whose text loses soft hyphens and zero-width characters and comes in
Unicode NFC; the published algorithms keep their text as the pages give it.
NFC: multilingual-dev 0.9308 -> 0.9320 (Bengali snippets), the others unchanged."""
