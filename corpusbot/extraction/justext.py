"""jusText: paragraph classification by length, link density and stop words.

Pomikálek, "Removing Boilerplate and Duplicate Content from Web Corpora"
(PhD thesis, 2011), as described in the jusText project's ``algorithm.rst``.
The blocks come from ``corpusbot.html.blocks.segment`` (the same segmentation);
this module does the two classification passes over them:

1. context-free classification into bad, good, near-good and short;
2. context-sensitive revision of short and near-good blocks from their
   neighbours, with the heading pre- and post-processing around it.

Where ``algorithm.rst`` and the reference code disagree, this follows the
code for the thresholds (``>=`` on the stop-word densities) and the removal
of ``<head>`` (the page head, not HTML5's ``<header>``, which often holds the
headline), and the reference's effective behaviour for the heading preprocessing (see
``HEADING_PREPROCESSING_DEFAULT``).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import Enum

from corpusbot.html.blocks import Block

MAX_LINK_DENSITY_DEFAULT = 0.2
LENGTH_LOW_DEFAULT = 70
LENGTH_HIGH_DEFAULT = 200
STOPWORDS_LOW_DEFAULT = 0.30
STOPWORDS_HIGH_DEFAULT = 0.32
MAX_HEADING_DISTANCE_DEFAULT = 200
NO_HEADINGS_DEFAULT = False
# The reference package's heading preprocessing compares against classes it
# has not yet copied, so in effect it never runs; its published scores, and
# the differential test against it, are without it. algorithm.rst describes
# it, and it is here when asked for.
HEADING_PREPROCESSING_DEFAULT = False


class Class(Enum):
    """jusText's paragraph classes."""

    BAD = "bad"
    GOOD = "good"
    NEAR_GOOD = "neargood"
    SHORT = "short"


@dataclass(slots=True, frozen=True)
class Settings:
    """jusText's thresholds; the defaults are calibrated to its stop-word lists."""

    length_low: int = LENGTH_LOW_DEFAULT
    length_high: int = LENGTH_HIGH_DEFAULT
    stopwords_low: float = STOPWORDS_LOW_DEFAULT
    stopwords_high: float = STOPWORDS_HIGH_DEFAULT
    max_link_density: float = MAX_LINK_DENSITY_DEFAULT
    max_heading_distance: int = MAX_HEADING_DISTANCE_DEFAULT
    no_headings: bool = NO_HEADINGS_DEFAULT
    heading_preprocessing: bool = HEADING_PREPROCESSING_DEFAULT


DEFAULT_SETTINGS = Settings()


def justext(
    blocks: Sequence[Block], stoplist: Collection[str], settings: Settings = DEFAULT_SETTINGS
) -> list[Class]:
    """Classify every block; the blocks classed GOOD are the main text."""
    cf_classes = [classify_context_free(b, stoplist, settings) for b in blocks]
    # the heading rules never revise a block bad in itself: skip the test there
    headings = [c is not Class.BAD and is_heading(b, settings)
                for b, c in zip(blocks, cf_classes, strict=True)]
    return revise(blocks, cf_classes, headings, settings)


def select(
    blocks: Sequence[Block], stoplist: Collection[str], settings: Settings = DEFAULT_SETTINGS
) -> list[Block]:
    """The blocks jusText keeps, in document order."""
    classes = justext(blocks, stoplist, settings)
    return [b for b, c in zip(blocks, classes, strict=True) if c is Class.GOOD]


def is_heading(block: Block, settings: Settings) -> bool:
    return not settings.no_headings and block.is_heading


def stopword_density(block: Block, stoplist: Collection[str]) -> float:
    """Share of whitespace-split, lower-cased words found in the stop-word list."""
    # lower-casing neither makes nor removes whitespace: the same words as
    # lower-casing each word after the split
    words = block.text.lower().split()
    if not words:
        return 0.0
    # map() over the set's C method: no Python step per word
    return sum(map(stoplist.__contains__, words)) / len(words)


def classify_context_free(block: Block, stoplist: Collection[str], settings: Settings) -> Class:
    """algorithm.rst, "Context-free classification"."""
    length = block.chars
    # link density above MAX_LINK_DENSITY: bad
    if block.link_density > settings.max_link_density:
        return Class.BAD
    # a copyright sign, or a block inside <select>: bad
    if block.has_copyright or block.in_select:
        return Class.BAD
    # shorter than LENGTH_LOW: bad if it holds a link, else short
    if length < settings.length_low:
        return Class.BAD if block.link_chars > 0 else Class.SHORT
    density = stopword_density(block, stoplist)
    # stop-word density at least STOPWORDS_HIGH: good when longer than LENGTH_HIGH
    if density >= settings.stopwords_high:
        return Class.GOOD if length > settings.length_high else Class.NEAR_GOOD
    # stop-word density at least STOPWORDS_LOW: near-good
    if density >= settings.stopwords_low:
        return Class.NEAR_GOOD
    return Class.BAD


