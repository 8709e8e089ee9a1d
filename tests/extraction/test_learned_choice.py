"""The measured (not shipped) learned choice of ``benchmarks/learned_choice.py``."""

from __future__ import annotations

import importlib
import sys

import numpy as np
import pytest

from tests.conftest import REPO

ARTICLE = ("The council met on Tuesday to discuss the budget for the coming year, and "
           "the members agreed that the library would stay open on Sundays. ") * 3
LISTING = "".join(f'<li><a href="/p{i}">Item number {i} in the catalogue</a></li>'
                  for i in range(12))


def _choice():
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        return importlib.import_module("learned_choice")
    finally:
        sys.path.remove(str(REPO / "benchmarks"))


def _page(og_type: str) -> bytes:
    return (f'<html><head><meta property="og:type" content="{og_type}"></head><body>'
            f'<nav><a href="/">Home</a></nav><article><p>{ARTICLE}</p></article>'
            f'<ul>{LISTING}</ul></body></html>').encode()


def test_the_open_graph_kind_is_read_before_the_head_is_cut():
    choice = _choice()
    article, listing = choice.read_both(_page("Article "), None), choice.read_both(
        _page("website"), None)
    assert (article.kind, listing.kind) == ("article", "website")
    assert article.kept and choice.open_below(article.kind, article.kept) == choice.NEVER
    assert choice.open_below(listing.kind, listing.kept) == sum(b.words for b in listing.kept)


def test_features_relate_both_selections_to_the_page():
    choice = _choice()
    read = choice.read_both(_page("website"), None)
    x = choice.page_features(read.page.blocks, read.kept, read.kept)
    names = choice.FEATURE_NAMES
    assert x.shape == (len(names),)
    assert x[names.index("kept_also_learned")] == 1.0
    assert x[names.index("log_ratio")] == 0.0
    assert 0 < x[names.index("kept_share")] < 1


def _candidate(choice, fold: int, gain: float, size: float):
    x = np.zeros(len(choice.FEATURE_NAMES))
    x[0] = size
    return choice.Candidate(fold, "listing", x, (0.5, 0.5, 0.5), (0.5, 0.5, 0.5 + gain), 50)


def test_the_ridge_learns_which_pages_gain_and_is_cross_validated_by_fold():
    choice = _choice()
    # pages of feature 1 gain from the learned blocks, pages of feature 0 lose
    pages = [_candidate(choice, i % 5, 0.3 if i % 2 else -0.3, float(i % 2)) for i in range(40)]
    model = choice.fit(pages, gate=100, margin=0.0)
    assert model.prefers_learned(pages[1].x) and not model.prefers_learned(pages[0].x)
    scores = choice.cross_validated(pages, gate=100, margin=0.0)
    assert [s[2] for s in scores] == pytest.approx([0.8 if i % 2 else 0.5 for i in range(40)])
    # above the gate the composition is kept whatever the prediction
    assert choice.chosen_scores(pages, choice.fit(pages, gate=10, margin=0.0)) == [
        p.kept_f1 for p in pages]
