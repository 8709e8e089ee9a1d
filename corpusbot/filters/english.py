# ruff: noqa: RUF001, RUF002, RUF003  (the marks of the tokeniser's rules are the point here)
"""English tokens as datatrove counts them, without spaCy.

datatrove's Gopher, FineWeb and C4 filters count the tokens of spaCy's blank
English pipeline: each whitespace-separated chunk loses its prefixes and
suffixes one at a time (punctuation, quotes, currency, units after a number,
"'s"), what is left is split at its infixes (a hyphen or slash between
letters, a comma between letters, a period between a lower-case and a capital
letter), and a fixed table of special cases overrides both ("don't" is "do",
"n't"; "Mr." stays whole: ``filters.english_cases``), also where the rules cut
a chunk into the pieces of one ("30g." is "30", "g."). Sentences are spaCy's
sentenciser's: a new one at the first token that is not punctuation after a
sentence-ending mark. On English pages corpusbot's quality rules count these
tokens and sentences, so that a threshold decides as it does in FineWeb;
importing spaCy would cost its start-up and more than the steps themselves
(its tokeniser takes 3.4 ms a page, this 0.7), and the rules are a few
regular expressions over spaCy's own character classes. Checked token by token
against spaCy (tests/filters/test_english.py: every English page of the
sample and of the scrapinghub gold set, tricky strings, random mixtures) and
page by page against datatrove (benchmarks/quality_vs_datatrove.py: all 1,692
English gold and sample texts).
"""

from __future__ import annotations

import functools
import re
import string
import unicodedata
from collections.abc import Callable

from corpusbot.filters.english_cases import SPECIAL_CASES
from corpusbot.filters.scripts import TERMINAL_PUNCTUATION

# Marks split off one at a time at either end of a chunk.
_PUNCT = "…,:;!?¿؟¡()\\[\\]{}<>_#*&。？！，、；：～·।،۔؛٪"
_QUOTES = ",'\"”“`‘´’‚„»«「」『』（）〔〕【】《》〈〉〈〉⟦⟧"
_CURRENCY = "$£€¥฿₽﷼\u20a0-\u20bf"
# spaCy's list, as it is: "тбكم" is one unit there (a separator missing), "тб" none.
_UNITS = ("km² km³ km cm² cm³ cm dm² dm³ dm mm² mm³ mm m² m³ m/s m ha µm nm yd in ft kg g mg µg "
          "t lb oz km/h kmh mph hPa Pa mbar mb MB kb KB gb GB tb TB T G M K % "
          "км км² км³ м м² м³ дм дм² дм³ см см² см³ мм мм² мм³ нм кг г мг м/с км/ч кПа Па мбар "
          "Кб КБ кб Мб МБ мб Гб ГБ гб Тб ТБ тбكم كم² كم³ م م² م³ سم سم² سم³ مم مم² مم³ كم غرام "
          "جرام جم كغ ملغ كوب اكواب").split()


def _char_class(test: Callable[[str], bool], *blocks: tuple[int, int]) -> str:
    """A regular-expression class (as ranges) of the characters of ``blocks`` that pass
    ``test``."""
    codes = [code for first, last in blocks for code in range(first, last + 1) if test(chr(code))]
    ranges: list[list[int]] = []
    for code in codes:
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1][1] = code
        else:
            ranges.append([code, code])
    return "".join(re.escape(chr(first)) + ("-" + re.escape(chr(last)) if last > first else "")
                   for first, last in ranges)


# spaCy's letters come in two kinds. Those of the cased alphabets it lists are lower or upper
# case: Latin with its extensions (IPA letters all lower case), full-width Latin, and the
# Greek and Cyrillic letters of the Greek, Russian, Ukrainian, Tatar and Macedonian alphabets.
# Every character of the blocks of the uncased scripts it lists (Hebrew, Arabic, the Brahmic
# scripts of India and Sri Lanka, Ethiopic, Hangul, kana, Han) counts as a lower-case, an
# upper-case letter and a letter at once, which is why "된다." loses its period as "done."
# does. Other scripts (Thai, Armenian, Georgian ...) have no letters there. Checked against
# spaCy 3.8's classes in tests/filters/test_english.py.
_LATIN = ((0x41, 0x5A), (0x61, 0x7A), (0xC0, 0x1BF), (0x1C4, 0x24F), (0x1D00, 0x1D25),
          (0x1D6B, 0x1D77), (0x1D79, 0x1D9A), (0x1E00, 0x1EFF), (0x2C60, 0x2C7B), (0x2C7E, 0x2C7F),
          (0xA722, 0xA76F), (0xA771, 0xA787), (0xA78B, 0xA78E), (0xA790, 0xA7B9), (0xA7FA, 0xA7FA),
          (0xAB30, 0xAB5A), (0xAB60, 0xAB64), (0xFF21, 0xFF3A), (0xFF41, 0xFF5A))
