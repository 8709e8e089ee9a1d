"""``benchmarks/extraction.py``'s references run on real pages instead of failing at the start."""

from __future__ import annotations

import pytest

from corpusbot.eval.goldsets import GoldPage, GoldSet
from tests.conftest import FIXTURE_PAGES, benchmark_modules


def test_the_justext_reference_extracts_with_corpusbots_stop_words():
    # corpusbot's stop-word lists are dicts; jusText caches its lists by value and
    # raised TypeError (unhashable) on every page of every set when handed one
    pytest.importorskip("justext", reason="the jusText library is a reference (extra dev)")
    (extraction,) = benchmark_modules("extraction")
    html = (FIXTURE_PAGES / "news_article.html").read_bytes()
    gold = GoldSet(name="fixture", layout="wcxb", path=FIXTURE_PAGES, pages=[GoldPage(
        key="article", url="https://example.org/article", html=html,
        body="The city council voted on Tuesday to approve the new budget.")])
    text = extraction.make_justext(gold)(html, "https://example.org/article")
    assert text.strip()
