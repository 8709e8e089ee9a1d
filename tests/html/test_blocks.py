"""Segmentation into blocks: jusText's rules, with element references kept."""

from __future__ import annotations

from corpusbot.html import dom
from corpusbot.html.blocks import segment


def blocks_of(html: str):
    root = dom.parse_html(html)
    dom.strip_invisible(root)
    return segment(root)


def texts(html: str) -> list[str]:
    return [b.text for b in blocks_of(html) if b.text]


def test_block_level_tags_cut_blocks_and_inline_tags_do_not():
    html = "<body><div>one <b>bold</b> two<p>para</p>tail</div><ul><li>item</li></ul></body>"
    assert texts(html) == ["one bold two", "para", "tail", "item"]


def test_double_br_cuts_a_block_and_single_br_does_not():
    assert texts("<body><p>a<br>b<br><br>c</p></body>") == ["a b", "c"]


def test_whitespace_normalised_with_newlines_kept():
    assert texts("<body><p>a   b\n\n  c</p></body>") == ["a b\nc"]


def test_invisible_content_is_dropped_but_tails_stay():
    html = (
        "<html><head><title>T</title><style>s{}</style></head><body><p>x<script>var a;"
        "</script>y<noscript>ns</noscript>z<!-- c --></p><template><p>t</p></template>"
        "<select><option>o</option></select></body></html>"
    )
    assert texts(html) == ["xyz"]


def test_link_characters_and_words_counted():
    (block,) = blocks_of('<body><p>see <a href="/">two words</a> here</p></body>')
    assert block.link_chars == len("two words")
    assert block.link_words == 2
    assert block.link_density == len("two words") / len("see two words here")


def test_block_keeps_the_element_its_text_starts_in():
    (block,) = [b for b in blocks_of("<body><div><span>inline</span> text</div></body>") if b.text]
    assert block.element.tag == "span"
    assert block.element.getparent().tag == "div"


def test_dom_path_and_heading_flag():
    blocks = [b for b in blocks_of("<body><h2>Head <b>line</b></h2><p>x</p></body>") if b.text]
    assert blocks[0].dom_path == "html.body.h2"
    assert blocks[0].is_heading and not blocks[1].is_heading


def test_positions_follow_document_order():
    blocks = blocks_of("<body><p>a</p><p>b</p><p>c</p></body>")
    assert [b.position for b in blocks] == list(range(len(blocks)))


def test_copyright_flag():
    (block,) = blocks_of("<body><p>\u00a9 2024 Example</p></body>")
    assert block.has_copyright


def test_deep_nesting_is_bounded_by_the_parser():
    html = "<body>" + "<div>" * 100_000 + "deep" + "</div>" * 100_000 + "</body>"
    blocks = blocks_of(html)
    assert len(blocks) <= 1


def test_xml_declaration_is_tolerated():
    html = '<?xml version="1.0" encoding="utf-8"?><html><body><p>x</p></body></html>'
    assert texts(html) == ["x"]


def test_whitespace_only_text_between_inline_tags_keeps_words_apart():
    html = "<body><p><b>import</b> <i>os</i>\n<span>now</span></p></body>"
    assert texts(html) == ["import os now"]


def test_elements_the_page_hides_are_dropped_with_their_tails_kept():
    html = (
        '<body><div hidden><p>copy</p></div>a<p style="display: none">b</p>c'
        '<span aria-hidden="true">icon</span><p>shown</p></body>'
    )
    root = dom.parse_html(html)
    dom.strip_invisible(root)
    assert [b.text for b in segment(root) if b.text] == ["ac", "shown"]


def test_hidden_body_and_html_elements_still_count() -> None:
    # only elements inside <body> can be hidden from a reader; a flag on
    # <body> itself is a script's page state
    root = dom.parse_html('<html hidden=""><body style="display:none"><p>shown</p></body></html>')
    assert [b.text for b in segment(root)] == ["shown"]


def test_depth_counts_block_level_ancestors_only() -> None:
    root = dom.parse_html(
        "<body><div><p><a><b>x</b></a></p><ul><li>y</li></ul>z</div></body>")
    depths = {b.text: b.depth for b in segment(root)}
    # html, body, div, p; inline a and b do not count; li is one deeper
    assert depths == {"x": 4, "y": 5, "z": 3}