_GREEK_CYRILLIC_LOWER = "α-ωάέίόώήύа-яёіїєґәөүҗңһѓѕјљњќѐѝ"
_GREEK_CYRILLIC_UPPER = "Α-ΩΆΈΊΌΏΉΎА-ЯЁІЇЄҐӘӨҮҖҢҺЃЅЈЉЊЌЀЍ"
_UNCASED = ((0x591, 0x5F4), (0x620, 0x64A), (0x66E, 0x6D5), (0x6E5, 0x6FF), (0x750, 0x77F),
            (0x8A0, 0x8BD), (0x900, 0x9FF), (0xB80, 0xCFF), (0xD80, 0xDFF), (0x1100, 0x11FF),
            (0x1200, 0x137F), (0x2E80, 0x2FDF), (0x2FF0, 0x30FF), (0x31C0, 0x31EF),
            (0x3200, 0x4DBF), (0x4E00, 0x9FFF), (0xAC00, 0xD7AF), (0xF900, 0xFAFF),
            (0xFB1D, 0xFBB1), (0xFBD3, 0xFD3D), (0xFD50, 0xFDC7), (0xFDF0, 0xFDFB),
            (0xFE30, 0xFE4F), (0xFE70, 0xFEFC), (0x1EE00, 0x1EEBB), (0x1F200, 0x1F2FF),
            (0x20000, 0x2A6DF), (0x2A700, 0x2EBEF), (0x2F800, 0x2FA1F))
_ANY = _char_class(lambda char: True, (0x250, 0x2AF), *_UNCASED)
_LOWER = _char_class(str.islower, *_LATIN) + _GREEK_CYRILLIC_LOWER + _ANY
_UPPER = _char_class(str.isupper, *_LATIN) + _GREEK_CYRILLIC_UPPER + _char_class(
    lambda char: True, *_UNCASED)
_ALPHA = _char_class(str.isalpha, *_LATIN) + _GREEK_CYRILLIC_LOWER + _GREEK_CYRILLIC_UPPER + _ANY
# Symbols (Unicode category So: arrows, boxes, dingbats, emoji) are split off wherever they are.
_ICONS = _char_class(lambda char: unicodedata.category(char) == "So",
                     (0xA0, 0x2FFF), (0x3000, 0x33FF), (0x4DC0, 0x4DFF), (0xA000, 0xFFFF),
                     (0x10000, 0x1FAFF))

_PREFIX = re.compile(rf"[§%=—–{_PUNCT}{_QUOTES}{_CURRENCY}{_ICONS}]|\+(?![0-9])|\.\.+"
                     r"|US\$|C\$|A\$")
# Searched, not matched: the leftmost place where some suffix ends the chunk wins, so a run
# of periods or "……" comes off whole.
_SUFFIX = re.compile(
    rf"(?:[{_PUNCT}{_QUOTES}{_ICONS}]|……|\.\.+|['’][sS]|—|–|(?<=[0-9])\+|(?<=°[FfCcKk])\."
    rf"|(?<=[0-9])(?:US\$|C\$|A\$|[{_CURRENCY}])"
    rf"|(?<=[0-9])(?:{'|'.join(re.escape(unit) for unit in _UNITS)})"
    rf"|(?<=[0-9{_LOWER}%²\-+|{_PUNCT}{_QUOTES}(?:)])\.|(?<=[{_UPPER}][{_UPPER}])\.)$")
