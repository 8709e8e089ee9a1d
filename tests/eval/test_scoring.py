"""Scoring rules of bench/README.md on hand-made cases, and loading of both gold layouts."""

from __future__ import annotations

import gzip
import shutil
from collections import Counter

import pytest

from corpusbot.eval.scoring import (
    SCRAPINGHUB,
    SNIPPETS,
    WCXB,
    GoldPage,
    NotAGoldFolder,
    PageScore,
    TypeScore,
    bag_counts,
    bag_page_scores,
    load_gold,
    macro_average,
    micro_average,
    normalise_space,
    score,
    shingle_counts,
    shingles,
    snippet_counts,
    words,
)
from tests.conftest import FIXTURES_DIR, bench_dir, needs_bench

GOLD = FIXTURES_DIR / "gold"

def page(tp: float, fp: float, fn: float, key: str = "p") -> PageScore:
    return PageScore(key=key, url=None, tp=tp, fp=fp, fn=fn)


def gold_text_extractor(gold_set):
    """A real extractor that answers each page with its gold text: the perfect extractor."""
    texts = {p.html: p.body if p.body is not None else "\n".join(p.with_) for p in gold_set}
    return lambda html, url: texts[html]


def whole_page(html: bytes, url: str | None) -> str:
    """A real extractor that keeps everything: the whole decoded page."""
    try:
        return html.decode("utf-8")
    except UnicodeDecodeError:
        return html.decode("latin-1")


# Shingles


def test_shingles_are_four_word_windows_counted_as_multiset():
    assert shingles("a b c d e") == Counter({("a", "b", "c", "d"): 1, ("b", "c", "d", "e"): 1})
    assert shingles("x y z w x y z w")[("x", "y", "z", "w")] == 2


def test_short_text_is_one_shingle_of_all_its_words():
    assert shingles("Ferry cancelled.") == Counter({("Ferry", "cancelled"): 1})
    assert shingles("") == Counter()
    assert shingles("   ...  ") == Counter()


def test_tokens_are_unicode_word_runs_and_keep_case():
    assert list(shingles("Zoë's café: “pain”")) == [("Zoë", "s", "café", "pain")]
    assert shingle_counts("The cat sat down", "the cat sat down") == (0.0, 0.5, 0.5)


def test_exact_match_scores_one():
    assert shingle_counts("one two three four five", "one  two\nthree, four five!") == (1, 0, 0)


def test_counts_are_normalised_per_page():
    # gold has 5 shingles (one twice), the output only 1 of them.
    assert shingle_counts("x y z w x y z w", "x y z w") == (0.2, 0.0, 0.8)
    # repeats in the output beyond the gold's count are false positives.
    # 9 words, 6 shingles: the gold's one, then 5 it does not have.
    tp, fp, fn = shingle_counts("x y z w", "x y z w q x y z w")
    assert (tp, fp, fn) == (pytest.approx(1 / 6), pytest.approx(5 / 6), 0.0)


def test_empty_output_and_empty_gold():
    assert shingle_counts("a b c d", "") == (0.0, 0.0, 1.0)
    assert shingle_counts("", "a b c d") == (0.0, 1.0, 0.0)
    assert shingle_counts("", "") == (0.0, 0.0, 0.0)


def test_short_page_mismatch():
    assert shingle_counts("Ferry cancelled.", "Ferry cancelled today") == (0.0, 0.5, 0.5)


def test_macro_average_skips_undefined_ratios():
    perfect, empty_output, both_empty = page(1, 0, 0), page(0, 0, 1), page(0, 0, 0)
    precision, recall, f1 = macro_average([perfect, empty_output, both_empty])
    # precision only over pages with output; recall over pages with gold.
    assert (precision, recall) == (1.0, 0.5)
    assert f1 == pytest.approx(2 / 3)


