"""Quality gate: every mode's scores on the gold sets stay above pinned floors.

The floors sit just under the scores measured when they were set, so a
change that loses quality fails here; raise them when quality rises. The
issue's own targets are the comments.
"""

from __future__ import annotations

import os

import pytest

from corpusbot.commands.eval import ModeExtractor
from corpusbot.eval.scoring import load_gold, score
from tests.conftest import bench_dir, needs_bench

# the gate extracts 3,000 pages per run of the suite: on two cores, two processes halve
# its time (the scores are the same: each page is extracted on its own)
JOBS = min(2, os.cpu_count() or 1)

# (mode, set) -> (precision floor, recall floor, F1 floor)
FLOORS = {
    # must (issue 19): F1 >= 0.97 / 0.94; measured 2026-11-28 0.958 / 0.984 / 0.971 and
    # 0.932 / 0.951 / 0.941, on the newest and the lowest allowed versions alike
    ("default", "scrapinghub"): (0.952, 0.977, 0.966),
    ("default", "multilingual-dev"): (0.925, 0.944, 0.935),
    # must: precision >= 0.95 on scrapinghub; measured 0.972 / 0.903 / 0.936 and
    # 0.947 / 0.765 / 0.846
    ("precise", "scrapinghub"): (0.965, 0.895, 0.93),
    ("precise", "multilingual-dev"): (0.94, 0.755, 0.84),
    # must: not below boilerpy3's 0.860 / 0.807
    ("boilerpipe", "scrapinghub"): (0.85, 0.95, 0.90),
    ("boilerpipe", "multilingual-dev"): (0.83, 0.91, 0.875),
    # the reference jusText scores 0.835 / 0.836 in the same harness
    ("justext", "scrapinghub"): (0.86, 0.79, 0.83),
    ("justext", "multilingual-dev"): (0.86, 0.79, 0.83),
}


@needs_bench
@pytest.mark.parametrize(("mode", "set_name"), sorted(FLOORS))
def test_scores_stay_above_their_floors(mode: str, set_name: str):
    gold = load_gold(bench_dir() / set_name)
    result = score(gold, ModeExtractor(mode), jobs=JOBS)
    floors = FLOORS[mode, set_name]
    measured = (result.precision, result.recall, result.f1)
    assert result.failures == 0
    assert all(m >= f for m, f in zip(measured, floors, strict=True)), (
        f"{mode} on {set_name}: P/R/F1 {measured} below floors {floors}"
    )


# default on wcxb-dev (must: at or above trafilatura 2.3.1, 0.823 in the same
# harness), P / R / F1 and F1 per page type: measured 2026-11-28 (session 20: 0.880 /
# 0.905 / 0.874; article .958, service .841, product .700, collection .716, forum .786,
# listing .708, documentation .925; the lowest allowed versions alike; session 21's
# filler and repeated product lines: F1 0.875, product .709, listing .709; session 22's
# product group share: product .714; session 23's consent notices: forum .793) minus about
# 0.01.
# These are all folds, tuned-on ones included: `benchmarks/folds.py` gives the held-out.
WCXB_FLOORS = (0.87, 0.895, 0.864)
TYPE_FLOORS = {
    "article": 0.948, "service": 0.83, "product": 0.704, "collection": 0.705,
    "forum": 0.783, "listing": 0.698, "documentation": 0.915,
}


@needs_bench
def test_default_page_types_on_wcxb_stay_above_their_floors():
    gold = load_gold(bench_dir() / "wcxb-dev")
    result = score(gold, ModeExtractor("default"), jobs=JOBS)
    overall = (result.precision, result.recall, result.f1)
    assert all(m >= f for m, f in zip(overall, WCXB_FLOORS, strict=True)), overall
    measured = {name: round(part.f1, 3) for name, part in result.by_type.items()}
    assert all(measured[name] >= floor for name, floor in TYPE_FLOORS.items()), measured
