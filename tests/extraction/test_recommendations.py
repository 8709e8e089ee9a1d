"""A carousel of other items under a heading that says so is no part of the page's text."""

from __future__ import annotations

from corpusbot import extract
from tests.extraction.test_default_mode import page

DESCRIPTION = (
    "<p>This clutch kit is the one you need when the old plate slips on the hills and the "
    "pedal bites late, and it fits the van's engine without any change to the housing.</p>"
    "<p>It comes with the pressure plate, the disc and the release bearing, all made by the "
    "same maker as the parts the van had when it left the factory, so it lasts as long.</p>"
)
CARDS = (
    ("Clutch kit with flywheel and bearing for the long wheelbase van of 2014", "$212.00"),
    ("Clutch disc and pressure plate set for vans and buses of the same series", "$187.50"),
    ("Heavy duty clutch kit for the bus version with the larger engine and gearbox", "$243.10"),
    ("Release bearing and slave cylinder for the van, new, from a business seller", "$96.40"),
    ("Dual mass flywheel for the van and the bus, new, with the bolts in the box", "$310.00"),
)


def product(heading: str) -> str:
    cards = "".join(
        f"<li class='a7Qx'><div class='k2Lm'><h3 class='q1Zp'>{name} and more parts in the "
        f"same order</h3><div class='w9Rt'>New · Business · {price} · free delivery in "
        "three to five days</div></div></li>"
        for name, price in CARDS)
    return page(
        "<div class='x1Pa'><h1>Clutch kit for the van</h1>"
        f"<div class='r5Yb'><h2 class='t0Nc'>Item description</h2>{DESCRIPTION}</div>"
        f"<div class='m3Ve'><div class='j8Ku'><h2 class='t0Nc'>{heading}</h2></div>"
        f"<ul class='c4Hd'>{cards}</ul></div></div>",
        title="Clutch kit for the van",
    )


def test_a_carousel_under_a_recommendations_heading_is_dropped():
    text = extract(product("Customers also viewed")).text
    assert "release bearing" in text and "pedal bites late" in text
    assert "$212.00" not in text and "Dual mass flywheel" not in text


def test_the_same_cards_under_another_heading_stay():
    text = extract(product("Parts in this kit")).text
    assert "pedal bites late" in text and "$212.00" in text


def test_a_heading_placed_before_the_article_takes_no_article_with_it():
    html = page(
        "<div class='thread'><div class='box'><h3>Recommended posts</h3></div>"
        f"<div class='post'>{DESCRIPTION}{DESCRIPTION.replace('van', 'truck')}</div></div>",
        title="Clutch kit for the van",
    )
    assert "pedal bites late" in extract(html).text


def test_the_heading_is_read_in_other_languages():
    for heading in ("Das könnte Sie auch interessieren", "Articles similaires",
                    "Artículos relacionados", "Leia também", "Czytaj także", "Читайте также"):
        text = extract(product(heading)).text
        assert "pedal bites late" in text, heading
        assert "$212.00" not in text, heading


def test_a_heading_in_another_language_that_offers_nothing_keeps_its_cards():
    assert "$212.00" in extract(product("Teile in diesem Satz")).text
