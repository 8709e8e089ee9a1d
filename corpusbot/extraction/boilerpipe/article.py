"""Boilerpipe's ArticleExtractor on the shared blocks.

The article heuristics of the Boilerpipe library (Kohlschütter) around the
shallow-text classifier of ``shallowtext``: title matching, terminating
blocks (comment sections, copyright lines) and ignoring what follows them,
block fusion, keeping the largest content region and expanding around it.
Each stage is one function named after the Boilerpipe filter it follows;
where a stage deviates from Boilerpipe its docstring says so and what the
deviation measured on the gold sets of ``../shared/bench``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from corpusbot.extraction.boilerpipe.shallowtext import (
    Label,
    Unit,
    classify,
    classify_units,
    fulltext_words,
    num_words_rules,
    to_units,
)
from corpusbot.html.blocks import Block

__all__ = ["classify", "select"]

END_OF_TEXT_MIN_WORDS = 60
"""Full-text words needed before an end-of-text mark ends the article."""

TERMINATING_MAX_WORDS = 15
"""Only blocks shorter than this can mark the end of the text."""

MAX_BLOCKS_DISTANCE = 1
"""Blocks fuse across at most this many removed blocks (BlockProximityFusion)."""

EXPAND_MIN_WORDS = 150
"""Blocks at the largest block's tag level join it from this size."""

LINK_LIST_DENSITY = 0.555556
"""Above this link density a block is a link list: the tree's split for the
previous block. Boilerpipe's first fusion lets any block absorb the content
block after it, which drags the last menu item in front of every article;
a link list no longer does (measured: +1.5 points of precision on both
sets, -0.7 of recall on scrapinghub; 0.33 and 0.5 measured within 0.002)."""

LARGE_BLOCK_MIN_WORDS = 100
"""Boilerplate blocks at the content's tag level become content from this size."""


def select(
    blocks: Sequence[Block], title: str | None = None, og_title: str | None = None,
) -> list[Block]:
    """Run the ArticleExtractor chain; return the content blocks in document order.

    ``title`` and ``og_title`` are the page's declared titles (or the
    headline found for it); the first block equal to one of them, or to its
    headline part, is the title block.
    """
    units = to_units(blocks)
    find_terminating_blocks(units)
    match_title(units, [t for t in (title, og_title) if t])
    classify_units(units, num_words_rules)
    ignore_blocks_after_content(units)
    trailing_headlines_to_boilerplate(units)
    units = fuse_by_proximity(units, content_only=False, same_tag_level=False)
    units = drop_boilerplate(units)
    units = fuse_by_proximity(units, content_only=True, same_tag_level=True)
    keep_largest_unit(units)
    expand_title_to_content(units)
    large_units_at_tag_level_to_content(units)
    list_at_end_to_content(units)
    return [b for u in units if u.content for b in u.blocks]


# -- article heuristics -------------------------------------------------------

# TerminatingBlocksFinder's phrases, lower-cased: comment sections, feedback
# prompts and agency credits that follow a news article.
END_STARTS = (
    "comments", "© reuters", "please rate this", "post a comment",
)
END_CONTAINS = (
    "what you think...", "add your comment", "add comment", "reader views",
    "have your say", "reader comments", "rätta artikeln",
)
END_EQUALS = ("thanks for your comments - this feedback is now closed",)
# A count of comments, as Boilerpipe's "<digits> comments"; extended to
# bracketed counts ("[ 167 comments ]"), responses and replies (measured:
# +0.5 point of precision on scrapinghub, the multilingual set unchanged; the
# same words in German, French, Spanish and Polish cost one snippet).
_COUNT_OF_COMMENTS = re.compile(r"\W*\d+\s+(?:comments?|responses?|replies|users responded in)\b")
# A copyright line closes the page, not a photo credit ("© AFP"): it needs a
# year or the reserved-rights formula (measured: +0.5 point of precision on
# both sets, recall unchanged).
_COPYRIGHT = re.compile(r"(?:©|copyright|\(c\))\s*(?:©\s*)?\d{4}|.*all rights reserved")


def find_terminating_blocks(units: list[Unit]) -> None:
    """Mark short blocks that announce the end of the article (TerminatingBlocksFinder)."""
    for unit in units:
        if unit.words < TERMINATING_MAX_WORDS and is_terminating(unit.text):
            unit.labels.add(Label.END_OF_TEXT)


def is_terminating(text: str) -> bool:
    """Whether a short block's text is one of the end-of-article phrases."""
    text = text.strip()
    if len(text) < 8:
        # the only short marker is a bare "Comment" link
        return text == "Comment"
    lower = text.lower()
    if lower.startswith(END_STARTS) or lower in END_EQUALS or _contains_end_phrase(lower):
        return True
    return _COUNT_OF_COMMENTS.match(lower) is not None or _COPYRIGHT.match(lower) is not None


