"""A page's list of linked items joins its text at 1.75 times the kept text (``LISTING_RATIO``)."""

from __future__ import annotations

from corpusbot import extract
from tests.extraction.test_default_mode import PARAGRAPH, article, page

INTRO = ("Here is our regular update that explains what we have been working on for the past "
         "weeks, with thanks to everyone who sent a change, a fix or a translation to the project "
         "since the last release, and a note on what comes next for the server and the web app.")
CHANGES = ("Always save remote image data", "Replace unwrap calls in the tests",
           "Apply the scheduled post limit to future posts", "Swap the language and reply buttons",
           "Fix the jump to content link", "Resolve links to remote posts into local addresses",
           "Avoid a stack overflow when fetching nested comments")


def changes(count: int) -> str:
    return "".join(f"<li><a href='/pull/{n}'>{CHANGES[n % len(CHANGES)]} (number {n})</a></li>"
                   for n in range(count))


def test_an_update_posts_list_of_linked_changes_joins_its_paragraph():
    """The list holds under twice the paragraph's text but most of the page's."""
    html = page(f"<main><article><h1>Update</h1><p>{INTRO}</p><ul>{changes(10)}</ul></article>"
                "</main>", title="Update")
    text = extract(html).text
    assert "regular update" in text
    assert "Always save remote image data (number 0)" in text
    assert "(number 9)" in text


def test_a_news_articles_menu_and_related_links_under_the_ratio_stay_out():
    """A menu and related links together under 1.75 times the article's text."""
    menu = "".join(f"<li><a href='/s/{i}'>Section number {i} of the paper and its news</a></li>"
                   for i in range(16))
    related = "".join(f"<li><a href='/r/{i}'>Another story about roads and bridges in the "
                      f"county, number {i} of the week</a></li>" for i in range(8))
    html = page(f"<div class='top'><ul class='menu'>{menu}</ul></div>"
                f"<article><h1>Bridge to open in spring</h1>{article(3)}</article>"
                f"<ul class='more'>{related}</ul>")
    text = extract(html).text
    assert PARAGRAPH[:40] in text
    assert "Another story" not in text and "Section number" not in text
