"""Mojibake in the served text (UTF-8 read once as windows-1252 or Latin-1 and written back)
is undone; clean text in any language, accented letters beside quotes included, is left as
it is."""

# ruff: noqa: RUF001 (the samples are typographic text: curly quotes and dashes are the point)
from __future__ import annotations

import pytest

from corpusbot import extract
from corpusbot.document import Document
from corpusbot.html.mojibake import repair
from corpusbot.language import stoplists
from corpusbot.page import Page
from corpusbot.processor import Processor, ProcessorOptions


def damaged(text: str, codec: str = "cp1252") -> str:
    """``text`` as a program that read its UTF-8 bytes as ``codec`` wrote it back (the
    samples avoid the five bytes windows-1252 leaves undefined, which such a program loses)."""
    return text.encode("utf-8").decode(codec, errors="replace")


@pytest.mark.parametrize("clean", [
    "Now let’s take a peek at the rates – for members only.",
    "Made with Kevlar® and 360° bumpers, from €25",
    "Café au lait, «très» bon… à l’université",
])
def test_utf8_read_as_windows_1252_is_repaired(clean: str):
    assert damaged(clean) != clean
    assert repair(damaged(clean)) == clean


def test_utf8_read_as_latin_1_leaves_c1_controls_that_are_repaired():
    clean = "Because we’re used to it — W New York"
    broken = damaged(clean, "latin-1")
    assert "\x80" in broken or "\x92" in broken or "\x94" in broken
    assert repair(broken) == clean


@pytest.mark.parametrize("text", [
    "plain ASCII text, nothing to do",
    "n’état de bonne santé», résume quant à elle",
    "Straße über Äpfel; Zürich – Genève",
    "Zażółć gęślą jaźń — „cytat”",
    "机器学习是人工智能的一个分支。",
    "São Paulo: âge, château, naïve, Ångström",
])
def test_clean_text_is_returned_as_it_is(text: str):
    assert repair(text) is text


TITLE = "Pet insurance’s real cost"


def damaged_page(damage=damaged) -> bytes:
    """An article whose title and six paragraphs went through a windows-1252 round trip."""
    body = "".join(f"<p>{n}. Now let’s take a peek at what a policy costs – and why the "
                   "rates differ so much from one breed and one town to the next.</p>"
                   for n in range(6))
    return (f"<html lang='en'><head><meta charset='utf-8'><title>{damage(TITLE)}</title>"
            f"</head><body><article><h1>{damage(TITLE)}</h1>{damage(body)}</article>"
            "</body></html>").encode()


def test_an_extracted_page_has_its_text_and_title_repaired():
    result = extract(damaged_page())
    assert "let’s take a peek" in result.text and "â€" not in result.text
    assert result.title == TITLE


def test_no_stop_word_list_is_taken_for_mojibake():
    """Every list of ``stopwords/`` (real words of each language, accents and all), read as
    lines of twelve words so that pairs across words are tested too, comes back unchanged."""
    changed = []
    for code in sorted(stoplists.available_languages()):
        words = list(stoplists.stoplist(code))
        for start in range(0, len(words), 12):
            line = " ".join(words[start:start + 12])
            if repair(line) != line:
                changed.append((code, line))
    assert changed == []


def test_the_processor_counts_the_repair_as_an_edit_of_the_extract_step():
    """A record says what the extraction changed: paragraphs (and the title) repaired and the
    characters that left, under ``edit/extract/mojibake`` like the filters' edits."""
    result = extract(damaged_page())
    document = Processor(ProcessorOptions(overrides={"length.min_words": 0})).process(
        Page(url="https://example.org/a", body=damaged_page(),
             headers={"Content-Type": "text/html; charset=utf-8"}))
    assert isinstance(document, Document)
    assert document.edits == {"edit/extract/mojibake/lines": result.repaired_lines,
                              "edit/extract/mojibake/chars": result.repaired_chars}
    assert result.repaired_lines == 7  # six paragraphs and the title
    # each apostrophe and each dash was three characters: two of each paragraph, one of the title
    assert result.repaired_chars == 6 * 2 * 2 + 2


def test_a_clean_page_counts_no_repair():
    result = extract(damaged_page(damage=lambda text: text))
    assert "let’s take a peek" in result.text
    assert (result.repaired_lines, result.repaired_chars) == (0, 0)
