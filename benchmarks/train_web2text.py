"""Train the ``web2text`` mode on WCXB's development split, cross-validated, and ship the weights.

    python benchmarks/train_web2text.py              # CV report, then the shipped weights
    python benchmarks/train_web2text.py --limit 200 --no-save   # a quick look

Steps: read every page of ``wcxb-dev`` with corpusbot's own reader (the
blocks the mode sees at run time), label the blocks by aligning the gold
text onto them (``web2text_data.align``), compute the features, then

1. 5-fold cross-validation grouped by the registered domain of the page URL
   (the folds of ``benchmarks/folds.py``): each fold's
   models are trained on the other four folds and label this fold's pages,
   so every page is scored by a model that never saw its site. The report
   gives WCXB's bag-of-words P, R and F1 per page type, for every pairwise
   weight of ``PAIRWISE_WEIGHTS``, and for the aligned labels themselves
   (``oracle``: the ceiling of any block labelling);
2. the shipped model: the same training on all pages, with the pairwise
   weight that scored best in step 1, written to
   ``corpusbot/extraction/web2text/web2text.npz``.

Everything is seeded and single-threaded, so a run reproduces the shipped
file byte for byte. Needs the ``train`` extra (scikit-learn).

Model family, measured with this script (5-fold CV grouped by domain on the
1,497 pages, bag-of-words F1 macro over pages, pairwise weight 0 / 0.25 /
0.5 / 1 / 2): logistic regression 0.810 / **0.812** / 0.810 / 0.809 / 0.809;
an MLP with one hidden layer of 64 units (30 epochs, batch 512, same L2)
0.794 / 0.801 / 0.801 / 0.800 / 0.798. Logistic regression wins on F1 and
is one matrix product per page, so it ships (``HIDDEN_UNITS = ()``); the
labels themselves (oracle) score 0.941.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import io
import json
import logging
import sys
import time
import warnings
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from corpusbot.extraction.core import ReadPage, read_page
from corpusbot.extraction.web2text import model as web2text
from corpusbot.extraction.web2text.features import features

sys.path.insert(0, str(Path(__file__).resolve().parent))
from folds import fold_of
from web2text_data import WcxbPage, align, bag_scores, load_wcxb, print_by_type

log = logging.getLogger("benchmarks.train_web2text")

REPO = Path(__file__).resolve().parents[1]
DEFAULT_WCXB = REPO.parent / "shared" / "bench" / "wcxb-dev"
WEIGHTS = REPO / "corpusbot" / "extraction" / "web2text" / web2text.WEIGHTS_FILE
SEED = 13
FOLDS = 5
PAIRWISE_WEIGHTS = (0.0, 0.25, 0.5, 1.0, 2.0)
"""Candidate weights of the pairwise term in the Viterbi objective (the paper tunes its own)."""
HIDDEN_UNITS = ()
"""Hidden layer sizes of both networks; () is logistic regression (chosen: see above)."""
L2 = 1e-3
"""L2 penalty per example, for both families (not tuned: one run per family fitted the time)."""
MAX_EPOCHS = 30
BATCH_SIZE = 512


@dataclass(slots=True)
class Prepared:
    """One page ready to train on: its features, aligned labels and block texts."""

    page: WcxbPage
    x: np.ndarray
    y: np.ndarray
    texts: list[str]


def prepare(pages: list[WcxbPage]) -> list[Prepared]:
    """Read, align and featurise every page; a page without blocks keeps empty arrays."""
    prepared = []
    for page in pages:
        read = read_page(page.html)
        blocks = read.page.blocks if isinstance(read, ReadPage) else []
        stoplist = read.page.stoplist if isinstance(read, ReadPage) else frozenset()
        prepared.append(Prepared(
            page=page, x=features(blocks, stoplist),
            y=np.array(align(blocks, page.gold), dtype=np.int8),
            texts=[b.text for b in blocks],
        ))
    return prepared


def fit_network(
    x: np.ndarray, y: np.ndarray, hidden: tuple[int, ...] = HIDDEN_UNITS, l2: float = L2,
    sample_weight: np.ndarray | None = None,
) -> web2text.Network:
    """A seeded MLP (or logistic regression with no hidden units) as runtime arrays."""
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.neural_network import MLPClassifier

    if not hidden:
        return _fit_logistic(x, y, l2, sample_weight)
    mlp = MLPClassifier(
        hidden_layer_sizes=hidden, alpha=l2, batch_size=BATCH_SIZE, max_iter=MAX_EPOCHS,
        random_state=SEED, early_stopping=False, n_iter_no_change=MAX_EPOCHS, tol=0.0,
    )
    with warnings.catch_warnings():  # a fixed number of epochs is the point, not a failure
        warnings.simplefilter("ignore", ConvergenceWarning)
        mlp.fit(x, y, sample_weight=sample_weight)
    return web2text.Network(tuple(mlp.coefs_), tuple(mlp.intercepts_))


def _fit_logistic(
    x: np.ndarray, y: np.ndarray, l2: float = L2, sample_weight: np.ndarray | None = None
) -> web2text.Network:
    from sklearn.linear_model import LogisticRegression

    model = LogisticRegression(C=1.0 / (l2 * len(x)), max_iter=500, random_state=SEED)
    model.fit(x, y, sample_weight=sample_weight)
    return web2text.Network((model.coef_.T.copy(),), (model.intercept_.copy(),))


def fit(
    prepared: list[Prepared], pairwise_weight: float, hidden: tuple[int, ...] = HIDDEN_UNITS,
    l2: float = L2, sample_weights: list[np.ndarray] | None = None,
) -> web2text.Model:
    """Standardise the features, fit the unary and the pairwise network (anything with
    ``x`` and ``y`` trains: ``stacked_refiner.py`` passes its own pages, and a weight per
    block of each page, a pair weighing the mean of its two blocks)."""
    x = np.vstack([p.x for p in prepared]).astype(np.float64)
    y = np.concatenate([p.y for p in prepared])
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0
    z = (x - mean) / scale
    pairs, pair_labels, pair_weights, start = [], [], [], 0
    for i, p in enumerate(prepared):
        n = len(p.y)
        if n > 1:
            pairs.append(np.hstack([z[start : start + n - 1], z[start + 1 : start + n]]))
            pair_labels.append(2 * p.y[:-1] + p.y[1:])
            if sample_weights is not None:
                pair_weights.append((sample_weights[i][:-1] + sample_weights[i][1:]) / 2)
        start += n
    unary = fit_network(z, y, hidden, l2, None if sample_weights is None
                        else np.concatenate(sample_weights))
    pairwise = fit_network(np.vstack(pairs), np.concatenate(pair_labels), hidden, l2,
                           np.concatenate(pair_weights) if pair_weights else None)
    return web2text.Model(mean, scale, unary, pairwise, pairwise_weight)


def domain_folds(prepared: list[Prepared], k: int = FOLDS) -> list[np.ndarray]:
    """Page indices of the ``k`` folds by registered domain (``folds.fold_of``): the
    same folds every tuning decision uses, so a fold model never saw its pages' sites."""
    assigned = np.array([fold_of(p.page.url, k) for p in prepared])
    return [np.flatnonzero(assigned == fold) for fold in range(k)]


