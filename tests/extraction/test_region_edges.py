"""The default composition at the edges of the article region (multilingual-dev defects).

Each page is small real HTML in the shape the defect takes on the web; the
assertions say what a reader would call its main text.
"""

from __future__ import annotations

from corpusbot import extract
from tests.extraction.test_default_mode import article, page

LEAD = (
    "Must the infected go to hospital at all? A palliative physician explains why many "
    "patients in care homes would rather stay where they are, and what their families "
    "should ask the doctors before the decision is made."
)


def standfirst_page(lead_html: str) -> str:
    """A magazine article: headline and standfirst in the article's header, the body below."""
    return page(
        "<div class='teasers'><p>Read also: "
        + "a long teaser for another story of the magazine about hospitals and care " * 3
        + "</p></div>"
        "<article class='row'><div class='col-md-12 clearfix'><div class='col-sm-10'>"
        f"<h1>Bridge to open in spring</h1>{lead_html}</div></div>"
        f"<div class='col-md-12'><div class='col-sm-10'><div class='text'>{article(7)}</div>"
        "</div></div></article>"
    )


def test_the_standfirst_above_the_body_is_kept():
    paragraphs = extract(standfirst_page(f"<p class='lead'>{LEAD}</p>")).paragraphs
    assert paragraphs[0] == LEAD
    assert len(paragraphs) == 8


def test_a_key_point_list_above_the_body_stays_out():
    points = f"<ul class='key-points'><li>{LEAD}</li></ul>"
    paragraphs = extract(standfirst_page(points)).paragraphs
    assert LEAD not in paragraphs
    assert len(paragraphs) == 7


def test_a_teaser_outside_the_articles_container_stays_out():
    text = extract(standfirst_page(f"<p class='lead'>{LEAD}</p>")).text
    assert "Read also" not in text
