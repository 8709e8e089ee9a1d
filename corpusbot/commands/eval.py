"""Score corpusbot's extraction on a gold folder of ../shared/bench.

DIR holds ground-truth.json (scrapinghub layout: word 4-gram shingles,
macro-averaged), snippets.json (multilingual-dev layout: snippet substring
tests, micro-averaged) or ground-truth/*.json (WCXB layout: bag of words,
macro-averaged, also per page type); see bench/README.md for the rules.
Prints precision, recall, F1 and pages per second (time inside extraction
only), and for WCXB a row per page type. Exit status: 0 done, 1 DIR is not
a gold folder, 2 some pages could not be loaded or made the extractor raise, 64 a usage
error (a --type the set does not have).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from tqdm import tqdm

from corpusbot import extract
from corpusbot.commands.exitcodes import EXIT_FAILED, EXIT_OK, EXIT_PARTIAL, EXIT_USAGE
from corpusbot.eval.scoring import (
    GoldSet,
    NotAGoldFolder,
    PageScore,
    Score,
    load_gold,
    score,
)
from corpusbot.extraction.mode_names import MODE_DEFAULT
from corpusbot.extraction.modes import MODES

log = logging.getLogger(__name__)

SNIPPET_WIDTH = 70
"""Characters of a missed or leaked snippet shown by ``--worst``."""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "dir", metavar="DIR", help="gold folder (scrapinghub, multilingual-dev or WCXB layout)"
    )
    parser.add_argument("--mode", choices=list(MODES), default=MODE_DEFAULT,
                        help="extraction mode")
    parser.add_argument(
        "--json", action="store_true", help="print one JSON object (on the last line)"
    )
    parser.add_argument(
        "--worst", type=_count, default=0, metavar="N", help="list the N pages with the lowest F1"
    )
    parser.add_argument(
        "--type", default=None, metavar="T", help="--worst lists pages of this type only (WCXB)"
    )
    parser.add_argument("--limit", type=_count, default=None, metavar="N",
                        help="first N pages only")
    parser.add_argument("-j", "--jobs", type=_positive, default=_cores(), metavar="N",
                        help="extract in N processes (default: all cores); the scores are "
                        "the same for every N, pages/s stays a one-core figure")


def _cores() -> int:
    """The cores this process may run on (a CPU affinity mask counts, as under taskset)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _count(value: str) -> int:
    if not value.isdigit():
        raise argparse.ArgumentTypeError(f"{value} is not a number of pages (0 or more)")
    return int(value)


def _positive(value: str) -> int:
    number = int(value)
    if number < 1:
        raise argparse.ArgumentTypeError(f"{value} is not a number of processes (1 or more)")
    return number


def run(args: argparse.Namespace) -> int:
    if not Path(args.dir).is_dir():
        problem = "is not a folder" if Path(args.dir).exists() else "does not exist"
        log.error("%s %s: give a gold folder such as ../shared/bench/scrapinghub",
                  args.dir, problem)
        return EXIT_FAILED
    try:
        gold_set = load_gold(args.dir, limit=args.limit)
    except NotAGoldFolder as exc:
        log.error("%s (see ../shared/bench/README.md for the layouts)", exc)
        return EXIT_FAILED
    types = sorted({page.page_type for page in gold_set.pages if page.page_type})
    if args.type is not None and args.type not in types:
        known = f"its types: {', '.join(types)}" if types else "its pages have no type"
        log.error("no page of type %r in %s; %s", args.type, args.dir, known)
        return EXIT_USAGE
    for key, error in gold_set.errors.items():
        log.error("page %s not loaded: %s", key, error)
    show = not args.json and sys.stderr.isatty()
    result = _score_with_progress(gold_set, args.mode, show, args.jobs)
    for page in result.details:
        if page.error is not None:
            log.error("extraction raised on page %s: %s", page.key, page.error)
    if args.json:
        print(json.dumps(_summary(result, args.mode, args.worst, args.type),
                         ensure_ascii=False))
    else:
        _print_table(result, args.mode)
        _print_worst(result.worst(args.worst, args.type))
    return EXIT_PARTIAL if gold_set.errors or result.failures else EXIT_OK


@dataclass(frozen=True, slots=True)
class ModeExtractor:
    """The text of one extraction mode; a class, not a closure, so that worker processes
    receive it pickled."""

    mode: str

    def __call__(self, html: bytes, url: str | None) -> str:
        return extract(html, url=url, mode=self.mode).text


def _score_with_progress(gold_set: GoldSet, mode: str, show: bool, jobs: int) -> Score:
    with tqdm(total=len(gold_set), desc=f"{gold_set.name} {mode}", disable=not show) as bar:
        return score(gold_set, ModeExtractor(mode), on_page=lambda _page: bar.update(), jobs=jobs)


def _summary(result: Score, mode: str, worst: int, page_type: str | None = None) -> dict:
    summary = {
        "set": result.set_name,
        "layout": result.layout,
        "mode": mode,
        "pages": result.pages,
        "precision": round(result.precision, 4),
        "recall": round(result.recall, 4),
        "f1": round(result.f1, 4),
        "pages_per_s": round(result.pages_per_s, 2),
        "failures": result.failures,
        "load_errors": result.load_errors,
    }
    if result.by_type is not None:
        summary["by_type"] = {
            name: {"pages": t.pages, "precision": round(t.precision, 4),
                   "recall": round(t.recall, 4), "f1": round(t.f1, 4)}
            for name, t in result.by_type.items()
        }
    if worst:
        summary["worst"] = [_page_summary(page) for page in result.worst(worst, page_type)]
    return summary


def _page_summary(page: PageScore) -> dict:
    return {
        "key": page.key,
        "url": page.url,
        "page_type": page.page_type,
        "f1": round(page.f1, 4),
        "tp": round(page.tp, 4),
        "fp": round(page.fp, 4),
        "fn": round(page.fn, 4),
        "output_chars": page.output_chars,
        "missed": list(page.missed),
        "leaked": list(page.leaked),
        "error": page.error,
    }


def _print_table(result: Score, mode: str) -> None:
    print(f"{'set':<20} {'mode':<11} {'pages':>5} {'P':>6} {'R':>6} {'F1':>6} {'pages/s':>8}")
    print(
        f"{result.set_name:<20} {mode:<11} {result.pages:>5} {result.precision:>6.3f}"
        f" {result.recall:>6.3f} {result.f1:>6.3f} {result.pages_per_s:>8.1f}"
    )
    for name, part in (result.by_type or {}).items():
        print(
            f"{'  ' + name:<20} {mode:<11} {part.pages:>5} {part.precision:>6.3f}"
            f" {part.recall:>6.3f} {part.f1:>6.3f}"
        )


def _print_worst(pages: list[PageScore]) -> None:
    if pages:
        print(f"\n{len(pages)} worst pages (F1, TP/FP/FN, output chars, key):")
    for page in pages:
        print(
            f"{page.f1:6.3f}  {page.tp:.2f}/{page.fp:.2f}/{page.fn:.2f}"
            f"  {page.output_chars:>7}  {page.page_type or ''} {page.key} {page.url or ''}"
        )
        for snippet in page.missed:
            print(f"        missed: {_clip(snippet)}")
        for snippet in page.leaked:
            print(f"        leaked: {_clip(snippet)}")
        if page.error:
            print(f"        error: {page.error}")


def _clip(text: str) -> str:
    return text if len(text) <= SNIPPET_WIDTH else text[: SNIPPET_WIDTH - 1] + "…"
