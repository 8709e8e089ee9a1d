"""What the quality rules need to know about every script: where a sentence ends, which
characters are punctuation, how many words a line has.

The rules of Gopher, C4 and FineWeb were written for English and counted
with an English tokeniser; datatrove, which FineWeb ran, counts spaCy's
tokens, punctuation marks included. corpusbot counts its own tokens (runs of
letters and digits; Han and kana one per character), so here are the few
extra counts that make the published thresholds mean on corpusbot's tokens
what they mean on datatrove's (measured in benchmarks/quality_vs_datatrove.py).
"""

from __future__ import annotations

import functools
import re
from itertools import filterfalse

from corpusbot.text import MARKS

# Unicode's Sentence_Terminal property (UAX #29), Unicode 15.1, as code-point ranges; Python's
# unicodedata does not expose it. Plus three Khmer signs that end a sentence in practice
# (U+17D6, U+17D9, U+17DA), which FineWeb's list also has.
_SENTENCE_TERMINAL_RANGES = (
    0x0021, 0x002E, 0x003F, 0x0589, (0x061D, 0x061F), 0x06D4, (0x0700, 0x0702), 0x07F9, 0x0837,
    0x0839, (0x083D, 0x083E), (0x0964, 0x0965), (0x104A, 0x104B), 0x1362, (0x1367, 0x1368),
    0x166E, (0x1735, 0x1736), (0x17D4, 0x17D6), (0x17D9, 0x17DA), 0x1803, 0x1809, (0x1944, 0x1945),
    (0x1AA8, 0x1AAB), (0x1B4E, 0x1B4F), (0x1B5A, 0x1B5B), (0x1B5E, 0x1B5F), (0x1B7D, 0x1B7F),
    (0x1C3B, 0x1C3C), (0x1C7E, 0x1C7F), 0x2024, (0x203C, 0x203D), (0x2047, 0x2049),
    (0x2CF9, 0x2CFB), 0x2E2E, 0x2E3C, (0x2E53, 0x2E54), (0x2E60, 0x2E61), 0x3002, 0xA4FF,
    (0xA60E, 0xA60F), 0xA6F3, 0xA6F7, (0xA876, 0xA877), (0xA8CE, 0xA8CF), 0xA92F,
    (0xA9C8, 0xA9C9), (0xAA5D, 0xAA5F), (0xAAF0, 0xAAF1), 0xABEB, 0xFE12, (0xFE15, 0xFE16),
    0xFE52, (0xFE56, 0xFE57), 0xFF01, 0xFF0E, 0xFF1F, 0xFF61, (0x10A56, 0x10A57),
    (0x10F55, 0x10F59), (0x10F86, 0x10F89), (0x11047, 0x11048), (0x110BE, 0x110C1),
    (0x11141, 0x11143), (0x111C5, 0x111C6), 0x111CD, (0x111DE, 0x111DF), (0x11238, 0x11239),
    (0x1123B, 0x1123C), 0x112A9, (0x113D4, 0x113D5), (0x1144B, 0x1144C), (0x115C2, 0x115C3),
    (0x115C9, 0x115D7), (0x11641, 0x11642), (0x1173C, 0x1173E), 0x11944, 0x11946,
    (0x11A42, 0x11A43), (0x11A9B, 0x11A9C), (0x11C41, 0x11C42), (0x11EF7, 0x11EF8),
    (0x11F43, 0x11F44), (0x16A6E, 0x16A6F), 0x16AF5, (0x16B37, 0x16B38), 0x16B44,
    (0x16D6E, 0x16D6F), 0x16E98, 0x1BC9F, 0x1DA88,
)


def _expand(ranges: tuple) -> tuple[str, ...]:
    out = []
    for item in ranges:
        first, last = item if isinstance(item, tuple) else (item, item)
        out.extend(chr(code) for code in range(first, last + 1))
    return tuple(out)


TERMINAL_PUNCTUATION: tuple[str, ...] = _expand(_SENTENCE_TERMINAL_RANGES)
"""Every character that ends a sentence in some script (full stop, ideographic full stop,
Devanagari danda, Arabic question mark, Ethiopic full stop ...)."""

_UNSPACED = re.compile(r"[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u3400-\u4dbf"
                       r"\u4e00-\u9fff\uf900-\ufaff]")
"""Thai, Lao, Myanmar, Khmer, kana and Han: scripts that put no spaces between words."""

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
# A whitespace-separated chunk as spaCy's tokeniser cuts it: the punctuation before its first
# and after its last letter or digit comes off one mark at a time (a run of periods, dashes or
# tildes is one token); inside, a hyphen, colon, slash or comparison sign before a letter, a
# comma between letters and a period between a lower-case and a capital letter split it; a URL
# stays whole; a Han or kana character is a token of its own (corpusbot's word there).
_W = rf"[^\W_{_CJK}]|[{MARKS}]"
_CORE = re.compile(rf"(?:https?://|www\.)\S*[\w/]|(?:{_W})(?:\S*(?:{_W}))?")
_EDGE = re.compile(r"\.{2,}|-{2,}|~{2,}|\S")
_INFIX = re.compile(r"(?<=[^\W_])[-:/<>=](?=[^\W\d_])|(?<=[^\W\d_]),(?=[^\W\d_])"
                    r"|(?<=[a-z])\.(?=[A-Z])")
