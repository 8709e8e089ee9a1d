"""Text after a premature ``</html>``: libxml2 drops it, browsers show it.

libxml2's HTML parser ends the document at the end tag that closes its
``<html>`` element and silently drops whatever follows. HTML5 parsers (the
browsers, lexbor in resiliparse) read on: after ``</body>`` or ``</html>``
any further content goes back into the body (the "after body" and "after
after body" insertion modes). Pages rely on that more often than one would
think: a theme that closes the document after its header and prints the
post after it, a CMS block that pastes a whole ``<html>…</html>`` document
into the middle of a page, ``<html lang="en"></html>`` left at the start by
a template. libxml2 then leaves a header, or an empty tree, where a browser
shows the article.

Finding a ``</html>`` needs a scan of the whole page, a measurable share of
the parse, so the tree is asked first (``read_to_end``): when its last text
is the last text of the markup, libxml2 read the page to its end. Only when
it is not (an empty tree, markup after the end, an entity in the last words:
5-7 % of the gold pages) is the markup searched (``without_document_ends``),
and parsed again without its ``</body>`` and ``</html>`` end tags only if
visible text follows the one that closed libxml2's document (3 of 1,969 gold
pages). On the gold pages the check costs about 1 % of libxml2's parse (a
few microseconds a page; ``read_page`` is three times the parse).
"""

from __future__ import annotations

import re

from lxml import etree

TAIL_TEXT_CHARS = 24
"""How much of the tree's last text is looked for in the markup: enough to be
specific, short enough to hold no line break or entity most of the time."""
MIN_CUT_CHARS = 8
"""The least of a text's plain end that is looked for when an entity-prone character
cuts it (a shorter piece is found anywhere)."""
MAX_TAIL_ELEMENTS = 200
"""Elements walked back from the end of the tree to its last text; past that (a page
ending in hundreds of empty elements) the markup is searched instead."""

RAW_TEXT_TAGS = frozenset({"script", "style"})

# What may follow a page's last text in the markup: tags, comments, white space
# (no-break spaces too, which lxml's text holds and str.isspace() counts as space).
_TRAILER = re.compile(
    rb"(?:\s++|\xc2\xa0|&nbsp;|&#160;|&#xa0;|<[/A-Za-z][^<>]*+>|<!--[^-]*+(?:-(?!->)[^-]*+)*+-->)*+"
    rb"\Z",
    re.IGNORECASE,
)
# The end of a text that the markup spells the same way: printable ASCII but for the
# characters pages escape (& < > " '); accents, dashes and symbols are often entities.
_PLAIN_END = re.compile(rf"[ !#-%(-;=?-~]{{1,{TAIL_TEXT_CHARS}}}\Z")
# What may precede a text found whole: a tag, white space, an entity (&nbsp;).
_BEFORE_TEXT = b">;\t\n\r\f "
_HTML_TAGS = re.compile(rb"<(/?)html\b[^<>]*+>", re.IGNORECASE)
_DOCUMENT_ENDS = re.compile(rb"</(?:html|body)\b[^<>]*+>", re.IGNORECASE)
# A character of text after some tags, comments, scripts and styles (which show none).
# Each part is a possessive loop over character classes: a lazy ".*?" costs a try of
# the end at every byte, and what follows a premature </html> can be megabytes of script.
_TEXT_AFTER = re.compile(
    rb"(?:\s++"
    rb"|<script\b[^>]*+>[^<]*+(?:<(?!/script)[^<]*+)*+</script\s*+>"
    rb"|<style\b[^>]*+>[^<]*+(?:<(?!/style)[^<]*+)*+</style\s*+>"
    rb"|<!--[^-]*+(?:-(?!->)[^-]*+)*+-->"
    rb"|<[/!?A-Za-z][^<>]*+>)*+"
    rb"[^\s<]",
    re.IGNORECASE,
)


def read_to_end(root: etree._Element | None, data: bytes) -> bool:
    """Whether the tree of ``data`` holds the markup's last text (libxml2 read it all).

    False means "not shown", not "cut": the markup is then searched.
    """
    found = _last_text(root, [MAX_TAIL_ELEMENTS]) if root is not None else None
    if found is None:
        return False
    needle, whole = _needle(*found)
    if len(needle) < MIN_CUT_CHARS and not whole:
        return False
    at = data.rfind(needle)
    if at < 0 or (whole and data[at - 1 : at] not in _BEFORE_TEXT):
        return False  # a text found inside a longer one
    return _TRAILER.match(data, at + len(needle)) is not None


def _needle(text: str, raw: bool) -> tuple[bytes, bool]:
    """The end of ``text`` as the markup spells it, and whether that is the whole line.

    The text of a script or style is raw (spelled as is); other text ends in its plain
    characters, since the rest may be written as entities.
    """
    line = text[-4 * TAIL_TEXT_CHARS :].strip().rsplit("\n", 1)[-1].lstrip()
    if raw:
        return line[-TAIL_TEXT_CHARS:].encode("utf-8"), len(line) <= TAIL_TEXT_CHARS
    plain = _PLAIN_END.search(line)
    if plain is None:
        return b"", False
    whole = plain.start() == 0 or line[plain.start() - 1].isspace()  # no-break spaces too
    return plain.group().encode("ascii"), whole


def without_document_ends(data: bytes) -> bytes | None:
    """``data`` without its ``</body>`` and ``</html>`` end tags when visible text follows
    the ``</html>`` that ends libxml2's document (the HTML5 reading), else None."""
    end = _document_end(data)
    if end is None or not _TEXT_AFTER.match(data, end):
        return None
    return _DOCUMENT_ENDS.sub(b"", data)


def _document_end(data: bytes) -> int | None:
    """Where the ``</html>`` that closes libxml2's document ends, if one does.

    libxml2 ignores an ``<html>`` start tag inside the document, and then the
    ``</html>`` that matches it (a pasted page inside a page).
    """
    nested = -1
    for tag in _HTML_TAGS.finditer(data):
        if not tag.group(1):
            nested += 1
        elif nested > 0:
            nested -= 1
        else:
            return tag.end()
    return None


def _last_text(element: etree._Element, budget: list[int]) -> tuple[str, bool] | None:
    """The last non-blank text under ``element`` in document order (its own tail excluded),
    and whether it is raw (a script's or a style's); None past the budget of elements."""
    for child in reversed(element):
        budget[0] -= 1
        if budget[0] < 0:
            return None
        if child.tail and not child.tail.isspace():
            return child.tail, False
        if not isinstance(child.tag, str):
            continue  # a comment or processing instruction: its text is not the page's
        found = _last_text(child, budget)
        if found is not None or budget[0] < 0:
            return found
    text = element.text
    return (text, element.tag in RAW_TEXT_TAGS) if text and not text.isspace() else None
