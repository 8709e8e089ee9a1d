"""Score main-text extraction against a gold folder of ``../shared/bench``.

The layouts are read by ``corpusbot.eval.goldsets``; the rules are
those of ``bench/README.md``, so that a score here matches the published
tables:

- ``scrapinghub``: word 4-gram shingles, TP/FP/FN normalised per page,
  precision and recall macro-averaged over pages, F1 from the two.
- ``multilingual-dev``: whitespace-normalised substring test of each
  snippet, TP/FP/FN/TN summed over all pages, then P, R, F1.
- ``wcxb``: lower-cased bag of words, per-page P, R and F1 (an empty gold
  scores 1.0 only against an empty output; an empty output scores 0),
  each averaged over pages, overall and per page type.

Only the time spent inside the extractor counts towards pages per second.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace

from corpusbot.eval.goldsets import (
    LAYOUT_FILES,
    SCRAPINGHUB,
    SNIPPETS,
    WCXB,
    GoldPage,
    GoldSet,
    NotAGoldFolder,
    detect_layout,
    load_gold,
)

__all__ = [
    "LAYOUT_FILES", "SCRAPINGHUB", "SNIPPETS", "WCXB", "GoldPage", "GoldSet", "NotAGoldFolder",
    "PageScore", "Score", "TypeScore", "detect_layout", "load_gold", "score",
]

SHINGLE_SIZE = 4
"""Words per shingle, as in the Scrapinghub article-extraction benchmark."""

_TOKEN = re.compile(r"\w+")

ExtractFn = Callable[[bytes, str | None], str]
"""An extractor under test: raw HTML bytes and the page URL in, text out."""



@dataclass(slots=True, frozen=True)
class PageScore:
    """The score of one page, kept for error analysis.

    For shingles, ``tp``/``fp``/``fn`` are already normalised by their sum;
    for snippets and the bag of words they are counts, and
    ``missed``/``leaked`` list the ``with`` snippets not found and the
    ``without`` snippets found.
    """

    key: str
    url: str | None
    tp: float
    fp: float
    fn: float
    tn: float = 0.0
    seconds: float = 0.0
    output_chars: int = 0
    missed: tuple[str, ...] = ()
    leaked: tuple[str, ...] = ()
    error: str | None = None
    page_type: str | None = None

    @property
    def f1(self) -> float:
        """Per-page F1, 1.0 when there was nothing to find and nothing found."""
        denominator = 2 * self.tp + self.fp + self.fn
        return 2 * self.tp / denominator if denominator else 1.0


@dataclass(slots=True, frozen=True)
class TypeScore:
    """The score of one extractor on the pages of one type."""

    pages: int
    precision: float
    recall: float
    f1: float


@dataclass(slots=True, frozen=True)
class Score:
    """The score of one extractor on one gold set; ``by_type`` per page type (wcxb)."""

    set_name: str
    layout: str
    precision: float
    recall: float
    f1: float
    seconds: float
    details: tuple[PageScore, ...]
    load_errors: int = 0
    by_type: dict[str, TypeScore] | None = None

    @property
    def pages(self) -> int:
        return len(self.details)

    @property
    def pages_per_s(self) -> float:
        return self.pages / self.seconds if self.seconds > 0 else 0.0

    @property
    def failures(self) -> int:
        """Pages on which the extractor raised (scored as empty output)."""
        return sum(1 for page in self.details if page.error is not None)

    def worst(self, n: int, page_type: str | None = None) -> list[PageScore]:
        """The ``n`` pages (of ``page_type`` when given) with the lowest F1, most misses first."""
        pages = [p for p in self.details if page_type is None or p.page_type == page_type]
        ranked = sorted(pages, key=lambda p: (p.f1, -(p.fp + p.fn), p.key))
        return ranked[:n]


def tokens(text: str) -> list[str]:
    """Words as the benchmark counts them: runs of Unicode word characters."""
    return _TOKEN.findall(text or "")


def shingles(text: str, size: int = SHINGLE_SIZE) -> Counter[tuple[str, ...]]:
    """The multiset of ``size``-word shingles; a shorter text is one shingle of all its words."""
    words = tokens(text)
    count = max(1, len(words) - size + 1)
    return Counter(tuple(words[i : i + size]) for i in range(count) if words[i : i + size])


def shingle_counts(gold: str, output: str) -> tuple[float, float, float]:
    """TP, FP, FN over shingles, each divided by their sum so long pages weigh the same."""
    expected, found = shingles(gold), shingles(output)
    tp = sum((expected & found).values())
    fp = sum((found - expected).values())
    fn = sum((expected - found).values())
    total = tp + fp + fn
    if not total:
        return 0.0, 0.0, 0.0
    return tp / total, fp / total, fn / total


def normalise_space(text: str) -> str:
    """Collapse every whitespace run to one space and strip the ends."""
    return " ".join(text.split())


def snippet_counts(page: GoldPage, output: str) -> PageScore:
    """Test each snippet of a page as a substring of the output."""
    text = normalise_space(output or "")
    found_with = [normalise_space(s) in text for s in page.with_]
    found_without = [normalise_space(s) in text for s in page.without]
    return PageScore(
        key=page.key,
        url=page.url,
        tp=float(sum(found_with)),
        fn=float(len(found_with) - sum(found_with)),
        fp=float(sum(found_without)),
        tn=float(len(found_without) - sum(found_without)),
        missed=tuple(s for s, hit in zip(page.with_, found_with, strict=True) if not hit),
        leaked=tuple(s for s, hit in zip(page.without, found_without, strict=True) if hit),
    )


def score_page(layout: str, page: GoldPage, output: str) -> PageScore:
    """Score one extractor output against its gold page."""
    if layout == SNIPPETS:
        return snippet_counts(page, output)
    counts = bag_counts if layout == WCXB else shingle_counts
    tp, fp, fn = counts(page.body or "", output)
    missed, leaked = differences(page.body or "", output or "")
    return PageScore(key=page.key, url=page.url, tp=tp, fp=fp, fn=fn, page_type=page.page_type,
                     missed=missed, leaked=leaked)


RUNS_SHOWN = 3
"""Missed and leaked passages kept per page for ``--worst`` (the longest)."""


def differences(gold: str, output: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The longest passages of the gold text the output lacks (missed) and of the output
    the gold lacks (leaked), found as runs of shingles absent from the other side: what
    ``--worst`` shows for the layouts that have no snippets."""
    gold_words, output_words = tokens(gold), tokens(output)
    return _absent(gold_words, output_words), _absent(output_words, gold_words)


