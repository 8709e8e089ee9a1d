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
characters, blocks) are summed for every ancestor of a block at once with
``numpy.bincount`` over the flattened ancestor chains, so the cost is one
pass over the blocks plus one memoised walk per distinct element.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from lxml import etree

from corpusbot.html.blocks import INLINE_TAGS, Block

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

# ASCII punctuation, dashes, ellipsis, bullets, guillemets, currency, and CJK
# full stops, commas and marks (escaped: ruff reads them as look-alikes).
PUNCTUATION = (
    ".,;:!?\"'()[]{}-\u2013\u2014\u2026|/\\\u00b7\u2022\u00bb\u00ab*#@&%$\u20ac\u00a3+=<>~^_"
    "\u3002\u3001\uff0c\uff01\uff1f\uff1a\uff1b"
)
_DELETE_PUNCTUATION = str.maketrans("", "", PUNCTUATION)
_DELETE_DIGITS = str.maketrans("", "", "0123456789")
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


@dataclass(slots=True)
class _Tree:
    """Per-page memo of what is read once per element: node, hints, ancestor chains."""

    ids: dict[etree._Element, int] = field(default_factory=dict)
    chains: dict[etree._Element, tuple[int, ...]] = field(default_factory=dict)
    masks: dict[etree._Element, tuple[int, int]] = field(default_factory=dict)
    hints: dict[etree._Element, int] = field(default_factory=dict)
    names: dict[str, int] = field(default_factory=dict)

    def id_of(self, element: etree._Element | None) -> int:
        """A small integer per element; -1 for none."""
        if element is None:
            return -1
        return self.ids.setdefault(element, len(self.ids))

    def chain(self, element: etree._Element | None) -> tuple[int, ...]:
        """The ids of the element and all its ancestors, innermost first."""
        if element is None:
            return ()
        found = self.chains.get(element)
        if found is None:
            found = self.chains[element] = (self.id_of(element), *self.chain(element.getparent()))
        return found

    def own_hints(self, element: etree._Element | None) -> int:
        """The hint bits of the element's own ``class`` and ``id``."""
        if element is None:
            return 0
        bits = self.hints.get(element)
        if bits is None:
            bits = self.hints[element] = self._names_hints(
                f"{element.get('class') or ''} {element.get('id') or ''}")
        return bits

    def _names_hints(self, names: str) -> int:
        bits = self.names.get(names)
        if bits is None:
            bits = 0
            for token in _NAME_SEPARATORS.split(names.lower()):
                if token:
                    bits |= token_hints(token)
            self.names[names] = bits
        return bits


    def inherited(self, element: etree._Element | None) -> tuple[int, int]:
        """Hint bits and ancestor-tag bits of the element and all its ancestors."""
        if element is None:
            return 0, 0
        found = self.masks.get(element)
        if found is None:
            hints, tags = self.inherited(element.getparent())
            tag = element.tag if isinstance(element.tag, str) else ""
            found = (hints | self.own_hints(element), tags | _ANCESTOR_BIT.get(tag, 0))
            self.masks[element] = found
        return found


# A pure function of one class token, so caching it cannot change a result;
# pages and sites repeat the same few hundred tokens.
@functools.lru_cache(maxsize=1 << 16)
def token_hints(token: str) -> int:
    """The hint bits of one lower-cased ``class`` or ``id`` token."""
    bits = 0
    for match in _HINT_PATTERN.finditer(token):
        bits |= _HINT_BIT[match.lastgroup]
    return bits


def node_of(block: Block) -> etree._Element | None:
    """The nearest block-level element holding the block's text."""
    node = block.element
    while node is not None and isinstance(node.tag, str) and node.tag in INLINE_TAGS:
        node = node.getparent()
    return node


def features(blocks: Sequence[Block], stoplist: frozenset[str]) -> np.ndarray:
    """The feature matrix of a page's blocks, one row per block, columns ``FEATURE_NAMES``."""
    if not blocks:
        return np.zeros((0, len(FEATURE_NAMES)), dtype=np.float32)
    tree = _Tree()
    nodes = [node_of(b) for b in blocks]
    parents = [n.getparent() if n is not None else None for n in nodes]
    grandparents = [p.getparent() if p is not None else None for p in parents]
    text = _text_statistics(blocks, stoplist)
    columns = [
        *_text_columns(blocks, text),
        *_tag_columns(blocks, nodes),
        *_hint_columns(tree, nodes, parents, grandparents),
        *_subtree_columns(tree, text, nodes, parents, grandparents),
        *_page_columns(text),
        *_neighbour_columns(text, parents, tree),
        *_smoothed_columns(text),
    ]
    return np.column_stack(columns).astype(np.float32)


def _text_statistics(blocks: Sequence[Block], stoplist: frozenset[str]) -> dict[str, np.ndarray]:
    """Raw per-block counts: characters, words, links, stop words, punctuation, digits."""
    rows = []
    for block in blocks:
        text = block.text
        words = text.split()
        # map() over C methods: a generator here was a tenth of the mode's time
        stop = sum(map(stoplist.__contains__, text.lower().split()))
        rows.append((
            len(text), len(words), block.link_chars, block.link_words, stop,
            sum(map(str.istitle, words)),
            len(text) - len(text.translate(_DELETE_PUNCTUATION)),
            len(text) - len(text.translate(_DELETE_DIGITS)),
            text.rstrip().endswith(_SENTENCE_ENDS), block.depth,
        ))
    table = np.asarray(rows, dtype=np.float64).reshape(len(blocks), 10)
    keys = ("chars", "words", "link_chars", "link_words", "stop", "upper", "punct",
            "digits", "ends", "depth")
    return {key: table[:, i] for i, key in enumerate(keys)}


