"""The public call: fields, options, and no exception for any input bytes."""

from __future__ import annotations

import random

import pytest

from corpusbot import Extraction, extract, extract_text
from corpusbot.extraction.mode_names import MODE_DEFAULT, MODE_NAMES
from corpusbot.extraction.modes import MODES
from corpusbot.html.bounds import MAX_HTML_CHARS

PARAGRAPH = (
    "Die Stadt hat am Montag mitgeteilt, dass die neue Brücke über den Fluss im Frühjahr "
    "eröffnet wird, nach zwei Jahren Bauzeit und einer langen Debatte über die Kosten. "
    "Die Anwohner hatten gebeten, die Arbeiten in der Nacht ruhen zu lassen, und die "
    "Stadt hat zugesagt, diese Bitte vor dem nächsten Bauabschnitt zu prüfen."
)
# three reports, a day apart (a page is rarely one paragraph given three times)
PARAGRAPHS = tuple(PARAGRAPH.replace("Montag", day) for day in ("Montag", "Dienstag", "Mittwoch"))
PAGE = (
    "<html><head><title>Brücke öffnet im Frühjahr</title></head><body>"
    "<h1>Brücke öffnet im Frühjahr</h1>" + "".join(f"<p>{p}</p>" for p in PARAGRAPHS)
    + "</body></html>"
)


def test_fields_of_an_extraction():
    result = extract(PAGE.encode("utf-8"), url="https://example.org/a")
    assert isinstance(result, Extraction)
    assert result.paragraphs == PARAGRAPHS
    assert result.text == "\n\n".join(result.paragraphs)
    assert result.title == "Brücke öffnet im Frühjahr"
    assert result.language == "de"
    assert 0.5 < result.language_probability <= 1.0
    assert result.mode == "default"
    assert result.encoding == "utf-8"
    assert result.reason is None


def test_explicit_language_skips_identification():
    result = extract(PAGE, lang="de")
    assert (result.language, result.language_probability) == ("de", 1.0)


def test_charset_from_headers_decodes_the_body():
    body = PAGE.encode("cp1252")
    result = extract(body, headers={"Content-Type": "text/html; charset=windows-1252"})
    assert result.paragraphs[0] == PARAGRAPH


@pytest.mark.parametrize("mode", ["default", "justext", "boilerpipe", "precise"])
def test_every_mode_extracts_the_article(mode: str):
    result = extract(PAGE, mode=mode)
    assert result.mode == mode
    assert PARAGRAPH in result.text


def test_unknown_mode_is_a_callers_error():
    with pytest.raises(ValueError, match="unknown extraction mode"):
        extract(PAGE, mode="fastest")


def test_the_mode_names_are_the_modes():
    # The options check the names without importing the algorithms (mode_names).
    assert MODE_NAMES == tuple(MODES)
    assert MODE_DEFAULT in MODE_NAMES


def test_extract_text_is_the_text_of_extract():
    assert extract_text(PAGE) == extract(PAGE).text


PARA = "<p>" + "The quick brown fox jumps over the lazy dog, again and again. " * 5 + "</p>"


def numbered(count: int) -> str:
    """``count`` paragraphs like ``PARA``, each of its length and each its own text."""
    return "".join(PARA.replace("again and again", f"{n:015d}", 1) for n in range(count))


def noise(size: int, seed: int) -> bytes:
    """Random bytes, the same in every run and in every process that collects the suite."""
    return random.Random(seed).randbytes(size)


@pytest.mark.parametrize(
    ("html", "reason"),
    [
        (b"", "empty-input"),
        (b"  \n\t ", "empty-input"),
        ("", "empty-input"),
        (noise(4096, 1), "not-html"),
        (b"\x89PNG\r\n\x1a\n" + noise(2048, 2), "not-html"),
        (b"%PDF-1.7\n" + noise(2048, 3), "not-html"),
        (b'{"items": [1, 2, 3]}', "not-html"),
        (b"<html><body><p>A page cut off in the middle of its first sen", "no-main-text"),
        (b"<html><body><nav><a href='/'>Home</a></nav></body></html>", "no-main-text"),
    ],
)
def test_bad_input_gives_an_empty_extraction_with_a_reason(html: bytes | str, reason: str):
    result = extract(html)
    assert (result.text, result.paragraphs, result.reason) == ("", (), reason)


def test_a_20_megabyte_page_keeps_its_text_up_to_the_size_bound():
    copies = 20_000_000 // len(PARA) + 1
    html = ("<html><body>" + numbered(copies) + "</body></html>").encode()
    assert len(html) >= 20_000_000
    result = extract(html)
    assert result.reason is None
    assert result.cuts == ("html/cut/size",)
    # every whole paragraph before the bound, none after it
    assert abs(len(result.paragraphs) - MAX_HTML_CHARS // len(PARA)) <= 1


def test_paragraphs_are_single_lines_but_preformatted_text_keeps_its_lines():
    wrapped = PARAGRAPH.replace(", ", ",\n    ", 2)
    code = "def f():\n    return 1"
    html = f"<html><body><p>{wrapped}</p><p>{PARAGRAPH}</p><pre>{code}</pre></body></html>"
    result = extract(html, mode="boilerpipe")
    assert result.paragraphs[0] == PARAGRAPH
    assert "def f():\nreturn 1" in result.paragraphs  # lines kept, indentation not


def test_on_tree_sees_the_whole_parse_and_cannot_break_the_extraction():
    html = ("<html><head><title>T</title><script type='application/ld+json'>{}</script>"
            "</head><body><p>" + "A sentence of the article that is long enough. " * 10
            + "</p></body></html>")
    seen = []
    found = extract(html, on_tree=lambda root: seen.append(
        (root.findtext(".//title"), len(root.findall(".//script")))))
    assert seen == [("T", 1)] and found.text

    def broken(root):
        raise RuntimeError("a caller's bug")

    assert extract(html, on_tree=broken).text == found.text


def test_text_under_a_nesting_bomb_is_kept_and_the_cut_reported():
    result = extract(b"<body>" + b"<div>" * 100_000 + b"deep" + b"</div>" * 100_000)
    assert result.text == "deep" and result.cuts
