"""A page whose every candidate sits in named containers falls back on the largest holder."""

from __future__ import annotations

from corpusbot import extract
from tests.extraction.test_default_mode import page

PROMOTION = (
    "<div class='promo-bar'><p>Take ten dollars off your purchase of fifty dollars or more, "
    "fifteen dollars off seventy-five or more, and twenty off a hundred, in store and "
    "online, until the end of the month. Exclusions apply to some brands.</p></div>"
)
COPY = (
    "<p>Experience iconic comfort with the classic clogs at our stores! These timeless "
    "favorites redefine casual footwear, and you can find them in just about every color, "
    "so that your shoes not only feel fantastic but go with any outfit you own.</p>"
    "<p>It is no secret why the clogs have an enduring appeal: they offer comfort and ease "
    "of wear for every member of the family, in black, in white or in a fresh color for "
    "the summer, and they are easy to clean after a day at the beach.</p>"
)
REWARDS = (
    "<footer><p>When you reach a hundred points, you will automatically earn five dollars of "
    "reward cash, and your points will appear in your account within three days of the "
    "purchase that earned them.</p><p>Star members earn one point per dollar spent and "
    "superstar members one and a half points per dollar, and card holders earn one more "
    "point per dollar spent on the card.</p><p>If items are returned, the points earned for "
    "those items are taken off your total, and reward cash is valid for ninety days after "
    "it is issued to your account.</p></footer>"
)


def collection(copy_class: str) -> str:
    return page(
        f"{PROMOTION}<div class='grid'><a href='/c/1'>Clog one</a> "
        f"<a href='/c/2'>Clog two</a></div><div class='{copy_class}'><h2>Shop classic clogs"
        f"</h2>{COPY}</div>{REWARDS}",
        title="Classic clogs",
    )


def test_the_largest_named_holder_of_prose_is_read_when_nothing_is_kept():
    text = extract(collection("field-seofootercopy")).text
    assert "enduring appeal" in text
    assert "Exclusions apply" not in text and "reward cash" not in text


def test_a_consent_notice_is_never_the_holder():
    text = extract(collection("cookie-consent-copy")).text
    assert "enduring appeal" not in text