def _ratio(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.divide(a, b, out=np.zeros_like(a, dtype=np.float64), where=b > 0)


def _text_columns(blocks: Sequence[Block], t: dict[str, np.ndarray]) -> list[np.ndarray]:
    n = len(blocks)
    chars, words = t["chars"], t["words"]
    before = np.cumsum(chars) - chars
    paths = [f".{b.dom_path}." for b in blocks]
    return [
        np.log1p(chars), np.log1p(words), np.minimum(_ratio(t["link_chars"], chars), 1.0),
        np.minimum(_ratio(t["link_words"], words), 1.0), _ratio(t["stop"], words),
        _ratio(t["punct"], chars), _ratio(t["digits"], chars),
        np.minimum(_ratio(chars, words), 30.0) / 10.0, t["ends"], _ratio(t["upper"], words),
        np.log1p(t["depth"]), _ratio(t["depth"], np.full(n, max(t["depth"].max(), 1.0))),
        np.arange(n) / max(n - 1, 1), before / max(chars.sum(), 1.0), chars / max(chars.max(), 1.0),
        np.array([b.is_heading for b in blocks], float),
        np.array([".li." in path for path in paths], float),
        np.array([".td." in path or ".th." in path for path in paths], float),
        np.array([".pre." in path or ".code." in path for path in paths], float),
    ]


def _tag_columns(blocks: Sequence[Block], nodes: list) -> list[np.ndarray]:
    """One-hot of the tag the block's text sits in (inline tags kept: a lone link is telling)."""
    onehot = np.zeros((len(blocks), len(NODE_TAGS) + 1))
    for i, block in enumerate(blocks):
        tag = block.tag if block.tag in ("a", "span") else (
            nodes[i].tag if nodes[i] is not None and isinstance(nodes[i].tag, str) else "")
        onehot[i, _NODE_TAG_INDEX.get(tag, len(NODE_TAGS))] = 1.0
    return [onehot]


def _bits(masks: list[int], width: int) -> np.ndarray:
    """The bits of each mask as ``width`` columns (a 2-D block, stacked as it is)."""
    return (np.asarray(masks, dtype=np.int64)[:, None] >> np.arange(width) & 1).astype(np.float64)


def _hint_columns(tree: _Tree, nodes: list, parents: list, grandparents: list) -> list:
    columns = [_bits([tree.own_hints(e) for e in level], len(HINTS))
               for level in (nodes, parents, grandparents)]
    inherited = [tree.inherited(e) for e in nodes]
    columns.append(_bits([h for h, _ in inherited], len(HINTS)))
    columns.append(_bits([t for _, t in inherited], len(ANCESTOR_TAGS)))
    return columns


def _subtree_columns(tree: _Tree, t: dict, nodes: list, parents: list, grandparents: list) -> list:
    """Characters, link characters and blocks under the parent and the grandparent.

    Every block adds its counts to each of its ancestors: the chains are
    flattened into one index array and summed with ``bincount``.
    """
    chains = [tree.chain(n) for n in nodes]
    lengths = np.fromiter((len(c) for c in chains), dtype=np.int64, count=len(chains))
    flat = np.fromiter((i for c in chains for i in c), dtype=np.int64, count=int(lengths.sum()))
    size = len(tree.ids)
    sums = {key: np.bincount(flat, weights=np.repeat(t[key], lengths), minlength=size)
            for key in ("chars", "link_chars")}
    counts = np.bincount(flat, minlength=size).astype(np.float64)
    columns = []
    for level in (parents, grandparents):
        index = np.array([tree.id_of(e) for e in level], dtype=np.int64)
        present = index >= 0
        safe = np.where(present, index, 0)
        chars = np.where(present, sums["chars"][safe], t["chars"])
        blocks = np.where(present, counts[safe], 1.0)
        children = np.array([len(e) if e is not None else 0 for e in level], dtype=np.float64)
        columns += [
            np.log1p(chars), np.minimum(_ratio(np.where(present, sums["link_chars"][safe], 0.0),
                                               chars), 1.0),
            np.log1p(blocks), np.log1p(_ratio(chars, blocks)), np.log1p(children),
            _ratio(t["chars"], chars),
        ]
    return columns


def _page_columns(t: dict) -> list[np.ndarray]:
    n = len(t["chars"])
    total = t["chars"].sum()
    link_density = t["link_chars"].sum() / total if total else 0.0
    return [np.full(n, math.log1p(total)), np.full(n, math.log1p(n)), np.full(n, link_density)]


def _neighbour_columns(t: dict, parents: list, tree: _Tree) -> list[np.ndarray]:
    """The previous and next blocks' size, links and stop words, and whether they share a parent."""
    log_chars = np.log1p(t["chars"])
    link = np.minimum(_ratio(t["link_chars"], t["chars"]), 1.0)
    stop = _ratio(t["stop"], t["words"])
    parent_ids = np.array([tree.id_of(p) for p in parents], dtype=np.int64)
    columns = []
    for shift in (1, -1):
        same = np.zeros(len(parent_ids))
        if len(parent_ids) > 1:
            rolled = np.roll(parent_ids, shift)
            same = (rolled == parent_ids).astype(np.float64)
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


def _smoothed_columns(t: dict) -> list[np.ndarray]:
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
