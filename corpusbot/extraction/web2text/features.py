"""Per-block features for the Web2Text mode, computed from the blocks and their DOM context.

Web2Text (Vogels, Ganea, Eickhoff, ECIR 2018, "Web2Text: Deep Structured
Boilerplate Removal", section 3.2) describes each block by features of the
block itself, of its parent and grandparent in the DOM, and of the whole
page: text and link statistics, stop-word share, tag and class hints,
position. The same families are computed here on corpusbot's blocks
(``corpusbot.html.blocks``), with two additions the paper gets from its
convolutions over the block sequence: the previous and next blocks' text
statistics, and the block's text mass smoothed over a window of blocks.

The block's *node* is the nearest block-level element holding its text (the
block's own element when that is not an inline tag); *parent* and
*grandparent* are that node's ancestors. Subtree totals (characters, link
characters, blocks) are counted per element with ``numpy.bincount`` and
added up the tree once, so the cost is one pass over the blocks plus one
memoised read per distinct element.

The module is one of the compiled build's (``corpusbot.compiled``): its types
are what mypyc compiles to.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Collection, Iterator, Sequence

import numpy as np
from lxml import etree

from corpusbot.html.blocks import INLINE_TAGS, Block, is_heading_path

# Class/id hints: each group is one bit, set when the element's lower-cased
# ``class`` and ``id`` contain one of its words. The words are the usual
# names of page regions (the paper's "class and id hints", extended to the
# page types of WCXB: forum threads, products, listings, documentation).
HINTS: tuple[tuple[str, str], ...] = (
    ("comment", r"comment|repl(?:y|ies)|disqus|respon"),
    ("nav", r"nav|menu|breadcrumb|pagination|pager"),
    ("footer", r"foot|copyright|legal"),
    ("header", r"head(?!line)|masthead|banner|top-?bar"),
    ("share", r"share|social|follow"),
    ("related", r"related|recommend|more|popular|trending|read-?next|similar"),
    ("sidebar", r"sidebar|widget|aside|rail"),
    ("ad", r"\bads?\b|advert|sponsor|promo|banner-ad|dfp"),
    ("meta", r"author|byline|meta|date|time|avatar|user|profile"),
    ("content", r"content|article|post|entry|story|body|main|text|prose|markdown"),
    ("title", r"title|headline|heading"),
    ("product", r"product|price|descr|spec|detail|feature|review"),
    ("thread", r"thread|message|forum|topic|answer|question|discussion"),
    ("item", r"list|item|card|grid|tile|teaser|result"),
    ("dialog", r"cookie|consent|modal|popup|newsletter|subscri|signup|login"),
    ("tag", r"tags?\b|categor|label|badge"),
    ("code", r"code|highlight|syntax|doc|api"),
    ("caption", r"caption|figure|credit|photo|image|gallery"),
)
_HINT_PATTERN = re.compile("|".join(f"(?P<{name}>{words})" for name, words in HINTS))
_NAME_SEPARATORS = re.compile(r"[^a-z0-9]+")
_HINT_BIT = {name: 1 << i for i, (name, _) in enumerate(HINTS)}

# HTML5 and structural tags whose presence among a block's ancestors is a bit.
ANCESTOR_TAGS: tuple[str, ...] = (
    "nav", "footer", "header", "aside", "article", "main", "section", "table", "ul", "ol",
    "figure", "blockquote", "pre", "dl", "a", "li", "td", "h1",
)
_ANCESTOR_BIT = {tag: 1 << i for i, tag in enumerate(ANCESTOR_TAGS)}
for _level in "23456":
    _ANCESTOR_BIT[f"h{_level}"] = _ANCESTOR_BIT["h1"]  # one bit for every heading
_ANCESTOR_BIT["th"] = _ANCESTOR_BIT["td"]

# The node's own tag, one-hot; every other tag is "other".
NODE_TAGS: tuple[str, ...] = (
    "p", "div", "li", "td", "h", "pre", "dd", "blockquote", "span", "a", "section", "article",
)
_NODE_TAG_INDEX = {tag: i for i, tag in enumerate(NODE_TAGS)}
for _level in "123456":
    _NODE_TAG_INDEX[f"h{_level}"] = _NODE_TAG_INDEX["h"]
_NODE_TAG_INDEX.update({"th": _NODE_TAG_INDEX["td"], "dt": _NODE_TAG_INDEX["dd"]})
_INLINE_TAG_INDEX = {tag: _NODE_TAG_INDEX[tag] for tag in ("a", "span")}
"""The inline tags whose column is the block's own, not its node's."""
_OTHER_TAG = (0, len(NODE_TAGS))
_TAG_BITS: dict[object, tuple[int, int]] = {
    tag: (_ANCESTOR_BIT.get(tag, 0), _NODE_TAG_INDEX.get(tag, len(NODE_TAGS)))
    for tag in {*_ANCESTOR_BIT, *_NODE_TAG_INDEX}
}
"""Each named tag's ancestor-tag bit and node-tag column (other tags: ``_OTHER_TAG``)."""

