"""The page head is read for titles and language hints before it is cut."""

from __future__ import annotations

import corpusbot
from corpusbot.html import dom
from corpusbot.language import identify as language


def head_of(html: str) -> dom.Head:
    return dom.read_head(dom.parse_html(html))


def test_titles_and_html_lang() -> None:
    head = head_of(
        '<html lang="de-AT"><head><title> Seite | Zeitung </title>'
        '<meta name="twitter:title" content="Die Seite"></head><body></body></html>')
    assert (head.title, head.og_title, head.lang) == ("Seite | Zeitung", "Die Seite", "de-AT")


def test_the_first_meta_naming_a_language_is_a_hint() -> None:
    head = head_of(
        '<html><head><meta property="og:title">'
        '<meta http-equiv="Content-Language" content="pt_BR">'
        '<meta property="og:locale" content="en_US"></head><body></body></html>')
    assert (head.og_title, head.lang, head.meta_lang) == (None, None, "pt_BR")


def test_a_meta_hint_confirmed_by_stop_words_skips_langdetect() -> None:
    paragraph = (
        "<p>Die Stadt hat am Montag beschlossen, dass die neue Brücke über den Fluss "
        "im nächsten Jahr gebaut wird, und der Bürgermeister sagte, dass es für "
        "die Menschen in der Region eine gute Nachricht ist, auf die sie lange gewartet haben.</p>"
    )
    html = ('<html><head><meta property="og:locale" content="de_DE"></head><body>'
            + paragraph * 3 + "</body></html>")
    found = corpusbot.extract(html)
    assert (found.language, found.language_source) == ("de", language.DECLARED_CONFIRMED)
    assert found.language_probability > 0.9


def test_a_body_nested_in_the_head_moves_back() -> None:
    root = dom.parse_html(
        "<html><head><title>T</title><mbox name='x'>\n<body class='page'><p>Text.</p></body></html>"
    )
    body = root.find("body")
    assert body is not None and body.get("class") == "page"
    assert body.findtext("p") == "Text." and root.find("head").find(".//p") is None


def test_body_content_left_in_the_head_moves_into_a_body() -> None:
    root = dom.parse_html("<html><head><title>T</title><mbox><p>Text.</p></html>")
    assert root.find("body/mbox/p").text == "Text."
    assert root.find("head/title").text == "T"


UNDATED_ARTICLE = (
    "<html><head><title>Ferry vote</title></head><body><nav><a href='/'>Home</a></nav>"
    "<article><h1>Coastal towns vote on a shared ferry</h1>"
    "<p class='byline'>By our desk, <span class='date'>18 November 2019</span></p>"
    "<p>The three councils met on Tuesday to agree on a shared ferry service.</p>"
    "</article></body></html>"
)


def test_trees_are_lxml_html_trees_whose_undeclared_date_is_read_in_place() -> None:
    from lxml import etree
    from lxml.html import HtmlElement

    from corpusbot.html.metadata import inferred_date

    root = dom.parse_html(UNDATED_ARTICLE)
    assert isinstance(root, HtmlElement) and all(
        isinstance(element, HtmlElement) for element in root.iter("p", "span"))
    markup = etree.tostring(root)
    assert inferred_date(root, "https://news.example/ferry") == "2019-11-18"
    assert etree.tostring(root) == markup  # htmldate prunes a copy, never the page's tree
    # a plain lxml tree (a library's own parse) is read from its markup, to the same day
    plain = etree.fromstring(UNDATED_ARTICLE, etree.HTMLParser())
    assert not isinstance(plain, HtmlElement)
    assert inferred_date(plain, "https://news.example/ferry") == "2019-11-18"


def test_a_nul_in_the_text_is_ignored_as_a_browser_ignores_it():
    html = "<html><body><p>The new bud\x00get for the parks</p></body></html>"
    for text in (html, html.encode()):
        root, _ = dom.parse_bounded(text)
        assert "".join(root.itertext()) == "The new budget for the parks"
