"""Bytes of a fetched page to text: the encoding a browser would use, corrected by the bytes.

The order is the one browsers and Scrapy follow (w3lib.encoding): byte order
mark, HTTP ``Content-Type`` charset, ``<meta charset>`` / ``http-equiv``,
then detection. Declarations on the web are often wrong, and a corpus cannot
afford mojibake, so the bytes get a say:

- bytes that are valid UTF-8 and not plain ASCII are UTF-8, whatever was
  declared: legacy-encoded text practically never forms valid multi-byte
  UTF-8 sequences by chance, while servers that label UTF-8 "iso-8859-1" by
  default are common;
- a Latin-1 / ASCII / windows-1252 declaration is weak: it is often just
  the server's or the editor's default and names the fallback anyway, so
  another declaration or detection may overrule it;
- a declaration the bytes contradict (many undecodable sequences) is
  skipped, and so is a UTF-16/32 label on bytes that are not UTF-16/32;
- a declaration the bytes merely doubt (another encoding of the same script:
  koi8-r on windows-1251 bytes, big5 on gb18030) gives way to detection when
  detection reads them with fewer impossible characters, fewer symbols inside
  words, or clearly more stop words (``_unless_misread``).

Detection (``detect_encoding``) only considers the encodings browsers
implement (WHATWG Encoding Standard) and falls back to windows-1252, the
browsers' own fallback.
"""

from __future__ import annotations

import codecs
import itertools
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field

import charset_normalizer
from w3lib.encoding import (
    html_body_declared_encoding,
    http_content_type_encoding,
    read_bom,
    to_unicode,
)

from corpusbot.language.stoplists import stoplist

FALLBACK = "cp1252"
UTF8 = "utf-8"
# The WHATWG Encoding Standard's encodings as Python codecs (what browsers
# decode), roughly most used on the web first: detection breaks ties by it.
WEB_ENCODINGS = (
    "utf_8", "cp1252", "cp1251", "cp932", "gb18030", "cp949", "euc_jp", "cp1250",
    "iso8859_2", "big5hkscs", "cp1254", "cp1256", "iso8859_15", "cp1253", "cp1255",
    "cp1257", "cp874", "cp1258", "koi8_r", "koi8_u", "iso8859_5", "iso8859_7",
    "iso8859_6", "iso8859_8", "iso8859_4", "iso8859_13", "iso8859_16", "iso8859_3",
    "iso8859_10", "iso8859_14", "cp866", "iso2022_jp", "mac_roman", "mac_cyrillic",
    "utf_16_le", "utf_16_be",
)
_RANK = {name: rank for rank, name in enumerate(WEB_ENCODINGS)}
# Share of non-ASCII sequences that may fail to decode before a declared
# encoding counts as contradicted by the bytes. Multi-byte legacy pages
# (GBK, Big5, Shift_JIS) often hold a few invalid sequences; a wrong
# declaration fails on most of them.
MAX_ERROR_SHARE = 0.05
# Readings within DETECTION_TOLERANCE of the best chaos (charset-normalizer's
# 0..1 mess measure) are equally clean; coherence (does it look like a
# language) closer than COHERENCE_TIE is equal. Set on the sentences of
# tests/test_decode.py (Western, Central European, Turkish, Cyrillic, Greek,
# Hebrew, Arabic, Thai, CJK).
DETECTION_TOLERANCE = 0.1
COHERENCE_TIE = 0.02
_MULTI_BYTE = frozenset(
    {"utf_8", "gb18030", "big5hkscs", "euc_jp", "cp932", "cp949", "iso2022_jp",
     "utf_16_le", "utf_16_be"}
)
_SINGLE_BYTE = tuple(e for e in WEB_ENCODINGS if e not in _MULTI_BYTE)
# Words (runs of ASCII letters and non-ASCII bytes) with at least one non-ASCII byte.
_HIGH_WORD_RE = re.compile(rb"[A-Za-z]*[\x80-\xff][A-Za-z\x80-\xff]*")
# Quotes, brackets and dashes stripped from words before the stop-word lookup.
_PUNCTUATION = (
    "\"'()[]\u00ab\u00bb\u2039\u203a\u201c\u201d\u201e\u2018\u2019\u201a"
    "\u2014\u2013\u2026\u00a1\u00bf\u00b7"
)
_IMPOSSIBLE_RE = re.compile("[\x80-\x9f\ufffd]")
# A character between two letters: a symbol there is mojibake (``wi±cej``).
_INSIDE_RE = re.compile(r"(?<=[^\W\d_])[^\w\s](?=[^\W\d_])")
# What the word vote reads: enough words to decide, bounded time on huge pages.
MAX_DETECT_BYTES = 65536
MAX_VOTE_WORDS = 300
# How much of the body the binary sniffer looks at.
SNIFF_BYTES = 1024


