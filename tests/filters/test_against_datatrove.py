"""corpusbot's quality steps decide as datatrove's filters do, on real pages: the texts
corpusbot extracts from the sample WARC (benchmarks/quality_vs_datatrove.py runs the same
comparison on every gold page)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("datatrove", reason="datatrove is in the test extra")
pytest.importorskip("spacy", reason="datatrove's filters tokenise with spaCy (test extra)")

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "benchmarks"))
try:
    from quality_texts import sample_texts
    from quality_vs_datatrove import cause, compare
finally:
    sys.path.remove(str(REPO / "benchmarks"))


@pytest.fixture(scope="module")
def comparison() -> dict:
    records = list(sample_texts(REPO / "sample" / "sample.warc.gz"))
    assert sum(r["lang"] == "en" for r in records) >= 10
    return compare(records)


@pytest.mark.parametrize("name", ["gopher_quality", "gopher_repetition", "c4", "c4_fineweb",
                                  "fineweb"])
def test_english_pages_get_datatroves_decision(comparison, name):
    totals = comparison["totals"][name]
    assert totals["en/same"] == totals["en/pages"], [
        d for d in comparison["differences"] if d["filter"] == name and d["lang"] == "en"]


def test_every_difference_on_other_languages_has_its_cause(comparison):
    assert comparison["unexplained"] == 0, [d for d in comparison["differences"]
                                            if d["cause"] is None]


def test_the_stop_word_difference_is_the_page_languages_list():
    # A German page has none of Gopher's English stop words: datatrove, which FineWeb ran on
    # English only, drops it; corpusbot reads German stop words and keeps it.
    text = ("Der Ausschuss teilte mit, dass er den Bericht am Montag veröffentlichen werde "
            "und dass die Bürger, die ihm geschrieben hätten, ihn vollständig lesen könnten. ") * 5
    record = {"set": "pinned", "key": "de", "lang": "de", "text": text}
    result = compare([record], ["gopher_quality"])
    [difference] = result["differences"]
    assert difference["datatrove"] == "gopher_enough_stop_words"
    assert difference["corpusbot"] is None
    assert cause(difference, record).startswith("stop words:")


def test_stop_words_are_matched_as_written_on_english_pages():
    # Gopher's stop words only at the start of sentences: spaCy keeps "The" and "With",
    # which datatrove's lower-case list does not match; on an English page corpusbot matches
    # them as written too, and both drop the page.
    text = " ".join(["The river runs north past quiet farms and old mills.",
                     "With autumn rains, boats carry grain downstream every week."] * 6)
    record = {"set": "pinned", "key": "case", "lang": "en", "text": text}
    result = compare([record], ["gopher_quality"])
    assert result["differences"] == []
    assert result["totals"]["gopher_quality"]["en/corpusbot_drops"] == 1


def test_datatroves_c4_ends_lines_only_with_ascii_punctuation():
    # Hindi sentences end with the danda: datatrove's C4 removes every line, corpusbot none.
    line = "यह शहर की नई योजना के बारे में एक लंबी खबर है।"
    record = {"set": "pinned", "key": "hi", "lang": "hi", "text": "\n".join([line] * 6)}
    [difference] = compare([record], ["c4"])["differences"]
    assert (difference["datatrove"], difference["corpusbot"]) == ("too_few_sentences", None)
    assert cause(difference, record).startswith("terminal punctuation:")


def test_datatrove_compares_repeated_ngrams_with_their_words_run_together():
    # datatrove's duplicated n-grams are compared as their words joined without spaces, so
    # "no where river boats carry" repeats "now here river boats carry"; corpusbot compares the
    # words themselves (hashes of them, then a scan of the tuples). The only way left for the
    # two to decide differently on an English page; no gold page comes near it (100 %).
    pairs = [("now here", "no where"), ("into the", "in tothe"), ("apart time", "a parttime"),
             ("together", "to gether"), ("nowhere", "now here"), ("in deed", "indeed")]
    middles = ["river boats carry", "old mills stand", "farm roads wind", "autumn rains fall",
               "village bells ring", "market stalls open"]
    text = " ".join(f"{a} {middle} grain north. {b} {middle} wheat south."
                    for (a, b), middle in zip(pairs, middles, strict=True))
    record = {"set": "pinned", "key": "joined", "lang": "en", "text": text}
    result = compare([record], ["gopher_repetition"])
    assert result["tokens"] == {"en/pages": 1, "en/same": 1}  # the same words, one by one
    [difference] = result["differences"]
    assert difference["datatrove"].startswith("duplicated_")
    assert difference["corpusbot"] is None
    assert cause(difference, record).startswith("n-grams: datatrove compares the words of")
