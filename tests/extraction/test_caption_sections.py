"""An element named "caption" that holds a section's heading is text, not a figure's caption."""

from __future__ import annotations

import pytest

from corpusbot import extract
from tests.extraction.test_default_mode import page

INTRO = (
    "<p>The new earbuds cancel twice as much noise as the last ones, and they fit better "
    "too: the tips come in five sizes, and the case charges them four times over before it "
    "needs a cable of its own.</p><p>They pair with a phone in a second, switch to a laptop "
    "when a call comes in, and tell you when you left them behind in a cafe or on a "
    "train.</p>"
)
TILES = (
    ("Ultra-low-noise microphones", "Computational audio removes the noise around you on "
                                    "every call, even in a crowded street or a windy park."),
    ("Voice isolation", "Your voice comes through clearly while the traffic, the wind and "
                        "the chatter around you fade away for the person you call."),
    ("Adaptive audio", "Noise cancellation and transparency blend as the world around you "
                       "gets louder or quieter, so that you hear what matters to you."),
)


def product(tile_class: str) -> str:
    tiles = "".join(f"<li class='tile'><h3>{title}</h3><p>{line}</p></li>"
                    for title, line in TILES)
    return page(
        f"<main><section class='hero'><h1>Earbuds Pro</h1>{INTRO}</section>"
        f"<section class='features'><div class='{tile_class}'><ul>{tiles}</ul></div>"
        "</section></main>"
        "<footer><p>Copyright 2026 The Shop. All rights reserved.</p></footer>",
        title="Earbuds Pro",
    )


def test_feature_tiles_in_a_caption_named_element_are_kept():
    text = extract(product("gallery typography-caption-tile")).text
    assert "five sizes" in text
    assert all(title in text and line in text for title, line in TILES)


@pytest.mark.parametrize("tile_class", ["gallery photo-caption-credit", "gallery comment-caption"])
def test_a_caption_named_element_with_another_boilerplate_name_stays_out(tile_class: str):
    text = extract(product(tile_class)).text
    assert "five sizes" in text and TILES[1][1] not in text