def _absent(words: list[str], other: list[str]) -> tuple[str, ...]:
    size = SHINGLE_SIZE
    present = {tuple(other[i:i + size]) for i in range(max(1, len(other) - size + 1))}
    runs, start = [], None
    for i in range(max(1, len(words) - size + 1)):
        if not words or tuple(words[i:i + size]) in present:
            if start is not None:
                runs.append((start, i - 1 + size))
                start = None
        elif start is None:
            start = i
    if start is not None:
        runs.append((start, len(words)))
    longest = sorted(runs, key=lambda run: run[0] - run[1])[:RUNS_SHOWN]
    return tuple(" ".join(words[first:end]) for first, end in sorted(longest))


def _precision(tp: float, fp: float, fn: float) -> float:
    return 1.0 if fp == fn == 0 else tp / (tp + fp)


def _recall(tp: float, fp: float, fn: float) -> float:
    return 1.0 if fp == fn == 0 else tp / (tp + fn)


def _f1(precision: float, recall: float) -> float:
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


def _mean(values: list[float]) -> float:
    # The published script takes numpy's mean, which is NaN on no pages; 0.0 keeps JSON valid.
    return sum(values) / len(values) if values else 0.0


def macro_average(details: list[PageScore]) -> tuple[float, float, float]:
    """Shingle P, R, F1: per-page ratios averaged over the pages where each is defined.

    Precision skips pages with an empty output (tp + fp = 0), recall pages
    with nothing to find (tp + fn = 0); F1 is taken from the two averages.
    """
    precision = _mean([_precision(p.tp, p.fp, p.fn) for p in details if p.tp + p.fp > 0])
    recall = _mean([_recall(p.tp, p.fp, p.fn) for p in details if p.tp + p.fn > 0])
    return precision, recall, _f1(precision, recall)


def micro_average(details: list[PageScore]) -> tuple[float, float, float]:
    """Snippet P, R, F1 from TP, FP, FN summed over all pages."""
    tp = sum(p.tp for p in details)
    fp = sum(p.fp for p in details)
    fn = sum(p.fn for p in details)
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    return precision, recall, _f1(precision, recall)



def words(text: str) -> Counter[str]:
    """WCXB's bag of words: lower-cased ``\\w+`` tokens counted as a multiset."""
    return Counter(token.lower() for token in _TOKEN.findall(text or ""))


def bag_counts(gold: str, output: str) -> tuple[int, int, int]:
    """Words in both (overlap), only in the output, only in the gold."""
    expected, found = words(gold), words(output)
    overlap = sum((expected & found).values())
    return overlap, sum(found.values()) - overlap, sum(expected.values()) - overlap


def bag_page_scores(page: PageScore) -> tuple[float, float, float]:
    """Per-page P, R, F1 of WCXB: an empty gold is 1.0 only against an empty output."""
    predicted, gold = page.tp + page.fp, page.tp + page.fn
    if not gold:
        perfect = float(not predicted)
        return perfect, perfect, perfect
    if not predicted:
        return 0.0, 0.0, 0.0
    precision, recall = page.tp / predicted, page.tp / gold
    return precision, recall, _f1(precision, recall)