@dataclass(slots=True, frozen=True)
class Decoded:
    """A page's text and the Python codec name it was decoded with ("unicode" for str input).

    ``utf8`` is the body itself when it is exactly the UTF-8 form of ``text``
    (valid UTF-8 without a BOM, most pages), which a parser can take as is
    instead of encoding the text again.
    """

    text: str
    encoding: str
    utf8: bytes | None = field(default=None, compare=False, repr=False)


def decode_html(body: bytes | str, headers: Mapping[str, str] | None = None) -> Decoded:
    """Decode a page body; never raises, undecodable bytes become U+FFFD."""
    if isinstance(body, str):
        return Decoded(body.removeprefix("\ufeff"), "unicode")
    bom_encoding, bom = read_bom(body)
    if bom_encoding and bom:
        return Decoded(to_unicode(body[len(bom):], bom_encoding), bom_encoding)
    encoding, text = _choose(body, headers)
    if text is not None:
        return Decoded(text, encoding, body)
    return Decoded(to_unicode(body, encoding), encoding)


def declared_encodings(body: bytes, headers: Mapping[str, str] | None) -> list[str]:
    """Encodings the header and the document declare, in the order to trust them."""
    header = http_content_type_encoding(_header(headers, "content-type"))
    meta = html_body_declared_encoding(body)
    if meta and meta.startswith(("utf-16", "utf-32")):
        # WHATWG prescan: a document cannot declare UTF-16 in ASCII markup.
        meta = UTF8
    return list(dict.fromkeys(e for e in (header, meta) if e))


def choose_encoding(body: bytes, headers: Mapping[str, str] | None = None) -> str:
    """The encoding for ``body`` given what is declared, checked against the bytes.

    A windows-1252 declaration (what w3lib makes of "iso-8859-1" and
    "us-ascii", the servers' and editors' defaults) is weak: it is the
    fallback anyway, so detection may overrule it.
    """
    return _choose(body, headers)[0]


def _choose(body: bytes, headers: Mapping[str, str] | None) -> tuple[str, str | None]:
    """``choose_encoding``, with the text when choosing meant decoding valid UTF-8 anyway.

    The document's own declaration is read only when the bytes leave a
    doubt: valid UTF-8 with non-ASCII text (most pages) needs none.
    """
    header = http_content_type_encoding(_header(headers, "content-type"))
    if header and _is_wide(header) and b"\x00" in body[:SNIFF_BYTES]:
        return (header if header != "utf-16" else _utf16_order(body)), None
    if not body.isascii():
        try:
            return UTF8, body.decode(UTF8)
        except UnicodeDecodeError:
            pass
    # a wide label on bytes without NULs is not UTF-16/32 (the meta never is)
    declared = [e for e in declared_encodings(body, headers) if not _is_wide(e)]
    if body.isascii():
        encoding = declared[0] if declared else UTF8
        return encoding, body.decode("ascii") if encoding == UTF8 else None
    if _mostly_utf8(body):
        # Nearly valid UTF-8 with non-ASCII text: see module docstring.
        return UTF8, None
    for encoding in declared:
        if encoding not in (UTF8, FALLBACK) and _error_share(body, encoding) <= MAX_ERROR_SHARE:
            return _unless_misread(body, encoding), None
    return detect_encoding(body) or FALLBACK, None


