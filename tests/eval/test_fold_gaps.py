"""The domain bootstrap of ``benchmarks/folds.py``: how sure a per-type gap is."""

from __future__ import annotations

import pytest

from corpusbot.eval.scoring import PageScore
from tests.conftest import benchmark_modules


def _folds():
    return benchmark_modules("folds")[0]


def test_one_site_many_pages_is_one_draw_not_many():
    folds = _folds()
    # nine pages of one site gain, one page each of nine sites lose a little
    gaps = [0.5] * 9 + [-0.1] * 9
    domains = ["big.example"] * 9 + [f"s{i}.example" for i in range(9)]
    result = folds.domain_bootstrap(gaps, domains)
    assert result["gap"] == pytest.approx(0.2)
    assert (result["pages"], result["domains"]) == (18, 10)
    # the site that gains is drawn zero times in about a third of the rounds: the
    # interval reaches below zero, which per-page resampling would not show
    assert result["low"] < 0 < result["gap"] < result["high"]
    assert 0.2 < result["below_zero"] < 0.6


def test_the_interval_repeats_and_a_single_site_has_no_spread():
    folds = _folds()
    gaps, domains = [0.3, -0.1, 0.2, 0.05], ["a.org", "b.org", "c.org", "d.org"]
    assert folds.domain_bootstrap(gaps, domains) == folds.domain_bootstrap(gaps, domains)
    alone = folds.domain_bootstrap([0.1, 0.3], ["a.org", "a.org"])
    assert alone["low"] == pytest.approx(0.2) == alone["high"]
    with pytest.raises(ValueError):
        folds.domain_bootstrap([0.1], ["a.org", "b.org"])


def _page(key: str, url: str, kind: str, counts: tuple[int, int, int]) -> PageScore:
    tp, fp, fn = counts
    return PageScore(key=key, url=url, tp=tp, fp=fp, fn=fn, page_type=kind)


def test_gaps_are_taken_per_page_type_and_over_all_pages():
    folds = _folds()
    ours = [_page("1", "https://shop.example.com/p/1", "product", (8, 2, 0)),
            _page("2", "https://www.news.example.co.uk/a", "article", (10, 0, 0))]
    theirs = [_page("1", "https://shop.example.com/p/1", "product", (4, 0, 4)),
              _page("2", "https://www.news.example.co.uk/a", "article", (5, 0, 5))]
    gaps = folds.gaps_by_type(ours, theirs)
    # F1: 8/9 against 2/3 on the product; 1 against 2/3 on the article
    assert gaps["product"]["gap"] == pytest.approx(8 / 9 - 2 / 3)
    assert gaps["article"]["gap"] == pytest.approx(1 / 3)
    assert gaps[folds.ALL]["gap"] == pytest.approx((8 / 9 - 2 / 3 + 1 / 3) / 2)
    assert gaps[folds.ALL]["domains"] == 2
    with pytest.raises(ValueError, match="out of step"):
        folds.gaps_by_type(ours, list(reversed(theirs)))
