"""The headline: the <h1> matching the declared titles, else the declared title."""

from __future__ import annotations

from corpusbot.html import dom
from corpusbot.html.titles import headline


def pick(body: str, title: str | None, og: str | None = None) -> str | None:
    return headline(dom.parse_html(f"<html><body>{body}</body></html>"), title, og)


def test_h1_matching_the_title_wins_over_a_logo_h1():
    body = "<h1>India Post</h1><h1>Deportees return home from US</h1>"
    assert pick(body, "Deportees return home from US | India Post") == (
        "Deportees return home from US"
    )


def test_logo_h1_naming_the_site_is_not_the_headline():
    assert pick("<h1>India Post</h1>", "Deportees return home from US | India Post") == (
        "Deportees return home from US"
    )


def test_og_title_is_preferred_over_the_title_when_no_h1_matches():
    assert pick("<h1>Menu</h1>", "Site name", og="Real headline here") == "Real headline here"


def test_no_title_at_all():
    assert pick("<p>text</p>", None) is None


def test_lone_h1_is_the_headline_when_no_title_is_declared():
    assert pick("<h1>Bridge opens</h1><p>text</p>", None) == "Bridge opens"
    assert pick("<h1>One</h1><h1>Two</h1>", None) is None
