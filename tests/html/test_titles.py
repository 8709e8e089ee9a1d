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


def head_page(head: str, body: str) -> str | None:
    root = dom.parse_html(f"<html><head>{head}</head><body>{body}</body></html>")
    title = root.findtext(".//title")
    og = next((m.get("content") for m in root.iter("meta") if m.get("property") == "og:title"),
              None)
    return headline(root, title, og)


def test_the_declared_site_name_is_cut_though_it_holds_a_separator():
    full = "Pour le néolibéralisme, la retraite est un archaïsme | AOC media - Analyse Opinion"
    head = (f'<title>{full}</title><meta property="og:title" content="{full}">'
            '<meta property="og:site_name" content="AOC media - Analyse Opinion">')
    assert head_page(head, "<h1>AOC</h1><p>text</p>") == (
        "Pour le néolibéralisme, la retraite est un archaïsme")


def test_a_site_name_before_the_headline_is_cut_too():
    head = ('<title>Daily Planet — Bridge opens after ten years of work</title>'
            '<meta name="application-name" content="daily-planet">')
    assert head_page(head, "<p>text</p>") == "Bridge opens after ten years of work"


def test_the_part_shared_by_title_and_og_title_is_the_site_name():
    head = ('<title>Bridge opens: the first cars cross | City Courier</title>'
            '<meta property="og:title" content="Bridge opens today | City Courier">')
    # og:title wins, without the name the two titles share
    assert head_page(head, "<p>text</p>") == "Bridge opens today"


def test_a_headline_with_a_colon_keeps_both_parts_when_no_site_name_is_known():
    head = ('<title>Brexit: what happens next</title>'
            '<meta property="og:title" content="Brexit: what happens next">')
    assert head_page(head, "<p>text</p>") == "Brexit: what happens next"


def test_two_titles_of_one_headline_do_not_make_the_headline_a_site_name():
    head = ('<title>Bridge opens after ten years of work | Courier</title>'
            '<meta property="og:title" content="Bridge opens after ten years of work | News">')
    assert head_page(head, "<p>text</p>").startswith("Bridge opens after ten years of work")
