"""A template's filler text ("Lorem ipsum dolor ...") is no page's text, and leaking it would
make C4 drop the whole page; an article that names the phrase keeps its sentence."""

from __future__ import annotations

import pytest

from corpusbot import extract
from corpusbot.extraction.default.labels import is_filler
from corpusbot.filters.c4 import C4, C4Options
from tests.extraction.test_default_mode import article, page
from tests.filters.support import state

FILLER = ("Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor "
          "incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud "
          "exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat.")


def product_page() -> str:
    """A product's description, then slides of a template nobody filled in: each a heading
    and a paragraph of filler, as long as the description's own paragraphs."""
    slides = "".join(f"<div class='slide'><h3>Feature {n}</h3><p>{FILLER}</p></div>"
                     for n in range(1, 4))
    return page(f"<main><h1>Bridge to open in spring</h1>{article(3)}"
                f"<div class='carousel'>{slides}</div>{article(2, start=3)}</main>")


def test_filler_paragraphs_in_the_region_leave_and_the_text_around_them_stays():
    text = extract(product_page()).text
    assert "0. The council" in text and "4. The council" in text
    assert "ipsum" not in text.lower()


def test_the_extracted_page_passes_c4_which_drops_a_page_holding_the_filler():
    text = extract(product_page()).text
    assert C4(C4Options()).apply(state(text)) is None
    dropped = C4(C4Options()).apply(state(f"{text}\n\n{FILLER}"))
    assert dropped is not None and dropped.reason == "filter/c4/lorem-ipsum"


@pytest.mark.parametrize("text", [FILLER, "LOREM IPSUM DOLOR SIT AMET", "Lorem  ipsum\ndolor"])
def test_the_filler_is_found_in_any_case_and_spacing(text: str):
    assert is_filler(text)


@pytest.mark.parametrize("text", ["Designers call it lorem ipsum: Latin that reads as nothing.",
                                  "Ipsum is Latin for itself."])
def test_a_sentence_naming_the_filler_is_text(text: str):
    assert not is_filler(text)


def slots_page(slot_tag: str = "div") -> str:
    """A product page rendered in the browser: its price box holds the template's slots."""
    slots = "".join(f"<{slot_tag}>{{{{ priceAnchor.priceWrapper.info.{name} }}}}</{slot_tag}>"
                    for name in ("totalPrice", "totalPriceMonthly", "saving"))
    return page(f"<main><h1>Bridge to open in spring</h1>{article(2)}"
                f"<div class='price'>{slots}</div>{article(2, start=2)}</main>")


def test_a_templates_unfilled_slots_leave_and_the_text_around_them_stays():
    text = extract(slots_page()).text
    assert "0. The council" in text and "3. The council" in text
    assert "{{" not in text and "priceAnchor" not in text


def test_a_slot_quoted_as_code_stays():
    text = extract(slots_page("code")).text
    assert "{{ priceAnchor.priceWrapper.info.totalPrice }}" in text


@pytest.mark.parametrize("text", ["Write {{ name }} where the name goes.",
                                  "Price: {{ price }} per month"])
def test_a_sentence_around_a_slot_is_text(text: str):
    body = page(f"<main><h1>Bridge to open in spring</h1>{article(2)}<p>{text}</p>"
                f"{article(2, start=2)}</main>")
    assert text in extract(body).text