# ASCII punctuation, dashes, ellipsis, bullets, guillemets, currency, and CJK
# full stops, commas and marks (escaped: ruff reads them as look-alikes).
PUNCTUATION = (
    ".,;:!?\"'()[]{}-\u2013\u2014\u2026|/\\\u00b7\u2022\u00bb\u00ab*#@&%$\u20ac\u00a3+=<>~^_"
    "\u3002\u3001\uff0c\uff01\uff1f\uff1a\uff1b"
)
# One byte per code point up to the last listed: 1 punctuation, 2 digit, 3 white space (what
# ``str.split`` splits at, ``\s``: all below U+3001), 0 anything else.
_PUNCT_KIND, _DIGIT_KIND, _SPACE_KIND = 1, 2, 3
_CHAR_KINDS = np.zeros(max(map(ord, PUNCTUATION)) + 2, dtype=np.uint8)
_CHAR_KINDS[[ord(char) for char in PUNCTUATION]] = _PUNCT_KIND
_CHAR_KINDS[[ord(char) for char in "0123456789"]] = _DIGIT_KIND
_CHAR_KINDS[[m.start() for m in re.finditer(r"\s", "".join(map(chr, range(len(_CHAR_KINDS)))))]] \
    = _SPACE_KIND
_SENTENCE_ENDS = (".", "!", "?", "\u3002", "\uff01", "\uff1f", ":", '"', "\u201d")

SMOOTHING_WINDOWS = (3, 11)
"""Blocks either side over which text mass is averaged (the paper's convolutions see 5-11)."""


def _block_feature_names() -> list[str]:
    names = [
        "log_chars", "log_words", "link_density", "link_word_share", "stopword_share",
        "punctuation_share", "digit_share", "mean_word_length", "ends_sentence",
        "title_case_share", "depth", "depth_rel", "position_rel", "text_position_rel",
        "chars_rel_max", "is_heading_path", "in_li_path", "in_td_path", "in_pre_path",
    ]
    names += [f"node_tag_{t}" for t in (*NODE_TAGS, "other")]
    for level in ("node", "parent", "grandparent"):
        names += [f"{level}_hint_{name}" for name, _ in HINTS]
    names += [f"ancestor_hint_{name}" for name, _ in HINTS]
    names += [f"ancestor_tag_{tag}" for tag in ANCESTOR_TAGS]
    for level in ("parent", "grandparent"):
        names += [f"{level}_log_chars", f"{level}_link_density", f"{level}_log_blocks",
                  f"{level}_chars_per_block", f"{level}_children", f"{level}_share"]
    names += ["page_log_chars", "page_log_blocks", "page_link_density"]
    for side in ("prev", "next"):
        names += [f"{side}_log_chars", f"{side}_link_density", f"{side}_stopword_share",
                  f"{side}_same_parent"]
    names += [f"smoothed_chars_{w}" for w in SMOOTHING_WINDOWS]
    names += [f"smoothed_stopwords_{w}" for w in SMOOTHING_WINDOWS]
    return names


FEATURE_NAMES: tuple[str, ...] = tuple(_block_feature_names())
"""The columns of ``features``, in order; the shipped weights record them to check."""


