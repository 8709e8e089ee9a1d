"""Bounds before the parse: each cut keeps the text around the oversized part, and says why."""

from __future__ import annotations

import pytest

from corpusbot import extract
from corpusbot.html import bounds
from tests.corpus_support import page

GOLD = page("en-anarcat")
GOLD_TEXT = extract(GOLD).text


def around(middle: bytes) -> bytes:
    """The gold page with ``middle`` put at the start of its body."""
    return GOLD.replace(b"<body", b"<body>" + middle + b"<div", 1)


@pytest.mark.parametrize(("middle", "cut"), [
    (b"<div " + b" ".join(b"a%d=x" % i for i in range(bounds.MAX_ATTRIBUTES + 1)) + b">x</div>",
     "html/cut/attributes"),
    (b"<img src='data:," + b"a" * (bounds.MAX_TAG_CHARS + 1) + b"'>", "html/cut/attributes"),
    (b"<p>" + b"a" * (bounds.MAX_TEXT_CHARS + 1) + b"</p>", "html/cut/text"),
    (b"<div>" * 100_000, "html/cut/elements"),
    (b"<span>" * 5000, "html/cut/nesting"),
])
def test_an_oversized_part_is_cut_and_the_rest_of_the_page_kept(middle: bytes, cut: str) -> None:
    result = extract(around(middle))
    assert cut in result.cuts
    assert GOLD_TEXT in result.text


def test_a_page_within_the_bounds_is_untouched() -> None:
    assert bounds.bound(GOLD) == bounds.Bounded(GOLD, ())
    assert bounds.bound(GOLD.decode()) == bounds.Bounded(GOLD.decode(), ())
    assert extract(GOLD).cuts == ()


def test_size_and_element_cuts_fall_on_a_tag_boundary() -> None:
    paragraph = b"<p>word</p>"
    markup = b"<html><body>" + paragraph * (bounds.MAX_ELEMENTS // 2 + 10)
    many = bounds.bound(markup)
    assert many.cuts == ("html/cut/elements",)
    assert many.text.count(b"<") < bounds.MAX_ELEMENTS
    assert markup.startswith(many.text) and markup[len(many.text)] == ord("<")
    text = ("<p>" + "y" * 1000) * 9000
    big = bounds.bound(text)
    assert big.cuts == ("html/cut/size",)
    assert len(big.text) <= bounds.MAX_HTML_CHARS and text[len(big.text)] == "<"


def test_a_nesting_bomb_with_text_between_is_reported() -> None:
    result = extract(b"<html><body><p>before</p>" + b"<div>x" * 3000 + b"</body></html>")
    assert "html/cut/nesting" in result.cuts