def _unless_misread(body: bytes, declared: str) -> str:
    """``declared``, unless the encoding detection finds reads the bytes better.

    A wrong label often names another encoding of the same script (koi8-r on
    windows-1251 bytes, big5 or shift_jis on gb18030): every byte decodes in a
    single-byte one, and a multi-byte one fails on too few sequences for the
    error share to tell. The reading with fewer impossible characters (U+FFFD,
    C1 controls), then fewer symbols inside words (``wi±cej``: windows-1250
    read from ISO-8859-2 bytes) wins; at equal counts, the one that makes
    clearly more stop words; a tie keeps the declaration.
    """
    detected = detect_encoding(body)
    if detected is None or codecs.lookup(detected).name == codecs.lookup(declared).name:
        return declared
    theirs, ours = _implausible(body, declared), _implausible(body, detected)
    if ours != theirs:
        return detected if ours < theirs else declared
    if _stopword_hits(body, detected) > 2 * _stopword_hits(body, declared) + 2:
        return detected
    return declared


def _implausible(body: bytes, encoding: str) -> tuple[int, int]:
    """What no text holds in ``encoding``'s reading: undecodable bytes and C1 controls, then
    symbols between the letters of a word."""
    impossible = len(_IMPOSSIBLE_RE.findall(body[:MAX_DETECT_BYTES].decode(encoding, "replace")))
    words = _high_words(body).decode(encoding, "replace")
    inside = sum(unicodedata.category(m.group())[0] == "S" for m in _INSIDE_RE.finditer(words))
    return impossible, inside


def detect_encoding(body: bytes) -> str | None:
    """The most likely web encoding of non-UTF-8 ``body``, or None for no guess.

    charset-normalizer recognises multi-byte (CJK) encodings well, but on
    short text it cannot tell the single-byte Latin code pages apart (it
    reads Italian as windows-1258, Turkish as ISO-8859-10). Known words
    can: among single-byte readings the one that makes the most stop words
    (of any language) wins, ties going to the more used encoding.
    """
    results = charset_normalizer.from_bytes(body, cp_isolation=list(WEB_ENCODINGS))
    best = results.best()
    if best is not None and best.encoding in _MULTI_BYTE:
        return codecs.lookup(best.encoding).name
    by_words = _stopword_vote(body)
    if by_words or best is None:
        return by_words
    # No known word either way (non-ASCII only in punctuation, or no list for
    # the language): the most coherent of charset-normalizer's least chaotic
    # readings, named by the most used encoding that gives the same text.
    close = [m for m in results if m.chaos <= best.chaos + DETECTION_TOLERANCE]
    top = max(m.coherence for m in close)
    names = [
        name for m in close if m.coherence >= top - COHERENCE_TIE
        for name in (m.could_be_from_charset or [m.encoding])
    ]
    return codecs.lookup(min(names, key=lambda n: _RANK.get(n, len(_RANK)))).name


def _stopword_vote(body: bytes) -> str | None:
    """The single-byte encoding whose reading of the non-ASCII words has most stop words."""
    words = _high_words(body)
    best, best_hits = None, 0
    for encoding in _SINGLE_BYTE:
        text = words.decode(encoding, "replace").lower()
        if _IMPOSSIBLE_RE.search(text):
            continue  # undefined bytes or C1 controls: not this encoding
        hits = _hits(text)
        if hits > best_hits:
            best, best_hits = encoding, hits
    return codecs.lookup(best).name if best else None


def _high_words(body: bytes) -> bytes:
    """The words of ``body`` that hold a non-ASCII byte, space-separated (the vote's part)."""
    found = _HIGH_WORD_RE.finditer(body, 0, MAX_DETECT_BYTES)
    return b" ".join(match.group() for match in itertools.islice(found, MAX_VOTE_WORDS))


def _stopword_hits(body: bytes, encoding: str) -> int:
    """Stop words (of any language) among the non-ASCII words of ``encoding``'s reading."""
    return _hits(_high_words(body).decode(encoding, "replace").lower())


def _hits(text: str) -> int:
    # A lone non-ASCII byte is more often a dash or bullet than a one-letter
    # word, so it does not count.
    known = stoplist(None)
    return sum(len(w) > 1 and w.strip(_PUNCTUATION) in known for w in text.split())


def looks_like_html(data: bytes | str) -> bool:
    """Whether ``data`` may be an HTML page or fragment; see ``why_not_html``."""
    return why_not_html(data) is None


