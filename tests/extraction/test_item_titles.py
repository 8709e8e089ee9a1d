"""An item's linked title between its kept lines (a brand above, a price below) is text."""

from __future__ import annotations

from corpusbot import extract
from corpusbot.extraction.default import headings
from tests.conftest import patchable
from tests.extraction.test_default_mode import article, page

ITEMS = [("Dolce", "Dolce Bamboo Dog Bowls (3 Colors, 2 Styles)", "8.99"),
         ("Corsa", "Corsa Bowls (5 Colors, 3 Sizes)", "8.49"),
         ("Natural Value", "Natural Value Chicken Dental Sticks (10 Pack)", "1.49"),
         ("Bella", "Pet Food and Water Mats (9 Styles)", "8.99")]
POST = ("Cold days are hard on paws and joints: a short walk, a warm coat for small breeds "
        "and a towel at the door keep a dog comfortable until spring, and a vet can tell "
        "which dogs need more.")


def shop_front() -> str:
    """A shop's front page: a welcome, a grid of product cards whose titles link to the
    products, then the blog's latest posts."""
    cards = "".join(
        "<li class='product'><article class='card'><div class='card-body'>"
        f"<p class='card-text brand-name'>{brand}</p><h4 class='card-title'>"
        f"<a href='https://shop.example.com/p/{i}/'>{title}</a></h4>"
        f"<div class='card-text'><span class='price'>${price}</span></div></div></article></li>"
        for i, (brand, title, price) in enumerate(ITEMS))
    posts = "".join(f"<article><h3><a href='/blog/{i}'>Caring for a dog in winter, part {i}"
                    f"</a></h3><p>{POST}</p></article>" for i in range(3))
    return page(
        "<main><section class='hero'><h2>USA Made Treats for Dogs</h2><p>Real meat and "
        "simple ingredients, made right here in the USA. Explore our wide variety of treats, "
        "all lovingly prepared with extraordinary attention to detail by a family business "
        "that has baked for dogs since 1989.</p></section>"
        f"<section><h2>Featured Products</h2><ul class='productGrid'>{cards}</ul></section>"
        f"<section><h2>From the blog</h2>{posts}</section></main>",
        title="Pet Shop")


def test_a_product_cards_linked_title_stays_with_its_brand_and_price():
    paragraphs = extract(shop_front()).paragraphs
    for brand, title, price in ITEMS:
        at = paragraphs.index(title)
        assert paragraphs[at - 1] == brand and paragraphs[at + 1] == f"${price}"


@patchable("corpusbot.extraction.default.headings")
def test_the_titles_are_what_the_rule_adds(monkeypatch):
    monkeypatch.setattr(headings, "with_item_titles", lambda blocks, kept, names: list(kept))
    paragraphs = extract(shop_front()).paragraphs
    assert "Dolce" in paragraphs and "$8.49" in paragraphs
    assert not any(title in paragraphs for _, title, _ in ITEMS)


def related_inside_article() -> str:
    """A story with a related story's linked heading between two of its paragraphs."""
    return page("<main><article><h1>Bridge to open in spring</h1>" + article(3)
                + "<h3><a href='/news/roads-2024'>The roads plan of last year</a></h3>"
                + article(3, start=3) + "</article></main>")


def test_on_a_page_of_paragraphs_a_linked_heading_between_them_stays_out(monkeypatch):
    assert "The roads plan of last year" not in extract(related_inside_article()).paragraphs
    # the page's line lengths are what keep it out
    monkeypatch.setattr(headings, "ITEM_PAGE_MEDIAN_WORDS", 1000)
    assert "The roads plan of last year" in extract(related_inside_article()).paragraphs
