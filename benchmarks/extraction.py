"""Extraction quality and speed: corpusbot's modes beside reference extractors, one process.

Runs every corpusbot mode and the reference extractors (jusText, boilerpy3,
trafilatura, readability-lxml, and a bare lxml parse as a speed floor) on
the gold sets of ../shared/bench, scores them with corpusbot.eval.scoring (the
rules of bench/README.md), prints a markdown table and optionally writes the
figures as JSON. Speed is also given as a ratio to trafilatura's pages per
second in the same run, which is what survives a change of machine.

    python benchmarks/extraction.py --out benchmarks/results.json
    python benchmarks/extraction.py --sets scrapinghub --refs trafilatura --limit 40
    python benchmarks/extraction.py --sets wcxb-dev --refs trafilatura   # + a table per page type

On a WCXB-layout set (wcxb-dev) a second table gives F1 per page type.
Pin the process to one core for the speed figures (``taskset -c 0``).

See benchmarks/README.md for what each column means.
"""

from __future__ import annotations

import argparse
import functools
import json
import logging
import os
import platform
import re
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from corpusbot.eval.scoring import ExtractFn, GoldSet, Score, load_gold, score

log = logging.getLogger("benchmarks.extraction")

REPO = Path(__file__).resolve().parents[1]
DEFAULT_BENCH = REPO.parent / "shared" / "bench"
SETS = ("scrapinghub", "multilingual-dev", "wcxb-dev")
MODES = ("justext", "boilerpipe", "precise", "web2text", "default")
SPEED_BASE = "trafilatura"
PACKAGES = ("corpusbot", "justext", "boilerpy3", "trafilatura", "readability-lxml", "lxml")
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>")
_BLOCK_TAGS = frozenset(
    "address article aside blockquote br dd div dl dt figcaption footer h1 h2 h3 h4 h5 h6"
    " header hr li main nav ol p pre section table td th tr ul".split()
)


@dataclass(slots=True, frozen=True)
class Run:
    """One extractor on one gold set: its score, or why there is none."""

    set_name: str
    extractor: str
    score: Score | None = None
    pages_per_s: float = 0.0
    quality: bool = True
    status: str = "ok"
    single_pass_pages_per_s: float = 0.0
    """The median pass's pages/s (the only pass with ``--repeat 1``)."""
    loop_pages_per_s: float = 0.0
    """The median pages/s of plain timed loops over the set, no scoring around the calls."""


# Decoding for the references that only take text (boilerpy3, lxml): w3lib's,
# which Scrapy uses (BOM, <meta charset>, then UTF-8 or cp1252).
def decode(html: bytes) -> str:
    """The page as text, decoded the way Scrapy would, without an XML declaration."""
    from w3lib.encoding import html_to_unicode

    _, text = html_to_unicode(None, html)
    # lxml refuses a str that still declares an encoding.
    return _XML_DECLARATION.sub("", text, count=1)


def html_to_text(fragment: str) -> str:
    """Visible text of an HTML fragment, with a line break around each block element.

    ``text_content()`` alone glues the last word of one paragraph to the
    first of the next, which would invent shingles.
    """
    import lxml.html

    root = lxml.html.fragment_fromstring(fragment, create_parent="div")
    for element in root.iter(*_BLOCK_TAGS):
        element.text = "\n" + (element.text or "")
        element.tail = "\n" + (element.tail or "")
    return re.sub(r"\n\s*\n\s*", "\n\n", root.text_content()).strip()


def gold_languages(gold_set: GoldSet) -> dict[bytes, str | None]:
    """The language of each page, named from its gold text (outside any timing)."""
    try:
        from corpusbot.language.identify import LanguageIdentifier
    except ImportError:
        return {}
    identifier = LanguageIdentifier(seed=0)
    return {
        page.html: identifier.identify(page.body or "\n".join(page.with_)).code for page in gold_set
    }


