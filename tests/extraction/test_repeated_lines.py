"""On a page that declares itself a product, a line the kept text repeats (a spec's name
in each compared item's table) is kept once; on any other page every copy stays."""

from __future__ import annotations

import pytest

from corpusbot import extract
from tests.extraction.test_default_mode import article, page

JSON_LD = ('<script type="application/ld+json">{"@context": "https://schema.org", '
           '"@type": "Product", "name": "Trail pack"}</script>')
MICRODATA = '<div itemscope itemtype="https://schema.org/Product"><span></span></div>'
OPEN_GRAPH = '<meta property="og:type" content="product">'


def product_page(markup: str) -> str:
    """A description with a table of specifications for each of two sizes inside it."""
    sizes = "".join(f"<h3>Trail pack {n}</h3><table><tr><td>Volume</td><td>{n} litres</td></tr>"
                    "<tr><td>Frame material</td><td>Aluminium</td></tr></table>"
                    for n in (20, 30))
    return page(f"{markup}<main><h1>Trail pack</h1>{article(2)}{sizes}{article(2, start=2)}"
                "</main>", title="Trail pack")


@pytest.mark.parametrize("markup", [JSON_LD, MICRODATA, OPEN_GRAPH])
def test_a_product_page_keeps_each_line_once(markup: str):
    text = extract(product_page(markup)).text
    assert "20 litres" in text and "30 litres" in text and "3. The council" in text
    assert text.count("Frame material") == 1 and text.count("Aluminium") == 1


def test_without_the_markup_every_copy_stays():
    text = extract(product_page("")).text
    assert text.count("Frame material") == 2 and text.count("Aluminium") == 2


def test_a_review_that_marks_up_the_product_keeps_every_copy():
    review = ('<script type="application/ld+json">{"@type": "Review"}</script>'
              '<script type="application/ld+json">{"@type": ["WebPage", "BlogPosting"]}</script>')
    for markup in (JSON_LD, MICRODATA):
        text = extract(product_page(review + markup)).text
        assert text.count("Frame material") == 2 and text.count("Aluminium") == 2