def revise(
    blocks: Sequence[Block],
    cf_classes: Sequence[Class],
    headings: Sequence[bool],
    settings: Settings,
) -> list[Class]:
    """algorithm.rst, "Context-sensitive classification", with heading handling."""
    classes = list(cf_classes)
    if settings.heading_preprocessing:
        _promote_short_headings(blocks, classes, headings, settings.max_heading_distance)
    _classify_short(classes)
    _classify_near_good(classes)
    _restore_headings(blocks, classes, cf_classes, headings, settings.max_heading_distance)
    return classes


def _good_follows(blocks: Sequence[Block], classes: Sequence[Class], i: int, limit: int) -> bool:
    """Whether a good block starts within ``limit`` characters after block ``i``."""
    distance = 0
    for j in range(i + 1, len(blocks)):
        if distance > limit:
            return False
        if classes[j] is Class.GOOD:
            return True
        distance += blocks[j].chars
    return False


def _promote_short_headings(blocks, classes, headings, limit) -> None:
    # Preprocessing: a short heading within MAX_HEADING_DISTANCE characters
    # before a good block becomes near-good.
    for i, c in enumerate(classes):
        if headings[i] and c is Class.SHORT and _good_follows(blocks, classes, i, limit):
            classes[i] = Class.NEAR_GOOD


def _classify_short(classes: list[Class]) -> None:
    # Short blocks take the class of the good/bad blocks around them; the
    # document edges count as bad. All are decided on the classes before
    # this pass, so the order of revision does not matter.
    prev_decided = _nearest_before(classes, _DECIDED)
    next_decided = _nearest_after(classes, _DECIDED)
    prev_any = _nearest_before(classes, _DECIDED_OR_NEAR_GOOD)
    next_any = _nearest_after(classes, _DECIDED_OR_NEAR_GOOD)
    for i, c in enumerate(classes):
        if c is not Class.SHORT:
            continue
        prev, nxt = prev_decided[i], next_decided[i]
        if prev is Class.GOOD and nxt is Class.GOOD:
            classes[i] = Class.GOOD
        elif prev is Class.BAD and nxt is Class.BAD:
            classes[i] = Class.BAD
        # one side good, one bad: good if a near-good block lies between the
        # short block and the bad side
        elif (prev is Class.BAD and prev_any[i] is Class.NEAR_GOOD) or (
            nxt is Class.BAD and next_any[i] is Class.NEAR_GOOD
        ):
            classes[i] = Class.GOOD
        else:
            classes[i] = Class.BAD


def _classify_near_good(classes: list[Class]) -> None:
    # A near-good block is bad only between two bad neighbours; revised in
    # place, left to right, as the reference does: the good or bad block
    # before it is read after its own revision, the one after before it.
    next_decided = _nearest_after(classes, _DECIDED)
    prev = Class.BAD
    for i, c in enumerate(classes):
        if c is Class.NEAR_GOOD:
            bad = (prev, next_decided[i]) == (Class.BAD, Class.BAD)
            classes[i] = Class.BAD if bad else Class.GOOD
        if classes[i] in _DECIDED:
            prev = classes[i]


def _restore_headings(blocks, classes, cf_classes, headings, limit) -> None:
    # Postprocessing: a heading classed bad by context only (not context-free)
    # becomes good when a good block starts within MAX_HEADING_DISTANCE.
    for i, c in enumerate(classes):
        if not (headings[i] and c is Class.BAD and cf_classes[i] is not Class.BAD):
            continue
        if _good_follows(blocks, classes, i, limit):
            classes[i] = Class.GOOD


_DECIDED = (Class.GOOD, Class.BAD)
_DECIDED_OR_NEAR_GOOD = (Class.GOOD, Class.BAD, Class.NEAR_GOOD)


def _nearest_before(classes: Sequence[Class], stops: tuple[Class, ...]) -> list[Class]:
    """For each block, the class of the nearest block before it among ``stops``.

    The document edge counts as bad. One sweep serves every block, where a
    search from each block would walk the same runs of short blocks again.
    """
    nearest, last = [], Class.BAD
    for c in classes:
        nearest.append(last)
        if c in stops:
            last = c
    return nearest


def _nearest_after(classes: Sequence[Class], stops: tuple[Class, ...]) -> list[Class]:
    """For each block, the class of the nearest block after it among ``stops``."""
    return _nearest_before(classes[::-1], stops)[::-1]
