"""One lxml parse per page, and the removal of content no reader sees.

The tree keeps its shape; only invisible subtrees (scripts, styles, forms'
controls, embedded objects, comments) are cut, so every later stage can point
back at real elements. The page head is read for titles and hints before it
is cut.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

import lxml.html
from lxml import etree

from corpusbot.html import bounds, document_end, forms, kinds

# Subtrees whose text no reader sees, dropped with their content; their tails
# (the text after them) stay. The list follows jusText's preprocessor (head,
# scripts, styles, embedded objects, form controls), plus the HTML5
# container of hidden markup (template) and inline graphics. ``<noscript>``
# stays in the tree as a hidden element (``blocks.is_hidden``): pages that
# render their text with scripts give crawlers their text there.
INVISIBLE_TAGS = (
    "head", "script", "style", "template", "applet", "button", "input",
    "select", "textarea", "meta", "link", "base", "svg", "math", "object", "embed",
    "iframe", "frame", "frameset", "canvas", "video", "audio", "map",
)

# Wrappers dropped but whose content stays.
UNWRAPPED_TAGS = ("form", "layer", "param")
SWALLOWED_LANDMARKS = ("main", "article")
"""A button holding one of these is a parser's unclosed button, not a control."""
SWALLOWED_PAGE = ("h1", *SWALLOWED_LANDMARKS)
"""An element holding one of these holds the page (an unclosed wrapper, a page-wide form)."""

# libxml2 stops nesting at 256 levels without XML_PARSE_HUGE, which is what
# keeps 10^5-deep documents from exhausting the stack; huge_tree stays off
# (corpusbot.html.bounds keeps every page within libxml2's other limits).
# The decoded text goes to libxml2 as UTF-8 with the encoding fixed, which
# parses a sixth faster than a str and keeps libxml2 from acting on the
# page's own (already handled) charset declarations; nothing reads ids.
_PARSER_OPTIONS = {
    "remove_comments": True, "remove_pis": True, "huge_tree": False,
    "collect_ids": False, "encoding": "utf-8",
}
# Every element is an lxml.html element, chosen in C by node kind: htmldate reads
# only lxml.html trees, and a page without a declared date would otherwise be
# serialised and parsed again for it (1.8 ms of its 3 ms). lxml.html's own parser
# asks a Python function for each element's class instead, a tenth of extraction.
_HTML_CLASSES = etree.ElementDefaultClassLookup(
    element=lxml.html.HtmlElement, comment=lxml.html.HtmlComment,
    pi=lxml.html.HtmlProcessingInstruction, entity=lxml.html.HtmlEntity,
)


def html_parser() -> etree.HTMLParser:
    """A new libxml2 HTML parser with corpusbot's options, building lxml.html elements."""
    parser = etree.HTMLParser(**_PARSER_OPTIONS)
    parser.set_element_class_lookup(_HTML_CLASSES)
    return parser


# <meta> property / name / http-equiv values that give the headline or the language.
TITLE_METAS = frozenset({"og:title", "twitter:title"})
LANGUAGE_METAS = frozenset({"content-language", "og:locale", "language", "dc.language"})


@dataclass(slots=True, frozen=True)
class Head:
    """What the page head declares: titles, language hints, and whether it is an article or
    a product (``corpusbot.html.kinds``: ``og:type`` or a JSON-LD script, read before the
    scripts go; a page that declares an article is no product).

    ``lang`` is ``<html lang>``; ``meta_lang`` the first ``<meta>`` naming a
    language (``http-equiv="content-language"``, ``og:locale``, ``language``,
    ``dc.language``), which pages without ``lang`` often carry.
    """

    title: str | None = None
    og_title: str | None = None
    lang: str | None = None
    meta_lang: str | None = None
    article: bool = False
    product: bool = False


@dataclass(slots=True, frozen=True)
class HeadElements:
    """The page's ``<meta>``, ``<title>``, ``<h1>``, ``<button>``, ``<form>`` and
    ``<script>`` elements, in document order (the buttons and forms for
    ``strip_invisible``, the scripts for the JSON-LD read before it cuts them)."""

    metas: list[etree._Element]
    titles: list[etree._Element]
    h1s: list[etree._Element]
    buttons: list[etree._Element] = field(default_factory=list)
    forms: list[etree._Element] = field(default_factory=list)
    scripts: list[etree._Element] = field(default_factory=list)


def head_elements(root: etree._Element) -> HeadElements:
    """One walk of the tree for what the head, the headline and the cut read (each a walk
    before: on a large page the walk, in C, costs more than the reading)."""
    found: dict[str, list[etree._Element]] = {
        "meta": [], "title": [], "h1": [], "button": [], "form": [], "script": []}
    for element in root.iter("meta", "title", "h1", "button", "form", "script"):
        found[element.tag].append(element)
    return HeadElements(found["meta"], found["title"], found["h1"], found["button"],
                        found["form"], found["script"])


