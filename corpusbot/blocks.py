"""Cut a parsed page once into text blocks that every extractor shares.

Segmentation follows jusText (``algorithm.rst``, "Segmentation"): a block
ends at the start and at the end of every block-level tag, and at a double
``<br>``; inline tags stay inside the block. Each block keeps the element its
text starts in, so tree-based filters can climb from it, and carries the
features the algorithms read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lxml import etree

# jusText's block-level tags: their start and end cut the text into blocks.
PARAGRAPH_TAGS = frozenset({
    "body", "blockquote", "caption", "center", "col", "colgroup", "dd",
    "div", "dl", "dt", "fieldset", "form", "legend", "optgroup", "option",
    "p", "pre", "table", "td", "textarea", "tfoot", "th", "thead", "tr",
    "ul", "li", "h1", "h2", "h3", "h4", "h5", "h6",
})

_WHITESPACE = re.compile(r"\s+")
_HEADING_PATH = re.compile(r"\bh\d\b")


@dataclass(slots=True, eq=False)
class Block:
    """One run of text between block boundaries, and its shared features.

    ``element`` is the element the block's first text node sits in;
    ``dom_path`` the dotted tag path open when the block began (jusText's
    ``dom_path``); ``link_chars`` the characters inside ``<a>``.
    """

    element: etree._Element
    dom_path: str
    position: int
    text: str = ""
    link_chars: int = 0
    link_words: int = 0
    tags_count: int = 0

    @property
    def chars(self) -> int:
        return len(self.text)

    @property
    def words(self) -> int:
        return len(self.text.split())

    @property
    def tag(self) -> str:
        return self.element.tag if isinstance(self.element.tag, str) else ""

    @property
    def is_heading(self) -> bool:
        return bool(_HEADING_PATH.search(self.dom_path))

    @property
    def in_select(self) -> bool:
        return "select" in self.dom_path

    @property
    def has_copyright(self) -> bool:
        return "\xa9" in self.text or "&copy" in self.text

    @property
    def link_density(self) -> float:
        """Share of the block's characters inside links (jusText's measure)."""
        return self.link_chars / len(self.text) if self.text else 0.0


@dataclass(slots=True)
class _Open:
    """A block still collecting text."""

    dom_path: str
    element: etree._Element
    chunks: list[str] = field(default_factory=list)
    first_element: etree._Element | None = None
    link_chars: int = 0
    link_words: int = 0
    tags_count: int = 0


class _Segmenter:
    """jusText's ParagraphMaker, driven by an lxml tree walk."""

    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self.path: list[etree._Element] = []
        self.link = False
        self.br = False
        self.current = self._new_open()

    def _new_open(self) -> _Open:
        top = self.path[-1] if self.path else None
        path = ".".join(e.tag for e in self.path)
        return _Open(dom_path=path, element=top)  # type: ignore[arg-type]

    def cut(self) -> None:
        """Close the open block, keeping it if it received any text."""
        cur = self.current
        if cur.chunks:
            text = _normalize("".join(cur.chunks).strip())
            self.blocks.append(Block(
                element=cur.first_element if cur.first_element is not None else cur.element,
                dom_path=cur.dom_path, position=len(self.blocks), text=text,
                link_chars=cur.link_chars, link_words=cur.link_words,
                tags_count=cur.tags_count,
            ))
        self.current = self._new_open()

    def start(self, element: etree._Element) -> None:
        tag = element.tag
        self.path.append(element)
        if tag in PARAGRAPH_TAGS or (tag == "br" and self.br):
            if tag == "br":
                # the second <br> separates blocks and is not one of their tags
                self.current.tags_count -= 1
            self.cut()
            return
        self.br = tag == "br"
        if self.br:
            self.current.chunks.append(" ")
        elif tag == "a":
            self.link = True
        self.current.tags_count += 1

    def end(self, element: etree._Element) -> None:
        tag = element.tag
        self.path.pop()
        if tag in PARAGRAPH_TAGS:
            self.cut()
        if tag == "a":
            self.link = False

    def characters(self, text: str | None) -> None:
        if not text:
            return
        cur = self.current
        if text.isspace():
            # jusText drops whitespace-only text, which glues the words of
            # "<b>a</b> <i>b</i>" together; one space keeps them apart
            # without counting as text of its own.
            if cur.chunks and not cur.chunks[-1].endswith((" ", "\n")):
                cur.chunks.append(" ")
            return
        text = _normalize(text)
        cur.chunks.append(text)
        if cur.first_element is None and self.path:
            cur.first_element = self.path[-1]
        if self.link:
            cur.link_chars += len(text)
            cur.link_words += len(text.split())
        self.br = False


def segment(root: etree._Element) -> list[Block]:
    """Cut the tree under ``root`` into blocks, in document order."""
    seg = _Segmenter()
    for event, element in etree.iterwalk(root, events=("start", "end")):
        if not isinstance(element.tag, str):
            # entities and other non-element nodes carry no tag of their own
            if event == "end":
                seg.characters(element.tail)
            continue
        if event == "start":
            seg.start(element)
            seg.characters(element.text)
        else:
            seg.end(element)
            seg.characters(element.tail)
    seg.cut()
    return seg.blocks


def _normalize(text: str) -> str:
    # jusText: a whitespace run becomes one newline if it holds one, else a space
    return _WHITESPACE.sub(_replace_space, text)


def _replace_space(match: re.Match[str]) -> str:
    run = match.group()
    return "\n" if "\n" in run or "\r" in run else " "

