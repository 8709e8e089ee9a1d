"""Article pages: the short opening lines above the body and the headings that are links.

Each page is small real HTML in the shape the defect takes on the web (a hosted
blog's text blocks, a generator's permalink headings, a buying guide's product
headings); the assertions say what a reader would call its main text.
"""

from __future__ import annotations

from corpusbot import extract
from corpusbot.extraction.default import lead
from tests.extraction.test_default_mode import article, page

OPENING = (
    "I dove into this lifestyle in 2015 and never looked back, and I want to share what "
    "I learned.",
    "But guess what?",
    "I'm still not there. (And never will be, more on that later.)",
    "Let's get into it, step by step.",
)


def text_block(inner: str, name: str) -> str:
    """One block of a hosted blog's page builder: four wrappers around its text."""
    return (
        f"<div class='sqs-block html-block' id='{name}'><div class='sqs-block-content'>"
        f"<div class='sqs-text-block-container'><div class='sqs-html-content'>{inner}"
        "</div></div></div></div>"
    )


def blog_post() -> str:
    """A post whose opening lines sit in a text block of their own above the body's."""
    opening = "".join(f"<p>{line}</p>" for line in OPENING)
    return page(
        "<article class='entry'><h1>Bridge to open in spring</h1>"
        "<div class='meta'><span>Jun 2</span> <a href='/author/polly'>Polly</a></div>"
        "<div class='blog-item-content'><div class='sqs-layout'><div class='row'>"
        "<div class='col'>" + text_block(opening, "block-1")
        + text_block(f"<h2>What the works mean</h2>{article(6)}", "block-2")
        + "</div></div></div></div></article>"
    )


def test_the_short_opening_lines_above_the_body_are_kept():
    paragraphs = extract(blog_post()).paragraphs
    assert paragraphs[: len(OPENING)] == OPENING
    assert "Jun 2" not in paragraphs


def test_the_opening_lines_are_what_the_rule_adds(monkeypatch):
    monkeypatch.setattr(lead, "with_opening_lines", lambda blocks, kept, *_: list(kept))
    assert "But guess what?" not in extract(blog_post()).paragraphs