_CJK_CHAR = re.compile(rf"[{_CJK}]")
_EDGE_MARKS = ".,;:!?()[]{}\"'*\u201c\u201d\u2018\u2019\u00ab\u00bb"
# spaCy splits a contraction into two word tokens ("do", "n't"); a core keeps it one.
_CONTRACTION = re.compile(r"(?i)[^\W\d_](?:n['\u2019]t|['\u2019](?:s|re|ll|ve|d|m))(?![^\W_])")
_LETTER = re.compile(r"[^\W\d_]")


def spacy_like_counts(text: str) -> tuple[int, int]:
    """How many tokens spaCy's English tokeniser makes of ``text``, punctuation marks
    included, and how many of them have a letter: what datatrove's Gopher and FineWeb rules
    count as words (within about 1 % on English pages, benchmarks/quality_vs_datatrove.py)."""
    if _CJK_CHAR.search(text):
        text = _CJK_CHAR.sub(" \\g<0> ", text)
    chunks = text.split()
    # Most chunks are a word or a number alone, one token each: counted without a loop.
    plain = list(filter(str.isalnum, chunks))
    total = len(plain)
    letters = total - sum(map(str.isdigit, plain))
    for chunk in filterfalse(str.isalnum, chunks) if total != len(chunks) else ():
        core = chunk.strip(_EDGE_MARKS)
        if core.isalnum() and ".." not in chunk:
            # A word or number with marks only at its edges, one token each.
            total += 1 + len(chunk) - len(core)
            letters += not core.isdigit()
        else:
            chunk_total, chunk_letters = _chunk_counts(chunk)
            total += chunk_total
            letters += chunk_letters
    # Most paragraphs have no apostrophe, and the search tries the pattern at every letter.
    contractions = len(_CONTRACTION.findall(text)) if "'" in text or "\u2019" in text else 0
    return total + contractions, letters + contractions


@functools.lru_cache(maxsize=1 << 14)
def _chunk_counts(chunk: str) -> tuple[int, int]:
    # Kept for the chunks seen last: the same ones come back ("z.B.", "E-Mail", "2019/20").
    core = _CORE.search(chunk)
    if core is None:
        return len(_EDGE.findall(chunk)), 0
    start, end = core.span()
    word = core.group()
    suffix = chunk[end:]
    if suffix.startswith(".") and "." in word:
        suffix = suffix[1:]  # "U.S.", "e.g.": spaCy keeps the abbreviation whole
    pieces = [word] if word.startswith(("http", "www")) else _INFIX.split(word)
    total = len(_EDGE.findall(chunk[:start])) + len(_EDGE.findall(suffix)) + 2 * len(pieces) - 1
    return total, sum(1 for piece in pieces if _LETTER.search(piece))


def is_unspaced(text: str) -> bool:
    """Whether ``text`` has a character of a script written without spaces between words."""
    return _UNSPACED.search(text) is not None


# spaCy's English tokeniser keeps these abbreviations whole, so their period ends no
# sentence; with single initials ("J.") and words with inner periods ("U.S.", "e.g.").
ABBREVIATIONS = frozenset("""
Adm Ak Ala Apr Ariz Ark Aug Bros Calif Co Colo Conn Corp Dec Del Dr Feb Fla Ga Gen Gov Ia Id
Ill Inc Ind Jan Jr Jul Jun Kan Kans Ky La Ltd Mar Mass Md Messrs Mich Minn Miss Mo Mont Mr Mrs
Ms Mt Neb Nebr Nev Nov Oct Okla Ore Pa Prof Rep Rev Sen Sep Sept St Tenn Va Wash Wis co vs
""".split())
_CLOSING = "\"'\u201d\u2019)]\u00bb\u300d\u300f"
_TERMINAL_SET = frozenset(TERMINAL_PUNCTUATION)
_CJK_ENDS = "\u3002\uff01\uff1f\uff61"  # ideographic and full-width full stop, !, ?
# The mark first, its look-behind after: the search then tries only the places with a mark
# (twice as fast as trying the look-behind at every character).
_INNER_END = re.compile(rf"[.!?](?<=[a-z].)(?=[A-Z])"
                        rf"|[{_CJK_ENDS}]+(?=[^\s{re.escape(_CLOSING)}{_CJK_ENDS}])")
_TERMINAL_CHARS = "".join(TERMINAL_PUNCTUATION)
# The last character of a word that may end a sentence: a terminal mark or a closing one.
_WORD_ENDS = _TERMINAL_SET | frozenset(_CLOSING)
_INITIAL_OR_INNER = re.compile(r"^(?:[^\W\d_]|(?:\w+\.)+\w+)$")


def _ends_sentence(word: str) -> bool:
    """Whether a whitespace-separated word closes a sentence (its last mark, before closing
    quotes and brackets, is terminal and no abbreviation or initial owns it)."""
    word = word.rstrip(_CLOSING)
    if not word or word[-1] not in _TERMINAL_SET or word.endswith(".."):
        return False
    stem = word.rstrip(_TERMINAL_CHARS)
    return not (word[-1] == "." and (stem in ABBREVIATIONS or _INITIAL_OR_INNER.match(stem)))


def sentences(line: str) -> int:
    """How many sentences ``line`` has: one, plus one for each sentence end that more text
    follows (spaCy's sentenciser, which C4's rule counts with, does the same)."""
    if not line or line.isspace():
        return 0
    inner = len(_INNER_END.findall(line))
    # Every word but the last (more text must follow) whose last character may end a sentence;
    # a regular expression finding them backtracked through every word, three times slower.
    words = line.split()
    candidates = [word for word in words[:-1] if word[-1] in _WORD_ENDS]
    return 1 + inner + sum(map(_ends_sentence, candidates))