_INFIX = re.compile(rf"\.\.+|…|[{_ICONS}]|(?<=[0-9])[-+*^](?=[0-9-])"
                    rf"|(?<=[{_LOWER}{_QUOTES}])\.(?=[{_UPPER}{_QUOTES}])"
                    rf"|(?<=[{_ALPHA}]),(?=[{_ALPHA}])"
                    rf"|(?<=[0-9{_ALPHA}])(?:-|–|—|--|---|——|~)(?=[{_ALPHA}])"
                    rf"|(?<=[0-9{_ALPHA}])[:<>=/](?=[{_ALPHA}])")
# Whitespace that spaCy makes a token of: anything between two words but one plain space.
_GAP = re.compile(r"(\s{2,}|[^\S ]\s*)")
_INFIX_CHAR = re.compile(rf"[-.…,+*^–—~:<>=/{_ICONS}]")
# A web address stays one token: host labels and a lower-case top-level domain, or a public
# IPv4 address (not 10., 127., 169.254., 192.168., 172.16-31.; first byte 1-223, last 1-254),
# then port and path.
_HOST_CHAR = "0-9A-Za-z\u00a1-\uffff"
_BYTE = r"(?:25[0-5]|2[0-4]\d|1?\d{1,2})"
_PUBLIC_IP = (r"(?!(?:10|127)(?:\.\d{1,3}){3})(?!(?:169\.254|192\.168)(?:\.\d{1,3}){2})"
              r"(?!172\.(?:1[6-9]|2\d|3[01])(?:\.\d{1,3}){2})"
              rf"(?:22[0-3]|2[01]\d|1\d\d|[1-9]\d?)(?:\.{_BYTE}){{2}}\.(?:25[0-4]|2[0-4]\d|1\d\d|[1-9]\d?)")
_URL = re.compile(rf"(?:[\w+\-.]{{2,}}://)?(?:\S+(?::\S*)?@)?"
                  rf"(?:{_PUBLIC_IP}|(?:(?:[{_HOST_CHAR}][{_HOST_CHAR}_-]{{0,62}})?[{_HOST_CHAR}]\.)+"
                  rf"[{_LOWER}]{{2,63}})(?::\d{{2,5}})?(?:[/?#]\S*)?")


def english_tokens(text: str) -> list[str]:
    """The tokens spaCy's blank English pipeline makes of ``text``, whitespace left out
    (datatrove's ``split_into_words``)."""
    out: list[str] = []
    for chunk in text.split():
        if (chunk.isalpha() or chunk.isdigit()) and chunk not in SPECIAL_CASES:
            out.append(chunk)  # most chunks: no mark to split off
        elif _word_and_mark(chunk):
            out += (chunk[:-1], chunk[-1])
        else:
            pieces, merges = _cut(chunk)
            if merges:
                return [token for token in _merged_tokens(text) if token is not None]
            out += pieces
    return out


@functools.lru_cache(maxsize=1 << 16)
def _cut(chunk: str) -> tuple[tuple[str, ...], bool]:
    """The pieces the rules cut ``chunk`` into, and whether a special case among them changes
    them. Kept for the chunks seen last: the same ones come back ("it’s", "(the", "2024,")."""
    pieces = _chunk_tokens(chunk, SPECIAL_CASES)
    return tuple(pieces), len(pieces) > 1 and _special_case_within(pieces)


def _word_and_mark(chunk: str) -> bool:
    """Whether ``chunk`` is a word and a comma, question mark or closing quote, or a word
    ending in a lower-case letter and a full stop: two tokens, whatever the rules."""
    word, mark = chunk[:-1], chunk[-1]
    if mark == ".":
        if not "a" <= word[-1:] <= "z" or chunk in SPECIAL_CASES:
            return False
    elif mark not in _TRAILING:
        return False
    return word.isalpha() and word not in SPECIAL_CASES and word not in _MERGE_FIRST


def _chunk_tokens(chunk: str, specials: dict[str, list[str]]) -> list[str]:
    prefixes: list[str] = []
    suffixes: list[str] = []
    rest = _split_affixes(chunk, prefixes, suffixes, specials)
    out = prefixes
    if rest:
        special = specials.get(rest)
        if special is not None:
            out.extend(special)
        elif _URL.fullmatch(rest):
            out.append(rest)
        else:
            _split_infixes(rest, out)
    out.extend(reversed(suffixes))
    return out


