"""A line that is only an ad slot's label is no text; a sentence about sponsors is."""

from __future__ import annotations

import pytest

from corpusbot import extract
from corpusbot.extraction.default.adlabels import is_ad_label
from tests.extraction.test_default_mode import article, page


@pytest.mark.parametrize("label", ["Advertisement", "ADVERTISEMENT", " Sponsored ",
                                   "Anzeige", "Werbung", "Publicité", "Publicidad",
                                   "Pubblicità", "Реклама"])
def test_an_ad_label_between_paragraphs_is_left_out(label: str):
    body = (f"<article><h1>Bridge to open in spring</h1>{article(2)}"
            f"<div class='slot-x9'><p>{label}</p><div id='gpt-1'></div></div>"
            f"{article(2, start=2)}</article>")
    text = extract(page(body)).text
    assert "1. The council" in text and "2. The council" in text
    assert label.strip() not in text


@pytest.mark.parametrize("line", ["Sponsored by the town council",
                                  "Advertisement: the council's notice",
                                  "Advertising standards", "Sponsorship"])
def test_more_than_a_label_is_text(line: str):
    assert not is_ad_label(line)