class ParseError(ValueError):
    """The input holds no parseable HTML document."""


def parse_html(text: str | bytes, *,
               parser: etree.HTMLParser | None = None) -> etree._Element:
    """Parse decoded HTML, or valid UTF-8 bytes, into a tree rooted at ``<html>``.

    The elements are ``lxml.html`` elements (``html_parser``), so libraries that
    read only those (htmldate) take the tree as it is. Raises ``ParseError`` when
    libxml2 yields no document.
    """
    if not text or not text.strip():
        raise ParseError("empty document")
    # lone surrogates (from broken escapes) have no UTF-8 form
    data = text.encode("utf-8", "replace") if isinstance(text, str) else text
    data = drop_script_tail(data)
    try:
        root = _parse(data, parser)
    except (etree.ParserError, ValueError) as exc:
        raise ParseError(f"unparseable HTML: {exc}") from exc
    if not document_end.read_to_end(root, data):
        data, root = _reparse_past_document_end(data, root, parser)
    if root is None or not _has_content(root):
        repaired = _reparse_html_start(data)
        root = root if repaired is None else repaired
    if root is None:
        raise ParseError("unparseable HTML")
    repair_body(root)
    return root


def _parse(data: bytes, parser: etree.HTMLParser | None = None) -> etree._Element | None:
    return etree.fromstring(data, parser or html_parser())


# The text before a page's first tag, when that tag closes a script: the end of an
# inline script whose start was cut off (a truncated capture, a broken template).
# Possessive, and looked for in the first SCRIPT_TAIL_BYTES only (as is the <html>
# start tag): no backtracking state grows with a page of megabytes without a tag.
_SCRIPT_TAIL = re.compile(rb"\A(?:[^<]++|<(?![a-zA-Z/!?]))*+</script\s*>", re.IGNORECASE)
SCRIPT_TAIL_BYTES = 65536
# The page's <html> start tag, to the first ">" (inside an unclosed quote if need be).
_HTML_START = re.compile(rb"<html\b[^>]{0,4096}>", re.IGNORECASE)


def drop_script_tail(data: bytes) -> bytes:
    """``data`` without the cut-off end of a script before its first tag.

    libxml2 reads that text as the page's first paragraph, and the
    ``<html>`` and ``<head>`` after it as stray tags in the body.
    """
    found = _SCRIPT_TAIL.match(data, 0, SCRIPT_TAIL_BYTES)
    return data[found.end():] if found else data


def _reparse_past_document_end(
    data: bytes, root: etree._Element | None, parser: etree.HTMLParser | None,
) -> tuple[bytes, etree._Element | None]:
    """``data`` and its tree, read past a premature ``</html>`` when text follows it
    (``corpusbot.html.document_end``)."""
    repaired = document_end.without_document_ends(data)
    if repaired is None:
        return data, root
    try:
        return repaired, _parse(repaired, parser)
    except (etree.ParserError, ValueError):
        return data, root


def _reparse_html_start(data: bytes) -> etree._Element | None:
    """The tree of ``data`` with a bare ``<html>`` start tag, when that gives content.

    A garbled start tag empties libxml2's tree: an attribute's unclosed quote
    swallows the document up to the next quote, and ``<html/>`` closes it.
    """
    found = _HTML_START.search(data, 0, SCRIPT_TAIL_BYTES)
    if found is None or found.group() == b"<html>":
        return None
    repaired = data[: found.start()] + b"<html>" + data[found.end():]
    try:
        root = _parse(repaired)
    except (etree.ParserError, ValueError):
        return None
    return root if root is not None and _has_content(root) else None


# Elements that belong in <head>; any other start tag there means the body began.
HEAD_TAGS = frozenset({
    "title", "meta", "link", "base", "style", "script", "noscript", "template",
})


def repair_body(root: etree._Element) -> None:
    """Move a body that libxml2 nested inside ``<head>`` back under ``<html>``.

    libxml2 keeps an unclosed unknown element in the head (``<mbox>``) open,
    so the ``<body>`` and everything after it land inside the head, which is
    cut as invisible: the page would lose all its text. When the real body
    is missing or empty, the nested ``<body>`` (else the head's first
    element that is no head element, and what follows it) moves into it.
    """
    head, body = root.find("head"), root.find("body")
    if head is None or (body is not None and _has_content(body)):
        return
    nested = head.find(".//body")
    moved = [nested] if nested is not None else _body_content(head)
    if not moved:
        return
    if body is None:
        body = etree.SubElement(root, "body")
    if nested is not None:
        body.attrib.update(nested.attrib)
        body.text = (body.text or "") + (nested.text or "")
        moved = list(nested)
        nested.getparent().remove(nested)
    body.extend(moved)


