"""The grandparent filter on hand-built trees."""

from __future__ import annotations

import lxml.html
import pytest
from lxml import etree

from corpusbot.extraction import grandparent as gp
from corpusbot.html import blocks as blocks_mod

PAGE = """<html><body>
<div id="main">
  <div id="story">
    <p id="p1">First paragraph of the story, long enough to weigh.</p>
    <p id="p2">Second <b id="bold">paragraph</b> with <a id="link">a link</a>.</p>
    <ul id="list"><li id="li1"><span id="span">Item one</span></li></ul>
  </div>
  <div id="side"><p id="s1">Teaser</p></div>
</div>
<table id="tbl"><tr><td id="cell">Cell text</td></tr></table>
</body></html>"""


@pytest.fixture
def root():
    return lxml.html.document_fromstring(PAGE)


def by_id(root, ident):
    return root.get_element_by_id(ident)


def segment(html: str):
    return blocks_mod.segment(lxml.html.document_fromstring(html))


@pytest.mark.parametrize(("start", "expected"), [
    ("p1", "p1"),          # a paragraph tag maps to itself
    ("bold", "p2"),        # inline tags climb to their paragraph
    ("link", "p2"),
    ("span", "list"),      # <li> and <span> are not paragraph tags: up to <ul>
    ("li1", "list"),
    ("cell", "tbl"),       # td and tr climb to the table
])
def test_paragraph_of_is_the_innermost_paragraph_tag(root, start, expected):
    assert gp.paragraph_of(by_id(root, start)) is by_id(root, expected)


def test_paragraph_of_text_directly_in_body_is_body(root):
    body = root.find("body")
    assert gp.paragraph_of(body) is body


def test_paragraph_of_outside_every_paragraph_tag_is_the_root():
    root = etree.Element("html")
    span = etree.SubElement(root, "span")
    assert gp.paragraph_of(span) is root


@pytest.mark.parametrize(("n", "expected"), [(0, "p1"), (1, "story"), (2, "main")])
def test_ancestor_levels(root, n, expected):
    assert gp.ancestor(by_id(root, "p1"), n) is by_id(root, expected)


def test_ancestor_stops_at_the_root(root):
    assert gp.ancestor(by_id(root, "p1"), 50) is root


def test_groups_n1_split_story_and_side():
    blocks = segment(PAGE)
    found = gp.groups(blocks, n=1)
    keys = [k.get("id") for k in found]
    assert keys == ["story", "side", None]  # the table's parent is <body>
    assert [b.text for b in found[next(iter(found))]][:2] == [
        "First paragraph of the story, long enough to weigh.",
        "Second paragraph with a link.",
    ]


def test_groups_n2_joins_story_and_side_under_main():
    found = gp.groups(segment(PAGE), n=2)
    assert [k.get("id") or k.tag for k in found] == ["main", "html"]
    assert len(found[next(iter(found))]) == 4


def test_groups_n3_climbing_stops_at_the_root():
    # the story climbs p1 > story > main > body; the table reaches <html> in
    # two steps and stays there
    found = gp.groups(segment(PAGE), n=3)
    assert [k.tag for k in found] == ["body", "html"]
    assert [k.tag for k in gp.groups(segment(PAGE), n=4)] == ["html"]


def test_groups_skip_blocks_without_text():
    blocks = segment("<html><body><div><p>a</p><br><br></div></body></html>")
    assert all(b.text.strip() for bs in gp.groups(blocks).values() for b in bs)


def test_filter_keeps_the_group_with_most_characters():
    kept = gp.filter_blocks(segment(PAGE), n=1)
    assert [b.text for b in kept] == [
        "First paragraph of the story, long enough to weigh.",
        "Second paragraph with a link.",
        "Item one",
    ]


def test_filter_counts_characters_not_blocks():
    html = """<html><body>
      <div><div id="a"><p>x</p><p>y</p><p>z</p></div></div>
      <div><div id="b"><p>one long paragraph</p></div></div></body></html>"""
    assert [b.text for b in gp.filter_blocks(segment(html), n=1)] == ["one long paragraph"]


def test_filter_tie_goes_to_the_first_group_in_document_order():
    html = """<html><body>
      <div><div id="a"><p>abcd</p></div></div>
      <div><div id="b"><p>wxyz</p></div></div></body></html>"""
    assert [b.text for b in gp.filter_blocks(segment(html), n=1)] == ["abcd"]


def test_filter_keeps_input_order_and_block_objects():
    blocks = segment(PAGE)
    kept = gp.filter_blocks(blocks, n=2)
    assert all(any(k is b for b in blocks) for k in kept)
    assert [k.position for k in kept] == sorted(k.position for k in kept)


def test_filter_of_nothing_is_nothing():
    assert gp.filter_blocks([]) == []


def test_default_n_is_the_grandparent():
    assert gp.DEFAULT_N == 2
