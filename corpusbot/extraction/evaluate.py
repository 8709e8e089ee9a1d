"""Score main-text extraction against a gold folder of ``../shared/bench``.

Two layouts are understood, told apart by the JSON file at the top of the
folder (the rules are those of ``bench/README.md``, so that a score here
matches the published tables):

- ``scrapinghub`` (``ground-truth.json``: key -> ``articleBody``, ``url``;
  ``html/<key>.html.gz``): word 4-gram shingles, TP/FP/FN normalised per
  page, precision and recall macro-averaged over pages, F1 from the two.
- ``multilingual-dev`` (``snippets.json``: url -> ``file``, ``with``,
  ``without``; ``html/<file>``): whitespace-normalised substring test of
  each snippet, TP/FP/FN/TN summed over all pages, then P, R, F1.

The gold HTML is handed to the extractor as raw bytes, so that decoding is
part of what is scored and timed; only the time spent inside the extractor
counts towards pages per second.
"""

from __future__ import annotations

import gzip
import json
import re
import time
import zlib
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

SCRAPINGHUB = "scrapinghub"
SNIPPETS = "multilingual-dev"
LAYOUT_FILES = {SCRAPINGHUB: "ground-truth.json", SNIPPETS: "snippets.json"}
SHINGLE_SIZE = 4
"""Words per shingle, as in the Scrapinghub article-extraction benchmark."""

_TOKEN = re.compile(r"\w+")

ExtractFn = Callable[[bytes, str | None], str]
"""An extractor under test: raw HTML bytes and the page URL in, text out."""


class NotAGoldFolder(ValueError):
    """The folder holds neither ``ground-truth.json`` nor ``snippets.json``."""


@dataclass(slots=True, frozen=True)
class GoldPage:
    """One annotated page: its HTML bytes and the gold of its layout.

    ``body`` is the full article text (scrapinghub); ``with_`` and
    ``without`` are the snippets that must and must not appear (snippets).
    """

    key: str
    url: str | None
    html: bytes
    body: str | None = None
    with_: tuple[str, ...] = ()
    without: tuple[str, ...] = ()


@dataclass(slots=True)
class GoldSet:
    """The loaded pages of one gold folder, and the pages that failed to load."""

    name: str
    layout: str
    path: Path
    pages: list[GoldPage] = field(default_factory=list)
    errors: dict[str, str] = field(default_factory=dict)

    def __iter__(self) -> Iterator[GoldPage]:
        return iter(self.pages)

    def __len__(self) -> int:
        return len(self.pages)


@dataclass(slots=True, frozen=True)
class PageScore:
    """The score of one page, kept for error analysis.

    For shingles, ``tp``/``fp``/``fn`` are already normalised by their sum;
    for snippets they are counts, and ``missed``/``leaked`` list the ``with``
    snippets not found and the ``without`` snippets found.
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

    @property
    def f1(self) -> float:
        """Per-page F1, 1.0 when there was nothing to find and nothing found."""
        denominator = 2 * self.tp + self.fp + self.fn
        return 2 * self.tp / denominator if denominator else 1.0


@dataclass(slots=True, frozen=True)
class Score:
    """The score of one extractor on one gold set."""

    set_name: str
    layout: str
    precision: float
    recall: float
    f1: float
    seconds: float
    details: tuple[PageScore, ...]
    load_errors: int = 0

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

    def worst(self, n: int) -> list[PageScore]:
        """The ``n`` pages with the lowest F1, most misses and leaks first among ties."""
        ranked = sorted(self.details, key=lambda p: (p.f1, -(p.fp + p.fn), p.key))
        return ranked[:n]


def detect_layout(path: Path) -> str:
    """Name the layout of a gold folder from the JSON file it holds."""
    for layout, filename in LAYOUT_FILES.items():
        if (path / filename).is_file():
            return layout
    expected = " or ".join(LAYOUT_FILES.values())
    raise NotAGoldFolder(f"{path} is not a gold folder: it has no {expected}")


def load_gold(path: str | Path, limit: int | None = None) -> GoldSet:
    """Load a gold folder (first ``limit`` pages in file order when given).

    A page whose HTML is missing or damaged is left out and named in
    ``errors``, so that one bad file does not stop a run.
    """
    path = Path(path)
    layout = detect_layout(path)
    entries = list(_read_gold_json(path / LAYOUT_FILES[layout]).items())[:limit]
    gold_set = GoldSet(name=path.name, layout=layout, path=path)
    load_page = _scrapinghub_page if layout == SCRAPINGHUB else _snippets_page
    for key, entry in entries:
        try:
            page = load_page(path, key, entry)
        except (OSError, EOFError, zlib.error, KeyError, TypeError) as exc:
            gold_set.errors[key] = f"{type(exc).__name__}: {exc}"
            continue
        gold_set.pages.append(page)
    return gold_set


def _read_gold_json(path: Path) -> dict:
    """The gold annotations; an unreadable file makes the whole folder unusable."""
    try:
        gold = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise NotAGoldFolder(f"{path} cannot be read: {exc}") from exc
    if not isinstance(gold, dict):
        raise NotAGoldFolder(f"{path} is not a JSON object keyed by page")
    return gold


def _scrapinghub_page(root: Path, key: str, entry: dict) -> GoldPage:
    html = _read_html(root / "html" / f"{key}.html.gz")
    return GoldPage(key=key, url=entry.get("url"), html=html, body=entry["articleBody"] or "")


def _snippets_page(root: Path, key: str, entry: dict) -> GoldPage:
    # Most keys are page URLs; a few are labels like "hard::site-name.html".
    url = key if key.startswith(("http://", "https://")) else None
    return GoldPage(
        key=key,
        url=url,
        html=_read_html(root / "html" / entry["file"]),
        with_=tuple(s for s in entry.get("with") or () if s),
        without=tuple(s for s in entry.get("without") or () if s),
    )


def _read_html(path: Path) -> bytes:
    """The HTML bytes of a gold file, gunzipped when it is gzip, plain otherwise."""
    if not path.exists() and path.suffix == ".gz":
        path = path.with_suffix("")
    data = path.read_bytes()
    return gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data


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
    tp, fp, fn = shingle_counts(page.body or "", output)
    return PageScore(key=page.key, url=page.url, tp=tp, fp=fp, fn=fn)


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


def score(
    gold_set: GoldSet,
    extract_fn: ExtractFn,
    on_page: Callable[[PageScore], None] | None = None,
) -> Score:
    """Run ``extract_fn`` on every gold page and score the outputs by the set's rules.

    An exception on a page counts as an empty output and is kept in that
    page's ``error``; ``on_page`` is called after each page (progress bars).
    """
    details: list[PageScore] = []
    for page in gold_set:
        output, seconds, error = _run_one(extract_fn, page)
        result = replace(
            score_page(gold_set.layout, page, output),
            seconds=seconds,
            output_chars=len(output),
            error=error,
        )
        details.append(result)
        if on_page is not None:
            on_page(result)
    average = micro_average if gold_set.layout == SNIPPETS else macro_average
    precision, recall, f1 = average(details)
    return Score(
        set_name=gold_set.name,
        layout=gold_set.layout,
        precision=precision,
        recall=recall,
        f1=f1,
        seconds=sum(p.seconds for p in details),
        details=tuple(details),
        load_errors=len(gold_set.errors),
    )