def justext_stoplists(gold_set: GoldSet) -> Callable[[bytes], frozenset[str]]:
    """Each page's stop words: corpusbot's list for its gold language, else jusText's English."""
    import justext

    try:
        from corpusbot.language.stoplists import stoplist
    except ImportError:
        english = frozenset(justext.get_stoplist("English"))
        return lambda html: english
    # jusText caches its stop-word lists by value (an lru_cache), so it needs a hashable
    # list: corpusbot's are dicts (``StopWords``), made frozensets here, once per language.
    @functools.cache
    def hashable(lang: str | None) -> frozenset[str]:
        return frozenset(stoplist(lang))

    by_page = {html: hashable(lang) for html, lang in gold_languages(gold_set).items()}
    union = hashable(None)
    return lambda html: by_page.get(html, union)


def make_justext(gold_set: GoldSet) -> ExtractFn:
    import justext

    stoplist_of = justext_stoplists(gold_set)

    def extract(html: bytes, url: str | None) -> str:
        paragraphs = justext.justext(html, stoplist_of(html))
        return "\n\n".join(p.text for p in paragraphs if not p.is_boilerplate)

    return extract


def make_boilerpy3(gold_set: GoldSet) -> ExtractFn:
    from boilerpy3 import extractors

    # Its parse failures are counted by the scorer; the tracebacks it logs are noise here.
    logging.getLogger("boilerpy3").setLevel(logging.CRITICAL)
    article = extractors.ArticleExtractor(raise_on_failure=True)
    return lambda html, url: article.get_content(decode(html))


def make_trafilatura(gold_set: GoldSet) -> ExtractFn:
    import trafilatura

    def extract(html: bytes, url: str | None) -> str:
        return trafilatura.extract(html, url=url, include_comments=False) or ""

    return extract


def make_readability(gold_set: GoldSet) -> ExtractFn:
    from readability import Document

    return lambda html, url: html_to_text(Document(html, url=url).summary())


def make_lxml_parse(gold_set: GoldSet) -> ExtractFn:
    import lxml.html

    def parse(html: bytes, url: str | None) -> str:
        lxml.html.document_fromstring(decode(html))
        return ""

    return parse


def make_corpusbot(mode: str) -> Callable[[GoldSet], ExtractFn]:
    def factory(gold_set: GoldSet) -> ExtractFn:
        from corpusbot import extract

        return lambda html, url: extract(html, url=url, mode=mode).text

    return factory


REFERENCES: dict[str, Callable[[GoldSet], ExtractFn]] = {
    "trafilatura": make_trafilatura,
    "justext": make_justext,
    "boilerpy3": make_boilerpy3,
    "readability": make_readability,
    "lxml-parse": make_lxml_parse,
}
NO_QUALITY = frozenset({"lxml-parse"})
"""Extractors measured for speed only: their output is empty by design."""


def run_set(gold_set: GoldSet, extractors: dict[str, ExtractFn], repeat: int) -> list[Run]:
    """Score every extractor ``repeat`` times, and time as many plain loops.

    The passes are interleaved (every extractor once, then again), so a slow
    spell of a shared machine costs no extractor more than the others. Three
    figures come out: the best-of pages/s (each page with its fastest pass),
    the median pass's pages/s, and the median of plain timed loops (one
    ``perf_counter`` around all the calls), which checks that the timing
    around each call neither adds nor hides time.
    """
    results: dict[str, list[Score]] = {}
    loops: dict[str, list[float]] = {}
    failed: dict[str, str] = {}
    for name, extract_fn in extractors.items():
        status = _warm_up(gold_set, name, extract_fn)
        if status:
            failed[name] = status
        else:
            results[name], loops[name] = [], []
    for _ in range(repeat):
        for name, scores in results.items():
            log.info("%s: %s", gold_set.name, name)
            scores.append(score(gold_set, extractors[name]))
            loops[name].append(timed_loop(gold_set, extractors[name]))
    runs = []
    for name in extractors:
        if name in failed:
            runs.append(Run(gold_set.name, name, status=failed[name]))
            continue
        passes = results[name]
        runs.append(Run(gold_set.name, name, passes[0], best_pages_per_s(passes),
                        quality=name not in NO_QUALITY,
                        single_pass_pages_per_s=statistics.median(p.pages_per_s for p in passes),
                        loop_pages_per_s=statistics.median(loops[name])))
    return runs


