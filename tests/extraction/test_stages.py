"""``compose_stages``: what each step of ``default`` decided, and the stacked refiner's rows."""

from __future__ import annotations

import numpy as np

from corpusbot.extraction import justext
from corpusbot.extraction.core import read_page
from corpusbot.extraction.default import composition
from tests.conftest import benchmark_modules
from tests.extraction.test_default_mode import article, page
from tests.extraction.test_listing_weight import INTRO, changes

MENU = "".join(f"<li><a href='/s/{i}'>Section {i}</a></li>" for i in range(6))


def _read(body: str):
    return read_page(page(body)).page


def _features():
    return benchmark_modules("stacked_features")[0]


def test_the_stages_end_in_what_compose_keeps():
    news = _read(f"<ul class='menu'>{MENU}</ul><article><h1>Bridge to open in spring</h1>"
                 f"{article(4)}</article><footer>{article(1, start=7)}</footer>")
    stages = composition.compose_stages(news)
    assert [b.text for b in stages.kept] == [b.text for b in composition.compose(news)]
    paragraphs = [b for b in news.blocks if b.text.startswith(("0.", "1.", "2.", "3."))]
    assert len(paragraphs) == 4
    assert all(id(b) in stages.region and id(b) in stages.agreed for b in paragraphs)
    assert all(stages.classes[b.position] is justext.Class.GOOD for b in paragraphs)
    menu = [b for b in news.blocks if b.text.startswith("Section")]
    assert menu and not any(id(b) in stages.candidates for b in menu)
    assert not stages.listed  # an article's worth of text: no listing search


def test_a_listing_region_is_recorded_as_the_step_that_added_it():
    """An update post's list of linked changes: no algorithm chose it, the listing did."""
    post = _read(f"<main><article><h1>Update</h1><p>{INTRO}</p><ul>{changes(10)}</ul>"
                 "</article></main>")
    stages = composition.compose_stages(post)
    items = [b for b in post.blocks if "(number" in b.text]
    assert len(items) == 10 and all(id(b) in stages.listed for b in items)
    assert not any(id(b) in stages.candidates or id(b) in stages.region for b in items)
    assert {id(b) for b in items} <= {id(b) for b in stages.kept}


def test_the_refiners_rows_read_the_stages():
    features = _features()
    news = _read(f"<ul class='menu'>{MENU}</ul><article>{article(3)}</article>"
                 f"<footer>{article(1, start=7)}</footer>")
    stages = composition.compose_stages(news)
    x = features.features(news, stages, composition.select(news))
    assert x.shape == (len(news.blocks), len(features.FEATURE_NAMES))
    column = {name: x[:, i] for i, name in enumerate(features.FEATURE_NAMES)}
    body = [b.position for b in news.blocks if b.text.startswith(("0.", "1.", "2."))]
    footer = [b.position for b in news.blocks if b.text.startswith("7.")]
    nav = [b.position for b in news.blocks if b.text == "Home"]
    assert np.all(column["kept"][body] == 1) and np.all(column["region"][body] == 1)
    assert np.all(column["kept"][footer] == 0) and np.all(column["page_frame"][footer] == 1)
    assert np.all(column["page_frame"][nav] == 1)
    assert np.all(column["log_distance"][body] == 0) and column["log_distance"][footer][0] > 0
