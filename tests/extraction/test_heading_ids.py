"""A heading whose id is its own words made into a slug is named by its subject, not its role."""

from __future__ import annotations

from corpusbot import extract
from tests.extraction.test_default_mode import post

PARAGRAPH = ("The plugin reads the feed of the shop every hour and writes the new prices into "
             "the table, so that the page never shows a price the shop no longer asks for.")


def article(heading: str, ident: str) -> str:
    return post("Prices from the shop's feed", PARAGRAPH, f"<h2 id='{ident}'>{heading}</h2>")


def test_a_heading_whose_id_repeats_its_words_is_kept():
    text = extract(article("Integrating the feed with your ratings page",
                           "h-integrating-the-feed-with-your-ratings-page")).text
    assert "Integrating the feed with your ratings page" in text


def test_a_heading_with_a_role_for_an_id_is_not():
    text = extract(article("Integrating the feed with your ratings page", "rating-widget")).text
    assert "writes the new prices" in text
    assert "Integrating the feed" not in text
