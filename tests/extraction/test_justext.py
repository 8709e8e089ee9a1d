"""jusText's rules, one test each, the other thresholds neutralised."""

from __future__ import annotations

from lxml import etree

from corpusbot.extraction.justext import Class, Settings, classify_context_free, justext, revise
from corpusbot.html.blocks import Block

STOP = frozenset({"the", "a", "of", "and", "is", "in"})


def block(text: str, *, links: int = 0, path: str = "html.body.p") -> Block:
    return Block(element=etree.Element("p"), dom_path=path, position=0, text=text, link_chars=links)


def grammatical(n_chars: int) -> str:
    """Text with stop-word density 0.5 and about ``n_chars`` characters."""
    words = []
    while len(" ".join(words)) < n_chars:
        words += ["the", "word"]
    return " ".join(words)


def non_grammatical(n_chars: int) -> str:
    return " ".join(["word"] * (n_chars // 5 + 1))


def cf(b: Block, **settings) -> Class:
    return classify_context_free(b, STOP, Settings(**settings))


# context-free classification


def test_link_density_above_max_is_bad():
    text = grammatical(300)
    assert cf(block(text, links=int(len(text) * 0.21))) is Class.BAD
    assert cf(block(text, links=int(len(text) * 0.19))) is Class.GOOD


def test_link_density_threshold_is_settable():
    text = grammatical(300)
    assert cf(block(text, links=int(len(text) * 0.5)), max_link_density=0.6) is Class.GOOD


def test_copyright_sign_is_bad():
    assert cf(block(grammatical(300) + " \u00a9 2024")) is Class.BAD
    assert cf(block(grammatical(300) + " &copy 2024")) is Class.BAD


def test_inside_select_is_bad():
    assert cf(block(grammatical(300), path="html.body.select.option")) is Class.BAD


def test_short_without_link_is_short_and_with_link_is_bad():
    assert cf(block("the short one")) is Class.SHORT
    assert cf(block("the short one", links=3)) is Class.BAD


def test_length_low_is_settable():
    assert cf(block(grammatical(50)), length_low=40, length_high=45) is Class.GOOD


def test_high_stopword_density_long_is_good_medium_is_near_good():
    assert cf(block(grammatical(201))) is Class.GOOD
    assert cf(block(grammatical(150))) is Class.NEAR_GOOD


def test_stopword_thresholds_are_inclusive():
    # 8 stop words in 25: density exactly 0.32 -> high; 0.30 -> medium
    text = " ".join(["the"] * 8 + ["word"] * 17) + " " + non_grammatical(200)
    density = 8 / len(text.split())
    assert cf(block(text), stopwords_high=density) is Class.GOOD
    assert cf(block(text), stopwords_low=density, stopwords_high=0.99) is Class.NEAR_GOOD


def test_medium_stopword_density_is_near_good_and_low_is_bad():
    assert cf(block(grammatical(300)), stopwords_low=0.4, stopwords_high=0.9) is Class.NEAR_GOOD
    assert cf(block(non_grammatical(300))) is Class.BAD


# context-sensitive classification


def run(classes: list[Class], headings: list[bool] | None = None, **settings) -> list[Class]:
    blocks = [block("x" * 10) for _ in classes]
    return revise(blocks, classes, headings or [False] * len(classes), Settings(**settings))


G, B, N, S = Class.GOOD, Class.BAD, Class.NEAR_GOOD, Class.SHORT


def test_short_between_good_is_good_and_between_bad_is_bad():
    assert run([G, S, S, G]) == [G, G, G, G]
    assert run([B, S, B]) == [B, B, B]


def test_document_edges_count_as_bad():
    assert run([S, G]) == [B, G]
    assert run([G, N]) == [G, G]
    assert run([N]) == [B]


def test_short_between_good_and_bad_is_good_only_with_near_good_towards_bad():
    assert run([G, S, N, B]) == [G, G, G, B]
    assert run([G, S, B]) == [G, B, B]


def test_near_good_is_bad_only_between_bad():
    assert run([B, N, B]) == [B, B, B]
    assert run([B, N, G]) == [B, G, G]


def test_heading_postprocessing_restores_non_bad_heading_before_good():
    out = run([B, S, B, G], headings=[False, True, False, False])
    assert out == [B, G, B, G]


def test_heading_postprocessing_respects_distance():
    # 10 characters per block; a distance of 5 stops before the good block
    out = run([B, S, B, B, G], headings=[False, True, False, False, False], max_heading_distance=5)
    assert out[1] is B


def test_heading_postprocessing_keeps_context_free_bad_headings_bad():
    assert run([B, B, G], headings=[False, True, False]) == [B, B, G]


def test_no_headings_option_disables_heading_rules():
    blocks = [block("bad " * 30), block("Heading", path="html.body.h2"), block(grammatical(300))]
    classes = justext(blocks, STOP, Settings(no_headings=True, length_low=20))
    assert classes[1] is Class.BAD
    classes = justext(blocks, STOP, Settings(length_low=20))
    assert classes[1] is Class.GOOD


def test_heading_preprocessing_promotes_short_heading_when_asked():
    # a short heading before good text becomes near-good, and so rescues the
    # short block between it and the good text
    out = run([B, S, S, G], headings=[False, True, False, False], heading_preprocessing=True)
    assert out == [B, G, G, G]
    out = run([B, S, S, G], headings=[False, True, False, False])
    assert out[2] is B