def test_macro_average_is_mean_of_page_ratios():
    precision, recall, _ = macro_average([page(0.5, 0.5, 0), page(0.25, 0, 0.75)])
    assert precision == pytest.approx((0.5 + 1.0) / 2)
    assert recall == pytest.approx((1.0 + 0.25) / 2)


def test_macro_average_of_nothing_is_zero_not_nan():
    assert macro_average([page(0, 0, 1)]) == (0.0, 0.0, 0.0)


# Snippets


def snippet_page(with_=(), without=()) -> GoldPage:
    return GoldPage(key="k", url=None, html=b"", with_=tuple(with_), without=tuple(without))


def test_normalise_space():
    assert normalise_space("  a\n\n b\t\u00a0c  ") == "a b c"


def test_snippet_whitespace_normalised_on_both_sides():
    result = snippet_counts(snippet_page(with_=["a  b\nc"]), "x a\n\n b c y")
    assert (result.tp, result.fn) == (1.0, 0.0)


def test_snippet_tp_fn_fp_tn():
    gold = snippet_page(with_=["kept one", "lost one"], without=["menu item", "cookie notice"])
    result = snippet_counts(gold, "kept one\n\nmenu item")
    assert (result.tp, result.fn, result.fp, result.tn) == (1.0, 1.0, 1.0, 1.0)
    assert result.missed == ("lost one",)
    assert result.leaked == ("menu item",)


def test_snippet_empty_output_is_all_fn_and_tn():
    result = snippet_counts(snippet_page(with_=["a"], without=["b", "c"]), "")
    assert (result.tp, result.fn, result.fp, result.tn) == (0.0, 1.0, 0.0, 2.0)


def test_micro_average_sums_counts():
    precision, recall, f1 = micro_average([page(3, 1, 0), page(1, 0, 4)])
    assert (precision, recall) == (4 / 5, 4 / 8)
    assert f1 == pytest.approx(2 * 0.8 * 0.5 / 1.3)


# Loading


def test_load_scrapinghub_layout():
    gold_set = load_gold(GOLD / "scrapinghub")
    assert (gold_set.layout, gold_set.name, len(gold_set)) == (SCRAPINGHUB, "scrapinghub", 3)
    cafe = next(p for p in gold_set if p.key == "cafe")
    assert cafe.url == "https://gazette.example/2024/cafe-prize"
    assert b"caf\xe9" in cafe.html  # raw windows-1252 bytes, not decoded
    assert cafe.body.startswith("The café on Rue Verte")
    assert not gold_set.errors


def test_load_snippets_layout():
    gold_set = load_gold(GOLD / "multilingual-dev")
    assert (gold_set.layout, len(gold_set)) == (SNIPPETS, 3)
    pages = {p.key: p for p in gold_set}
    assert pages["https://zeitung.example/lokales/bruecke"].url.startswith("https://")
    assert pages["hard::pages-without-url.html"].url is None
    assert b"Br\xfccke" in pages["https://zeitung.example/lokales/bruecke"].html
    assert pages["https://gazeta.example/kraj/pociag"].without[0] == "Polityka prywatności"


def test_load_limit():
    assert len(load_gold(GOLD / "multilingual-dev", limit=2)) == 2


def test_not_a_gold_folder(tmp_path):
    with pytest.raises(NotAGoldFolder, match=r"ground-truth\.json or snippets\.json"):
        load_gold(tmp_path)


def test_damaged_gold_file_is_not_a_gold_folder(tmp_path):
    (tmp_path / "snippets.json").write_text('{"http://a.example/": {"file"', encoding="utf-8")
    with pytest.raises(NotAGoldFolder, match="cannot be read"):
        load_gold(tmp_path)


def test_damaged_page_is_named_and_skipped(tmp_path):
    folder = shutil.copytree(GOLD / "scrapinghub", tmp_path / "sh")
    (folder / "html" / "cafe.html.gz").write_bytes(gzip.compress(b"<p>x</p>")[:15])
    (folder / "html" / "short.html.gz").unlink()
    gold_set = load_gold(folder)
    assert [p.key for p in gold_set] == ["harbour"]
    assert set(gold_set.errors) == {"cafe", "short"}


