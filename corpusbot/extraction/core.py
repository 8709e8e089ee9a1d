"""The public extraction call: HTML in, main text out, never an exception.

The stages follow ARCHITECTURE.md: decode, parse once, read the head, cut
invisible content, segment into blocks, identify the language on visible
text, run the mode's composition over the blocks, assemble the text.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from lxml import etree

from corpusbot.extraction.context import PageBlocks
from corpusbot.extraction.mode_names import MODE_DEFAULT, check_mode
from corpusbot.extraction.modes import CLEANED_MODES, MODES
from corpusbot.html import decode, dom, mojibake, titles
from corpusbot.html.blocks import Block, segment
from corpusbot.language import identify as language
from corpusbot.language import stoplists

logger = logging.getLogger(__name__)

_INVISIBLE_CHARACTERS = re.compile("[\u00ad\u200b\u2060\ufeff]")
_WORD_CHARACTER = re.compile(r"\w")

# langdetect costs the same for any length, and a couple of thousand
# characters of the longest low-link blocks decide reliably.
LANGUAGE_SAMPLE_CHARS = 2000
LANGUAGE_SAMPLE_MAX_LINK_DENSITY = 0.3


@dataclass(slots=True, frozen=True)
class Extraction:
    """The main text of one page.

    ``text`` joins ``paragraphs`` with blank lines. An empty extraction
    carries the ``reason`` it is empty (``"empty-input"``, ``"not-html"``,
    ``"unparseable"``, ``"no-main-text"``, ``"crash"``).
    """

    text: str
    paragraphs: tuple[str, ...]
    title: str | None
    language: str | None
    language_probability: float
    mode: str
    encoding: str | None = None
    reason: str | None = None
    cuts: tuple[str, ...] = ()
    """What ``corpusbot.html.bounds`` cut from the page before parsing, by reason."""
    language_source: str | None = None
    """How the language was decided (``corpusbot.language.identify``: ``declared+stopwords``,
    ``declared+detector``, ``detector``, ``declared``, ``given``, ``none``)."""
    repaired_lines: int = 0
    """Paragraphs (and the title) whose mojibake was undone (``corpusbot.html.mojibake``)."""
    repaired_chars: int = 0
    """Characters the repair removed (``Â®`` is one longer than ``®``)."""


def extract(
    html: bytes | str,
    *,
    url: str | None = None,
    headers: Mapping[str, str] | None = None,
    lang: str | None = None,
    mode: str = MODE_DEFAULT,
    on_tree: Callable[[etree._Element], None] | None = None,
) -> Extraction:
    """Extract the main text of one page.

    ``lang`` skips language identification. ``on_tree`` is called with the
    parsed page before anything is cut from it (head, scripts and JSON-LD
    still there), so a caller can read more from the same parse; what it
    raises is logged, not fatal. Raises ``ValueError`` only for an unknown
    ``mode`` (a caller's mistake); any input bytes give an ``Extraction``,
    empty with a ``reason`` when there is nothing to keep.
    """
    check_mode(mode)
    try:
        return _extract(html, headers or {}, lang, mode, on_tree)
    except Exception:
        # Bad input must never escape as an exception; the traceback is kept
        # at debug level so one broken page does not flood the log.
        logger.debug("extraction crashed on %s", url or "<page>", exc_info=True)
        return _empty(mode, "crash")


def extract_text(
    html: bytes | str,
    *,
    url: str | None = None,
    headers: Mapping[str, str] | None = None,
    lang: str | None = None,
    mode: str = MODE_DEFAULT,
) -> str:
    """The same call as ``extract``, returning only the text."""
    return extract(html, url=url, headers=headers, lang=lang, mode=mode).text


def _extract(
    html: bytes | str, headers: Mapping[str, str], lang: str | None, mode: str,
    on_tree: Callable[[etree._Element], None] | None = None,
) -> Extraction:
    read = read_page(html, headers, lang, on_tree)
    if isinstance(read, Unread):
        return _empty(mode, read.reason, read.encoding)
    page, guess, encoding = read.page, read.language, read.encoding
    repairs = Repairs()
    paragraphs = mode_paragraphs(MODES[mode](page), mode, repairs)
    title = repairs.repaired(page.title) if page.title else page.title
    if guess.source == language.DECLARED_ONLY and paragraphs:
        # Decided on a sample too short to measure: measure on the text (the decision stays).
        guess = language.measure(guess, "\n\n".join(paragraphs))
    return Extraction(
        text="\n\n".join(paragraphs),
        paragraphs=paragraphs,
        title=title,
        language=guess.code,
        language_probability=guess.probability,
        mode=mode,
        encoding=encoding,
        reason=None if paragraphs else "no-main-text",
        cuts=read.cuts,
        language_source=guess.source,
        repaired_lines=repairs.lines,
        repaired_chars=repairs.chars,
    )


@dataclass(slots=True, frozen=True)
class ReadPage:
    """A page decoded, parsed, cut into blocks, its language identified."""

    page: PageBlocks
    language: language.LanguageGuess
    encoding: str | None
    cuts: tuple[str, ...] = ()


@dataclass(slots=True, frozen=True)
class Unread:
    """Why a page gave no blocks (the ``reason`` of an empty extraction)."""

    reason: str
    encoding: str | None = None


def read_page(
    html: bytes | str, headers: Mapping[str, str] | None = None, lang: str | None = None,
    on_tree: Callable[[etree._Element], None] | None = None,
) -> ReadPage | Unread:
    """Every stage before the mode: what all modes read, and what a learned mode trains on."""
    if not html or (isinstance(html, bytes) and not html.strip()):
        return Unread("empty-input")
    headers = headers or {}
    decoded = decode.decode_html(html, headers)
    if not decode.looks_like_html(decoded.text):
        return Unread("not-html", decoded.encoding)
    try:
        root, cuts = dom.parse_bounded(decoded.utf8 or decoded.text)
    except dom.ParseError:
        return Unread("unparseable", decoded.encoding)
    if on_tree is not None:
        _call_on_tree(on_tree, root)
    elements = dom.head_elements(root)
    head = dom.read_head(root, elements)
    headline = titles.headline(root, head.title, head.og_title, elements)
    dom.strip_invisible(root, elements.buttons, elements.forms)
    blocks = segment(root)
    hints = (head.lang, _header(headers, "content-language"), head.meta_lang)
    guess = _identify(blocks, lang, hints)
    page = PageBlocks(root, blocks, stoplists.stoplist(guess.code), headline, head.og_title,
                      head.product, head.article)
    return ReadPage(page, guess, decoded.encoding, cuts)


def _call_on_tree(on_tree: Callable[[etree._Element], None], root: etree._Element) -> None:
    try:
        on_tree(root)
    except Exception:  # the caller's reading must not cost the page its text
        logger.warning("on_tree failed on a page", exc_info=True)


@dataclass(slots=True)
class Repairs:
    """The mojibake one extraction undid (``corpusbot.html.mojibake``): the texts it
    changed and the characters it removed, for the extract step's edit counts."""

    lines: int = 0
    chars: int = 0

    def repaired(self, text: str) -> str:
        """``text`` repaired, counted when the repair changed it."""
        fixed = mojibake.repair(text)
        if fixed != text:
            self.lines += 1
            self.chars += len(text) - len(fixed)
        return fixed


def mode_paragraphs(blocks: Sequence[Block], mode: str,
                    repairs: Repairs | None = None) -> tuple[str, ...]:
    """The paragraphs of the blocks a mode kept, as that mode gives them
    (``CLEANED_MODES``: ``cleaned_paragraphs``, their repairs counted in ``repairs``)."""
    blocks = [b for b in blocks if b.text]
    if mode in CLEANED_MODES:
        return cleaned_paragraphs(blocks, repairs)
    return tuple(map(paragraph_text, blocks))


def cleaned_paragraphs(blocks: Sequence[Block],
                       repairs: Repairs | None = None) -> tuple[str, ...]:
    """The paragraphs of ``blocks`` (``paragraph_text``) with their characters cleaned
    (``clean_characters``), without those left empty or holding no word character (a
    letter, a digit, "_") outside preformatted text.

    A line of punctuation or symbols alone is a separator ("—", "* * *"), a rating's
    stars, a table cell's check mark or a site builder's spacer (``<p>&zwj;</p>``): in a
    text corpus it says nothing. In a code listing a "}" is the code's own line. On
    wcxb-dev's tuning folds ``default`` gave 627 such paragraphs on 77 pages (239 of them
    spacers); the scores, which count words, do not change. A rule line typed as
    underscores ("___") is a word to the benchmarks' tokenizer, and scrapinghub's gold
    keeps it: without letters or digits alone, scrapinghub 0.9707 -> 0.9704.
    """
    kept = []
    for block in blocks:
        text = clean_characters(paragraph_text(block), repairs)
        if text and (_WORD_CHARACTER.search(text) or _preformatted(block)):
            kept.append(text)
    return tuple(kept)


def clean_characters(text: str, repairs: Repairs | None = None) -> str:
    """The text without invisible characters and mojibake (``corpusbot.html.mojibake``,
    counted in ``repairs``), in Unicode's composed form (NFC)."""
    text = drop_invisible_characters(text)
    text = repairs.repaired(text) if repairs is not None else mojibake.repair(text)
    return compose_characters(text)


def compose_characters(text: str) -> str:
    """The text in NFC, the form the W3C asks of web text (Character Model, Norms).

    Pages mix composed and decomposed spellings of one letter (Bengali
    U+09DC against U+09A1 U+09BC, Latin e and a combining acute), so the
    same word would count as two in the corpus and in its deduplication.
    """
    return text if unicodedata.is_normalized("NFC", text) else unicodedata.normalize("NFC", text)


def drop_invisible_characters(text: str) -> str:
    """The text without soft hyphens, zero-width spaces, word joiners and BOMs.

    Pages hyphenate words for layout with U+00AD (``Mit\xadtel\xadal\xadter``)
    and break them with zero-width spaces; no reader sees them, and left in
    they split the words of the corpus. The zero-width (non-)joiners stay:
    Persian and Indic spelling needs them (a paragraph of joiners alone
    leaves in ``cleaned_paragraphs``).
    """
    if not _INVISIBLE_CHARACTERS.search(text):
        return text
    return _INVISIBLE_CHARACTERS.sub("", text).strip()


def paragraph_text(block: Block) -> str:
    """The block's text as one line; preformatted text keeps its lines.

    Blocks keep the source's line wrapping (jusText's normalisation turns a
    whitespace run holding a newline into a newline), which is noise inside
    a corpus paragraph.
    """
    text = block.text
    if "\n" not in text and "\r" not in text:
        return text  # segmentation already made every other whitespace run one space
    if _preformatted(block):
        return text
    return " ".join(text.split())


def _preformatted(block: Block) -> bool:
    return "pre" in block.dom_path.split(".")


def _identify(
    blocks: Sequence[Block], lang: str | None, hints: Sequence[str | None]
) -> language.LanguageGuess:
    if lang:
        return language.LanguageGuess(lang, 1.0, language.GIVEN)
    return language.identify(language_sample(blocks), hints)


def language_sample(blocks: Sequence[Block]) -> str:
    """The longest visible, mostly link-free blocks, up to the sample size."""
    candidates = sorted(
        (b for b in blocks if b.link_density <= LANGUAGE_SAMPLE_MAX_LINK_DENSITY),
        key=lambda b: -b.chars,
    )
    parts, size = [], 0
    for block in candidates:
        if size >= LANGUAGE_SAMPLE_CHARS:
            break
        parts.append(block.text)
        size += block.chars
    return "\n".join(parts)[:LANGUAGE_SAMPLE_CHARS]


def _header(headers: Mapping[str, str], name: str) -> str | None:
    for key, value in headers.items():
        if key.lower() == name:
            return value
    return None


def _empty(mode: str, reason: str, encoding: str | None = None) -> Extraction:
    return Extraction("", (), None, None, 0.0, mode, encoding, reason)