def _contains_end_phrase(lower: str) -> bool:
    # substring tests run in C per phrase; one search of their alternation steps through
    # the text in the regular-expression engine, and this runs on most blocks
    for phrase in END_CONTAINS:
        if phrase in lower:
            return True
    return False


# Separators between a headline and the site name in page titles: Boilerpipe's
# (``|``, ``»``, ``-``, ``:``, parentheses, commas), plus the typographic
# dashes and bullets that non-English sites use.
_MARKS = r"|»\u2014\u2013\u00b7\u2022\u22c6"  # em and en dash, middle dot, bullets
# Compiled once: a page's title is split by each of them (the module cache's lookups
# per call cost more than the splits).
_TITLE_SEPARATORS = tuple(
    re.compile(rf"[ ]*[{_MARKS}{extra}][ ]*")
    for extra in ("-", ":", ":()", r":()\-", r",:()\-", r",:()\-\u00a0")
)
_TITLE_PART_SEPARATORS = (re.compile(r"[ ]+[|][ ]+"), re.compile(r"[ ]+[-\u2014\u2013][ ]+"))
_SITE_AFTER = re.compile(r" - [^\-]+$")
_SITE_BEFORE = re.compile(r"^[^\-]+ - ")
_TITLE_PART_MIN_WORDS = 4
_TITLE_WORD = re.compile(r"\w+")


def potential_titles(title: str) -> set[str]:
    """The title and its likely headline parts, as word keys (DocumentTitleMatchClassifier).

    Page titles append the site name after ``|``, ``-``, ``:`` or ``»``; the
    longest part between such separators, and every part of four words or
    more, may be the headline as the page prints it.
    """
    title = " ".join(title.split())
    if not title:
        return set()
    found = {title, _SITE_AFTER.sub("", title, count=1), _SITE_BEFORE.sub("", title, count=1)}
    for pattern in _TITLE_SEPARATORS:
        found.add(_longest_part(pattern.split(title)))
    for pattern in _TITLE_PART_SEPARATORS:
        parts = pattern.split(title)
        if len(parts) > 1:
            found.update(p for p in parts
                         if ".com" not in p and len(p.split()) >= _TITLE_PART_MIN_WORDS)
    keys = {title_key(p) for p in found}
    keys.discard("")
    return keys


def _longest_part(parts: list[str]) -> str:
    if len(parts) == 1:
        return ""
    best = ""
    for part in (p for p in parts if ".com" not in p):
        if len(part.split()) > len(best.split()) or len(part) > len(best):
            best = part
    return best.strip()


def title_key(text: str) -> str:
    """Lower-cased words only: quotes, dashes and ellipses vary between title and page.

    Boilerpipe drops apostrophes and, on the block side, ``?!.-:``; keeping
    only the words extends that to every punctuation mark (measured: +0.3
    point of precision on scrapinghub, within noise on the multilingual set).
    """
    return _words_key(text.lower())


def _words_key(lower: str) -> str:
    return " ".join(_TITLE_WORD.findall(lower))


def match_title(units: list[Unit], titles: Sequence[str]) -> None:
    """Label the first block whose text is the page title or a part of it."""
    candidates: set[str] = set()
    for title in titles:
        candidates |= potential_titles(title)
    if not candidates:
        return
    shortest = min(map(len, candidates))
    for unit in units:
        lower = unit.text.lower()
        # a key is never longer than the text it is made of: most blocks are
        # too short to be the title, and skip the word split
        if len(lower) >= shortest and _words_key(lower) in candidates:
            unit.labels.add(Label.TITLE)
            return


def ignore_blocks_after_content(units: list[Unit]) -> None:
    """After an end-of-text mark that follows enough content, nothing is content.

    IgnoreBlocksAfterContentFilter: the mark counts only once
    ``END_OF_TEXT_MIN_WORDS`` full-text words of content came before it, so a
    "comments" link in the page header does not end the article. Deviation:
    when a block matched the title, only content from the title on counts,
    as the article cannot end before its headline (a legal notice in the
    header no longer lets the share bar's "Comments" end the page; measured
    +0.4 point of precision and recall on scrapinghub, +0.3 recall on the
    multilingual set).
    """
    words = 0
    ended = False
    started = not any(Label.TITLE in u.labels for u in units)
    for unit in units:
        started = started or Label.TITLE in unit.labels
        if unit.content and started:
            words += fulltext_words(unit)
        ended = ended or (words >= END_OF_TEXT_MIN_WORDS and Label.END_OF_TEXT in unit.labels)
        if ended:
            unit.content = False


