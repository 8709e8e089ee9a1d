"""The block features of ``stacked_refiner.py``: what ``default``'s composition decided.

Every feature is a signal the composition already computed
(``composition.compose_stages``) or a cheap reading of the block and its
neighbours, so the learned step over the composition costs little beside it.
Groups (``GROUPS``), in the order of a block's row:

- ``verdicts``: in the composition's final blocks; jusText's class (good,
  near-good, short; bad is all zeros); Boilerpipe's choice; both agreeing;
  selected but dropped by the container names or the side column; under a
  boilerplate name; in the page frame (nav, header, footer, aside);
- ``steps``: in the article region; recovered inside its span; given by the
  landmark; added as a listing region; its grandparent group's share of the
  candidates' text, and whether that group is the largest;
- ``block``: link density, words (log), heading, relative position, tag
  level, list item, table cell, paragraph, ends a sentence, stop-word
  density;
- ``context``: the previous and next blocks kept, the distance in blocks to
  the nearest kept block (log), the kept share of the page's words, the
  page's blocks (log);
- ``neighbours``: the kept share of the other blocks under the block's
  parent element, the previous and next blocks' jusText and Boilerpipe
  verdicts, and whether the block's text (three words or more) occurs again
  on the page.

Nothing is keyed on a URL, a site or a page.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from lxml import etree

from corpusbot.extraction import grandparent, justext
from corpusbot.extraction.context import PageBlocks
from corpusbot.extraction.default.containers import PAGE_FRAME_TAGS
from corpusbot.extraction.default.stages import Stages
from corpusbot.html.blocks import Block

GROUPS = {
    "verdicts": ("kept", "jt_good", "jt_near_good", "jt_short", "boilerpipe", "agreed",
                 "dropped_by_names", "boilerplate_name", "page_frame"),
    "steps": ("region", "inside", "landmark", "listing", "group_share", "largest_group"),
    "block": ("link_density", "log_words", "heading", "position", "depth", "li", "cell",
              "paragraph", "sentence_end", "stopwords"),
    "context": ("prev_kept", "next_kept", "log_distance", "kept_share", "log_blocks"),
    "neighbours": ("parent_kept_share", "prev_good", "next_good", "prev_boilerpipe",
                   "next_boilerpipe", "repeated"),
}
FEATURE_NAMES = tuple(name for names in GROUPS.values() for name in names)
SENTENCE_ENDS = frozenset(".!?\u2026\u3002\uff01\uff1f:")
_FAR = 1000


def features(page: PageBlocks, stages: Stages, kept: Sequence[Block]) -> np.ndarray:
    """One row of ``FEATURE_NAMES`` per block of the page (``kept``: ``select``'s blocks)."""
    blocks = page.blocks
    kept_ids = {id(b) for b in kept}
    is_kept = np.array([id(b) in kept_ids for b in blocks], dtype=np.float64)
    columns = [*_verdicts(blocks, stages, is_kept), *_steps(blocks, stages),
               *_block(blocks, page.stoplist), *_context(blocks, is_kept),
               *_neighbours(blocks, stages, is_kept)]
    return np.column_stack(columns) if blocks else np.zeros((0, len(FEATURE_NAMES)))


def _verdicts(blocks: Sequence[Block], stages: Stages, is_kept: np.ndarray) -> list:
    classes = stages.classes
    chosen = {id(b) for b, c in zip(blocks, classes, strict=True)
              if c is justext.Class.GOOD} | stages.by_boilerpipe
    frame: dict[etree._Element, bool] = {}
    return [
        is_kept,
        _flags(c is justext.Class.GOOD for c in classes),
        _flags(c is justext.Class.NEAR_GOOD for c in classes),
        _flags(c is justext.Class.SHORT for c in classes),
        _flags(id(b) in stages.by_boilerpipe for b in blocks),
        _flags(id(b) in stages.agreed for b in blocks),
        _flags(id(b) in chosen and id(b) not in stages.candidates for b in blocks),
        _flags(stages.names.is_boilerplate(b.element) for b in blocks),
        _flags(_in_frame(b.element, frame) for b in blocks),
    ]


def _steps(blocks: Sequence[Block], stages: Stages) -> list:
    sizes = {key: grandparent.group_chars(group) for key, group in stages.found.items()}
    total = sum(sizes.values()) or 1
    largest = max(sizes, key=sizes.__getitem__) if sizes else None
    share: dict[int, float] = {}
    in_largest: set[int] = set()
    for key, group in stages.found.items():
        for b in group:
            share[id(b)] = sizes[key] / total
            if key is largest:
                in_largest.add(id(b))
    return [
        _flags(id(b) in stages.region for b in blocks),
        _flags(id(b) in stages.inside for b in blocks),
        _flags(id(b) in stages.in_landmark for b in blocks),
        _flags(id(b) in stages.listed for b in blocks),
        np.array([share.get(id(b), 0.0) for b in blocks]),
        _flags(id(b) in in_largest for b in blocks),
    ]


def _block(blocks: Sequence[Block], stoplist) -> list:
    n = max(len(blocks) - 1, 1)
    return [
        np.array([b.link_density for b in blocks]),
        np.array([math.log1p(b.words) for b in blocks]),
        _flags(b.is_heading for b in blocks),
        np.array([i / n for i in range(len(blocks))]),
        np.array([min(b.depth, 40) / 40 for b in blocks]),
        _flags(b.dom_path.endswith(".li") for b in blocks),
        _flags(b.dom_path.endswith((".td", ".th")) for b in blocks),
        _flags(b.dom_path.endswith(".p") for b in blocks),
        _flags(b.text.rstrip()[-1:] in SENTENCE_ENDS for b in blocks),
        np.array([justext.stopword_density(b, stoplist) for b in blocks]),
    ]


def _context(blocks: Sequence[Block], is_kept: np.ndarray) -> list:
    words = np.array([b.words for b in blocks], dtype=np.float64)
    share = float(words @ is_kept / words.sum()) if words.sum() else 0.0
    return [
        np.concatenate([[0.0], is_kept[:-1]]), np.concatenate([is_kept[1:], [0.0]]),
        np.log1p(_distance(is_kept)), np.full(len(blocks), share),
        np.full(len(blocks), math.log1p(len(blocks))),
    ]


def _neighbours(blocks: Sequence[Block], stages: Stages, is_kept: np.ndarray) -> list:
    parents = [b.element.getparent() for b in blocks]
    count: dict[object, int] = {}
    kept: dict[object, float] = {}
    for parent, k in zip(parents, is_kept, strict=True):
        count[parent] = count.get(parent, 0) + 1
        kept[parent] = kept.get(parent, 0.0) + k
    share = np.array([(kept[p] - k) / (count[p] - 1) if count[p] > 1 else 0.0
                      for p, k in zip(parents, is_kept, strict=True)])
    good = _flags(c is justext.Class.GOOD for c in stages.classes)
    chosen = _flags(id(b) in stages.by_boilerpipe for b in blocks)
    texts: dict[str, int] = {}
    for b in blocks:
        texts[b.text] = texts.get(b.text, 0) + 1
    return [share, _shifted(good, 1), _shifted(good, -1), _shifted(chosen, 1),
            _shifted(chosen, -1),
            _flags(b.words >= 3 and texts[b.text] > 1 for b in blocks)]


def _shifted(values: np.ndarray, by: int) -> np.ndarray:
    """The previous (``by`` 1) or next (-1) block's value, 0 past the ends."""
    if by > 0:
        return np.concatenate([np.zeros(by), values[:-by]])[: len(values)]
    return np.concatenate([values[-by:], np.zeros(-by)])[: len(values)]


def _distance(is_kept: np.ndarray) -> np.ndarray:
    """Each block's distance in blocks to the nearest kept block (``_FAR`` without one)."""
    n = len(is_kept)
    before, after = np.full(n, _FAR, dtype=np.float64), np.full(n, _FAR, dtype=np.float64)
    last = -_FAR
    for i in range(n):
        last = i if is_kept[i] else last
        before[i] = i - last
    last = n + _FAR
    for i in range(n - 1, -1, -1):
        last = i if is_kept[i] else last
        after[i] = last - i
    return np.minimum(np.minimum(before, after), _FAR)


def _in_frame(element: etree._Element, known: dict[etree._Element, bool]) -> bool:
    """Whether the element or an ancestor is in ``PAGE_FRAME_TAGS``, once per element."""
    chain = []
    node, found = element, False
    while node is not None:
        if node in known:
            found = known[node]
            break
        if node.tag in PAGE_FRAME_TAGS:
            found = True
            break
        chain.append(node)
        node = node.getparent()
    for seen in chain:
        known[seen] = found
    return found


def _flags(values) -> np.ndarray:
    return np.fromiter(values, dtype=np.float64)
