"""The ``web2text`` mode beside corpusbot's other modes and trafilatura, on all three gold sets.

    python benchmarks/web2text_compare.py --folds /tmp/web2text-folds --out results.json

One process, one core, every extractor on each page in turn (``interleaved``):

- ``scrapinghub`` and ``multilingual-dev`` are scored by
  ``corpusbot.eval.scoring`` (the sets' own rules); ``web2text`` runs
  with the shipped model, which never saw these sets.
- ``wcxb-dev`` is scored by its bag-of-words rule, overall and per page type
  (``web2text_data.bag_scores``). Because the shipped model learned from
  these pages, ``web2text`` is scored there with the cross-validation models
  written by ``train_web2text.py --save-folds``: each page by the model of
  the fold that held its domain out.

Pages per second count only the time inside the extractor, and are also
given as a ratio to trafilatura's on the same set in the same run.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from corpusbot import extract
from corpusbot.eval.scoring import (
    SNIPPETS,
    load_gold,
    macro_average,
    micro_average,
    score_page,
)
from corpusbot.extraction.core import ReadPage, paragraph_text, read_page
from corpusbot.extraction.web2text import model as web2text

sys.path.insert(0, str(Path(__file__).resolve().parent))
from web2text_data import bag_scores, load_wcxb, macro_by_type

log = logging.getLogger("benchmarks.web2text_compare")

REPO = Path(__file__).resolve().parents[1]
DEFAULT_BENCH = REPO.parent / "shared" / "bench"
MODES = ("default", "justext", "boilerpipe", "precise", "web2text")
Extractor = Callable[[bytes, str | None], str]


def corpusbot_mode(mode: str) -> Extractor:
    return lambda html, url: extract(html, url=url, mode=mode).text


def trafilatura_extractor() -> Extractor:
    """trafilatura as benchmarks/extraction.py runs it (comments excluded)."""
    import trafilatura

    return lambda html, url: trafilatura.extract(html, url=url, include_comments=False) or ""


def web2text_with(model: web2text.Model) -> Callable[[bytes], str]:
    """The web2text mode's text with a given model (what ``extract`` does with the shipped one)."""
    def run(html: bytes) -> str:
        read = read_page(html)
        if not isinstance(read, ReadPage):
            return ""
        return "\n\n".join(paragraph_text(b) for b in web2text.select(read.page, model) if b.text)

    return run


def load_fold_models(folder: Path) -> dict[str, Callable[[bytes], str]]:
    """For each WCXB page id, the extractor of the model that never saw its domain."""
    assignment = json.loads((folder / "folds.json").read_text(encoding="utf-8"))
    models = {}
    for fold in sorted(set(assignment.values())):
        with np.load(folder / f"fold{fold}.npz", allow_pickle=False) as stored:
            models[fold] = web2text_with(web2text.model_from_arrays(
                {key: stored[key] for key in stored.files}))
    return {key: models[fold] for key, fold in assignment.items()}


def timed(fn: Callable[[], str]) -> tuple[str, float]:
    started = time.perf_counter()
    try:
        output = fn()
    except Exception:  # a crash on one page is scored as empty output
        log.warning("extractor crashed", exc_info=True)
        output = ""
    return output or "", time.perf_counter() - started


def interleaved(
    pages: list[tuple[bytes, str | None]], extractors: dict[str, Extractor]
) -> dict[str, list[tuple[str, float]]]:
    """Each extractor's output and seconds per page, every extractor on a page before the next.

    The shared machine has slow spells of seconds; running the extractors
    page by page in turn makes a spell cost each of them alike, so the
    ratios of pages per second hold even when the absolute figures do not.
    """
    results: dict[str, list[tuple[str, float]]] = {name: [] for name in extractors}
    for html, url in pages:
        for name, fn in extractors.items():
            results[name].append(timed(lambda fn=fn, html=html, url=url: fn(html, url)))
    return results


