"""The five error classes of issue 19 on whole pages in the shapes of their sites.

The pages (``tests/fixtures/pages``, see its README) carry the head, menus,
sidebars, footers and scripts of their kind of site. Classes a and e damage
a clean news article the ways pages arrive damaged and ask for the clean
page's text; classes b, c and d ask for what a reader would call the main
text of pages that the paragraph-based algorithms find hard.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from corpusbot import extract
from tests.conftest import FIXTURE_PAGES


def fixture(name: str) -> bytes:
    return (FIXTURE_PAGES / name).read_bytes()


ARTICLE = fixture("news_article.html")
HTML_START = b'<html lang="en-GB" class="no-js">'
HEADER_END = b'</header>\n<div id="content"'
BLANK_LINES = b" \r\n\t" * 400  # 1.6 KB of a template's blank output
SCRIPT_END = b"".join(
    b"  window.dataLayer.push({'event': 'view', 'slot': %d, 'path': '/news'});\n" % i
    for i in range(20)
) + b"});\n</script>\n"


def start_tag(replacement: bytes) -> Callable[[bytes], bytes]:
    return lambda page: page.replace(HTML_START, replacement, 1)


# Class a: what comes before the markup.
LEADING = {
    "blank lines and a cut-off script": lambda page: BLANK_LINES + SCRIPT_END + page,
    "a cut-off script with markup in its strings": lambda page: BLANK_LINES + (
        b"  slot.innerHTML = '<div class=\"ad\">' + html + '</div>';\n"
        b"  if (shown < limit) { show(slot); }\n});\n</script>\n") + page,
    "a cut-off style": lambda page: BLANK_LINES + (
        b".site-header{background:#0b3954;color:#fff}\n.entry-content p{margin:0}\n"
        b"</style>\n") + page,
    "a cut-off comment": lambda page: BLANK_LINES + b" cache: hit, node 4 -->\n" + page,
    "a PHP warning": lambda page: BLANK_LINES + (
        b"<br />\n<b>Warning</b>:  Undefined variable $sidebar in <b>/var/www/html/wp-content/"
        b"themes/tidewater/header.php</b> on line <b>12</b><br />\n") + page,
    "70 KB of blank lines before a cut-off script": lambda page: b"\n" * 70_000 + SCRIPT_END + page,
}

# Class e: a garbled <html> start tag, or the document closed early.
GARBLED = {
    "<html<head>": lambda page: page.replace(HTML_START + b"\n<head>", b"<html<head>", 1),
    "<htm lang=en>": start_tag(b"<htm lang=en>"),
    "<<html>": start_tag(b'<<html lang="en-GB">'),
    "an unclosed quote": start_tag(b'<html lang="en-GB class="no-js">'),
    "an unclosed quote and no >": start_tag(b'<html lang="en-GB'),
    "an unclosed single quote": start_tag(b"<html lang='en-GB>"),
    "a self-closed <html/>": start_tag(b'<html lang="en-GB" />'),
    "the start tag as an end tag": start_tag(b'</html lang="en-GB">'),
    "an empty <html></html> first": start_tag(HTML_START + b"</html>"),
    "an unclosed doctype": lambda page: page.replace(b"<!DOCTYPE html>", b"<!DOCTYPE html", 1),
    "</body></html> after the header": lambda page: page.replace(
        HEADER_END, b"</header>\n</body>\n</html>\n" + HEADER_END[len(b"</header>\n"):], 1),
}


@pytest.fixture(scope="module")
def clean_text() -> str:
    extraction = extract(ARTICLE)
    assert extraction.reason is None and "first crossing" in extraction.text
    return extraction.text


@pytest.mark.parametrize("damage", LEADING.values(), ids=LEADING.keys())
def test_a_page_behind_blank_lines_and_cut_off_code_is_read_whole(damage, clean_text):
    assert extract(damage(ARTICLE)).text == clean_text


@pytest.mark.parametrize("damage", GARBLED.values(), ids=GARBLED.keys())
def test_a_garbled_html_start_tag_or_an_early_end_loses_nothing(damage, clean_text):
    assert extract(damage(ARTICLE)).text == clean_text


def lines_of(text: str) -> set[str]:
    return {" ".join(line.split()) for line in text.split("\n\n")}


@pytest.mark.parametrize("name, post, absent", [
    ("blog_short_post.html",
     ["Three hours from Vienna, and the light kept changing.",
      "Bring bread: the dining car closes early."],
     ["railway engineer", "Blogroll", "Seat 61"]),
    ("blog_short_post_widgets.html",
     ["Heute Nacht minus zwei Grad. Die Dahlien sind hin, der Grünkohl freut sich.",
      "Morgen kommen die Knollen in den Keller."],
     ["Ich heiße Jonas", "Neueste Beiträge", "Werkzeug"]),
])
def test_b_a_short_post_wins_over_the_about_me_box_of_the_sidebar(name, post, absent):
    text = extract(fixture(name)).text
    assert all(line in text for line in post)
    assert not any(phrase in text for phrase in absent)


@pytest.mark.parametrize("name, items, absent", [
    ("report_contents.html",
     ["Summary of findings", "Methods and data sources", "Water quality by river basin",
      "Outlook for 2030", "Annex: list of measuring stations"],
     ["four hundred measuring stations", "Related publications", "Privacy"]),
    ("link_collection.html",
     ["National Rowing Federation", "Harbour Regatta", "Eastbridge Boat Club",
      "Tide tables for the estuary"],
     ["Juniors train on Saturday mornings", "Learn to row", "Registered charity"]),
])
def test_c_main_content_that_is_a_list_of_links_is_kept(name, items, absent):
    found = lines_of(extract(fixture(name)).text)
    assert all(item in found for item in items)
    assert not any(phrase in line for phrase in absent for line in found)


@pytest.mark.parametrize("name, sentence, absent", [
    ("notice_one_sentence.html",
     "This jacket is no longer sold; its successor, the Trailrunner 4, is lighter and comes "
     "in two more colours.", ["since 1987", "Free delivery"]),
    ("event_cancelled.html", "Cancelled because of the storm warning.",
     ["Home » Events", "Data protection"]),
])
def test_d_a_page_whose_main_text_is_one_sentence_keeps_it(name, sentence, absent):
    extraction = extract(fixture(name))
    assert extraction.reason is None
    assert sentence in extraction.text
    assert not any(phrase in extraction.text for phrase in absent)
