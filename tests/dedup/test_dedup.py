"""The dedup levels on documents made from real pages: URL, exact, near, paragraph."""

from __future__ import annotations

import random
import re
import sqlite3

import numpy as np
import pytest

from corpusbot.dedup.deduplicator import (
    EXACT,
    LSH_FP_WEIGHT,
    NEAR,
    PARAGRAPH,
    URL,
    Deduplicator,
)
from corpusbot.dedup.index import IndexMismatchError, SQLiteIndex
from corpusbot.dedup.near import jaccard, optimal_bands
from corpusbot.document import Document, Rejection
from corpusbot.fingerprints.minhash import MinHasher
from corpusbot.fingerprints.options import DedupOptions
from corpusbot.fingerprints.url import canonical_url
from corpusbot.page import Page
from corpusbot.processor import Processor, ProcessorOptions
from corpusbot.text import hash64, normalise, tokens
from tests.corpus_support import page

ALL_LEVELS = frozenset({"url", "exact", "near", "paragraph"})


def deduplicator(options: DedupOptions | None = None) -> Deduplicator:
    connection = sqlite3.connect(":memory:", isolation_level=None)
    return Deduplicator(SQLiteIndex(connection), options or DedupOptions())


def document(html: bytes, url: str, options: DedupOptions | None = None) -> Document:
    processor = Processor(ProcessorOptions(dedup=options or DedupOptions(),
                                           overrides={"length.min_words": 20}))
    result = processor.process(Page(url=url, body=html))
    assert isinstance(result, Document), result
    return result


def edited(html: bytes, changes: int) -> bytes:
    """A near copy: ``changes`` words of the main text, each found once in the page, replaced."""
    text = document(html, "https://example.org/").text
    unique = sorted({w for w in re.findall(r"[A-Za-z]{8,}", text) if html.count(w.encode()) == 1})
    for word in unique[:changes]:
        html = html.replace(word.encode(), word[::-1].encode())
    return html


def test_exact_copies_under_other_urls_are_dropped() -> None:
    dedup = deduplicator()
    html = page("en-supermarket")
    assert dedup.check(document(html, "https://a.example/x")).kept
    assert dedup.check(document(html, "https://b.example/y")).reason == EXACT


def test_exact_means_same_words_whatever_case_punctuation_and_spacing() -> None:
    same = [tokens("Hello,  World! It's   2024."), tokens("hello world it s 2024")]
    assert hash64(normalise(same[0])) == hash64(normalise(same[1]))
    assert hash64(normalise(tokens("hello world"))) != hash64(normalise(tokens("hello word")))


def test_near_copies_are_dropped_and_different_pages_kept() -> None:
    dedup = deduplicator()
    original = page("en-supermarket")
    assert dedup.check(document(original, "https://a.example/1")).kept
    assert dedup.check(document(edited(original, 8), "https://b.example/2")).reason == NEAR
    assert dedup.check(document(page("en-anarcat"), "https://c.example/3")).kept


def test_the_near_threshold_decides() -> None:
    strict = deduplicator(DedupOptions(threshold=0.99))
    original = page("en-supermarket")
    strict.check(document(original, "https://a.example/1"))
    assert strict.check(document(edited(original, 8), "https://b.example/2")).kept


def test_near_level_off_keeps_near_copies() -> None:
    options = DedupOptions(levels=frozenset({"url", "exact"}))
    dedup = deduplicator(options)
    original = page("en-supermarket")
    dedup.check(document(original, "https://a.example/1", options))
    assert dedup.check(document(edited(original, 8), "https://b.example/2", options)).kept


def test_the_same_canonical_url_is_processed_once() -> None:
    dedup = deduplicator()
    first = document(page("en-anarcat"), "https://example.org/p?a=1&b=2")
    again = document(page("de-feuerwehr"), "https://example.org/p?b=2&a=1#comments")
    assert dedup.check(first).kept
    assert dedup.check(again).reason == URL
    assert canonical_url("HTTPS://Example.org/p?b=2&a=1#c") == "https://example.org/p?a=1&b=2"


