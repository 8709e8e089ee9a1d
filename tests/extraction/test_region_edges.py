"""The default composition at the edges of the article region (multilingual-dev defects).

Each page is small real HTML in the shape the defect takes on the web; the
assertions say what a reader would call its main text.
"""

from __future__ import annotations

from corpusbot import extract
from corpusbot.extraction.core import read_page
from corpusbot.extraction.default import composition as default
from corpusbot.extraction.default.containers import ContainerNames
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


SHOW_NOTES = (
    "At the camp in Berlin we recorded live again. Our guests were "
    "<a href='/guests'>Professor Peter Heisig and Doctor Manfred Bornemann of the Knowledge "
    "Camp</a>, who talked about their impressions of the camp and what they take home."
)


def podcast_page() -> str:
    """A podcast episode: headline, show notes naming the guests by a link (over a third of
    its text, so that neither algorithm keeps it), the download link, then the transcript.
    The byline, more than half links, stays out."""
    return page(
        "<article class='post'><header class='entry-header'>"
        "<h1 class='entry-title'>Episode 39: live from the camp</h1><div class='entry-meta'>"
        "Published on <a href='/2019/12/17'>17 December 2019</a> by <a href='/a/sd'>Simon</a>"
        "</div></header>"
        f"<div class='entry-content'><p>{SHOW_NOTES}</p><p><a href='/e39.mp3'>Download</a></p>"
        f"<h2>Transcript</h2>{article(2)}</div></article>",
        title="Episode 39: live from the camp",
    )


def test_a_sentence_naming_its_subject_by_a_link_is_kept():
    text = extract(podcast_page()).text
    assert "who talked about their impressions of the camp" in text
    assert "Download" not in text and "Published on" not in text


def business_post() -> str:
    """A directory entry: the address lines first, the description, a closing line, all
    paragraphs of one container; then the post's related links in a box of their own."""
    menu = "".join(f"<li><a href='/c{i}'>Category {i}</a></li>" for i in range(8))
    return page(
        f"<ul class='menu'>{menu}</ul><article class='post'><div class='entry-content'>"
        "<p>Mustermann Bau GmbH</p><p>Ottostrasse 14, 26899 Rhede</p>"
        f"{article(3)}<p>Call us on 0123 456 789.</p></div>"
        "<div class='more-posts'><h3>Also worth reading</h3><ul>"
        "<li><a href='/a'>Roofers in Rhede</a></li><li><a href='/b'>Painters</a></li></ul>"
        "</div></article>"
    )


def test_short_first_and_last_paragraphs_beside_the_article_are_kept():
    paragraphs = extract(business_post()).paragraphs
    assert paragraphs[:2] == ("Mustermann Bau GmbH", "Ottostrasse 14, 26899 Rhede")
    assert paragraphs[-1] == "Call us on 0123 456 789."


def test_recovery_reaches_the_short_paragraphs_beside_the_kept_span():
    # The step itself, from the long paragraphs alone (on the web both algorithms
    # often leave the short lines out; on this small page Boilerpipe keeps them).
    blocks = read_page(business_post()).page.blocks
    long_ones = [b for b in blocks if b.words > 50]
    recovered = [b.text for b in default.recover_inside(blocks, long_ones, ContainerNames())]
    assert recovered[:2] == ["Mustermann Bau GmbH", "Ottostrasse 14, 26899 Rhede"]
    assert recovered[-1] == "Call us on 0123 456 789."
    assert len(recovered) == 6


def test_the_heading_of_a_related_box_after_the_article_stays_out():
    assert "Also worth reading" not in extract(business_post()).text
