"""Every mode returns the headline as the title, never also as the first paragraph."""

from __future__ import annotations

import pytest

from corpusbot import extract
from corpusbot.extraction.modes import MODES
from tests.corpus_support import page

HEADLINE = "Supermarket chain opens its first store run entirely by volunteers"


def article() -> bytes:
    """A real page's paragraphs under a headline that the title declares with the site name."""
    body = extract(page("en-supermarket"), mode="default").paragraphs
    paragraphs = "".join(f"<p>{text}</p>" for text in body)
    return (f"<html><head><title>{HEADLINE} | The Courier</title>"
            '<meta property="og:site_name" content="The Courier"></head>'
            f"<body><nav><a href='/'>The Courier</a></nav><article><h1>{HEADLINE}</h1>"
            f"{paragraphs}</article></body></html>").encode()


@pytest.mark.parametrize("mode", sorted(MODES))
def test_the_headline_is_the_title_and_not_a_paragraph(mode: str) -> None:
    result = extract(article(), mode=mode)
    assert result.title == HEADLINE
    assert result.paragraphs and HEADLINE not in result.paragraphs