def test_a_revisited_url_passes_the_url_level_and_meets_the_text_levels() -> None:
    dedup = deduplicator()
    url = "https://example.org/story"
    assert dedup.check(document(page("en-anarcat"), url)).kept
    # fetched again because its sitemap says it changed: a new text is kept,
    # the same text is still an exact copy
    assert dedup.check(document(page("de-feuerwehr"), url), revisit=True).kept
    assert dedup.check(document(page("de-feuerwehr"), url), revisit=True).reason == EXACT
    assert dedup.check(document(page("en-supermarket"), url)).reason == URL


def test_admit_refuses_urls_processed_or_in_flight_and_rejections_count_as_processed() -> None:
    dedup = deduplicator()
    assert dedup.admit(1) and not dedup.admit(1)  # in flight
    dedup.check(Rejection(url="u", reason="filter/too-short", url_key=1))
    assert not dedup.admit(1)  # processed, though rejected
    assert dedup.admit(2)
    assert dedup.check(Rejection(url="u2", reason=URL, url_key=2)).document is None
    assert dedup.check(document(page("en-anarcat"), "https://x.example/2")).kept


def _article(paragraphs: list[str]) -> bytes:
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    html = f"<html><head><title>t</title></head><body><article>{body}</article></body></html>"
    return html.encode()


def test_paragraphs_seen_before_are_removed_and_a_document_left_too_short_dropped() -> None:
    options = DedupOptions(levels=ALL_LEVELS, min_words_left=40)
    dedup = deduplicator(options)
    first = document(page("en-supermarket"), "https://a.example/1", options)
    assert dedup.check(first).kept
    shared = [p for p in first.text.split("\n\n") if len(p.split()) >= 25][:3]
    fresh = [p for p in document(page("en-anarcat"), "https://x.example/", options).text
             .split("\n\n") if len(p.split()) >= 10]
    mixed = dedup.check(document(_article(shared + fresh), "https://b.example/2", options)).document
    assert isinstance(mixed, Document)
    assert not any(p in mixed.text for p in shared)
    assert all(p in mixed.text for p in fresh)
    assert mixed.n_words == len(tokens(mixed.text))
    only_old = document(_article([*shared, "A short new line."]), "https://c.example/3", options)
    assert dedup.check(only_old).reason == PARAGRAPH


def test_minhash_estimates_jaccard() -> None:
    rng = random.Random(7)
    words = [f"w{rng.randrange(3000)}" for _ in range(1500)]
    hasher = MinHasher()
    for changes in (10, 60, 200):
        other = list(words)
        for i in rng.sample(range(len(words)), changes):
            other[i] = f"x{i}"
        truth = _jaccard5(words, other)
        estimate = jaccard(hasher.signature(words), hasher.signature(other))
        assert abs(estimate - truth) < 0.1, (changes, truth, estimate)


def _jaccard5(a: list[str], b: list[str]) -> float:
    first = {tuple(a[i:i + 5]) for i in range(len(a) - 4)}
    second = {tuple(b[i:i + 5]) for i in range(len(b) - 4)}
    return len(first & second) / len(first | second)


def test_minhash_of_short_and_empty_texts() -> None:
    hasher = MinHasher()
    assert np.array_equal(hasher.signature(["one", "two"]), hasher.signature(["one", "two"]))
    assert hasher.signature([]).max() == 0xFFFFFFFF


def test_lsh_bands_for_the_default_threshold() -> None:
    assert optimal_bands(0.8, 128) == (9, 13)  # as datasketch's MinHashLSH chooses
    assert optimal_bands(0.8, 128, LSH_FP_WEIGHT) == (16, 8)  # recall first: candidates verified


def test_an_index_refuses_other_minhash_parameters() -> None:
    connection = sqlite3.connect(":memory:", isolation_level=None)
    Deduplicator(SQLiteIndex(connection), DedupOptions())
    with pytest.raises(IndexMismatchError, match="--dedup"):
        Deduplicator(SQLiteIndex(connection), DedupOptions(shingle=3))


def test_unknown_levels_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown dedup level"):
        DedupOptions(levels=frozenset({"fuzzy"}))
