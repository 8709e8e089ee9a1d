"""Text a decoder damaged before the page reached us: mojibake, repaired with ftfy.

A page whose UTF-8 text went once through a program that read it as
windows-1252 or Latin-1 and wrote it back as UTF-8 serves ``letâ€™s`` for
``let's``, ``Â®`` for ``®``, ``Ã©`` for ``é``; one that read
windows-1252 as Latin-1 serves C1 control characters (``we\\x92re``). The
bytes are valid UTF-8 and say so, so no decoder can tell (``decode``); the
damage is in the text itself. Left in, every curly quote splits a word of the
corpus (``letâ``, ``s``) and the page matches no clean copy of itself in the
dedup stage. ftfy (Speer 2019), the repair web-corpus pipelines run
(datatrove's ``FTFYFormatter``), undoes exactly such round trips and leaves
text it cannot explain alone; only ``fix_encoding`` is used, so quotes,
widths and line breaks stay as the page wrote them.

Most paragraphs hold no character a round trip leaves (a UTF-8 lead byte
read as one of U+00C2-U+00F4, then a continuation byte read as a Latin-1 or
windows-1252 symbol; or a C1 control), so ASCII text (58 % of scrapinghub's
paragraphs) is let through at once, two regular expressions decide for the rest,
and ftfy is imported (80 ms, with wcwidth) by the first damaged text
only. It changes paragraphs on 34 of wcxb-dev's 1,497 pages, on none of
scrapinghub's or multilingual-dev's.

Measured on wcxb-dev's tuning folds (pages of F1 gained, issue 19): +0.06, 10
pages change (a baby-care article, a product's prices, an energy company's
report gain up to 0.03); one manual page whose gold was written from the
damaged text loses 0.006. scrapinghub and multilingual-dev unchanged. Time:
the tests cost 2.5 ms over scrapinghub's 4,611 paragraphs (0.3 % of
``default``'s 5 ms a page compiled), the exact expression alone 10 ms.
"""

from __future__ import annotations

import re

_SUSPECT = re.compile("[\x80-\x9f\u00c2-\u00f4]")
"""A character every damaged sequence holds (one regular expression over the text:
accented Latin letters pass it too, and meet the exact test)."""

# The second character of a damaged pair is a UTF-8 continuation byte (0x80-0xBF) as
# Latin-1 (U+00A0-U+00BF; U+0080-U+009F are the C1 controls, damage of their own) or as
# windows-1252, whose 0x80-0x9F are these symbols.
_WINDOWS_1252_HIGH = (
    "\u20ac\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u017d"
    "\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u017e\u0178"
)
_DAMAGE = re.compile(f"[\x80-\x9f]|[\u00c2-\u00f4][\u00a0-\u00bf{_WINDOWS_1252_HIGH}]")


def repair(text: str) -> str:
    """``text`` with its mojibake undone (``ftfy.fix_encoding``); as it is without any."""
    if text.isascii() or _SUSPECT.search(text) is None or _DAMAGE.search(text) is None:
        return text
    # 80 ms to import (wcwidth): only a process that meets damaged text pays it
    import ftfy  # noqa: PLC0415

    return ftfy.fix_encoding(text)
