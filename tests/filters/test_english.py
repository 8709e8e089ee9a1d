# ruff: noqa: RUF001  (the marks spaCy treats apart are the point of these strings)
"""``filters.english`` cuts English text into the tokens and sentences spaCy's blank English
pipeline makes (what datatrove's quality filters count), checked token by token against spaCy:
on real English pages (the sample WARC's, the scrapinghub gold articles), on strings that take
each of the tokeniser's paths, and on random mixtures of them."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corpusbot.filters import english
from corpusbot.filters.english import SPECIAL_CASES, english_sentences, english_tokens
from tests.conftest import bench_dir, needs_bench

spacy = pytest.importorskip("spacy", reason="spaCy is in the test extra")

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def nlp():
    pipeline = spacy.blank("en")
    pipeline.add_pipe("sentencizer")
    return pipeline


def spacy_tokens(nlp, text: str) -> list[str]:
    """spaCy's tokens as datatrove keeps them: whitespace tokens left out."""
    nlp.max_length = max(len(text) + 10, 1_000_000)
    return [token.text.strip() for token in nlp.make_doc(text) if token.text.strip()]


def spacy_sentences(nlp, line: str) -> int:
    nlp.max_length = max(len(line) + 10, 1_000_000)
    return len(list(nlp(line).sents))


def first_difference(nlp, text: str) -> tuple | None:
    theirs, ours = spacy_tokens(nlp, text), english_tokens(text)
    if theirs == ours:
        return None
    at = next((i for i, (a, b) in enumerate(zip(theirs, ours, strict=False)) if a != b),
              min(len(theirs), len(ours)))
    return theirs[max(at - 3, 0):at + 3], ours[max(at - 3, 0):at + 3]


@pytest.fixture(scope="module")
def sample_english_texts() -> list[str]:
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        from quality_texts import sample_texts
    finally:
        sys.path.remove(str(REPO / "benchmarks"))
    texts = [r["text"] for r in sample_texts(REPO / "sample" / "sample.warc.gz")
             if r["lang"] == "en"]
    assert len(texts) >= 10
    return texts


def test_tokens_are_spacys_on_the_sample_pages(nlp, sample_english_texts):
    differences = [d for text in sample_english_texts
                   for paragraph in text.split("\n\n") if (d := first_difference(nlp, paragraph))]
    assert differences == []


def test_sentences_are_spacys_on_every_line_of_the_sample_pages(nlp, sample_english_texts):
    lines = [line.strip() for text in sample_english_texts for line in text.splitlines()
             if line.strip()]
    assert len(lines) > 300
    assert [(line, english_sentences(line)) for line in lines
            if english_sentences(line) != spacy_sentences(nlp, line)] == []


@needs_bench
def test_tokens_are_spacys_on_every_scrapinghub_gold_article(nlp):
    truth = json.loads((bench_dir() / "scrapinghub" / "ground-truth.json").read_text())
    texts = [page["articleBody"] for page in truth.values() if page.get("articleBody")]
    assert len(texts) > 100
    assert [d for text in texts if (d := first_difference(nlp, text))] == []


TRICKY = [
    # contractions, with either apostrophe, and the words that look like them without one
    "I don't know, she can't say and they'd've gone; y'all ain't ready. Don’t, won’t.",
    "He'll shed his shell well; its lets were ill. Cannot, gonna, gotta, c'mon, C'mon.",
    "'em 'cause o'clock ma'am doin' nothin' ’tis '90s rock'n'roll O'Neil L'Oréal dogs' cat's",
    # abbreviations and initials keep their period, a sentence's last word loses it
    "Mr. Smith met Dr. J. R. Jones of Washington, D.C. at 5 p.m. on Jan. 3, i.e. today. vs. etc.",
    "U.S. e.g., i.e.,Then A.B.C. Ph.D. No. 5 St. Louis, Mo. and N.Y. x.Y a.B ab.Cd Mr.Smith",
    # numbers, units and currencies
    "It costs $5, €10.50, US$20, 10US$ or 5$; 10km, 3.5kg, 20°C. and 5°C, 10km² at 1,000.",
    "Scores 3-4, 1-2-3, 2^3 and 2*3; 10:30am 5pm 5p.m. -1 +1 1+ a+b 50% 3.14. ½ ③ x²",
    # hyphens, slashes, dashes and ellipses
    "A well-known and/or w/o state-of-the-art x--y x---y x—y 1990–2000 wait... what…? so..",
    # addresses keep whole
    "See https://example.com/a?b=1&c=2, www.example.org/x. or mail me@example.com; 8.8.8.8/dns",
    # brackets, quotes and emoticons
    "(see page 8) and [note 2]. “Quoted,” he said: ‘yes’. «Non» :) ;-) <3 ^_^ :-( (:x) ¯\\(ツ)/¯",
    # symbols and emoji split off
    "Price → lower © 2024 ® ™ ✓ done 😀 great ★★★ ►next",
    # other scripts inside English text
    "The word 한국어. and عربي. and हिन्दी। and Привет, мир. and Αθήνα. and 日本語。",
    # special cases chosen as spaCy's matcher chooses them, across a space too
    "( :x..y a)\n: x.Y i.e.,5 \\\") <space> C++ 30g. 4am 11pm.",
    # whitespace that spaCy makes a token of
    "Two  spaces,\ta tab,\u00a0a no-break space \u2003 and an em space.",
    # hashes, ellipses and bullets that the Gopher rules count
    "#tag #another ... • item - item ## heading",
    "IS_ALPHA is a string that breaks spaCy's tokeniser in datatrove's code",
]