def _split_affixes(rest: str, prefixes: list[str], suffixes: list[str],
                   specials: dict[str, list[str]]) -> str:
    """Take prefixes and suffixes off ``rest`` one at a time until none is left or what is
    left is a special case (spaCy's order: a prefix, then a suffix of what follows it)."""
    last = -1
    while rest and len(rest) != last and rest not in specials:
        last = len(rest)
        found = _PREFIX.match(rest)
        pre = found.end() if found else 0
        if pre and rest[pre:] in specials:
            prefixes.append(rest[:pre])
            return rest[pre:]
        suf = _suffix_length(rest[pre:])
        if suf and rest[:-suf] in specials:
            suffixes.append(rest[-suf:])
            return rest[:-suf]
        if pre and suf and pre + suf <= len(rest):
            prefixes.append(rest[:pre])
            suffixes.append(rest[-suf:])
            rest = rest[pre:-suf]
        elif pre:
            prefixes.append(rest[:pre])
            rest = rest[pre:]
        elif suf:
            suffixes.append(rest[-suf:])
            rest = rest[:-suf]
    return rest


def _suffix_length(rest: str) -> int:
    # Every suffix but a run of periods is at most four characters long (with the one or
    # two its look-behind reads): searching the tail finds the same leftmost match, faster.
    tail = max(len(rest) - 6, 0)
    found = _SUFFIX.search(rest, tail)
    if found is None:
        return 0
    start = found.start()
    if start == tail and rest[start] == ".":
        while start and rest[start - 1] == ".":
            start -= 1
    return len(rest) - start


def _split_infixes(rest: str, out: list[str]) -> None:
    if _INFIX_CHAR.search(rest) is None:
        out.append(rest)
        return
    start = 0
    for found in _INFIX.finditer(rest):
        begin, end = found.span()
        if begin == 0:
            continue  # an infix at the very start splits nothing off
        if begin != start:
            out.append(rest[start:begin])
        if begin != end:
            out.append(rest[begin:end])
        start = end
    if rest[start:]:
        out.append(rest[start:])


# spaCy then looks for special cases among the pieces of a chunk, as the rules alone would
# cut them ("30g." is "30", "g", "." by the rules; "g." is a special case, so "30", "g.").
_MERGES = {tuple(pieces): text for text in SPECIAL_CASES
           if len(pieces := _chunk_tokens(text, {})) > 1}
_MERGE_FIRST = frozenset(pieces[0] for pieces in _MERGES)
_MERGE_LONGEST = max(map(len, _MERGES))
# Marks that come off the end of a word alone, whatever precedes them.
_TRAILING = frozenset(",;:!?)]}\"'”’»") - {pieces[1] for pieces in _MERGES if len(pieces) == 2}
# Most found merge back into what they were ("it", "’s" is the special case "it’s", cut so).
_CHANGES = {pieces: text for pieces, text in _MERGES.items() if list(pieces) != SPECIAL_CASES[text]}
_CHANGE_FIRST = frozenset(pieces[0] for pieces in _CHANGES)


def _special_case_within(pieces: list[str]) -> bool:
    """Whether some run of ``pieces`` is a special case, as the rules cut it, that the special
    case's own tokens change. Where none is, spaCy's merges change nothing in the text: a run
    across a space only keeps others from merging."""
    for index, piece in enumerate(pieces):
        if piece in _CHANGE_FIRST:
            for size in range(2, min(_MERGE_LONGEST, len(pieces) - index) + 1):
                if tuple(pieces[index:index + size]) in _CHANGES:
                    return True
    return False


def _merged_tokens(text: str) -> list[str | None]:
    """The tokens of ``text``, None for a whitespace token, with the special cases found among
    the pieces of a chunk merged, found and chosen as spaCy does: over the whole text, longest
    first, then leftmost, each taking its pieces from the shorter ones. A run across a space
    takes its pieces too and merges nothing ("( :x" keeps ":", "x" apart), so a chunk's merge
    depends on its neighbours."""
    tokens, chunk_of = _pieces_and_chunks(text)
    found = [(size, index, _MERGES.get(tuple(tokens[index:index + size])))
             for index, token in enumerate(tokens) if token in _MERGE_FIRST
             for size in range(2, min(_MERGE_LONGEST, len(tokens) - index) + 1)]
    found = sorted((-size, index, case) for size, index, case in found if case is not None)
    taken: set[int] = set()
    merged: dict[int, tuple[int, str]] = {}
    for size, index, case in found:
        end = index - size - 1
        if index not in taken and end not in taken and chunk_of[index] == chunk_of[end]:
            merged[index] = (-size, case)
        taken.update(range(index, end + 1))
    out: list[str | None] = []
    index = 0
    while index < len(tokens):
        size, case = merged.get(index, (1, ""))
        out += SPECIAL_CASES[case] if case else (tokens[index],)
        index += size
    return out