def predictions(model: web2text.Model, p: Prepared) -> tuple[np.ndarray, np.ndarray]:
    """The unary and pairwise probabilities of one page's blocks."""
    z = model.standardise(p.x.astype(np.float64))
    return model.content_probability(z), model.pair_probabilities(z)


def page_output(p: Prepared, labels: np.ndarray) -> str:
    return "\n".join(t for t, keep in zip(p.texts, labels, strict=True) if keep)


def cross_validate(
    prepared: list[Prepared], hidden: tuple[int, ...] = HIDDEN_UNITS,
    save_folds: Path | None = None,
) -> dict[float, list[tuple[float, float, float]]]:
    """Per-page scores of the held-out labelling for every pairwise weight.

    With ``save_folds``, each fold's model (pairwise weight 0; the chosen
    weight is set by ``write_folds``) and the page-to-fold map are kept there.
    """
    held_out: list = [None] * len(prepared)
    models, assignment = [], {}
    for fold, test in enumerate(domain_folds(prepared)):
        test_set = set(test.tolist())
        train = [p for i, p in enumerate(prepared) if i not in test_set]
        started = time.perf_counter()
        model = fit(train, 0.0, hidden)
        log.info("fold %d: %d training pages, %.0f s", fold, len(train),
                 time.perf_counter() - started)
        models.append(model)
        for i in test:
            held_out[i] = predictions(model, prepared[i])
            assignment[prepared[i].page.key] = fold
    if save_folds is not None:
        save_folds.mkdir(parents=True, exist_ok=True)
        (save_folds / "folds.json").write_text(json.dumps(assignment), encoding="utf-8")
    scores = {
        weight: [
            bag_scores(p.page.gold, page_output(p, web2text.decode(u, pw, weight)))
            for p, (u, pw) in zip(prepared, held_out, strict=True)
        ]
        for weight in PAIRWISE_WEIGHTS
    }
    if save_folds is not None:
        best = max(scores, key=lambda w: np.mean([s[2] for s in scores[w]]))
        for fold, model in enumerate(models):
            save(dataclasses.replace(model, pairwise_weight=best), save_folds / f"fold{fold}.npz")
    return scores


