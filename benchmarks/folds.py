"""The validation protocol for extraction: wcxb-dev in folds by registered domain.

    python benchmarks/folds.py report --web2text-folds /tmp/w2t-folds --refs trafilatura
    python benchmarks/folds.py tune corpusbot.extraction.default.composition.MIN_GROUP_SHARE=0.1,0.3

Every page of ``wcxb-dev`` falls in one of ``K`` folds by its registered
domain (the ICANN public-suffix rule, from tldextract's bundled list, so
``news.example.co.uk`` and ``www.example.co.uk`` share a fold): the fold is
a hash of the domain, so it never changes with the pages loaded or their
order. Two uses:

- a heuristic (a threshold, a step turned on or off) is chosen on the
  tuning folds ``TUNE_FOLDS`` and reported on the held-out folds
  ``HELD_OUT_FOLDS``; ``tune`` also gives the cross-validated figure, every
  fold scored by the setting that won on the other folds, so every page is
  scored by a setting chosen without its domain;
- a learned model is trained once per fold on the other folds
  (``train_web2text.py --save-folds``) and every page is scored by the
  model that did not see its domain.

``report`` gives both ways in one run: for each extractor its F1 on the
tuning folds, on the held-out folds and on all pages, overall and per page
type; each mode that reads the learned model (``modes.LEARNED_MODES``) both
with the shipped model (trained on every page: its tuned-on figure) and
cross-validated: ``web2text`` itself, and ``default``, two of whose steps
(the headline's learned content, the learned fallback) consult it. Beside
each type's F1 it gives the
gap to the reference (trafilatura) with a 95 % interval from resampling
whole domains (``domain_bootstrap``): a held-out type holds a few dozen
pages from a few dozen sites, so a gap whose interval spans zero is not
yet a finding either way. scrapinghub and multilingual-dev are
never tuned on: ``tune --sets`` reports them beside the folds, and a setting
that loses on any set is not an improvement.
"""

from __future__ import annotations

import argparse
import ast
import functools
import hashlib
import importlib
import json
import logging
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from corpusbot.eval.scoring import (
    ExtractFn,
    GoldSet,
    PageScore,
    Score,
    bag_average,
    bag_page_scores,
    by_page_type,
    load_gold,
    score,
)

log = logging.getLogger("benchmarks.folds")

REPO = Path(__file__).resolve().parents[1]
DEFAULT_BENCH = REPO.parent / "shared" / "bench"
K = 5
TUNE_FOLDS = (0, 1, 2)
HELD_OUT_FOLDS = (3, 4)
OTHER_SETS = ("scrapinghub", "multilingual-dev")
BOOTSTRAP_ROUNDS = 2000
ALL = "all pages"


@functools.cache
def _suffixes():
    import tldextract

    # the bundled snapshot of the public suffix list: no network, the same folds everywhere
    return tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)


def registered_domain(url: str | None) -> str:
    """The domain a registrant holds (``example.co.uk``), else the host, else the URL."""
    parts = _suffixes()(url or "")
    if parts.domain and parts.suffix:
        return f"{parts.domain}.{parts.suffix}".lower()
    return (parts.domain or url or "").lower()


