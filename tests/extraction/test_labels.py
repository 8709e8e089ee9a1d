"""A line that is only an ad slot's label is no text; a sentence about sponsors is."""

from __future__ import annotations

import pytest

from corpusbot import extract
from corpusbot.extraction.default.labels import is_label
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
    assert not is_label(line)


def test_control_names_beside_product_cards_leave_the_listing():
    cards = "".join(
        f"<li class='card'><a href='/p/{i}'>Linen shirt in colour {i}</a><p>$4{i}.00</p>"
        "<div class='js-w'>Add to Wishlist</div><a href='#' class='qv'>Quick view</a></li>"
        for i in range(8))
    body = f"<main><h1>Shirts</h1><ul class='grid'>{cards}</ul></main>"
    text = extract(page(body, title="Shirts")).text
    assert "Linen shirt in colour 7" in text and "$47.00" in text
    assert "Wishlist" not in text and "Quick view" not in text


@pytest.mark.parametrize("label", ["Share", "Sort by:", "Table of contents", "Teilen",
                                   "Sommaire", "Loading content", "Loading...",
                                   "Wird geladen \u2026", "Read more", "In den Warenkorb",
                                   "Lire la suite",
                                   "Añadir al carrito", "Подробнее", "Load more"])
def test_control_names_in_the_listed_languages_are_labels(label: str):
    assert is_label(label) and is_label(f"  {label.upper()} ")


@pytest.mark.parametrize("line", ["Read more about the bridge", "Compare the two bridges",
                                  "Loading the ferry", "Laden"])
def test_a_sentence_starting_with_a_control_name_is_text(line: str):
    assert not is_label(line)