@pytest.mark.parametrize("text", TRICKY)
def test_tokens_are_spacys_on_tricky_strings(nlp, text):
    assert first_difference(nlp, text) is None


@pytest.mark.parametrize("line", [
    "One. Two! Three? Four.", "Mr. Smith went home. He slept.", "Done...  and then more.",
    "It ended.  ) A new one.", "3.14.  ! * ©", "A sentence.\tAnother one.", "Ok. “Quote.” Next.",
    "Wait… really? Yes!!! Fine.", "यह पहला वाक्य है। यह दूसरा है।", "这是第一句。这是第二句！",
])
def test_sentences_are_spacys_on_tricky_lines(nlp, line):
    assert english_sentences(line) == spacy_sentences(nlp, line)


PIECES = ["the", "The", "U.S.", "e.g.", "i.e.", "don't", "can't", "I'm", "it's", "dogs'", "'s",
          "Mr.", "St.", "10km", "$5", "5$", "€10", "10.5", "1,000", "3-4", "well-known", "and/or",
          "http://x.com/a?b=1", "www.example.com", "...", "…", "--", "—", "–", "(", ")", "[",
          "\"", "'", "“", "”", "‘", "’", "!", "?", ".", ",", ";", ":", "#", "&", "*", "%", "+",
          "/", "<", ">", "😀", "→", "©", "°C", "5°C.", "x.Y", "a.B", "1/2", "10:30", "½",
          "naïve", "Straße", "ok.", "OK.", "A.", "b.", "5pm", "'em", "y'all", "gonna", "o'clock",
          ":)", "<3", "^_^", "x²", "US$10", "1.", "a)", "(a", "etc.", "Jan.", "foo.Bar",
          "A.B.C.", "x...", "x--y", "-1", "2^3", "Привет", "мир.", "Αθήνα.", "日本語", "한국어.",
          "عربي.", "हिन्दी।", "rock'n'roll", "’tis", "O'Neil"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(PIECES),
                          st.sampled_from([" ", " ", " ", "", "\n", "  ", "\t"])),
                min_size=1, max_size=8))
def test_tokens_and_sentences_are_spacys_on_mixtures(nlp, parts):
    text = "".join(piece + gap for piece, gap in parts).strip()
    assert english_tokens(text) == spacy_tokens(nlp, text)
    if text and "\n" not in text:
        assert english_sentences(text) == spacy_sentences(nlp, text)


def test_the_special_cases_are_spacys():
    rules = spacy.blank("en").tokenizer.rules
    expected = {text: [piece[65] for piece in pieces]  # 65: spaCy's ORTH attribute id
                for text, pieces in rules.items() if not text.isspace()}
    assert SPECIAL_CASES == expected


def test_sentence_ends_are_the_sentencizers():
    from spacy.pipeline.sentencizer import Sentencizer

    assert english._SENTENCE_ENDS == set(Sentencizer.default_punct_chars)


def test_symbols_and_sentence_ends_are_datatroves():
    text_module = pytest.importorskip("datatrove.utils.text")
    assert set(english.SYMBOLS) == text_module.PUNCTUATION_SET
    assert set(english.DATATROVE_TERMINAL_PUNCTUATION) == set(text_module.TERMINAL_PUNCTUATION)


def _characters(pattern: str) -> set[int]:
    matcher = re.compile(f"[{pattern}]")
    return {code for code in range(0x30000)
            if not 0xD800 <= code <= 0xDFFF and matcher.match(chr(code))}


@pytest.mark.parametrize(("ours", "theirs"), [("_LOWER", "ALPHA_LOWER"),
                                              ("_UPPER", "ALPHA_UPPER"), ("_ALPHA", "ALPHA")])
def test_letter_classes_are_spacys(ours, theirs):
    from spacy.lang import char_classes

    assert _characters(getattr(english, ours)) == _characters(getattr(char_classes, theirs))
