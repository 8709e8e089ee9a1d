"""On a page that declares itself a product, a small section of its own (care, what is in
the box) is kept beside the description (``composition.PRODUCT_GROUP_SHARE``); on any
other page, a review marking up the product it reviews included, it stays out."""

from __future__ import annotations

from corpusbot import extract
from tests.extraction.test_default_mode import page

PRODUCT = '<script type="application/ld+json">{"@type": "Product", "name": "Trail pack"}</script>'
REVIEW = ('<script type="application/ld+json">{"@type": "NewsArticle", "headline": "Trail pack"}'
          f"</script>{PRODUCT}")
DESCRIPTION = ("The Trail pack carries a full day's kit in {n} litres, with a padded back panel "
               "that keeps air moving on long climbs, hip belt pockets you can reach without "
               "stopping, a sleeve for a water bladder and a lid that opens wide enough to pack "
               "a jacket, a stove and lunch for two without taking everything out again.")
CARE = ("Wipe the pack clean with a damp cloth and a mild soap, and let it dry in the shade "
        "before you store it away for the winter.")


def product_page(markup: str) -> str:
    """A description in its container, the buy box, then a care section in its own."""
    description = "".join(f"<p>{DESCRIPTION.format(n=n)}</p>" for n in (20, 25, 30, 35))
    return page(
        f"{markup}<main><h1>Trail pack</h1><div class='description'><div>{description}</div>"
        "</div><div class='buy'><button>Add to cart</button><p>$120</p>"
        "<a href='/cart'>View cart</a></div><div class='care'><div><div><h3>Care</h3>"
        f"<p>{CARE}</p></div></div></div></main><footer><p>Shipping and returns</p></footer>",
        title="Trail pack")


def test_a_product_page_keeps_its_small_sections():
    text = extract(product_page(PRODUCT)).text
    assert "35 litres" in text and CARE in text


def test_another_page_or_a_review_leaves_them_out():
    for markup in ("", REVIEW):
        text = extract(product_page(markup)).text
        assert "35 litres" in text and CARE not in text
