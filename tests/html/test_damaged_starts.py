"""Pages whose start is damaged in ways that emptied them (issue 19), read whole.

Small pages written for the tests in the shapes seen on the web: a
kilobyte of blank lines before the markup, the cut-off end of an inline
script before the first tag, a garbled ``<html>`` start tag.
"""

from __future__ import annotations

from corpusbot import extract
from corpusbot.html import decode, dom

NAV = (
    "<nav class='menu'><ul><li><a href='/'>Home</a></li><li><a href='/news'>News</a></li>"
    "<li><a href='/contact'>Contact</a></li></ul></nav>"
)
FOOTER = "<footer><p>Copyright 2024 Harbour News. All rights reserved.</p></footer>"
STORY = (
    "The harbour authority opened the new ferry terminal on Monday after two years of "
    "delays, and the first crossing left on time with almost every seat taken by commuters."
)


def article_page(head: str = "<head><title>Ferry terminal opens</title></head>") -> bytes:
    body = (
        f"<body>{NAV}<main><article><h1>Ferry terminal opens</h1><p>{STORY}</p>"
        "<p>Officials said the old pier will close at the end of the month, once the last "
        "of the cargo services has moved across to the deeper berth on the east side.</p>"
        f"</article></main>{FOOTER}</body></html>"
    )
    return (head + body).encode()


def test_a_page_behind_a_kilobyte_of_whitespace_and_a_cut_off_script_is_read():
    script_tail = "".join(
        f"  window.dataLayer.push({{'event': 'view', 'slot': {i}, 'path': '/news'}});\n"
        for i in range(30)
    )
    html = (b" \r\n" * 700) + script_tail.encode() + b"</script>\n<html>" + article_page()
    extraction = extract(html)
    assert extraction.reason is None
    assert STORY in extraction.text
    assert "dataLayer" not in extraction.text


def test_a_page_whose_html_start_tag_lost_its_closing_quote_is_read():
    html = b'<!DOCTYPE html>\n<html lang="en' + article_page()
    extraction = extract(html)
    assert STORY in extraction.text


def test_a_self_closed_html_start_tag_does_not_empty_the_page():
    html = b'<!DOCTYPE html>\n<html lang="en" />' + article_page()
    assert STORY in extract(html).text


def test_whitespace_before_the_markup_is_not_a_reason_to_reject():
    assert decode.why_not_html(" \n" * 5000 + "<p>text</p>") is None
    assert decode.why_not_html(b" \n" * 5000 + b"<p>text</p>") is None
    assert decode.why_not_html(" \n" * 5000) == "empty"
    assert decode.why_not_html("just words, " * 10000) == "no-markup"


def test_only_a_script_end_before_the_first_tag_is_cut():
    assert dom.drop_script_tail(b"var a = b < c;</script><p>x</p>") == b"<p>x</p>"
    kept = b"Some text before</p><p>x</p>"
    assert dom.drop_script_tail(kept) == kept
    assert dom.drop_script_tail(b"<p>x</p></script>") == b"<p>x</p></script>"


def test_the_script_end_search_is_bounded_on_megabytes_without_a_tag():
    import time

    data = b"a" * 20_000_000
    started = time.perf_counter()
    assert dom.drop_script_tail(data) is data
    assert time.perf_counter() - started < 0.5  # unbounded, it took a second per 5 MB
