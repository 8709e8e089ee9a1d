"""Blocks inside containers the page names as boilerplate."""

from __future__ import annotations

import pytest

from corpusbot.extraction.default.containers import ContainerNames
from corpusbot.html import dom
from corpusbot.html.blocks import segment


def verdicts(body: str) -> dict[str, bool]:
    root = dom.parse_html(f"<html><body>{body}</body></html>")
    names = ContainerNames()
    return {b.text: names.is_boilerplate(b.element) for b in segment(root) if b.text}


@pytest.mark.parametrize(
    "container",
    [
        '<div class="comment-list">',
        '<div id="footer-links">',
        '<div class="cookie-banner">',
        '<div class="related-stories">',
        '<section class="share-tools">',
        '<div class="image-credit">',
        '<div class="saboxplugin-wrap">',
    ],
)
def test_named_boilerplate_containers(container: str):
    tag = container[1 : container.index(" ")]
    assert verdicts(f"{container}<p>inside</p></{tag}><p>outside</p>") == {
        "inside": True,
        "outside": False,
    }


def test_a_content_name_on_the_same_element_overrides():
    assert verdicts('<div class="article-footer"><p>x</p></div>') == {"x": False}


def test_byline_stays_boilerplate_beside_a_content_name():
    assert verdicts('<p class="article__byline">By A. Writer</p>') == {"By A. Writer": True}


@pytest.mark.parametrize("tag", ["aside", "footer", "figure", "figcaption", "time"])
def test_html5_boilerplate_elements(tag: str):
    assert verdicts(f"<{tag}><span>x</span></{tag}><p>y</p>") == {"x": True, "y": False}


def test_verdict_is_inherited_from_any_ancestor():
    body = '<div class="comments"><div class="content"><p>deep</p></div></div>'
    assert verdicts(body) == {"deep": True}


def test_sidebar_only_as_a_whole_class_word():
    body = '<div class="sidebar"><p>side</p></div><div class="has-sidebar"><p>main</p></div>'
    assert verdicts(body) == {"side": True, "main": False}


def test_repeated_names_keep_their_verdict():
    # one reading per class/id string serves every element that repeats it
    body = ('<div class="share"><p>a</p></div><div class="story"><p>b</p></div>'
            '<div class="share"><p>c</p></div><div class="story"><p>d</p></div>')
    assert verdicts(body) == {"a": True, "b": False, "c": True, "d": False}