def _has_content(element: etree._Element) -> bool:
    return len(element) > 0 or bool((element.text or "").strip())


def _body_content(head: etree._Element) -> list[etree._Element]:
    """The head's first element that is no head element, and its following siblings."""
    for child in head:
        if isinstance(child.tag, str) and child.tag not in HEAD_TAGS:
            return [child, *child.itersiblings()]
    return []


def parse_bounded(text: str | bytes) -> tuple[etree._Element, tuple[str, ...]]:
    """``parse_html`` of ``text`` within ``corpusbot.html.bounds``, and what was cut.

    A page nested past libxml2's depth limit loses everything after the deep
    part; it is parsed again without its runs of opening tags (a nesting bomb's
    shape), and the cut is reported as ``html/cut/nesting`` either way.
    """
    bounded = bounds.bound(without_nul(text))
    parser = html_parser()
    root = parse_html(bounded.text, parser=parser)
    if not _too_deep(parser):
        return root, bounded.cuts
    flatter = bounds.cut_open_runs(bounded.text)
    if flatter != bounded.text and flatter.strip():
        root = parse_html(flatter)
    return root, (*bounded.cuts, "html/cut/nesting")


def without_nul(text: str | bytes) -> str | bytes:
    """``text`` without NUL characters.

    The HTML standard's tree builder ignores a NUL in a page's text, so a browser shows
    "bud\\0get" as "budget"; libxml2 makes it U+FFFD, which splits the word in two and
    reads as a decoding error downstream (damaged archives and pages pasted from other
    formats carry them). The test for one costs a scan of the page at C speed.
    """
    if isinstance(text, bytes):
        return text.replace(b"\x00", b"") if b"\x00" in text else text
    return text.replace("\x00", "") if "\x00" in text else text


def _too_deep(parser: etree.HTMLParser) -> bool:
    return any("Excessive depth" in entry.message for entry in parser.error_log)


def read_head(root: etree._Element, elements: HeadElements | None = None) -> Head:
    """Read titles and language hints before the head is cut (``elements``: the root's
    ``head_elements``, when already found)."""
    elements = elements or head_elements(root)
    og_title = meta_lang = None
    og_types: list[str] = []
    for meta in elements.metas:
        content = meta.get("content")
        if content is None:
            continue
        prop = meta.get("property")
        names = {prop, (meta.get("name") or "").lower(), (meta.get("http-equiv") or "").lower()}
        if og_title is None and not TITLE_METAS.isdisjoint(names):
            og_title = content
        if meta_lang is None and not LANGUAGE_METAS.isdisjoint(names):
            meta_lang = content
        if prop and prop.lower() == "og:type":
            og_types.append(content)
    lang = root.get("lang") or root.get("{http://www.w3.org/XML/1998/namespace}lang")
    title = elements.titles[0].text if elements.titles else None
    # a review marks up the product it reviews, and says it is an article
    article = kinds.declares_article(elements.scripts)
    return Head(title=_clean(title), og_title=_clean(og_title),
                lang=_clean(lang), meta_lang=_clean(meta_lang), article=article,
                product=not article and kinds.declares_product(og_types, elements.scripts))


def strip_invisible(root: etree._Element, buttons: Iterable[etree._Element] = (),
                    page_forms: Iterable[etree._Element] = ()) -> None:
    """Cut what no reader sees, keeping each cut element's tail text.

    ``page_forms`` (``head_elements``) that a reader types into have their
    children marked before the form is unwrapped (``corpusbot.html.forms``).

    ``buttons`` (``head_elements``) holding a page landmark are kept as
    plain containers: when a menu button's inner ``<div>`` is left open,
    libxml2 ignores its ``</button>`` (an HTML5 parser closes the button)
    and the button swallows the rest of the page, ``<main>`` included.
    wcxb-dev 0.8434 -> 0.8460 (four pages of one publishing platform, 0 ->
    0.92-0.96), the other sets unchanged; 0.002 ms a page.
    """
    for button in buttons:
        if next(button.iter(*SWALLOWED_LANDMARKS), None) is not None:
            button.tag = "div"
    entry = forms.entry_forms(page_forms)
    etree.strip_elements(root, *INVISIBLE_TAGS, with_tail=False)
    forms.mark(root, entry, SWALLOWED_PAGE)
    etree.strip_tags(root, *UNWRAPPED_TAGS)


def _clean(value: str | None) -> str | None:
    if not value:
        return None
    value = " ".join(value.split())
    return value or None