def test_plain_html_files_are_read_as_is(tmp_path):
    folder = shutil.copytree(GOLD / "scrapinghub", tmp_path / "sh")
    for gz in (folder / "html").iterdir():
        gz.with_suffix("").write_bytes(gzip.decompress(gz.read_bytes()))
        gz.unlink()
    assert len(load_gold(folder)) == 3


# Scoring a whole set


@pytest.mark.parametrize("name", ["scrapinghub", "multilingual-dev"])
def test_gold_text_extractor_scores_perfect(name):
    gold_set = load_gold(GOLD / name)
    result = score(gold_set, gold_text_extractor(gold_set))
    assert (result.precision, result.recall, result.f1) == (1.0, 1.0, 1.0)
    assert result.pages == 3 and result.failures == 0
    assert result.seconds >= 0 and all(p.output_chars > 0 for p in result.details)


def test_snippet_set_counts_tn():
    gold_set = load_gold(GOLD / "multilingual-dev")
    result = score(gold_set, gold_text_extractor(gold_set))
    assert sum(p.tn for p in result.details) == 5
    assert sum(p.fp for p in result.details) == 0


def test_whole_page_text_leaks_boilerplate():
    gold_set = load_gold(GOLD / "multilingual-dev")
    result = score(gold_set, whole_page)
    assert result.recall == 1.0
    assert result.precision < 1.0
    assert any(p.leaked for p in result.details)


def test_empty_extractor_scores_zero():
    result = score(load_gold(GOLD / "scrapinghub"), lambda html, url: "")
    assert (result.precision, result.recall, result.f1) == (0.0, 0.0, 0.0)


def test_extractor_receives_url_when_the_gold_has_one():
    seen = []
    score(load_gold(GOLD / "multilingual-dev"), lambda html, url: seen.append(url) or "")
    assert sorted(seen, key=str) == [
        None,
        "https://gazeta.example/kraj/pociag",
        "https://zeitung.example/lokales/bruecke",
    ]


def test_crash_on_one_page_is_scored_empty_and_kept():
    gold_set = load_gold(GOLD / "scrapinghub")
    perfect = gold_text_extractor(gold_set)

    def fragile(html: bytes, url: str | None) -> str:
        if url.endswith("brief"):
            raise ValueError("cannot parse")
        return perfect(html, url)

    result = score(gold_set, fragile)
    assert result.failures == 1
    assert result.recall == pytest.approx(2 / 3)
    assert result.worst(1)[0].error == "ValueError: cannot parse"


def test_not_implemented_is_not_a_page_failure():
    def missing(html: bytes, url: str | None) -> str:
        raise NotImplementedError

    with pytest.raises(NotImplementedError):
        score(load_gold(GOLD / "scrapinghub"), missing)


def test_worst_ranks_lowest_f1_first():
    gold_set = load_gold(GOLD / "multilingual-dev")
    result = score(gold_set, lambda html, url: "" if url is None else whole_page(html, url))
    worst = result.worst(2)
    assert worst[0].key == "hard::pages-without-url.html"
    assert worst[0].f1 <= worst[1].f1


def test_on_page_is_called_per_page():
    calls = []
    score(load_gold(GOLD / "scrapinghub"), lambda html, url: "", on_page=calls.append)
    assert len(calls) == 3


@needs_bench
def test_full_gold_sets_load():
    assert len(load_gold(bench_dir() / "scrapinghub")) == 181
    assert len(load_gold(bench_dir() / "multilingual-dev")) == 291


# WCXB: bag of words, per-page P/R/F1 averaged over pages, per page type

