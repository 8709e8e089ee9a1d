"""Items alike by one ``class`` token, holding the kept text, are a listing region
(``listing.token_signatures``), weighed by the text they add to the kept text."""

from __future__ import annotations

from corpusbot import extract
from tests.extraction.test_default_mode import PARAGRAPH, page

INTRO = ("Crispy outside and tender inside: these are the dishes we make in the air fryer "
         "every week, from chicken and salmon to tofu, potatoes and a handful of sides. Each "
         "recipe has been tested in two machines, with the times and temperatures that worked, "
         "and most of them are ready in under thirty minutes from start to finish.")
DISHES = ("Honey Chipotle Chicken Skewers", "Crispy Air Fryer Tofu", "Air Fryer Salmon Bites",
          "Smashed Potato Salad", "Buffalo Cauliflower Wings", "Garlic Parmesan Wings",
          "Crispy Chickpea Bowls", "Lemon Pepper Chicken Thighs")
CATEGORIES = ("dinner", "meat", "gluten-free", "vegan", "quick-and-easy", "salad", "sides")


def teaser(n: int) -> str:
    """A recipe card as WordPress's ``post_class`` marks it: its own post id and categories."""
    categories = " ".join(f"category-{CATEGORIES[(n + k) % len(CATEGORIES)]}"
                          for k in range(n % 3 + 1))
    return (f"<article class='post-{9400 + n} post type-post status-publish hentry "
            f"{categories}'><a href='/recipe-{n}'>"
            f"<div>{10 + n} reviews / 4.{n} average</div>"
            f"<h3>{DISHES[n % len(DISHES)]}</h3></a></article>")


def section(number: int, inner: str) -> str:
    """A page builder's section: its own id token beside the shared ones."""
    return f"<div class='elementor-element elementor-element-{number:x}e4d7 e-con'>{inner}</div>"


def grid(heading: str, start: int, count: int) -> str:
    cards = "".join(teaser(n) for n in range(start, start + count))
    return f"<h2>{heading}</h2><div class='grid'>{cards}</div>"


def test_a_recipe_index_keeps_its_cards_in_sections_whose_classes_all_differ():
    """Default keeps the intro and a heading; the sections holding them join as a region."""
    sections = [section(1, f"<h1>Air Fryer Recipes</h1><p>{INTRO}</p>"),
                section(2, grid("Top Rated Air Fryer Recipes", 0, 4)),
                section(3, grid("Air Fryer Chicken Recipes", 4, 4)),
                section(4, grid("All Air Fryer Recipes", 8, 4))]
    html = page(f"<main><div class='elementor'>{''.join(sections)}</div></main>",
                title="Air Fryer Recipes")
    text = extract(html).text
    assert "tested in two machines" in text
    assert "Honey Chipotle Chicken Skewers" in text and "Crispy Chickpea Bowls" in text
    assert "reviews / 4.7 average" in text


def test_an_article_in_components_keeps_its_shopping_cards_out():
    """An article built of paragraph components, and product cards with their own ids among
    them: alike by one token around the kept text, the cards add under 1.75 times its text
    (weighing the components' whole text, they joined)."""
    def component(kind: str, inner: str) -> str:
        return f"<div class='item-paragraph item-paragraph--{kind}'>{inner}</div>"
    paragraphs = [component("text", f"<p>{n}. {PARAGRAPH}</p>") for n in range(2)]
    cards = [component(f"single-product product-{n}",
                       f"<h3>Sneaker model {n} in white leather</h3><p><a href='/shop/{n}'>"
                       "Buy now for 89 euros at the shop, with free delivery</a></p>")
             for n in range(12)]
    body = paragraphs[0] + "".join(cards[:4]) + paragraphs[1] + "".join(cards[4:])
    text = extract(page(f"<article><h1>Bridge to open in spring</h1><div class='col'>{body}"
                        "</div></article>")).text
    assert PARAGRAPH[:40] in text
    assert "Buy now" not in text