def run_wcxb(folder: Path, extractors: dict[str, Extractor], folds: Path | None) -> dict:
    """P/R/F1 overall and per page type, and pages/s, of each extractor on WCXB."""
    pages = load_wcxb(folder)
    by_page = load_fold_models(folds) if folds else {}
    key_of = {p.html: p.key for p in pages}
    runs = dict(extractors)
    if by_page:
        runs["web2text (5-fold CV)"] = lambda html, url: by_page[key_of[html]](html)
    log.info("wcxb-dev: %s", ", ".join(runs))
    outputs = interleaved([(p.html, p.url) for p in pages], runs)
    results = {}
    for name, pairs in outputs.items():
        scores = [bag_scores(p.gold, out) for p, (out, _) in zip(pages, pairs, strict=True)]
        results[name] = {"by_type": macro_by_type(pages, scores),
                         "pages_per_s": len(pages) / sum(s for _, s in pairs)}
    return results


def run_gold(folder: Path, extractors: dict[str, Extractor]) -> dict:
    """P/R/F1 and pages/s of each extractor on a scrapinghub or snippets gold folder."""
    gold = load_gold(folder)
    log.info("%s: %s", folder.name, ", ".join(extractors))
    outputs = interleaved([(p.html, p.url) for p in gold], extractors)
    average = micro_average if gold.layout == SNIPPETS else macro_average
    results = {}
    for name, pairs in outputs.items():
        details = [score_page(gold.layout, page, out)
                   for page, (out, _) in zip(gold, pairs, strict=True)]
        precision, recall, f1 = average(details)
        results[name] = {"precision": precision, "recall": recall, "f1": f1,
                         "pages_per_s": len(details) / sum(s for _, s in pairs),
                         "pages": len(details)}
    return results


def print_tables(results: dict) -> None:
    for set_name, runs in results.items():
        base = runs.get("trafilatura", {}).get("pages_per_s") or 0.0
        print(f"\n### {set_name}\n")
        if set_name == "wcxb-dev":
            _print_wcxb(runs, base)
            continue
        print("| extractor | P | R | F1 | pages/s | x trafilatura |\n|---|---|---|---|---|---|")
        for name, r in runs.items():
            print(f"| {name} | {r['precision']:.3f} | {r['recall']:.3f} | {r['f1']:.3f} "
                  f"| {r['pages_per_s']:.1f} | {_ratio(r['pages_per_s'], base)} |")


def _print_wcxb(runs: dict, base: float) -> None:
    types = sorted(next(iter(runs.values()))["by_type"], key=lambda t: (t != "all", t))
    first = next(iter(runs.values()))["by_type"]
    print("| extractor | " + " | ".join(f"{t} ({first[t][0]})" for t in types)
          + " | pages/s | x trafilatura |")
    print("|---" * (len(types) + 3) + "|")
    for name, r in runs.items():
        t = r["by_type"]
        cells = [f"{t['all'][3]:.3f} (P {t['all'][1]:.3f} R {t['all'][2]:.3f})"]
        cells += [f"{t[k][3]:.3f}" for k in types[1:]]
        print(f"| {name} | " + " | ".join(cells)
              + f" | {r['pages_per_s']:.1f} | {_ratio(r['pages_per_s'], base)} |")


def _ratio(value: float, base: float) -> str:
    return f"{value / base:.1f}" if base else "-"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bench", type=Path, default=DEFAULT_BENCH)
    parser.add_argument("--folds", type=Path, default=None,
                        help="folder of train_web2text.py --save-folds (CV figures on WCXB)")
    parser.add_argument("--sets", nargs="*", default=["scrapinghub", "multilingual-dev",
                                                      "wcxb-dev"])
    parser.add_argument("--modes", nargs="*", default=list(MODES), choices=MODES,
                        help="corpusbot modes to run beside trafilatura")
    parser.add_argument("--out", type=Path, default=None, help="write the figures as JSON")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    extractors = {m: corpusbot_mode(m) for m in args.modes}
    extractors["trafilatura"] = trafilatura_extractor()
    results = {}
    for set_name in args.sets:
        folder = args.bench / set_name
        if set_name == "wcxb-dev":
            results[set_name] = run_wcxb(folder, extractors, args.folds)
        else:
            results[set_name] = run_gold(folder, extractors)
    print_tables(results)
    if args.out:
        args.out.write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
