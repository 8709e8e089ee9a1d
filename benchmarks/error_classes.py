"""Issue 19's error classes on the gold sets: how many pages fall into each, and what
reading past a premature ``</html>`` costs against libxml2's parse.

    python benchmarks/error_classes.py count     # pages per class and reason, default mode
    python benchmarks/error_classes.py cost      # the end check against the parse, per set

``count`` runs ``extract`` (default mode) on every page and counts: pages
behind a kilobyte of white space or a cut-off script (class a), the
extraction's empty reasons and empty outputs where the gold has text,
trees libxml2 leaves empty and pages read again past their closing
``</html>`` (class e), and pages where the headline's content replaced a
side box (classes b, c, d; ``corpusbot.extraction.default.anchor``).
``cost`` times ``document_end.read_to_end`` (and the markup search when it
says no) on each parsed page, best of 5 in CPU time, against the parse.
"""

from __future__ import annotations

import argparse
import collections
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from corpusbot import extract
from corpusbot.eval.goldsets import GoldPage, load_gold
from corpusbot.extraction.context import PageBlocks
from corpusbot.extraction.default import composition
from corpusbot.html import decode, document_end, dom
from corpusbot.html.blocks import Block

BENCH = Path(__file__).resolve().parents[2] / "shared" / "bench"
SETS = ("scrapinghub", "multilingual-dev", "wcxb-dev")


def markup(html: bytes | str) -> bytes:
    """The page as the parser gets it: UTF-8 bytes."""
    decoded = decode.decode_html(html, {})
    return decoded.utf8 or decoded.text.encode("utf-8", "replace")


def count(name: str) -> collections.Counter:
    """Pages of the set per class and per extraction reason."""
    return count_pages(load_gold(BENCH / name).pages)


def count_pages(pages: Iterable[GoldPage]) -> collections.Counter:
    """``pages`` per class and per extraction reason."""
    found: collections.Counter = collections.Counter()
    anchored = []
    real = composition.anchor.instead_of_side_box

    # The spy passes on whatever ``select`` passes (the learned model too): a spy with
    # a narrower signature made every page a crash.
    def spy(page: PageBlocks, kept: Sequence[Block], *rest: Any) -> list[Block]:
        out = real(page, kept, *rest)
        anchored.append([id(b) for b in out] != [id(b) for b in kept])
        return out

    composition.anchor.instead_of_side_box = spy
    try:
        for page in pages:
            found.update(page_classes(page, anchored))
    finally:
        composition.anchor.instead_of_side_box = real
    return found


def page_classes(page: GoldPage, anchored: list[bool]) -> list[str]:
    """The classes one page falls into (``anchored`` records the anchor's decisions)."""
    raw = page.html if isinstance(page.html, bytes) else page.html.encode()
    data = markup(page.html)
    root = dom._parse(dom.drop_script_tail(data), False)  # the bare parse, before any repair
    classes = [name for name, holds in (
        ("a: 1 KB or more of leading white space", len(raw) - len(raw.lstrip()) >= 1024),
        ("a: cut-off script before the first tag", dom.drop_script_tail(data) is not data),
        ("e: libxml2's tree empty", root is None or not dom._has_content(root)),
        ("e: text after the closing </html>", not document_end.read_to_end(root, data)
         and document_end.without_document_ends(data) is not None),
    ) if holds]
    before = len(anchored)
    extraction = extract(page.html, url=page.url)
    if any(anchored[before:]):
        classes.append("b/c/d: side box replaced by the headline's content")
    classes.append(f"reason={extraction.reason}")
    gold = (page.body or "").strip() or getattr(page, "with_", None)
    if gold and not extraction.text.strip():
        classes.append("empty output, non-empty gold")
    return classes


def cost(name: str) -> str:
    """The end check's CPU time as a share of the parse's, summed over the set."""
    parse_total = check_total = 0.0
    for page in load_gold(BENCH / name).pages:
        data = dom.drop_script_tail(markup(page.html))
        parse_best = check_best = float("inf")
        for _ in range(5):
            started = time.process_time()
            root = dom._parse(data, False)  # the bare parse, before any repair
            parsed = time.process_time()
            if not document_end.read_to_end(root, data):
                document_end.without_document_ends(data)
            parse_best = min(parse_best, parsed - started)
            check_best = min(check_best, time.process_time() - parsed)
            # freed here, not while the next parse's result is assigned: glibc's trim of a
            # large freed tree lands on whatever runs next and is no part of the check
            del root
        parse_total += parse_best
        check_total += check_best
    return f"{name}: the end check costs {100 * check_total / parse_total:.2f}% of the parse"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("count", "cost"))
    parser.add_argument("--sets", default=",".join(SETS))
    args = parser.parse_args(argv)
    for name in args.sets.split(","):
        if args.what == "count":
            print(name, dict(sorted(count(name).items())))
        else:
            print(cost(name))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
