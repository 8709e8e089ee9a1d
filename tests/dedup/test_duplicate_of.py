"""A dropped duplicate names the kept document it copies, and each kept document counts its
copies: the same on both backends."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from corpusbot.dedup.deduplicator import EXACT, NEAR, PARAGRAPH, URL, Deduplicator
from corpusbot.document import Rejection
from corpusbot.fingerprints.options import DedupOptions
from tests.corpus_support import page
from tests.dedup.test_dedup import ALL_LEVELS, _article, deduplicator, document, edited
from tests.dedup.test_redis_dedup import redis_dedup

OPTIONS = DedupOptions(levels=ALL_LEVELS, min_words_left=40)


@pytest.fixture(params=["sqlite", "redis"])
def make(request: pytest.FixtureRequest) -> Callable[[], Deduplicator]:
    if request.param == "sqlite":
        return lambda: deduplicator(OPTIONS)
    url = request.getfixturevalue("redis_url")
    return lambda: redis_dedup(url, OPTIONS)


def test_each_level_names_the_kept_document_and_counts_its_copies(
        make: Callable[[], Deduplicator]) -> None:
    dedup = make()
    html = page("en-supermarket")
    first = document(html, "https://a.example/1", OPTIONS)
    kept = dedup.check(first)
    assert kept.kept and kept.duplicate_of is None
    exact = dedup.check(document(html, "https://b.example/2", OPTIONS))
    near = dedup.check(document(edited(html, 3), "https://c.example/3", OPTIONS))
    again = dedup.check(document(page("en-anarcat"), "https://a.example/1", OPTIONS))
    assert dedup.admit(first.url_key) is False
    refused = dedup.check(Rejection(url=first.url, reason=URL, url_key=first.url_key))
    shared = [p for p in first.text.split("\n\n") if len(p.split()) >= 25][:3]
    paragraph = dedup.check(document(_article([*shared, "A short line."]),
                                     "https://d.example/4", OPTIONS))
    verdicts = [(v.reason, v.duplicate_of) for v in (exact, near, again, refused, paragraph)]
    assert verdicts == [(EXACT, first.id), (NEAR, first.id), (URL, first.id), (URL, first.id),
                        (PARAGRAPH, first.id)]
    assert dedup.copies([first.id, "0123456789abcdef"]) == {first.id: 5}


def test_a_trimmed_document_is_named_by_its_own_id(make: Callable[[], Deduplicator]) -> None:
    dedup = make()
    first = document(page("en-supermarket"), "https://a.example/1", OPTIONS)
    assert dedup.check(first).kept
    shared = [p for p in first.text.split("\n\n") if len(p.split()) >= 25][:3]
    fresh = [p for p in document(page("en-anarcat"), "https://x.example/", OPTIONS).text
             .split("\n\n") if len(p.split()) >= 10]
    trimmed = dedup.check(document(_article(shared + fresh), "https://b.example/2", OPTIONS))
    assert trimmed.document is not None
    for copied in (fresh, [*fresh, "A short line."]):  # the same text; its paragraphs
        copy = dedup.check(document(_article(copied), f"https://c.example/{len(copied)}",
                                    OPTIONS))
        assert copy.reason is not None
        assert copy.duplicate_of == trimmed.document.id


def test_copies_counted_in_an_aborted_epoch_are_taken_back(redis_url: str) -> None:
    dedup = redis_dedup(redis_url, OPTIONS)
    html = page("en-supermarket")
    first = document(html, "https://a.example/1", OPTIONS)
    dedup.check(first)
    dedup.committed()
    assert dedup.check(document(html, "https://b.example/2", OPTIONS)).duplicate_of == first.id
    assert dedup.copies([first.id]) == {first.id: 1}
    dedup.release()
    assert dedup.copies([first.id]) == {}
