"""Boilerpipe's text blocks, their shallow text features and the decision trees.

Kohlschütter, Frankhauser, Nejdl, "Boilerplate Detection using Shallow Text
Features", WSDM 2010: a block is classified from the *number of words*, the
*link density* (words inside anchors / words) and the *text density* (words
per wrapped line of 80 characters) of the previous, current and next block,
by C4.8 decision trees learnt on news pages (Boilerpipe's
NumWordsRulesClassifier and DensityRulesClassifier).

Boilerpipe's TextBlock becomes a ``Unit``: a run of our ``Block`` objects
with summed features, so that fusion never loses the element each block
points at.

Words: a token is a whitespace-separated run holding a letter or digit, as
in Boilerpipe's tokenizer. Text in Han, Hiragana or Katakana has no spaces;
there every ``CJK_CHARS_PER_WORD`` characters count as one word, close to the
length of a Chinese word, so the English-trained thresholds keep their
meaning (a whole unspaced sentence counted as one word would never reach
them; on the three CJK pages of the gold sets 1, 2 and 3 characters per word
score the same).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from enum import IntEnum, auto

from corpusbot.html.blocks import Block

LINE_WIDTH = 80
"""Characters per wrapped line, for text density (the paper's 80)."""

CJK_CHARS_PER_WORD = 2
"""Unspaced CJK characters counted as one word (see the module docstring)."""

FULLTEXT_MIN_TEXT_DENSITY = 9
"""A block counts as full text from this text density (HeuristicFilterBase)."""

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_TOKEN = re.compile(rf"[{_CJK}]{{1,{CJK_CHARS_PER_WORD}}}|[^\s{_CJK}]+")
_HAS_CJK = re.compile(f"[{_CJK}]")
_WORD_CHAR = re.compile(r"[^\W_]")


class Label(IntEnum):
    """Boilerpipe's block labels (``DefaultLabels``) that the article chain reads.

    Integers, so that the sets of labels hash them in C (an ``Enum`` member's hash is a
    Python call: a tenth of Boilerpipe's time went there)."""

    TITLE = auto()
    END_OF_TEXT = auto()
    MIGHT_BE_CONTENT = auto()
    VERY_LIKELY_CONTENT = auto()
    HEADING = auto()
    LI = auto()


class Unit:
    """Boilerpipe's TextBlock: one block, or several fused, with summed features.

    ``start`` and ``end`` are block offsets (Boilerpipe's ``offsetBlocks``),
    which let fusion measure the distance across removed blocks.

    A plain class, not a dataclass: a compiled build runs a dataclass's
    ``__init__`` as the Python function ``dataclasses`` writes, and every
    block of every page makes a unit (1 % of ``default``'s time).
    """

    __slots__ = ("anchor_words", "blocks", "content", "end", "labels", "start", "tag_level",
                 "words", "wrapped_lines", "wrapped_words")

    def __init__(self, blocks: list[Block], *, words: int, anchor_words: int, wrapped_words: int,
                 wrapped_lines: int, tag_level: int, start: int, end: int,
                 labels: set[Label] | None = None, content: bool = False) -> None:
        self.blocks = blocks
        self.words = words
        self.anchor_words = anchor_words
        self.wrapped_words = wrapped_words
        self.wrapped_lines = wrapped_lines
        self.tag_level = tag_level
        self.start = start
        self.end = end
        self.labels: set[Label] = set() if labels is None else labels
        self.content = content

    @property
    def text(self) -> str:
        if len(self.blocks) == 1:  # every unit before fusion
            return self.blocks[0].text
        return "\n".join([b.text for b in self.blocks])

    @property
    def link_density(self) -> float:
        """Words in anchors / words."""
        return self.anchor_words / self.words if self.words else 0.0

    @property
    def text_density(self) -> float:
        """Words per wrapped line, the last incomplete line left out."""
        return self.wrapped_words / self.wrapped_lines if self.wrapped_lines else 0.0

    def merge(self, other: Unit) -> None:
        """Fuse ``other`` (the next unit) into this one (``mergeNext``)."""
        self.blocks.extend(other.blocks)
        self.words += other.words
        self.anchor_words += other.anchor_words
        self.wrapped_words += other.wrapped_words
        self.wrapped_lines += other.wrapped_lines
        self.start, self.end = min(self.start, other.start), max(self.end, other.end)
        self.content |= other.content
        self.labels |= other.labels
        self.tag_level = min(self.tag_level, other.tag_level)



def classify(blocks: Sequence[Block], rules: str = "num_words") -> list[bool]:
    """The bare shallow-text classifier: one content flag per input block.

    ``rules`` picks the decision tree: ``"num_words"`` (ArticleExtractor's
    NumWordsRulesClassifier) or ``"density"`` (DensityRulesClassifier).
    Blocks without text are never content and are skipped as neighbours.
    """
    tree = {"num_words": num_words_rules, "density": density_rules}[rules]
    units = to_units(blocks)
    classify_units(units, tree)
    chosen = {id(u.blocks[0]) for u in units if u.content}
    return [id(b) in chosen for b in blocks]


# -- features ---------------------------------------------------------------


def to_units(blocks: Iterable[Block]) -> list[Unit]:
    """One unit per block with text, numbered in document order."""
    kept = [b for b in blocks if b.text.strip()]
    # a page has a few dozen distinct paths for hundreds of blocks
    path_labels: dict[str, frozenset[Label]] = {}
    return [_unit(b, offset, path_labels) for offset, b in enumerate(kept)]


def _unit(block: Block, offset: int, path_labels: dict[str, frozenset[Label]]) -> Unit:
    text = block.text
    # isascii is a flag lookup: most blocks of most pages skip the search
    cjk = not text.isascii() and _HAS_CJK.search(text) is not None
    words, wrapped_words, wrapped_lines = count_words(text, cjk)
    anchors = anchor_words(block, words, cjk) if cjk else min(block.link_words, words)
    labels = path_labels.get(block.dom_path)
    if labels is None:
        labels = path_labels[block.dom_path] = path_labels_of(block)
    return Unit([block], words=words, anchor_words=anchors, wrapped_words=wrapped_words,
                wrapped_lines=wrapped_lines, tag_level=block.depth, start=offset, end=offset,
                labels=set(labels))


def path_labels_of(block: Block) -> frozenset[Label]:
    """The labels a block's DOM path gives it: in a heading, in a list item.

    Both depend on the path alone (``Block.is_heading`` reads ``dom_path``),
    so ``to_units`` computes them once per distinct path.
    """
    labels = set()
    if block.is_heading:
        labels.add(Label.HEADING)
    if "li" in block.dom_path.split("."):
        labels.add(Label.LI)
    return frozenset(labels)


def count_words(text: str, cjk: bool | None = None) -> tuple[int, int, int]:
    """Words, words in wrapped lines and wrapped lines of ``text`` (``cjk``: see word_tokens)."""
    tokens = word_tokens(text, cjk)
    if len(text) <= LINE_WIDTH:
        return len(tokens), len(tokens), 1  # a text of one line's length cannot wrap
    return len(tokens), *wrap(tokens)


# A wrapped line: the most tokens that fit in LINE_WIDTH characters with one space
# between each two, or a token longer than that alone.
_LINE = re.compile(rf"[^ ].{{0,{LINE_WIDTH - 1}}}(?= |$)|[^ ]+")


def wrap(tokens: Sequence[str]) -> tuple[int, int]:
    """Words in wrapped lines and wrapped lines, for text density.

    Lines wrap at ``LINE_WIDTH`` characters; the last, incomplete line is
    left out of the density unless it is the only one (Boilerpipe's
    content handler), so that short blocks keep their raw word count. As
    in Boilerpipe, a first token longer than a line wraps an empty line
    before it. The lines are found by one pattern over the joined tokens
    (which hold no whitespace), not a Python step per token.
    """
    words = len(tokens)
    text = " ".join(tokens)
    # if the words fit on one line, no word wraps
    if len(text) <= LINE_WIDTH:
        return words, 1
    lines = _LINE.findall(text)
    completed = len(lines) - 1 + (len(tokens[0]) > LINE_WIDTH)
    if completed == 0:
        return words, 1
    return words - lines[-1].count(" ") - 1, completed


def word_tokens(text: str, cjk: bool | None = None) -> list[str]:
    """The tokens of ``text`` that hold a letter or digit, in order.

    ``cjk`` says whether the text holds Han, Hiragana or Katakana (tested
    when not given). Without them the tokenizer's tokens are the
    whitespace-separated runs, which ``str.split`` finds faster (both use
    Unicode whitespace); and one search of the text tells whether any of
    them needs testing at all.
    """
    if cjk or (cjk is None and _HAS_CJK.search(text)):
        return list(filter(_WORD_CHAR.search, _TOKEN.findall(text)))
    tokens = text.split()
    if all_words(tokens):
        return tokens
    return list(filter(_WORD_CHAR.search, tokens))


def all_words(tokens: list[str]) -> bool:
    """Whether every token holds a letter or digit (``str.isalnum`` is ``[^\\W_]``).

    Most tokens begin or end with one, which two character tests tell; only
    the others are searched. A search of the whole text for a symbol token
    was a third of Boilerpipe's time.
    """
    for token in tokens:
        if not (token[0].isalnum() or token[-1].isalnum()) and _WORD_CHAR.search(token) is None:
            return False
    return True


def anchor_words(block: Block, words: int, cjk: bool) -> int:
    """Words inside ``<a>``; for unspaced CJK text (``cjk``), the anchors' share of characters."""
    if cjk:
        return round(words * block.link_chars / block.chars) if block.chars else 0
    return min(block.link_words, words)


# -- the classifier -----------------------------------------------------------


def num_words_rules(prev: Unit, cur: Unit, nxt: Unit) -> bool:
    """The paper's C4.8 tree on number of words and link density (NumWordsRulesClassifier)."""
    # a block mostly made of links is boilerplate
    if cur.link_density > 0.333333:
        return False
    # after running text (not a link list)
    if prev.link_density <= 0.555556:
        # a long block, or a short one before a long one, is content
        if cur.words > 16 or nxt.words > 15:
            return True
        # among short blocks, content only after a block of five words or more
        return prev.words > 4
    # after a link list: content if long, or if a long block follows
    if cur.words > 40:
        return True
    return nxt.words > 17


def density_rules(prev: Unit, cur: Unit, nxt: Unit) -> bool:
    """The paper's C4.8 tree on text density and link density (DensityRulesClassifier)."""
    # a block mostly made of links is boilerplate
    if cur.link_density > 0.333333:
        return False
    # after running text (not a link list)
    if prev.link_density <= 0.555556:
        # a dense block is content unless nothing follows it
        if cur.text_density > 9:
            return nxt.text_density != 0
        # a sparse block before a dense one is content
        if nxt.text_density > 10:
            return True
        # among sparse blocks, content only after a block of density above 4
        return prev.text_density > 4
    # after a link list: content only before a dense block
    return nxt.text_density > 11


def classify_units(units: list[Unit], tree: Callable[[Unit, Unit, Unit], bool]) -> None:
    """Set every unit's content flag from its own and its neighbours' features.

    Before the first and after the last unit stands an empty block, as in
    Boilerpipe (no words, no links).
    """
    edge = Unit(blocks=[], words=0, anchor_words=0, wrapped_words=0, wrapped_lines=0,
                tag_level=0, start=-1, end=-1)
    padded = [edge, *units, edge]
    for i, unit in enumerate(units, start=1):
        unit.content = tree(padded[i - 1], unit, padded[i + 1])


def fulltext_words(unit: Unit) -> int:
    """Words of a unit dense enough to be running text, else 0 (HeuristicFilterBase)."""
    return unit.words if unit.text_density >= FULLTEXT_MIN_TEXT_DENSITY else 0