class _Tree:
    """Per-page memo: each element is read once, after its parent (blocks share most).

    An element's record is its index into parallel lists: the hint bits of its
    own ``class`` and ``id``, the hint and ancestor-tag bits of it and all its
    ancestors, its number of children, its node-tag column and its parent's
    index. Index 0 is no element (above the root, and a block without one):
    no bits, no children, its own parent. A parent's index is below its
    children's, which is what ``subtree_totals`` relies on.
    """

    __slots__ = ("children", "hints", "index", "own", "parents", "tag_columns", "tags")

    def __init__(self) -> None:
        self.index: dict[object, int] = {None: 0}
        self.own, self.hints, self.tags, self.children = [0], [0], [0], [0]
        self.parents, self.tag_columns = [0], [len(NODE_TAGS)]

    def read(self, elements: list[etree._Element | None]) -> list[int]:
        """The index of each element's record."""
        known = self.index.get
        out = []
        for element in elements:
            found = known(element)
            out.append(self._read(element) if found is None else found)
        return out

    def _read(self, element: etree._Element) -> int:
        parent_element = element.getparent()
        parent = self.index.get(parent_element)
        if parent is None:
            parent = self._read(parent_element)
        names, ident = element.get("class"), element.get("id")
        own = names_hints(f"{names or ''} {ident or ''}") if names or ident else 0
        ancestor_bit, tag_column = _TAG_BITS.get(element.tag, _OTHER_TAG)
        index = self.index[element] = len(self.own)
        self.own.append(own)
        self.hints.append(self.hints[parent] | own)
        self.tags.append(self.tags[parent] | ancestor_bit)
        self.children.append(len(element))
        self.parents.append(parent)
        self.tag_columns.append(tag_column)
        return index


@functools.lru_cache(maxsize=1 << 14)
def names_hints(names: str) -> int:
    """The hint bits of an element's ``class`` and ``id`` values, space-joined."""
    bits = 0
    for token in _NAME_SEPARATORS.split(names.lower()):
        if token:
            bits |= token_hints(token)
    return bits


# A pure function of one class token, so caching it cannot change a result;
# pages and sites repeat the same few hundred tokens.
@functools.lru_cache(maxsize=1 << 16)
def token_hints(token: str) -> int:
    """The hint bits of one lower-cased ``class`` or ``id`` token."""
    bits = 0
    for match in _HINT_PATTERN.finditer(token):
        bits |= _HINT_BIT[match.lastgroup or ""]  # every alternative is a named group
    return bits


def node_of(block: Block) -> etree._Element | None:
    """The nearest block-level element holding the block's text."""
    node = block.element
    # lxml makes a new string at every ``.tag``: read it once a step
    while node is not None and (tag := node.tag) in INLINE_TAGS and isinstance(tag, str):
        node = node.getparent()
    return node


def features(blocks: Sequence[Block], stoplist: Collection[str]) -> np.ndarray:
    """The feature matrix of a page's blocks, one row per block, columns ``FEATURE_NAMES``."""
    if not blocks:
        return np.zeros((0, len(FEATURE_NAMES)), dtype=np.float32)
    tree = _Tree()
    elements = [node_of(b) for b in blocks]
    records = tree.read(elements)
    parent_of = np.array(tree.parents, dtype=np.intp)
    nodes = np.array(records, dtype=np.intp)
    parents = parent_of[nodes]
    levels = (nodes, parents, parent_of[parents])
    text = _text_statistics(blocks, stoplist)
    columns = [
        *_text_columns(blocks, text),
        *_tag_columns(blocks, tree, records),
        *_hint_columns(tree, levels),
        *_subtree_columns(blocks, tree, records, text, levels),
        *_page_columns(text),
        *_neighbour_columns(text, parents),
        *_smoothed_columns(text),
    ]
    return np.column_stack(columns).astype(np.float32)


def _text_statistics(blocks: Sequence[Block], stoplist: Collection[str]) -> dict[str, np.ndarray]:
    """Raw per-block counts: characters, words, links, stop words, punctuation, digits.

    Counted over the whole page at once, then cut per block: the words of the
    page's texts joined by spaces are the blocks' words in order, and the
    characters' code points index one table of punctuation and digits. A
    Python step per block and word here was a third of the mode's time.
    """
    texts = [block.text for block in blocks]
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    codes = np.frombuffer("".join(texts).encode("utf-32-le"), dtype=np.uint32)
    kinds = _CHAR_KINDS[np.minimum(codes, len(_CHAR_KINDS) - 1)]
    char_ends = np.cumsum(lengths)
    n_words = _word_counts(kinds == _SPACE_KIND, char_ends - lengths, char_ends)
    joined = " ".join(texts)
    word_ends = np.cumsum(n_words)
    stop = _per_block(map(stoplist.__contains__, joined.lower().split()), word_ends)
    upper = _per_block(map(str.istitle, joined.split()), word_ends)
    return {
        "chars": lengths.astype(np.float64),
        "words": n_words.astype(np.float64),
        "link_chars": np.fromiter((b.link_chars for b in blocks), np.float64, len(blocks)),
        "link_words": np.fromiter((b.link_words for b in blocks), np.float64, len(blocks)),
        "stop": stop, "upper": upper,
        "punct": _segment_sums(kinds == _PUNCT_KIND, char_ends),
        "digits": _segment_sums(kinds == _DIGIT_KIND, char_ends),
        "ends": np.fromiter((t.rstrip().endswith(_SENTENCE_ENDS) for t in texts), np.float64,
                            len(texts)),
        "depth": np.fromiter((b.depth for b in blocks), np.float64, len(blocks)),
    }