WCXB_OUTPUTS = {"0001": "the ferry sails today", "0002": "", "0003": ""}
"""Hand-scored outputs: 0001 overlaps 3 of its 4 words with the 8 gold words
(the twice, ferry twice, sails, at, noon, returns): P 3/4, R 3/8, F1 1/2; 0002 is
empty against a gold text: 0; 0003 is empty against an empty gold: 1."""


def wcxb_outputs(gold_set):
    by_html = {p.html: WCXB_OUTPUTS[p.key] for p in gold_set}
    return lambda html, url: by_html[html]


def test_load_wcxb_layout():
    gold_set = load_gold(GOLD / "wcxb")
    assert gold_set.layout == WCXB
    assert [p.key for p in gold_set] == ["0001", "0002", "0003"]
    first, second, third = gold_set.pages
    assert first.body.startswith("The Ferry") and first.url == "https://example.org/ferry"
    assert first.meta.author == "Ana Lopes" and first.meta.date == "2025-09-04"
    # "category" is the type WCXB's tables call "collection"
    assert [p.page_type for p in gold_set] == ["article", "collection", "service"]
    assert third.body == ""  # no main_content: an empty gold text
    assert gzip.decompress(gzip.compress(second.html)).startswith(b"<html>")


def test_bag_of_words_is_lower_cased_multiset():
    assert words("The ferry, the FERRY!") == Counter({"the": 2, "ferry": 2})
    assert bag_counts("The Ferry sails at noon. The ferry returns.", "the ferry sails today") == (
        3, 1, 5
    )


def test_bag_page_rules_for_empty_gold_and_output():
    empty_both = PageScore("a", None, 0, 0, 0)
    assert bag_page_scores(empty_both) == (1.0, 1.0, 1.0)
    assert bag_page_scores(PageScore("b", None, 0, 4, 0)) == (0.0, 0.0, 0.0)  # empty gold
    assert bag_page_scores(PageScore("c", None, 0, 0, 4)) == (0.0, 0.0, 0.0)  # empty output


def test_wcxb_scores_hand_computed():
    result = score(load_gold(GOLD / "wcxb"), wcxb_outputs(load_gold(GOLD / "wcxb")))
    assert result.precision == pytest.approx((0.75 + 0 + 1) / 3)
    assert result.recall == pytest.approx((0.375 + 0 + 1) / 3)
    # F1 is the mean of the pages' F1 (0.5, 0, 1), not the F1 of the means (0.513)
    assert result.f1 == pytest.approx(0.5)
    assert result.by_type["article"] == TypeScore(1, 0.75, 0.375, pytest.approx(0.5))
    assert result.by_type["collection"].f1 == 0.0
    assert result.by_type["service"].f1 == 1.0
    assert list(result.by_type) == ["article", "collection", "service"]


def test_wcxb_gold_text_scores_perfect_and_worst_filters_by_type():
    gold_set = load_gold(GOLD / "wcxb")
    result = score(gold_set, gold_text_extractor(gold_set))
    assert (result.precision, result.recall, result.f1) == (1.0, 1.0, 1.0)
    assert [p.key for p in result.worst(5, "collection")] == ["0002"]


def test_other_layouts_have_no_page_types():
    result = score(load_gold(GOLD / "scrapinghub"), lambda html, url: "")
    assert result.by_type is None


def test_wcxb_page_without_html_is_named_and_skipped(tmp_path):
    folder = shutil.copytree(GOLD / "wcxb", tmp_path / "w")
    (folder / "html" / "0002.html.gz").unlink()
    gold_set = load_gold(folder)
    assert [p.key for p in gold_set] == ["0001", "0003"]
    assert "0002" in gold_set.errors


@needs_bench
def test_wcxb_dev_loads_every_page():
    gold_set = load_gold(bench_dir() / "wcxb-dev")
    assert len(gold_set) == 1497 and not gold_set.errors
    assert {p.page_type for p in gold_set} == {
        "article", "service", "product", "collection", "forum", "listing", "documentation"
    }