def _pieces_and_chunks(text: str) -> tuple[list[str | None], list[int]]:
    """The pieces of every chunk of ``text``, with a None where spaCy makes a token of
    whitespace (anything but one plain space), and the chunk each piece comes from."""
    tokens: list[str | None] = []
    chunk_of: list[int] = []
    for number, part in enumerate(_GAP.split(text)):
        if number % 2:
            tokens.append(None)
            chunk_of.append(-1)
            continue
        for chunk in part.split(" "):
            if chunk:
                pieces = _cut(chunk)[0]  # the rules' pieces, kept for the chunks seen last
                tokens += pieces
                chunk_of += [len(chunk_of)] * len(pieces)
    return tokens, chunk_of


# datatrove's list of sentence-ending marks is Unicode's Sentence_Terminal set of an earlier
# version: it lacks these (U+2024 one dot leader, vertical presentation forms, Balinese, Coptic,
# Tulu-Tigalari, Kirat Rai); on English pages FineWeb's line rule and the Gopher words read it.
_NEWER_TERMINALS = frozenset(map(chr, (
    0x1B4E, 0x1B4F, 0x1B7F, 0x2024, 0x2CF9, 0x2CFA, 0x2CFB, 0x2E60, 0x2E61, 0xFE12, 0xFE15,
    0xFE16, 0x113D4, 0x113D5, 0x16D6E, 0x16D6F)))
DATATROVE_TERMINAL_PUNCTUATION = tuple(c for c in TERMINAL_PUNCTUATION if c not in _NEWER_TERMINALS)
"""The sentence-ending marks of datatrove's ``TERMINAL_PUNCTUATION``."""
# spaCy's sentenciser ends a sentence at fewer still: its list leaves out these too (Arabic,
# Samaritan, Khmer, Sogdian and others; none English).
_NOT_SENTENCE_ENDS = _NEWER_TERMINALS | frozenset(map(chr, (
    0x61D, 0x61E, 0x837, 0x839, 0x83D, 0x83E, 0x1B7D, 0x1B7E, 0x17D4, 0x17D5, 0x17D6, 0x17D9,
    0x17DA, 0x2E53, 0x2E54, *range(0x10F55, 0x10F5A), *range(0x10F86, 0x10F8A), 0x11944,
    0x11946, 0x11EF7, 0x11EF8, 0x11F43, 0x11F44, 0x16E98)))
_SENTENCE_ENDS = frozenset(TERMINAL_PUNCTUATION) - _NOT_SENTENCE_ENDS
_CJK_SYMBOLS = "％１〈、━【「」，】；《∶．（？！：～〉》）。"
SYMBOLS = "".join(sorted({*string.punctuation, *"—”“„’´–«…►»", *_CJK_SYMBOLS,
                          *map(chr, range(9)), *map(chr, range(11, 32)), *map(chr, range(127, 160)),
                          *DATATROVE_TERMINAL_PUNCTUATION}))
"""The characters a token made only of does not count as a word in datatrove's Gopher
quality filter (its ``PUNCTUATION_SET``: ASCII and CJK punctuation, the full-width digit one,
control characters and every sentence-ending mark)."""


def english_sentences(line: str) -> int:
    """How many sentences spaCy's sentenciser finds in ``line`` (stripped, as C4 reads it): a
    new one starts at the first token that is not punctuation after a sentence-ending mark,
    and a whitespace token (a tab, a second space) is not punctuation."""
    tokens = english_tokens(line) if _GAP.search(line) is None else _merged_tokens(line)
    count, seen_end = 1, False
    for token in tokens:
        if token in _SENTENCE_ENDS:
            seen_end = True
        elif seen_end and (token is None or not _is_punct(token)):
            count += 1
            seen_end = False
    return count


def _is_punct(token: str) -> bool:
    return all(unicodedata.category(char).startswith("P") for char in token)