def timed_loop(gold_set: GoldSet, extract_fn: ExtractFn) -> float:
    """Pages/s of one plain loop over the set: a single clock around every call."""
    pages = [(page.html, page.url) for page in gold_set]
    start = time.perf_counter()
    for html, url in pages:
        try:
            extract_fn(html, url)
        except Exception:  # the scored pass counts failures; this one only times
            continue
    seconds = time.perf_counter() - start
    return len(pages) / seconds if seconds > 0 else 0.0


def best_pages_per_s(passes: list[Score]) -> float:
    """Pages per second when every page takes its fastest time over the passes."""
    seconds = sum(min(times) for times in zip(*[[p.seconds for p in s.details] for s in passes],
                                              strict=True))
    return passes[0].pages / seconds if seconds > 0 else 0.0


def _warm_up(gold_set: GoldSet, name: str, extract_fn: ExtractFn) -> str | None:
    """One untimed call, then an untimed pass over the set; the status of an extractor that
    cannot run, else None.

    The pass loads what an extractor loads on first use (stop-word lists of the set's
    languages, caches) before any pass is timed: left to the first timed pass, it fell on
    whichever extractor of a process ran first (``compiled.py``'s docstring has figures).
    """
    try:
        extract_fn(gold_set.pages[0].html, gold_set.pages[0].url)
    except NotImplementedError:
        return "n/a"
    except Exception as exc:  # a reference that cannot start is reported, not fatal
        log.warning("%s cannot run on %s: %s", name, gold_set.name, exc)
        return f"error: {type(exc).__name__}"
    timed_loop(gold_set, extract_fn)
    return None


def speed_ratio(run: Run, runs: list[Run], figure: str = "pages_per_s") -> float | None:
    """A pages/s ``figure`` of ``run`` as a multiple of trafilatura's on the same set and run."""
    base = next((r for r in runs if r.extractor == SPEED_BASE and r.set_name == run.set_name), None)
    if run.score is None or base is None or not getattr(base, figure):
        return None
    return getattr(run, figure) / getattr(base, figure)