def report(prepared: list[Prepared], runs: dict[str, list]) -> None:
    """Print P/R/F1 per page type for each run, one markdown table."""
    print_by_type([p.page for p in prepared], runs)


def save(model: web2text.Model, path: Path) -> str:
    """Write the model's arrays as an ``.npz`` with fixed zip dates; return its SHA-256.

    ``numpy.savez`` stamps each member with the current time, so two runs
    would differ; here every member is dated 1980-01-01 and stored in name order.
    """
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, array in sorted(web2text.model_arrays(model).items()):
            member = io.BytesIO()
            np.lib.format.write_array(member, array, allow_pickle=False)
            info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, member.getvalue())
    data = buffer.getvalue()
    path.write_bytes(data)
    return hashlib.sha256(data).hexdigest()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wcxb", type=Path, default=DEFAULT_WCXB)
    parser.add_argument("--limit", type=int, default=None, help="first N pages only")
    parser.add_argument("--no-cv", action="store_true", help="skip cross-validation")
    parser.add_argument("--no-save", action="store_true", help="do not write the weights")
    parser.add_argument("--hidden", type=int, nargs="*", default=list(HIDDEN_UNITS),
                        help="hidden layer sizes; none for logistic regression")
    parser.add_argument("--save-folds", type=Path, default=None,
                        help="keep the fold models here (for web2text_compare.py)")
    parser.add_argument("--pairwise-weight", type=float, default=None,
                        help="ship with this weight instead of the best cross-validated one")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1):
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    prepared = prepare(load_wcxb(args.wcxb, args.limit))
    blocks = sum(len(p.y) for p in prepared)
    log.info("%d pages, %d blocks (%.1f%% content), prepared in %.0f s", len(prepared), blocks,
             100 * sum(int(p.y.sum()) for p in prepared) / max(blocks, 1),
             time.perf_counter() - started)
    weight = args.pairwise_weight
    if not args.no_cv:
        runs = {"oracle (aligned labels)": [
            bag_scores(p.page.gold, page_output(p, p.y)) for p in prepared]}
        by_weight = cross_validate(prepared, tuple(args.hidden), args.save_folds)
        runs.update({f"web2text CV, pairwise weight {w}": s for w, s in by_weight.items()})
        report(prepared, runs)
        if weight is None:
            weight = max(by_weight, key=lambda w: np.mean([s[2] for s in by_weight[w]]))
    weight = 1.0 if weight is None else weight
    if not args.no_save:
        digest = save(fit(prepared, weight, tuple(args.hidden)), WEIGHTS)
        log.info("wrote %s (pairwise weight %s, %d bytes, sha256 %s)", WEIGHTS, weight,
                 WEIGHTS.stat().st_size, digest)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