_BINARY_MAGIC = (b"%PDF-", b"%!PS", b"GIF8", b"PK\x03\x04", b"{\\rtf", b"\x89PNG", b"\x1f\x8b")
# Control characters that text never holds; tab, newlines and form feed are fine.
_CONTROL_RE = re.compile("[\x00-\x08\x0b\x0e-\x1f\ufffd]")
_FIRST_ELEMENT_RE = re.compile(r"<([a-zA-Z][\w:.-]*)")
_FEED_ROOTS = frozenset({"rss", "feed", "rdf:rdf", "urlset", "sitemapindex", "svg"})
MAX_CONTROL_SHARE = 0.05
MARKUP_SNIFF_CHARS = 65536
"""How far a first tag is looked for: a page's leading script text is rarely longer."""
_LEADING_SPACE = re.compile("[\ufeff \t\r\n\f]*")
_LEADING_SPACE_BYTES = re.compile(rb"[ \t\r\n\f]*")


def why_not_html(data: bytes | str) -> str | None:
    """None if ``data`` may be HTML, else why not: "empty", "binary", "json", "feed", "no-markup".

    Cheap, on the first SNIFF_BYTES after any leading whitespace (pages
    from templating engines can open with kilobytes of blank lines): a known
    binary signature (PDF, PostScript, GIF, PNG, ZIP, gzip, RTF); more than
    5% control characters or replacement characters (images, archives,
    random bytes); a JSON document (starts with "{" or "["); an XML root that
    is a feed, sitemap or SVG. "no-markup" only when no tag starts in the
    first MARKUP_SNIFF_CHARS: a page may open with the cut-off end of an
    inline script before its first tag. A fragment such as "<p>text</p>" passes.
    """
    text = _head_text(data, MARKUP_SNIFF_CHARS)
    head = text[:SNIFF_BYTES]
    if not head:
        return "empty"
    if _is_binary(head):
        return "binary"
    if head[0] in "{[":
        return "json"
    first = _FIRST_ELEMENT_RE.search(text)
    if first is None:
        return "no-markup"
    if first.group(1).lower() in _FEED_ROOTS:
        return "feed"
    return None


def _is_binary(head: str) -> bool:
    if head.encode("latin-1", "replace").startswith(_BINARY_MAGIC):
        return True
    return len(_CONTROL_RE.findall(head)) > MAX_CONTROL_SHARE * len(head)


def _head_text(data: bytes | str, size: int) -> str:
    """``size`` characters of ``data`` as text from its first one that is no BOM or space."""
    if isinstance(data, str):
        start = _LEADING_SPACE.match(data).end()
        return data[start : start + size]
    bom_encoding, bom = read_bom(data)
    if bom_encoding and bom:
        return to_unicode(data[len(bom) : len(bom) + 4 * size], bom_encoding).lstrip()[:size]
    # Latin-1 maps every byte to one character, so byte signatures survive.
    start = _LEADING_SPACE_BYTES.match(data).end()
    return data[start : start + size].decode("latin-1")


def _header(headers: Mapping[str, str] | None, name: str) -> str | None:
    """One header value, matched case-insensitively; bytes and lists (Scrapy) accepted."""
    for key, value in (headers or {}).items():
        if _text(key).lower() == name:
            if isinstance(value, list | tuple):
                return _text(value[0]) if value else ""
            return _text(value)
    return None


def _text(value: object) -> str:
    return value.decode("latin-1") if isinstance(value, bytes) else str(value)


def _mostly_utf8(body: bytes) -> bool:
    """Whether invalid UTF-8 ``body`` has at most one bad sequence per four good ones."""
    text = body.decode(UTF8, "replace")
    bad = text.count("\ufffd") - body.count(b"\xef\xbf\xbd")
    good = _non_ascii(text) - text.count("\ufffd")
    return good >= 4 * bad


def _non_ascii(text: str) -> int:
    return len(text) - len(text.encode("ascii", "ignore"))


def _error_share(body: bytes, encoding: str) -> float:
    """Share of the non-ASCII characters of ``body`` that ``encoding`` cannot decode."""
    text = to_unicode(body, encoding)
    non_ascii = _non_ascii(text)
    return text.count("\ufffd") / non_ascii if non_ascii else 0.0


def _is_wide(encoding: str) -> bool:
    return encoding.startswith(("utf-16", "utf-32"))


def _utf16_order(body: bytes) -> str:
    """UTF-16 without a BOM: big-endian if ASCII characters have their NUL byte first."""
    return "utf-16-be" if body[:1] == b"\x00" else "utf-16-le"