def fold_of(url: str | None, k: int = K) -> int:
    """The fold of a page: a hash of its registered domain, modulo ``k``."""
    digest = hashlib.sha256(registered_domain(url).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") % k


def folds_of(gold_set: GoldSet, k: int = K) -> list[int]:
    return [fold_of(page.url, k) for page in gold_set]


def pick(details: Iterable[PageScore], folds: list[int], wanted: Iterable[int]) -> list[PageScore]:
    chosen = set(wanted)
    return [d for d, f in zip(details, folds, strict=True) if f in chosen]


def f1_of(details: list[PageScore]) -> float:
    return bag_average(details)[2] if details else 0.0


def domain_bootstrap(gaps: Sequence[float], domains: Sequence[str],
                     rounds: int = BOOTSTRAP_ROUNDS, seed: int = 0) -> dict[str, float]:
    """The mean of per-page ``gaps`` with a 95 % interval, resampling whole domains.

    Pages of one site fail together (one template), so pages are not
    independent draws: each round draws as many domains as there are, with
    replacement, and takes the mean over all their pages. ``below_zero`` is
    the share of rounds whose mean is negative. The seed is fixed, so the
    figures repeat on any machine.
    """
    if len(gaps) != len(domains) or not gaps:
        raise ValueError("one domain per gap, and at least one gap")
    names = {d: i for i, d in enumerate(sorted(set(domains)))}
    index = np.array([names[d] for d in domains])
    sums = np.bincount(index, weights=np.asarray(gaps, dtype=float), minlength=len(names))
    counts = np.bincount(index, minlength=len(names)).astype(float)
    draws = np.random.default_rng(seed).integers(0, len(names), size=(rounds, len(names)))
    means = sums[draws].sum(axis=1) / counts[draws].sum(axis=1)
    low, high = np.quantile(means, [0.025, 0.975])
    return {"gap": float(sums.sum() / counts.sum()), "low": float(low), "high": float(high),
            "below_zero": float((means < 0).mean()), "pages": len(gaps), "domains": len(names)}


def gaps_by_type(pages: Sequence[PageScore],
                 reference: Sequence[PageScore]) -> dict[str, dict[str, float]]:
    """The pages' F1 minus ``reference``'s on the same pages, bootstrapped: over all
    pages (key ``ALL``) and per page type."""
    pairs: dict[str, tuple[list[float], list[str]]] = {ALL: ([], [])}
    for mine, theirs in zip(pages, reference, strict=True):
        if mine.key != theirs.key:
            raise ValueError(f"pages out of step: {mine.key} against {theirs.key}")
        gap = bag_page_scores(mine)[2] - bag_page_scores(theirs)[2]
        domain = registered_domain(mine.url)
        for kind in {ALL, mine.page_type or ALL}:
            gaps, domains = pairs.setdefault(kind, ([], []))
            gaps.append(gap)
            domains.append(domain)
    return {t: domain_bootstrap(g, d) for t, (g, d) in pairs.items()}


# ---- extractors -------------------------------------------------------------


def corpusbot_mode(mode: str) -> ExtractFn:
    from corpusbot.commands.eval import ModeExtractor

    return ModeExtractor(mode)


def trafilatura_text(html: bytes, url: str | None) -> str:
    """trafilatura as benchmarks/extraction.py runs it (comments excluded)."""
    import trafilatura

    return trafilatura.extract(html, url=url, include_comments=False) or ""


@functools.cache
def fold_models(folder: Path) -> dict:
    """The web2text model of each fold (``train_web2text.py --save-folds``), by fold;
    read once per process."""
    from corpusbot.extraction.web2text import model as web2text

    models = {}
    for path in sorted(folder.glob("fold*.npz")):
        with np.load(path, allow_pickle=False) as stored:
            arrays = {key: stored[key] for key in stored.files}
        models[int(path.stem.removeprefix("fold"))] = web2text.model_from_arrays(arrays)
    if sorted(models) != list(range(K)):
        raise SystemExit(f"{folder}: expected fold0.npz .. fold{K - 1}.npz")
    return models


@dataclass(frozen=True, slots=True)
class CrossValidated:
    """A mode with each page's learned labelling by the fold model that never saw its
    domain: ``web2text`` itself, and ``default``'s steps that consult it. A class of a
    folder, not a closure of models, so that ``--jobs`` workers receive it pickled."""

    mode: str
    folder: Path

    def __call__(self, html: bytes, url: str | None) -> str:
        return with_model(html, self.mode, fold_models(self.folder)[fold_of(url)])


def with_model(html: bytes, mode: str, model) -> str:
    """The mode's text with ``model`` in place of the shipped one."""
    from corpusbot.extraction.core import ReadPage, mode_paragraphs, read_page
    from corpusbot.extraction.modes import LEARNED_MODES

    read = read_page(html)
    if not isinstance(read, ReadPage):
        return ""
    return "\n\n".join(mode_paragraphs(LEARNED_MODES[mode](read.page, model), mode))


# ---- report -----------------------------------------------------------------


def report(runs: dict[str, Score], folds: list[int], reference: str = "trafilatura") -> str:
    """F1 on the tuning folds, the held-out folds and all pages, overall and per page type."""
    parts = {"tuned-on folds": TUNE_FOLDS, "held-out folds": HELD_OUT_FOLDS,
             "all folds": tuple(range(K))}
    lines = ["| extractor | " + " | ".join(f"{n} {list(f)} ({sum(x in f for x in folds)})"
                                           for n, f in parts.items()) + " | pages/s |",
             "|---|" + "---:|" * (len(parts) + 1)]
    for name, run in runs.items():
        cells = [f"{f1_of(pick(run.details, folds, f)):.4f}" for f in parts.values()]
        lines.append(f"| {name} | " + " | ".join(cells) + f" | {run.pages_per_s:.1f} |")
    for title, wanted in (("held-out", HELD_OUT_FOLDS), ("tuned-on", TUNE_FOLDS)):
        lines += ["", f"F1 per page type, {title} folds {list(wanted)}:", ""]
        lines += type_lines(runs, folds, wanted)
        if reference in runs:
            lines += ["", f"Gap to {reference} per page type, {title} folds {list(wanted)} "
                      "(95 % interval resampling domains):", ""]
            lines += gap_lines(runs, reference, folds, wanted)
    return "\n".join(lines)


def gap_lines(runs: dict[str, Score], reference: str, folds: list[int],
              wanted: Iterable[int]) -> list[str]:
    wanted = tuple(wanted)
    base = pick(runs[reference].details, folds, wanted)
    gaps = {name: gaps_by_type(pick(run.details, folds, wanted), base)
            for name, run in runs.items() if name != reference}
    types = [ALL, *by_page_type(base)]
    lines = ["| extractor | " + " | ".join(types) + " |", "|---|" + "---:|" * len(types)]
    for name, table in gaps.items():
        lines.append(f"| {name} | " + " | ".join(
            f"{table[t]['gap']:+.3f} [{table[t]['low']:+.3f}, {table[t]['high']:+.3f}]"
            for t in types) + " |")
    return lines


def type_lines(runs: dict[str, Score], folds: list[int], wanted: Iterable[int]) -> list[str]:
    typed = {name: by_page_type(pick(run.details, folds, wanted)) for name, run in runs.items()}
    types = list(next(iter(typed.values())))
    first = next(iter(typed.values()))
    lines = ["| extractor | " + " | ".join(f"{t} ({first[t].pages})" for t in types) + " |",
             "|---|" + "---:|" * len(types)]
    for name, table in typed.items():
        lines.append(f"| {name} | " + " | ".join(f"{table[t].f1:.3f}" for t in types) + " |")
    return lines


def run_report(args: argparse.Namespace) -> int:
    gold = load_gold(args.bench / "wcxb-dev", limit=args.limit)
    folds = folds_of(gold)
    log.info("folds: %s pages", [folds.count(f) for f in range(K)])
    extractors: dict[str, ExtractFn] = {m: corpusbot_mode(m) for m in args.modes}
    if args.web2text_folds:
        from corpusbot.extraction.modes import LEARNED_MODES

        fold_models(args.web2text_folds)  # a missing fold stops the run before it starts
        for mode in args.modes:
            if mode in LEARNED_MODES:  # the published algorithms read no model
                extractors[f"{mode} (CV by domain)"] = CrossValidated(mode, args.web2text_folds)
    if "trafilatura" in args.refs:
        extractors["trafilatura"] = trafilatura_text
    runs = {}
    for name, fn in extractors.items():
        log.info("wcxb-dev: %s", name)
        runs[name] = score(gold, fn, jobs=args.jobs)
    print(report(runs, folds))
    if args.out:
        args.out.write_text(json.dumps(as_json(runs, folds), indent=1) + "\n", encoding="utf-8")
    return 0


def as_json(runs: dict[str, Score], folds: list[int], reference: str = "trafilatura") -> dict:
    result = {}
    for name, run in runs.items():
        result[name] = {"pages_per_s": round(run.pages_per_s, 2)}
        for part, wanted in (("tuned_on", TUNE_FOLDS), ("held_out", HELD_OUT_FOLDS),
                             ("all", range(K))):
            details = pick(run.details, folds, wanted)
            result[name][part] = {"f1": round(f1_of(details), 4), "by_type": {
                t: round(s.f1, 4) for t, s in by_page_type(details).items()}}
            if reference in runs and name != reference:
                gaps = gaps_by_type(details, pick(runs[reference].details, folds, wanted))
                result[name][part][f"gap_to_{reference}"] = {
                    t: {k: round(v, 4) for k, v in g.items()} for t, g in gaps.items()}
    return result


# ---- tuning -----------------------------------------------------------------


def parse_setting(text: str) -> tuple[str, str, list[object]]:
    """``package.module.NAME=v1,v2`` as the module, the name and the candidate values."""
    target, _, values = text.partition("=")
    module, _, name = target.rpartition(".")
    if not module or not values:
        raise SystemExit(f"expected module.NAME=v1,v2,...: {text}")
    return module, name, [ast.literal_eval(v) for v in values.split(",")]


def with_setting(module: str, name: str, value: object, fn: Callable[[], Score]) -> Score:
    """``fn()`` while ``module.name`` is ``value``; the old value is put back after."""
    target = importlib.import_module(module)
    old = getattr(target, name)
    setattr(target, name, value)
    try:
        return fn()
    finally:
        setattr(target, name, old)


def cross_validated_choice(scores: dict[object, Score], folds: list[int]) -> list[PageScore]:
    """Each fold's pages scored with the value that won on the other folds."""
    chosen: list[PageScore | None] = [None] * len(folds)
    for fold in range(K):
        others = [f for f in range(K) if f != fold]
        best = max(scores, key=lambda v: f1_of(pick(scores[v].details, folds, others)))
        log.info("fold %d: chosen %r on the other folds", fold, best)
        for i, f in enumerate(folds):
            if f == fold:
                chosen[i] = scores[best].details[i]
    return chosen  # type: ignore[return-value]


def run_tune(args: argparse.Namespace) -> int:
    module, name, values = parse_setting(args.setting)
    gold = load_gold(args.bench / "wcxb-dev", limit=args.limit)
    folds = folds_of(gold)
    others = {s: load_gold(args.bench / s, limit=args.limit) for s in args.sets}
    fn = corpusbot_mode(args.mode)
    print(f"| {name} | tuned-on {list(TUNE_FOLDS)} | held-out {list(HELD_OUT_FOLDS)} | "
          + " | ".join(others) + " |\n|---|---:|---:|" + "---:|" * len(others))
    scores = {}
    for value in values:
        scores[value] = with_setting(module, name, value, lambda: score(gold, fn, jobs=args.jobs))
        elsewhere = [with_setting(module, name, value, lambda s=s: score(s, fn, jobs=args.jobs)).f1
                     for s in others.values()]
        print(f"| {value!r} | {f1_of(pick(scores[value].details, folds, TUNE_FOLDS)):.4f} | "
              f"{f1_of(pick(scores[value].details, folds, HELD_OUT_FOLDS)):.4f} | "
              + " | ".join(f"{f:.4f}" for f in elsewhere) + " |", flush=True)
    best = max(values, key=lambda v: f1_of(pick(scores[v].details, folds, TUNE_FOLDS)))
    print(f"\nchosen on the tuning folds: {best!r}; cross-validated by domain (each fold "
          f"by the value chosen on the other folds): "
          f"{f1_of(cross_validated_choice(scores, folds)):.4f}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bench", type=Path, default=DEFAULT_BENCH)
    parser.add_argument("--limit", type=int, default=None, help="first N pages of each set")
    parser.add_argument("--jobs", type=int, default=1, help="extraction processes")
    commands = parser.add_subparsers(dest="command", required=True)
    rep = commands.add_parser("report", help="tuned-on and held-out figures of extractors")
    rep.add_argument("--modes", nargs="*", default=["default", "web2text"])
    rep.add_argument("--refs", nargs="*", default=["trafilatura"], choices=["trafilatura"])
    rep.add_argument("--web2text-folds", type=Path, default=None,
                     help="folder of train_web2text.py --save-folds")
    rep.add_argument("--out", type=Path, default=None, help="write the figures as JSON")
    tune = commands.add_parser("tune", help="choose a module constant on the tuning folds")
    tune.add_argument("setting", help="module.NAME=v1,v2,... (Python literals)")
    tune.add_argument("--mode", default="default")
    tune.add_argument("--sets", nargs="*", default=list(OTHER_SETS))
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s", stream=sys.stderr)
    return run_report(args) if args.command == "report" else run_tune(args)


if __name__ == "__main__":
    raise SystemExit(main())
