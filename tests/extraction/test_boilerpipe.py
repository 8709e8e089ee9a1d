"""The ArticleExtractor heuristics around the shallow-text classifier."""

from __future__ import annotations

import lxml.html
import pytest
from lxml import etree

from corpusbot.extraction.boilerpipe import article as bp
from corpusbot.extraction.boilerpipe import shallowtext as st
from corpusbot.extraction.boilerpipe.shallowtext import Label, Unit
from corpusbot.html import blocks as blocks_mod
from corpusbot.html.blocks import Block


def block(words: int = 0, links: int = 0, text: str | None = None) -> Block:
    """A block of ``words`` words, the first ``links`` of them inside anchors."""
    text = text if text is not None else " ".join(["word"] * words)
    return Block(element=etree.Element("p"), dom_path="html.body.p", position=0, text=text,
                 link_chars=len(" ".join(["word"] * links)), link_words=links)


def unit(words: int = 10, content: bool = False, *, level: int = 3, labels=(),
         offset: int = 0, links: int = 0, density: int = 5) -> Unit:
    """A unit of ``words`` words on lines of ``density`` words (sparse by default)."""
    return Unit(blocks=[block(words, links)], words=words, anchor_words=links,
                wrapped_words=words, wrapped_lines=max(1, words // density), tag_level=level,
                start=offset, end=offset, labels=set(labels), content=content)


def segment(html: str) -> list[Block]:
    return blocks_mod.segment(lxml.html.document_fromstring(html))


# -- article heuristics -------------------------------------------------------


@pytest.mark.parametrize("text", [
    "Comments (12)", "12 comments so far", "Post a comment below", "Tell us what you think...",
    "Have your say on this", "Comment", "[ 167 comments ]", "34 responses to this story",
    "© 2019 Daily News Inc.", "Copyright © 2019 Daily News", "Daily News. All rights reserved.",
])
def test_terminating_phrases(text):
    assert bp.is_terminating(text)


@pytest.mark.parametrize("text", [
    "Commentary", "The committee said", "Reuters", "© AFP / Getty Images", "Photo: © Reuters",
])
def test_ordinary_text_is_not_terminating(text):
    assert not bp.is_terminating(text)


def test_long_blocks_never_terminate():
    units = st.to_units([block(text="Comments " + "word " * 20)])
    bp.find_terminating_blocks(units)
    assert Label.END_OF_TEXT not in units[0].labels


def test_potential_titles_include_the_headline_part():
    titles = bp.potential_titles("Storm hits the coast | Daily News")
    assert {"storm hits the coast daily news", "storm hits the coast"} <= titles


def test_potential_titles_skip_domain_parts():
    titles = bp.potential_titles("Storm | news.example.com portal for all news")
    assert "news example com portal for all news" not in titles


def test_potential_titles_split_at_typographic_dashes():
    assert "hund vertreibt einbrecher" in bp.potential_titles(
        "Hund vertreibt Einbrecher — Hildesheimer Presse")


def test_match_title_labels_the_first_equal_block():
    units = st.to_units([block(text="Menu"), block(text="Storm hits the “coast”!"),
                         block(text="Storm hits the coast")])
    bp.match_title(units, ["Storm hits the coast - Daily News"])
    assert [Label.TITLE in u.labels for u in units] == [False, True, False]


def test_match_title_uses_og_title():
    units = st.to_units([block(text="Storm hits the coast")])
    bp.match_title(units, ["Daily News", "Storm hits the coast"])
    assert Label.TITLE in units[0].labels


def test_blocks_after_end_mark_are_ignored_once_content_came_first():
    units = [unit(70, True, density=12), unit(3, labels=[Label.END_OF_TEXT]), unit(70, True)]
    bp.ignore_blocks_after_content(units)
    assert [u.content for u in units] == [True, False, False]


def test_end_mark_before_enough_content_is_ignored():
    units = [unit(59, True, density=12), unit(3, labels=[Label.END_OF_TEXT]), unit(70, True)]
    bp.ignore_blocks_after_content(units)
    assert [u.content for u in units] == [True, False, True]


def test_content_before_the_title_does_not_count_towards_the_end():
    units = [unit(70, True, density=12), unit(5, labels=[Label.TITLE]),
             unit(3, labels=[Label.END_OF_TEXT]), unit(70, True)]
    bp.ignore_blocks_after_content(units)
    assert [u.content for u in units] == [True, False, False, True]


def test_trailing_headlines_become_boilerplate():
    units = [unit(5, True, labels=[Label.HEADING]), unit(50, True),
             unit(5, True, labels=[Label.HEADING]), unit(5, False)]
    bp.trailing_headlines_to_boilerplate(units)
    assert [u.content for u in units] == [True, True, False, False]


def test_fusion_absorbs_content_into_the_unit_before():
    units = [unit(5, False, offset=0), unit(50, True, offset=1), unit(5, False, offset=2)]
    fused = bp.fuse_by_proximity(units, content_only=False, same_tag_level=False)
    assert len(fused) == 2 and fused[0].content and fused[0].words == 55


def test_fusion_link_list_absorbs_no_content():
    units = [unit(5, False, offset=0, links=5), unit(50, True, offset=1)]
    fused = bp.fuse_by_proximity(units, content_only=False, same_tag_level=False)
    assert fused == units and not units[0].content


def test_fusion_keeps_every_block_and_its_element():
    originals = [block(5), block(50), block(40)]
    units = st.to_units(originals)
    for u in units:
        u.content = True
    fused = bp.fuse_by_proximity(units, content_only=True, same_tag_level=False)
    assert len(fused) == 1
    assert fused[0].blocks == originals
    assert [b.element for b in fused[0].blocks] == [b.element for b in originals]


def test_fusion_bridges_one_removed_block_but_not_two():
    units = [unit(50, True, offset=0), unit(50, True, offset=2), unit(50, True, offset=5)]
    fused = bp.fuse_by_proximity(units, content_only=True, same_tag_level=False)
    assert [u.words for u in fused] == [100, 50]


def test_fusion_same_tag_level_only():
    units = [unit(50, True, level=3, offset=0), unit(50, True, level=4, offset=1)]
    assert len(bp.fuse_by_proximity(units, content_only=True, same_tag_level=True)) == 2


def test_drop_boilerplate_keeps_the_title():
    units = [unit(5, labels=[Label.TITLE]), unit(5), unit(50, True)]
    assert bp.drop_boilerplate(units) == [units[0], units[2]]


def test_keep_largest_unit_and_expand_to_its_tag_level():
    units = [unit(200, True, level=3), unit(149, True, level=3), unit(300, True, level=3),
             unit(200, True, level=4), unit(400, False, level=3)]
    bp.keep_largest_unit(units)
    assert [u.content for u in units] == [True, False, True, False, True]
    assert Label.VERY_LIKELY_CONTENT in units[2].labels
    assert Label.MIGHT_BE_CONTENT in units[0].labels


def test_expansion_takes_full_text_at_the_same_level_or_deeper():
    units = [unit(20, True, level=5, density=12), unit(300, True, level=3),
             unit(20, True, level=4, density=12), unit(20, True, level=4, density=5),
             unit(20, True, level=3, density=12)]
    bp.keep_largest_unit(units)
    assert [u.content for u in units] == [True, True, True, False, True]


def test_expansion_stops_at_a_shallower_unit():
    units = [unit(200, True, level=3), unit(5, False, level=2), unit(300, True, level=3)]
    bp.keep_largest_unit(units)
    assert [u.content for u in units] == [False, False, True]


def test_expand_title_to_content():
    units = [unit(5), unit(5, labels=[Label.TITLE]), unit(5), unit(300, True), unit(5)]
    bp.keep_largest_unit(units)
    bp.expand_title_to_content(units)
    assert [u.content for u in units] == [False, True, True, True, False]


def test_large_units_at_the_main_tag_level_become_content():
    units = [unit(300, True, level=3), unit(100, False, level=3), unit(100, False, level=4),
             unit(99, False, level=3)]
    bp.keep_largest_unit(units)
    bp.large_units_at_tag_level_to_content(units)
    assert [u.content for u in units] == [True, True, False, False]


def test_list_at_end_becomes_content():
    units = [unit(300, True, level=3), unit(5, level=4, labels=[Label.LI]),
             unit(5, level=4, labels=[Label.LI], links=5), unit(5, level=4, labels=[Label.LI])]
    bp.keep_largest_unit(units)
    bp.list_at_end_to_content(units)
    assert [u.content for u in units] == [True, True, False, False]


# -- the whole chain ----------------------------------------------------------

ARTICLE = """<html><body>
<div id="nav"><ul><li><a href="/">Home</a></li><li><a href="/w">World</a></li>
<li><a href="/s">Sport</a></li></ul></div>
<div id="main"><h1>Storm hits the coast</h1>
<p>{p1}</p><p>{p2}</p><h2>Related</h2></div>
<div id="foot"><p>Comments (3)</p><p>{p3}</p></div>
</body></html>"""


def test_select_keeps_the_article_with_its_title():
    sentence = "The storm reached the coast early on Monday with strong winds and rain. "
    html = ARTICLE.format(p1=sentence * 4, p2=sentence * 3, p3=sentence * 3)
    chosen = bp.select(segment(html), title="Storm hits the coast | Daily News")
    texts = [b.text for b in chosen]
    assert texts[0] == "Storm hits the coast"
    assert len(texts) == 3
    assert all(b.element.tag in {"h1", "p"} for b in chosen)


def test_classify_is_the_bare_classifier():
    blocks = [block(3), block(30), block(2, links=2), block(20)]
    assert bp.classify(blocks) == st.classify(blocks) == [True, True, False, False]


def test_select_of_nothing_is_nothing():
    assert bp.select([]) == []
    assert bp.classify([]) == []


def test_select_keeps_a_lone_content_block():
    lone = block(30)
    assert bp.select([lone], title="Unrelated") == [lone]


def test_selected_blocks_are_the_input_objects_in_document_order():
    sentence = "The storm reached the coast early on Monday with strong winds and rain. "
    blocks = segment(ARTICLE.format(p1=sentence * 4, p2=sentence * 3, p3=sentence * 3))
    chosen = bp.select(blocks, title="Storm hits the coast")
    positions = [next(i for i, b in enumerate(blocks) if b is c) for c in chosen]
    assert positions == sorted(positions)
