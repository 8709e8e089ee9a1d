"""Article pages: the short opening lines above the body and the headings that are links.

Each page is small real HTML in the shape the defect takes on the web (a hosted
blog's text blocks, a generator's permalink headings, a buying guide's product
headings); the assertions say what a reader would call its main text.
"""

from __future__ import annotations

from corpusbot import extract
from corpusbot.extraction.default import headings, lead
from tests.conftest import patchable
from tests.extraction.test_default_mode import PARAGRAPH, article, page

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


@patchable("corpusbot.extraction.default.lead")
def test_the_opening_lines_are_what_the_rule_adds(monkeypatch):
    monkeypatch.setattr(lead, "with_opening_lines", lambda blocks, kept, *_: list(kept))
    assert "But guess what?" not in extract(blog_post()).paragraphs


def sections(*titles: str) -> str:
    """An opening section, then one of two paragraphs under each heading."""
    return article(2) + "".join(
        f"{title}{article(2, start=2 * i + 2)}" for i, title in enumerate(titles))


def guide() -> str:
    """A guide whose section headings link to themselves or to the product they are about,
    with a related story's heading (a link to another page of the site) between them."""
    return page(
        "<main><article><h1>Bridge to open in spring</h1><div class='entry-content'>"
        + sections(
            "<h2 id='works'><a href='#works'>What the works mean</a></h2>",
            "<h3><a href='https://shop.example.com/meter-117'>Fluke 117 meter</a></h3>",
            "<h3><a href='/news/roads-2024'>Related: the roads plan of last year</a></h3>",
        )
        + "</div></article></main>"
    )


def test_headings_linking_into_the_page_or_off_site_are_kept():
    paragraphs = extract(guide()).paragraphs
    assert "What the works mean" in paragraphs
    assert "Fluke 117 meter" in paragraphs
    assert len([p for p in paragraphs if PARAGRAPH in p]) == 8


def test_a_heading_linking_to_another_page_of_the_site_stays_out():
    assert "Related: the roads plan of last year" not in extract(guide()).paragraphs


@patchable("corpusbot.extraction.default.headings")
def test_the_linked_headings_are_what_the_rule_adds(monkeypatch):
    monkeypatch.setattr(headings, "with_linked_headings", lambda blocks, kept, *_: list(kept))
    paragraphs = extract(guide()).paragraphs
    assert "What the works mean" not in paragraphs
    assert "Fluke 117 meter" not in paragraphs
