"""Boilerpipe's shallow text features and the paper's decision trees.

Classifier tests: three hand-made blocks, the middle one is classified; each
test walks one branch of the published decision tree, the other features
kept neutral.
"""

from __future__ import annotations

import pytest
from lxml import etree

from corpusbot.extraction.boilerpipe import shallowtext as st
from corpusbot.html import dom
from corpusbot.html.blocks import Block, segment


def block(words: int = 0, links: int = 0, tag: str = "p", text: str | None = None) -> Block:
    """A block of ``words`` words, the first ``links`` of them inside anchors."""
    text = text if text is not None else " ".join(["word"] * words)
    return Block(element=etree.Element(tag), dom_path=f"html.body.{tag}", position=0,
                 text=text, link_chars=len(" ".join(["word"] * links)), link_words=links)


def middle(prev: Block, cur: Block, nxt: Block, rules: str = "num_words") -> bool:
    return st.classify([prev, cur, nxt], rules=rules)[1]


# -- features -----------------------------------------------------------------


def test_words_count_tokens_with_letters_or_digits():
    assert st.count_words("Hello , world 42 -- ok")[0] == 4


def test_text_density_wraps_lines_at_80_characters():
    words, wrapped_words, lines = st.count_words(" ".join(["abcd"] * 40))
    # 16 words of 5 characters fill an 80-character line; 8 are left over
    assert (words, wrapped_words, lines) == (40, 32, 2)


def test_short_block_density_is_its_word_count():
    assert st.count_words("three short words") == (3, 3, 1)


def test_cjk_text_counts_characters_per_word():
    words = st.count_words("中华人民共和国成立")[0]
    assert words == -(-9 // st.CJK_CHARS_PER_WORD)


def test_link_density_is_anchor_words_over_words():
    (u,) = st.to_units([block(10, links=4)])
    assert u.link_density == pytest.approx(0.4)


def test_cjk_link_density_uses_the_anchor_share_of_characters():
    b = Block(element=etree.Element("p"), dom_path="html.body.p", position=0,
              text="新闻新闻新闻新闻", link_chars=4, link_words=1)
    (u,) = st.to_units([b])
    assert u.link_density == pytest.approx(0.5)


def test_tag_level_is_the_blocks_block_level_depth():
    root = dom.parse_html("<body><div><p><a><b>x</b></a></p><ul><li>y</li></ul></div></body>")
    units = st.to_units(segment(root))
    assert [u.tag_level for u in units] == [4, 5]


def test_path_labels_heading_and_list_item_each_unit_its_own_set():
    def on(path: str) -> Block:
        return Block(element=etree.Element("p"), dom_path=path, position=0, text="word")

    units = st.to_units([on("html.body.h2"), on("html.body.ul.li"), on("html.body.h2"),
                         on("html.body.div")])
    assert [u.labels for u in units] == [
        {st.Label.HEADING}, {st.Label.LI}, {st.Label.HEADING}, set()]
    # later filters add labels to one unit only
    units[0].labels.add(st.Label.TITLE)
    assert units[2].labels == {st.Label.HEADING}


def test_empty_blocks_are_skipped():
    assert st.classify([block(text=" "), block(30)]) == [False, True]


# -- the number-of-words tree -------------------------------------------------


def test_rule_high_link_density_is_boilerplate():
    assert not middle(block(50), block(50, links=20), block(50))


def test_rule_long_block_is_content():
    assert middle(block(5), block(17), block(0))


def test_rule_short_block_before_long_block_is_content():
    assert middle(block(0), block(5), block(16))


def test_rule_short_block_after_block_of_five_words_is_content():
    assert middle(block(5), block(5), block(5))


def test_rule_short_block_among_short_blocks_is_boilerplate():
    assert not middle(block(4), block(16), block(15))


def test_rule_after_link_list_long_block_is_content():
    assert middle(block(10, links=6), block(41), block(0))


def test_rule_after_link_list_block_before_long_block_is_content():
    assert middle(block(10, links=6), block(40), block(18))


def test_rule_after_link_list_short_blocks_are_boilerplate():
    assert not middle(block(10, links=6), block(40), block(17))


def test_document_edges_count_as_empty_blocks():
    assert st.classify([block(10)]) == [False]


# -- the text-density tree ----------------------------------------------------


def dense(lines: int) -> Block:
    """A block whose text density is about 13 (full lines of 4-letter words)."""
    return block(16 * lines + 1)


def test_density_rule_high_link_density_is_boilerplate():
    assert not middle(dense(2), block(50, links=20), dense(2), "density")


def test_density_rule_dense_block_before_text_is_content():
    assert middle(block(5), dense(2), block(3), "density")


def test_density_rule_dense_block_at_the_end_is_boilerplate():
    assert not middle(block(5), dense(2), block(text=""), "density")


def test_density_rule_sparse_block_before_dense_block_is_content():
    assert middle(block(0), block(5), dense(2), "density")


def test_density_rule_sparse_block_after_block_of_five_is_content():
    assert middle(block(5), block(5), block(5), "density")


def test_density_rule_sparse_blocks_are_boilerplate():
    assert not middle(block(4), block(9), block(10), "density")


def test_density_rule_after_link_list_needs_dense_next_block():
    links = block(10, links=6)
    assert middle(links, block(5), dense(2), "density")
    assert not middle(links, block(5), block(11), "density")


def test_a_token_is_a_word_when_it_holds_a_letter_or_digit_anywhere():
    from corpusbot.extraction.boilerpipe.shallowtext import all_words

    assert all_words("a (b) «c» -1- ½ ٣ _x_".split())
    for symbol in ("-", "|", "...", "_", "«»", "—", "•"):
        assert not all_words(["word", symbol, "word"]), symbol
    assert all_words([])
