"""The measured (not shipped) learned choice of ``benchmarks/learned_choice.py``."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import benchmark_modules

ARTICLE = ("The council met on Tuesday to discuss the budget for the coming year, and "
           "the members agreed that the library would stay open on Sundays. ") * 3
LISTING = "".join(f'<li><a href="/p{i}">Item number {i} in the catalogue</a></li>'
                  for i in range(12))


def _choice():
    return benchmark_modules("learned_choice")[0]


def _page(og_type: str) -> bytes:
    return (f'<html><head><meta property="og:type" content="{og_type}"></head><body>'
            f'<nav><a href="/">Home</a></nav><article><p>{ARTICLE}</p></article>'
            f'<ul>{LISTING}</ul></body></html>').encode()


def test_the_open_graph_kind_is_read_before_the_head_is_cut():
    choice = _choice()
    article = choice.read_both(_page("Article "), "https://example.org/a", None)
    listing = choice.read_both(_page("website"), "https://example.org/a", None)
    assert (article.kind.og_type, listing.kind.og_type) == ("article", "website")
    assert article.kept and choice.open_below(article.kind, article.kept, "off") == choice.NEVER
    assert choice.open_below(listing.kind, listing.kept, "off") == sum(
        b.words for b in listing.kept)


def test_the_crawler_gate_opens_the_pages_its_article_classifier_calls_non_articles():
    choice = _choice()
    index = choice.read_both(_page("website"), "https://example.org/news/", None)
    story = choice.read_both(_page("article"), "https://example.org/2024/05/budget-vote", None)
    assert not index.kind.crawler_article and story.kind.crawler_article
    assert choice.open_below(index.kind, index.kept, "crawler") < choice.NEVER
    assert choice.open_below(story.kind, story.kept, "crawler") == choice.NEVER
    # without its URL the index page's own signals (og:type website, short text) agree
    assert not index.kind.page_article
    # a page read without a URL has no URL signal (an empty path is not an index's)
    assert choice.read_both(_page("article"), "", None).kind.crawler_article


def test_the_page_kind_counts_repeated_items_fields_and_prices():
    choice = _choice()
    shop = (b'<html><body><form><input name="q"><select><option>1</option></select></form>'
            + b"".join(b'<div class="item"><p>Lamp no %d for $%d.99</p></div>' % (i, i)
                       for i in range(6)) + b"</body></html>")
    read = choice.read_both(shop, "https://example.org/shop/", None)
    x = dict(zip(choice.KIND_NAMES, read.kind.features(read.page.blocks), strict=True))
    assert x["log_max_repeat"] == pytest.approx(np.log1p(6))
    assert x["log_repeating_parents"] == pytest.approx(np.log1p(1))
    assert x["log_fields"] == pytest.approx(np.log1p(2))
    assert x["log_prices"] == pytest.approx(np.log1p(6))


def test_features_relate_both_selections_to_the_page():
    choice = _choice()
    read = choice.read_both(_page("website"), "https://example.org/a", None)
    x = choice.selection_features(read.page.blocks, read.kept, read.kept)
    names = choice.FEATURE_NAMES
    assert x.shape == (len(names),)
    assert x[names.index("kept_also_learned")] == 1.0
    assert x[names.index("log_ratio")] == 0.0
    assert 0 < x[names.index("kept_share")] < 1
    assert choice.features_of(read).shape == (sum(len(g) for g in choice.GROUPS.values()),)
    assert choice.features_of(read, "base").tolist() == choice.selection_features(
        read.page.blocks, read.kept, read.learned).tolist()


def _candidate(choice, fold: int, gain: float, size: float):
    x = np.zeros(sum(len(g) for g in choice.GROUPS.values()))
    x[0] = size
    return choice.Candidate(fold, "listing", x, (0.5, 0.5, 0.5), (0.5, 0.5, 0.5 + gain),
                            dict.fromkeys(choice.ARTICLE_GATES, 50))


def test_the_ridge_learns_which_pages_gain_and_is_cross_validated_by_fold():
    choice = _choice()
    # pages of feature 1 gain from the learned blocks, pages of feature 0 lose
    pages = [_candidate(choice, i % 5, 0.3 if i % 2 else -0.3, float(i % 2)) for i in range(40)]
    setting = choice.Setting("crawler", "kind", 100, 0.0)
    model = choice.fit(pages, setting)
    assert model.prefers_learned(setting.x(pages[1])) and not model.prefers_learned(
        setting.x(pages[0]))
    scores = choice.cross_validated(pages, setting)
    assert [s[2] for s in scores] == pytest.approx([0.8 if i % 2 else 0.5 for i in range(40)])
    # above the gate the composition is kept whatever the prediction
    shut = choice.Setting("crawler", "kind", 10, 0.0)
    assert choice.chosen_scores(pages, choice.fit(pages, shut)) == [p.kept_f1 for p in pages]
