"""Date lines: a block that is only a date, or a byline around one, is metadata.

Articles print their publication day on a line of its own ("Friday, November 14,
2025", "14.11.2025", "2025年11月14日") above or below the body, teaser lists print
one per entry and forum threads one per post; inside the region, beside kept
paragraphs, the recovery (``default.recover_inside``) took them as short
paragraphs. A date in a table cell is data (a schedule, a price history) and stays.

The pattern reads the shapes, not the words: numeric dates in any order of day,
month and year, a word (a month's name, any language) between a day and a year,
CJK year-month-day, each with an optional weekday before (set off by a comma)
and a time after. A label makes the line more than a date ("Updated Mar 8,
2026": a listing's entries keep theirs in WCXB's gold).

A byline is a line of a few short parts set apart by ``|``, ``·`` or ``•``, one
of them a date ("By Ann Lee | Apr 21, 2017 | Products Liability", "March 15,
2022 · 3 min read"). An article has one or two (``MAX_BYLINES``); a page with
more is a list of entries, each with its byline, which WCXB's gold keeps (a
topic page of teasers, 0.07 lost when they went).

On wcxb-dev's tuning folds, of the kept blocks outside tables that were only a
date (English shapes), 109 were not in the gold text and 2 were. Measured
(wcxb-dev pages of F1 gained, tuned-on folds 0-2 / held-out 3-4; scrapinghub;
multilingual-dev, before 0.9699 / 0.9383): date lines +0.15 / +0.06, 0.9700 /
0.9383 (one page loses 0.002: a post's own date in its gold); with any word
before the date (a label too) +0.09 / +0.06, 0.9702 / 0.9383 (a listing's
"Updated ..." lines, which its gold keeps, 0.071). Bylines then (before 0.9700 /
0.9383): +0.01 / +0.005, 0.9700 / 0.9388; without ``MAX_BYLINES`` -0.07 / +0.005,
0.9700 / 0.9388.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from corpusbot.html.blocks import Block

_WORD = r"[^\W\d_]{3,12}\.?"
_YEAR = r"(?:19|20)\d\d"
_DAY = r"\d{1,2}(?:st|nd|rd|th|\.)?"
_TIME = r"(?:[\s,|\u00b7-]+\d{1,2}[:.h]\d\d(?:\s*[ap]\.?m\.?)?(?:\s*[A-Z]{2,4})?)?"
DATE_LINE = re.compile(
    rf"^(?:{_WORD},\s+)?"  # a weekday
    rf"(?:{_WORD}\s+{_DAY},\s+{_YEAR}"  # November 14, 2025
    rf"|{_DAY}\s+(?:de\s+)?{_WORD}\s+(?:de\s+)?{_YEAR}"  # 14. November 2025, 14 de mayo de 2025
    rf"|\d{{1,2}}[./-]\d{{1,2}}[./-](?:{_YEAR}|\d\d)"  # 14.11.2025, 11/14/25
    rf"|{_YEAR}[./-]\d{{1,2}}[./-]\d{{1,2}}"  # 2025-11-14
    rf"|{_YEAR}\s*年\s*\d{{1,2}}\s*月\s*\d{{1,2}}\s*日"  # 2025年11月14日
    rf"){_TIME}$",
    re.IGNORECASE,
)
TABLE_CELL_TAGS = frozenset({"td", "th"})
DATE_MAX_CHARS = 40
"""A date with its weekday and time; longer text holding a date is a sentence."""
BYLINE_SEPARATORS = re.compile(r"\s+[|\u00b7\u2022]\s+")
BYLINE_MAX_PARTS = 5
BYLINE_PART_MAX_WORDS = 6
"""A byline's parts are a name, a date, a reading time, a section: a few words each."""
MAX_BYLINES = 2
"""An article's own bylines: above the body, and again below it."""


def without_date_lines(kept: Sequence[Block]) -> list[Block]:
    """``kept`` without its date lines, and without its bylines when they are few."""
    out = [b for b in kept if is_date_line(b) or is_byline(b)]
    if sum(not is_date_line(b) for b in out) > MAX_BYLINES:
        out = [b for b in out if is_date_line(b)]
    dropped = {id(b) for b in out}
    return [b for b in kept if id(b) not in dropped]


def is_date_line(block: Block) -> bool:
    """Whether the block's whole text is one date, and the block is no table cell."""
    return _is_date(block.text.strip()) and not _in_table_cell(block)


def is_byline(block: Block) -> bool:
    """Whether the block is a few short parts set apart by separators, one a date."""
    text = block.text
    if "|" not in text and "\u00b7" not in text and "\u2022" not in text:
        return False  # no separator: one part (a membership test is cheaper than the split)
    parts = BYLINE_SEPARATORS.split(text.strip())
    return (
        1 < len(parts) <= BYLINE_MAX_PARTS
        and all(len(part.split()) <= BYLINE_PART_MAX_WORDS for part in parts)
        and any(_is_date(part.strip()) for part in parts)
        and not _in_table_cell(block)
    )


def _is_date(text: str) -> bool:
    return len(text) <= DATE_MAX_CHARS and DATE_LINE.match(text) is not None


def _in_table_cell(block: Block) -> bool:
    element = block.element
    return any(a.tag in TABLE_CELL_TAGS for a in (element, *element.iterancestors()))
