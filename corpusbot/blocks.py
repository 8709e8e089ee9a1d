"""Cut a parsed page once into text blocks that every extractor shares.

Segmentation follows jusText (``algorithm.rst``, "Segmentation"): a block
ends at the start and at the end of every block-level tag, and at a double
``<br>``; inline tags stay inside the block. Each block keeps the element its
text starts in, so tree-based filters can climb from it, and carries the
features the algorithms read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lxml import etree

# jusText's block-level tags: their start and end cut the text into blocks.
PARAGRAPH_TAGS = frozenset({
    "body", "blockquote", "caption", "center", "col", "colgroup", "dd",
    "div", "dl", "dt", "fieldset", "form", "legend", "optgroup", "option",
    "p", "pre", "table", "td", "textarea", "tfoot", "th", "thead", "tr",
    "ul", "li", "h1", "h2", "h3", "h4", "h5", "h6",
})

_NEWLINE_RUN = re.compile(r"\s*[\r\n]\s*")
_SPACE_RUN = re.compile(r"[^\S\n]+")
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


class _Segmenter:
    """jusText's ParagraphMaker, driven by an lxml tree walk.

    The walk is the hot loop of extraction, so it is one method over local
    variables. A block is only materialised when text arrives (most cuts,
    at every block-level start and end, have nothing between them), and
    the dotted path is a stack of strings, so a cut only records the top.
    """

    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self.chunks: list[str] = []
        self.link_chars = 0
        self.link_words = 0
        self.path = ""
        self.opened_in: etree._Element | None = None
        self.element: etree._Element | None = None

    def cut(self, path: str, element: etree._Element | None) -> None:
        """Close the open block if it received any text; the next opens at ``path``."""
        if self.chunks:
            self.blocks.append(Block(
                element=self.element if self.element is not None else self.opened_in,
                dom_path=self.path, position=len(self.blocks),
                text=normalize("".join(self.chunks).strip()),
                link_chars=self.link_chars, link_words=self.link_words,
            ))
            self.chunks = []
            self.link_chars = self.link_words = 0
            self.element = None
        self.path, self.opened_in = path, element

    # The one hot loop of extraction: inlined on purpose, calls per event cost
    # more than the work they would structure.
    def walk(self, root: etree._Element) -> list[Block]:  # noqa: C901, PLR0912
        elements: list[etree._Element] = []
        paths = [""]
        link = br = False
        chunks = self.chunks
        for event, element in etree.iterwalk(root, events=("start", "end")):
            tag = element.tag
            if event == "start" and not isinstance(tag, str):
                continue  # a non-element node: only its tail, at its end, is text
            if event == "start":
                elements.append(element)
                paths.append(f"{paths[-1]}.{tag}" if len(paths) > 1 else tag)
                if tag in PARAGRAPH_TAGS or (br and tag == "br"):
                    self.cut(paths[-1], element)
                    chunks = self.chunks
                elif tag == "br":
                    br = True
                    chunks.append(" ")
                else:
                    br = False
                    link = link or tag == "a"
                text = element.text
            else:
                if isinstance(tag, str):
                    elements.pop()
                    paths.pop()
                    if tag in PARAGRAPH_TAGS:
                        self.cut(paths[-1], elements[-1] if elements else None)
                        chunks = self.chunks
                    if tag == "a":
                        link = False
                text = element.tail
            if not text:
                continue
            if text.isspace():
                # jusText drops whitespace-only text, which glues the words of
                # "<b>a</b> <i>b</i>" together; one space keeps them apart
                # without counting as text of its own.
                if chunks and not chunks[-1].endswith((" ", "\n")):
                    chunks.append(" ")
                continue
            text = normalize(text)
            chunks.append(text)
            if self.element is None and elements:
                self.element = elements[-1]
            if link:
                self.link_chars += len(text)
                self.link_words += len(text.split())
            br = False
        self.cut("", None)
        return self.blocks


def segment(root: etree._Element) -> list[Block]:
    """Cut the tree under ``root`` into blocks, in document order."""
    return _Segmenter().walk(root)


def normalize(text: str) -> str:
    """jusText's whitespace rule: a run becomes a newline if it holds one, else a space."""
    if "\n" in text or "\r" in text:
        text = _NEWLINE_RUN.sub("\n", text)
    elif "  " not in text and "\t" not in text and text.isprintable():
        return text  # most text nodes: single spaces only, nothing to do
    return _SPACE_RUN.sub(" ", text)
