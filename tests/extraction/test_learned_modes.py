"""The modes that read the learned model take another in its place.

``benchmarks/folds.py`` scores each wcxb-dev page by the model trained
without the page's domain; for that the model must reach every step that
consults it, ``default``'s learned fallback included.
"""

from __future__ import annotations

import numpy as np
import pytest

from corpusbot.extraction.core import mode_paragraphs, read_page
from corpusbot.extraction.modes import LEARNED_MODES, MODES
from corpusbot.extraction.web2text import model as web2text
from tests.extraction.test_held_out_classes import FOOTER, NAV

CHAPTERS = [
    "Summary of findings", "Methods and data sources", "Regional results",
    "Water quality by river basin", "Groundwater levels", "Outlook for 2030",
    "Recommendations to ministries", "Annex: station list",
]
# A report's table of contents: too link-dense for the composition's algorithms, so
# the learned labelling decides (composition.learned_fallback).
CONTENTS = (
    "<html><head><title>State of the Rivers 2024 - contents</title></head><body>"
    f"{NAV}<div class='report'><h1>State of the Rivers 2024</h1>"
    + "".join(f"<p><a href='/report/ch{i}'>{i + 1}. {name}</a></p>"
              for i, name in enumerate(CHAPTERS))
    + f"</div>{FOOTER}</body></html>"
)


def constant_model(logit: float) -> web2text.Model:
    """The shipped model's shape, every block's unary score ``logit`` whatever its features."""
    arrays = web2text.model_arrays(web2text.shipped_model())
    for prefix in ("unary", "pairwise"):
        layers = int(arrays[f"{prefix}_layers"])
        for i in range(layers):
            arrays[f"{prefix}_w{i}"] = np.zeros_like(arrays[f"{prefix}_w{i}"])
            arrays[f"{prefix}_b{i}"] = np.zeros_like(arrays[f"{prefix}_b{i}"])
    arrays[f"unary_b{int(arrays['unary_layers']) - 1}"] += logit
    return web2text.model_from_arrays(arrays)


@pytest.mark.parametrize("mode", sorted(LEARNED_MODES))
def test_the_given_model_decides_in_place_of_the_shipped_one(mode: str):
    page = read_page(CONTENTS).page
    shipped = mode_paragraphs(MODES[mode](page), mode)
    assert mode_paragraphs(LEARNED_MODES[mode](page, None), mode) == shipped
    assert sum(name in " ".join(shipped) for name in CHAPTERS) >= 6
    assert mode_paragraphs(LEARNED_MODES[mode](page, constant_model(-50.0)), mode) == ()
    everything = " ".join(mode_paragraphs(LEARNED_MODES[mode](page, constant_model(50.0)), mode))
    assert all(name in everything for name in CHAPTERS)


def test_mode_paragraphs_clean_only_the_cleaned_modes():
    page = read_page("<html><body><p>Mit\xadtel\xadal\xadter and more words of "
                     "text in a paragraph that is long enough to keep.</p></body></html>").page
    blocks = page.blocks
    assert mode_paragraphs(blocks, "default")[0].startswith("Mittelalter")
    assert mode_paragraphs(blocks, "web2text")[0].startswith("Mit\xadtel")