def markdown_table(runs: list[Run]) -> str:
    lines = [
        "| set | extractor | P | R | F1 | pages/s best | x traf. best | pages/s pass"
        " | x traf. pass | pages/s loop | failed |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for run in runs:
        lines.append("| " + " | ".join([run.set_name, run.extractor, *_cells(run, runs)]) + " |")
    return "\n".join(lines)


def _cells(run: Run, runs: list[Run]) -> list[str]:
    if run.score is None:
        return [run.status] * 8 + ["-"]
    result = run.score
    quality = [f"{result.precision:.3f}", f"{result.recall:.3f}", f"{result.f1:.3f}"]
    return [
        *(quality if run.quality else ["-"] * 3),
        f"{run.pages_per_s:.1f}",
        _ratio(speed_ratio(run, runs)),
        f"{run.single_pass_pages_per_s:.1f}",
        _ratio(speed_ratio(run, runs, "single_pass_pages_per_s")),
        f"{run.loop_pages_per_s:.1f}",
        str(result.failures),
    ]


def _ratio(ratio: float | None) -> str:
    return f"{ratio:.2f}" if ratio is not None else "n/a"


def type_table(runs: list[Run]) -> str:
    """F1 per page type (P / R / F1 cells) for the runs on sets that give page types."""
    typed = [r for r in runs if r.score is not None and r.quality and r.score.by_type]
    if not typed:
        return ""
    types = list(typed[0].score.by_type)
    lines = [
        "| set | extractor | " + " | ".join(f"{t} ({typed[0].score.by_type[t].pages})"
                                          for t in types) + " |",
        "|---|---|" + "---:|" * len(types),
    ]
    for run in typed:
        cells = [_type_cell(run.score.by_type.get(t)) for t in types]
        lines.append(f"| {run.set_name} | {run.extractor} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _type_cell(part) -> str:
    if part is None:
        return "-"
    return f"{part.precision:.2f} / {part.recall:.2f} / **{part.f1:.3f}**"


def as_json(runs: list[Run], args: argparse.Namespace) -> dict:
    return {
        "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "versions": {name: _version(name) for name in PACKAGES},
        "corpusbot_build": _build(),
        "limit": args.limit,
        "repeat": args.repeat,
        # a shared machine's load says how far the absolute figures can be trusted
        "load_average_1_5_15": [round(x, 2) for x in os.getloadavg()],
        "results": [_run_json(run, runs) for run in runs],
    }


def _run_json(run: Run, runs: list[Run]) -> dict:
    entry: dict = {"set": run.set_name, "extractor": run.extractor, "status": run.status}
    if run.score is not None:
        ratio = speed_ratio(run, runs)
        single = speed_ratio(run, runs, "single_pass_pages_per_s")
        entry |= {
            "pages": run.score.pages,
            "pages_per_s": round(run.pages_per_s, 2),
            "speed_vs_trafilatura": round(ratio, 3) if ratio is not None else None,
            "single_pass_pages_per_s": round(run.single_pass_pages_per_s, 2),
            "single_pass_vs_trafilatura": round(single, 3) if single is not None else None,
            "loop_pages_per_s": round(run.loop_pages_per_s, 2),
            "failures": run.score.failures,
        }
        if run.quality:
            entry |= {k: round(getattr(run.score, k), 4) for k in ("precision", "recall", "f1")}
        if run.quality and run.score.by_type:
            entry["by_type"] = {
                name: {"pages": t.pages, "precision": round(t.precision, 4),
                       "recall": round(t.recall, 4), "f1": round(t.f1, 4)}
                for name, t in run.score.by_type.items()
            }
    return entry


def _build() -> str:
    from corpusbot import compiled

    return compiled.describe()


def _version(name: str) -> str | None:
    try:
        return version(name)
    except PackageNotFoundError:
        return None


def resolve_set(name: str, bench: Path) -> Path:
    """A set given by name (under the bench folder) or by path."""
    path = Path(name)
    return path if path.is_dir() else bench / name


def build_extractors(args: argparse.Namespace) -> dict[str, Callable[[GoldSet], ExtractFn]]:
    factories = {name: REFERENCES[name] for name in args.refs}
    factories |= {f"corpusbot {mode}": make_corpusbot(mode) for mode in args.modes}
    return factories


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    bench = Path(os.environ.get("CORPUSBOT_BENCH") or DEFAULT_BENCH)
    parser.add_argument("--bench", type=Path, default=bench, help=f"gold sets folder ({bench})")
    parser.add_argument("--sets", nargs="+", default=list(SETS), help="set names or folders")
    parser.add_argument("--modes", nargs="*", default=list(MODES), choices=MODES)
    parser.add_argument("--refs", nargs="*", default=list(REFERENCES), choices=list(REFERENCES))
    parser.add_argument("--limit", type=int, default=None, help="first N pages of each set")
    parser.add_argument("--repeat", type=int, default=1,
                        help="timed passes; each page counts with its best time")
    parser.add_argument("--out", type=Path, default=None, help="write the figures as JSON here")
    parser.add_argument("--python-sources", action="store_true",
                        help="run corpusbot's compiled modules from their Python sources "
                        "(the pure build of a compiled install; see benchmarks/compiled.py)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.python_sources:
        from corpusbot import compiled

        compiled.use_python_sources()
    logging.basicConfig(level=logging.INFO, format="%(message)s", stream=sys.stderr)
    runs: list[Run] = []
    for name in args.sets:
        gold_set = load_gold(resolve_set(name, args.bench), limit=args.limit)
        for key, error in gold_set.errors.items():
            log.warning("%s: page %s not loaded: %s", gold_set.name, key, error)
        extractors = {n: factory(gold_set) for n, factory in build_extractors(args).items()}
        runs += run_set(gold_set, extractors, args.repeat)
    print(markdown_table(runs))
    by_type = type_table(runs)
    if by_type:
        print("\n" + by_type)
    if args.out:
        args.out.write_text(json.dumps(as_json(runs, args), indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