def trailing_headlines_to_boilerplate(units: list[Unit]) -> None:
    """Headings after the last content paragraph head nothing: drop them."""
    for unit in reversed(units):
        if not unit.content:
            continue
        if Label.HEADING not in unit.labels:
            return
        unit.content = False


def fuse_by_proximity(units: list[Unit], content_only: bool, same_tag_level: bool) -> list[Unit]:
    """Fuse each content unit into the unit before it when they are close.

    BlockProximityFusion: close means at most ``MAX_BLOCKS_DISTANCE`` removed
    blocks between them. Without ``content_only`` the unit before may be
    boilerplate, and fusing makes it content (so a heading, a byline or a
    block between two content paragraphs joins them), unless it is a link
    list (deviation from Boilerpipe, see ``LINK_LIST_DENSITY``);
    ``same_tag_level`` fuses only units at one depth.
    """
    start = next((i for i, u in enumerate(units) if u.content), None) if content_only else 0
    if start is None or len(units) < 2:
        return units
    kept = units[:start + 1]
    prev = units[start]
    for unit in units[start + 1:]:
        if unit.content and _may_fuse(prev, unit, content_only, same_tag_level):
            prev.merge(unit)
            continue
        kept.append(unit)
        prev = unit
    return kept


def _may_fuse(prev: Unit, unit: Unit, content_only: bool, same_tag_level: bool) -> bool:
    if unit.start - prev.end - 1 > MAX_BLOCKS_DISTANCE:
        return False
    if not prev.content and (content_only or prev.link_density > LINK_LIST_DENSITY):
        return False
    return not same_tag_level or prev.tag_level == unit.tag_level


def drop_boilerplate(units: list[Unit]) -> list[Unit]:
    """Remove boilerplate units, except the title (BoilerplateBlockFilter, keep-title)."""
    return [u for u in units if u.content or Label.TITLE in u.labels]


def keep_largest_unit(units: list[Unit]) -> None:
    """Keep the content unit with most words, then the text around it at its depth.

    KeepLargestBlockFilter, expanding to the same tag level: the first
    largest unit wins ties; walking away from it until a shallower unit,
    every unit at its tag level with ``EXPAND_MIN_WORDS`` words joins it.
    The others are marked as possible content for the filters after.
    Deviation: full-text units (``fulltext_words``) at its level or deeper
    join too, so that an article whose paragraphs alternate with headings
    or sit one wrapper deeper is not cut after the largest unit (measured:
    +1.6 points of recall on scrapinghub and +2.4 on the multilingual set,
    for -0.9 and -0.4 of precision).
    """
    if len(units) < 2:
        return
    largest = max((u for u in units if u.content), key=lambda u: u.words, default=None)
    for unit in units:
        unit.content = unit is largest
        unit.labels.add(Label.VERY_LIKELY_CONTENT if unit is largest else Label.MIGHT_BE_CONTENT)
    if largest is None:
        return
    at = units.index(largest)
    for side in (reversed(units[:at]), units[at + 1:]):
        for unit in side:
            if unit.tag_level < largest.tag_level:
                break
            if fulltext_words(unit) or (
                    unit.tag_level == largest.tag_level and unit.words >= EXPAND_MIN_WORDS):
                unit.content = True


def expand_title_to_content(units: list[Unit]) -> None:
    """Between the title and the content start, all becomes content.

    ExpandTitleToContentFilter: the headline, bylines and lead paragraphs
    that the classifier missed sit there.
    """
    title = content_start = -1
    for i, unit in enumerate(units):
        if Label.TITLE in unit.labels:
            title = i
        if unit.content:
            content_start = i
            break
    if title == -1 or content_start <= title:
        return
    for unit in units[title:content_start]:
        if Label.MIGHT_BE_CONTENT in unit.labels:
            unit.content = True


def large_units_at_tag_level_to_content(units: list[Unit]) -> None:
    """Large units at the main unit's tag level are content too.

    LargeBlockSameTagLevelToContentFilter: articles split by an ad or a
    figure continue in a sibling container at the same depth.
    """
    main = next((u for u in units if u.content and Label.VERY_LIKELY_CONTENT in u.labels), None)
    if main is None:
        return
    for unit in units:
        if (not unit.content and unit.words >= LARGE_BLOCK_MIN_WORDS
                and unit.tag_level == main.tag_level):
            unit.content = True


def list_at_end_to_content(units: list[Unit]) -> None:
    """Link-free list items nested right after the main unit are content (ListAtEndFilter)."""
    level: int | None = None
    for unit in units:
        if unit.content and Label.VERY_LIKELY_CONTENT in unit.labels:
            level = unit.tag_level
        elif (level is not None and unit.tag_level > level and unit.link_density == 0
              and {Label.MIGHT_BE_CONTENT, Label.LI} <= unit.labels):
            unit.content = True
        else:
            level = None
