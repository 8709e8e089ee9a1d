"""Text after a premature ``</html>`` is read, as browsers read it (issue 19, class e)."""

from __future__ import annotations

import time

import pytest
from lxml import etree

from corpusbot.html import document_end, dom


def body_text(markup: bytes) -> str:
    root = dom.parse_html(markup)
    dom.strip_invisible(root)
    return " ".join(" ".join(root.itertext()).split())


@pytest.mark.parametrize("markup", [
    # a theme that closes the document after its header
    b"<html><head><title>T</title></head><body><header><a href='/'>Home</a></header>"
    b"</body></html>\n<div class='post'><p>The post itself.</p></div></body></html>",
    # a template's empty document before the page
    b"<html lang='en'></html>\n<head><title>T</title></head><body><p>The post itself.</p>",
    # the start tag written as an end tag
    b"</html lang='en'><head><title>T</title></head><body><p>The post itself.</p></body>",
    # upper case, and a space before the ">"
    b"<HTML><BODY><P>Menu</P></BODY></HTML >\n<P>The post itself.</P>",
])
def test_text_after_the_end_that_closes_the_document_is_kept(markup: bytes):
    assert "The post itself." in body_text(markup)


def test_a_page_pasted_inside_a_page_keeps_the_text_after_it_without_a_reparse():
    markup = (b"<html><body><div><p>Before.</p><html><head><title>x</title></head><body>"
              b"<p>Pasted.</p></body></html><p>After the pasted page.</p></div></body></html>")
    assert "After the pasted page." in body_text(markup)
    assert document_end.without_document_ends(markup) is None  # libxml2 reads on itself


@pytest.mark.parametrize("markup", [
    b"<html><body><p>Text.</p></body></html>\n\n",
    b"<html><body><p>Text.</p></body></html>\n<script>track('view');</script>\n<!-- 12 ms -->",
    b"<html><body><p>Text.</p></body></html><style>p{color:red}</style>",
])
def test_scripts_styles_and_comments_after_the_end_cause_no_second_parse(markup: bytes):
    assert document_end.without_document_ends(markup) is None


@pytest.mark.parametrize("markup", [
    b"<html><body><p>The last words of the page.</p></body></html>",
    b"<html><body><p>Footer &copy; 2024 Harbour&nbsp;News</p>&nbsp;</body></html>",
    b"<html><body><p>Text.</p><script>if (a < b && c > d) { go('x'); }</script></body></html>",
    b"<html><body><p>x</p><div></div><img src='a.png'><!-- end --></body></html>",
])
def test_a_page_read_to_its_end_is_recognised_from_its_tree(markup: bytes):
    root = etree.fromstring(markup, etree.HTMLParser())
    assert document_end.read_to_end(root, markup)


def test_a_tree_cut_at_an_early_end_is_not_taken_for_the_whole_page():
    markup = b"<html><body><p>Menu</p></body></html><p>Menu</p><p>The post itself.</p>"
    root = etree.fromstring(markup, etree.HTMLParser())
    assert not document_end.read_to_end(root, markup)


def test_the_search_after_the_end_is_linear_on_megabytes_of_script():
    markup = (b"<html><body><p>Text.</p></body></html><script>"
              + b"var a = b < c ? '<' : '>';\n" * 200_000 + b"</script>")
    started = time.perf_counter()
    assert document_end.without_document_ends(markup) is None
    assert time.perf_counter() - started < 0.5