def _word_counts(space: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Each block's ``len(text.split())`` from its characters' white-space flags: the
    characters that are not space and follow a space or start their block."""
    after_space = np.ones_like(space)
    after_space[1:] = space[:-1]
    after_space[starts[starts < len(space)]] = True
    return _segment_counts(~space & after_space, ends)


def _per_block(flags: Iterator[bool], ends: np.ndarray) -> np.ndarray:
    """How many of the page's word ``flags`` are true in each block (``ends``: cumulative)."""
    return _segment_sums(np.frombuffer(bytes(flags), dtype=bool), ends)


def _segment_sums(values: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Sums of ``values`` over consecutive segments ending at ``ends`` (exclusive, cumulative)."""
    return _segment_counts(values, ends).astype(np.float64)


def _segment_counts(values: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """``_segment_sums`` as whole numbers."""
    totals = np.concatenate(([0], np.cumsum(values, dtype=np.int64)))
    return totals[ends] - totals[np.concatenate(([0], ends[:-1]))]


def _ratio(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.divide(a, b, out=np.zeros_like(a, dtype=np.float64), where=b > 0)


def _text_columns(blocks: Sequence[Block], t: dict[str, np.ndarray]) -> list[np.ndarray]:
    n = len(blocks)
    chars, words = t["chars"], t["words"]
    before = np.cumsum(chars) - chars
    paths = _bits(np.fromiter((path_flags(b.dom_path) for b in blocks), np.int64, n), 4)
    return [
        np.log1p(chars), np.log1p(words), np.minimum(_ratio(t["link_chars"], chars), 1.0),
        np.minimum(_ratio(t["link_words"], words), 1.0), _ratio(t["stop"], words),
        _ratio(t["punct"], chars), _ratio(t["digits"], chars),
        np.minimum(_ratio(chars, words), 30.0) / 10.0, t["ends"], _ratio(t["upper"], words),
        np.log1p(t["depth"]), _ratio(t["depth"], np.full(n, max(t["depth"].max(), 1.0))),
        np.arange(n) / max(n - 1, 1), before / max(chars.sum(), 1.0), chars / max(chars.max(), 1.0),
        paths,
    ]


# A pure function of the path, so caching it cannot change a result; a page's
# blocks and a site's pages repeat the same paths.
@functools.lru_cache(maxsize=1 << 14)
def path_flags(dom_path: str) -> int:
    """Whether a block's dotted tag path holds a heading, ``li``, a table cell, ``pre``/``code``:
    bits 0 to 3 (one number per block: numpy reads a list of tuples ten times slower)."""
    dotted = f".{dom_path}."
    return (is_heading_path(dom_path) | (".li." in dotted) << 1
            | (".td." in dotted or ".th." in dotted) << 2
            | (".pre." in dotted or ".code." in dotted) << 3)


def _tag_columns(blocks: Sequence[Block], tree: _Tree, records: list[int]) -> list[np.ndarray]:
    """One-hot of the tag the block's text sits in (inline tags kept: a lone link is telling)."""
    node_columns = tree.tag_columns
    at = [_INLINE_TAG_INDEX.get(block.tag, node_columns[record])
          for block, record in zip(blocks, records, strict=True)]
    onehot = np.zeros((len(blocks), len(NODE_TAGS) + 1))
    onehot[np.arange(len(blocks)), at] = 1.0
    return [onehot]


def _bits(masks: np.ndarray, width: int) -> np.ndarray:
    """The bits of each mask as ``width`` columns (a 2-D block, stacked as it is)."""
    return (masks[:, None] >> np.arange(width) & 1).astype(np.float64)


def _hint_columns(tree: _Tree, levels: tuple[np.ndarray, ...]) -> list[np.ndarray]:
    own = np.array(tree.own, dtype=np.int64)
    columns = [_bits(own[level], len(HINTS)) for level in levels]
    columns.append(_bits(np.array(tree.hints, dtype=np.int64)[levels[0]], len(HINTS)))
    columns.append(_bits(np.array(tree.tags, dtype=np.int64)[levels[0]], len(ANCESTOR_TAGS)))
    return columns


def _subtree_columns(blocks: Sequence[Block], tree: _Tree, records: list[int],
                     t: dict[str, np.ndarray], levels: tuple[np.ndarray, ...]) -> list[np.ndarray]:
    """Characters, link characters and blocks under the parent and the grandparent."""
    chars_under, links_under, blocks_under = _subtree_totals(tree.parents, records, blocks)
    children_of = np.array(tree.children, dtype=np.float64)
    columns = []
    for level in levels[1:]:
        present = level > 0
        chars = np.where(present, chars_under[level], t["chars"])
        blocks = np.where(present, blocks_under[level], 1.0)
        columns += [
            np.log1p(chars),
            np.minimum(_ratio(np.where(present, links_under[level], 0.0), chars), 1.0),
            np.log1p(blocks), np.log1p(_ratio(chars, blocks)), np.log1p(children_of[level]),
            _ratio(t["chars"], chars),
        ]
    return columns


def _subtree_totals(parents: list[int], records: list[int], blocks: Sequence[Block],
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per record: the characters, link characters and blocks of every block at or under it.

    Each block is counted at its record, then every total is added to its
    parent's, children before parents (a parent's index is lower). Whole
    numbers in lists: a compiled build adds them as C integers.
    """
    size = len(parents)
    under_chars, under_links, under_blocks = [0] * size, [0] * size, [0] * size
    for record, block in zip(records, blocks, strict=True):
        under_chars[record] += len(block.text)
        under_links[record] += block.link_chars
        under_blocks[record] += 1
    for child in range(size - 1, 0, -1):
        parent = parents[child]
        under_chars[parent] += under_chars[child]
        under_links[parent] += under_links[child]
        under_blocks[parent] += under_blocks[child]
    return (np.array(under_chars, dtype=np.float64), np.array(under_links, dtype=np.float64),
            np.array(under_blocks, dtype=np.float64))


def _page_columns(t: dict[str, np.ndarray]) -> list[np.ndarray]:
    n = len(t["chars"])
    total = t["chars"].sum()
    link_density = t["link_chars"].sum() / total if total else 0.0
    return [np.full(n, math.log1p(total)), np.full(n, math.log1p(n)), np.full(n, link_density)]


def _neighbour_columns(t: dict[str, np.ndarray], parents: np.ndarray) -> list[np.ndarray]:
    """The previous and next blocks' size, links and stop words, and whether they share a parent."""
    log_chars = np.log1p(t["chars"])
    link = np.minimum(_ratio(t["link_chars"], t["chars"]), 1.0)
    stop = _ratio(t["stop"], t["words"])
    columns = []
    for shift in (1, -1):
        same = np.zeros(len(parents))
        if len(parents) > 1:
            rolled = np.roll(parents, shift)
            same = (rolled == parents).astype(np.float64)
            same[0 if shift == 1 else -1] = 0.0
        columns += [_shifted(log_chars, shift), _shifted(link, shift), _shifted(stop, shift), same]
    return columns


def _shifted(values: np.ndarray, shift: int) -> np.ndarray:
    """``values`` moved by one block (1: the previous block's value), zero past the ends."""
    out = np.zeros_like(values)
    if shift == 1:
        out[1:] = values[:-1]
    else:
        out[:-1] = values[1:]
    return out


def _smoothed_columns(t: dict[str, np.ndarray]) -> list[np.ndarray]:
    """Link-free characters and stop words averaged over a window, relative to the page's peak."""
    clean = t["chars"] - np.minimum(t["link_chars"], t["chars"])
    columns = []
    for values in (clean, t["stop"]):
        for width in SMOOTHING_WINDOWS:
            smooth = _window_sums(values, width)
            columns.append(smooth / max(smooth.max(), 1.0))
    return columns


def _window_sums(values: np.ndarray, width: int) -> np.ndarray:
    """The sum of ``values`` over each block and ``width`` blocks either side."""
    padded = np.concatenate(([0.0], np.cumsum(values)))
    n = len(values)
    index = np.arange(n)
    return padded[np.minimum(index + width + 1, n)] - padded[np.maximum(index - width, 0)]