def bag_average(details: list[PageScore]) -> tuple[float, float, float]:
    """WCXB's P, R and F1: each one averaged over all pages."""
    per_page = [bag_page_scores(p) for p in details]
    return tuple(_mean([scores[i] for scores in per_page]) for i in range(3))  # type: ignore[return-value]


def by_page_type(details: list[PageScore]) -> dict[str, TypeScore]:
    """WCXB's scores per page type, largest type first; empty when no page has a type."""
    types: dict[str, list[PageScore]] = {}
    for page in details:
        if page.page_type:
            types.setdefault(page.page_type, []).append(page)
    ordered = sorted(types.items(), key=lambda item: (-len(item[1]), item[0]))
    return {name: TypeScore(len(pages), *bag_average(pages)) for name, pages in ordered}


def _run_one(extract_fn: ExtractFn, page: GoldPage) -> tuple[str, float, str | None]:
    """Call the extractor on one page: its output, the seconds inside it, its error if any."""
    start = time.perf_counter()
    try:
        output = extract_fn(page.html, page.url)
    except NotImplementedError:
        raise  # an extractor that does not exist yet is not a page failure
    except Exception as exc:  # a reference crashing on one page is scored as empty, not fatal
        return "", time.perf_counter() - start, f"{type(exc).__name__}: {exc}"
    return output or "", time.perf_counter() - start, None


PAGES_PER_TASK = 8
"""Pages sent to a worker at a time with ``jobs > 1``: a gold page takes 2-40 ms to
extract, so eight amortise the pickling round trip yet keep the workers evenly loaded
at the end of a set of 181 to 1,497 pages."""

RunResult = tuple[str, float, str | None]


def _run_pages(extract_fn: ExtractFn, pages: list[GoldPage]) -> list[RunResult]:
    """``_run_one`` over a chunk of pages, in a worker process."""
    return [_run_one(extract_fn, page) for page in pages]


def _chunks(pages: list[GoldPage], size: int) -> list[list[GoldPage]]:
    return [pages[start : start + size] for start in range(0, len(pages), size)]


def run_pages(gold_set: GoldSet, extract_fn: ExtractFn, jobs: int = 1) -> Iterator[RunResult]:
    """Each page's output, seconds and error, in page order, over ``jobs`` processes.

    With ``jobs > 1`` ``extract_fn`` must pickle (a module-level function or
    an instance of a module-level class, not a lambda); the outputs are the
    same as in one process, since each page is extracted on its own.
    """
    if jobs <= 1:
        yield from (_run_one(extract_fn, page) for page in gold_set)
        return
    tasks = _chunks(list(gold_set), PAGES_PER_TASK)
    with ProcessPoolExecutor(max_workers=min(jobs, len(tasks) or 1)) as pool:
        for chunk in pool.map(_run_pages, [extract_fn] * len(tasks), tasks):
            yield from chunk


def score(
    gold_set: GoldSet,
    extract_fn: ExtractFn,
    on_page: Callable[[PageScore], None] | None = None,
    jobs: int = 1,
) -> Score:
    """Run ``extract_fn`` on every gold page and score the outputs by the set's rules.

    An exception on a page counts as an empty output and is kept in that
    page's ``error``; ``on_page`` is called after each page (progress bars).
    ``jobs > 1`` extracts in that many processes (see ``run_pages``); the
    seconds are still those spent inside the extractor, summed over pages,
    so pages per second stays a one-core figure.
    """
    details: list[PageScore] = []
    for page, (output, seconds, error) in zip(
        gold_set, run_pages(gold_set, extract_fn, jobs), strict=True
    ):
        result = replace(
            score_page(gold_set.layout, page, output),
            seconds=seconds,
            output_chars=len(output),
            error=error,
        )
        details.append(result)
        if on_page is not None:
            on_page(result)
    return _total(gold_set, details)


def _total(gold_set: GoldSet, details: list[PageScore]) -> Score:
    """The set's P, R, F1 (and per page type for WCXB) from its page scores."""
    precision, recall, f1 = AVERAGES[gold_set.layout](details)
    return Score(
        set_name=gold_set.name,
        layout=gold_set.layout,
        precision=precision,
        recall=recall,
        f1=f1,
        seconds=sum(p.seconds for p in details),
        details=tuple(details),
        load_errors=len(gold_set.errors),
        by_type=by_page_type(details) if gold_set.layout == WCXB else None,
    )


AVERAGES = {SCRAPINGHUB: macro_average, SNIPPETS: micro_average, WCXB: bag_average}
"""How each layout turns its page scores into the set's P, R and F1."""
