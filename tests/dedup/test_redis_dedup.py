"""The Redis index against a real redis-server: the levels, compact storage, ownership."""

from __future__ import annotations

import numpy as np
import pytest

from corpusbot.dedup.backends import Verdict
from corpusbot.dedup.bbit import compact, similarity
from corpusbot.dedup.deduplicator import EXACT, LSH_FP_WEIGHT, NEAR, PARAGRAPH, URL
from corpusbot.dedup.index import IndexMismatchError
from corpusbot.dedup.near import jaccard, optimal_bands
from corpusbot.dedup.redis_dedup import RedisDeduplicator, signature_bytes
from corpusbot.dedup.redis_index import RedisAddress, RedisIndex
from corpusbot.fingerprints.minhash import MinHasher
from corpusbot.fingerprints.options import DedupOptions
from corpusbot.text import hash64
from tests.corpus_support import page
from tests.dedup.test_dedup import ALL_LEVELS, _article, deduplicator, document, edited


def redis_dedup(url: str, options: DedupOptions | None = None, owner: str = "a",
                committed: int = 0) -> RedisDeduplicator:
    options = options or DedupOptions()
    index = RedisIndex.connect(
        RedisAddress.parse(url), owner, committed,
        bands=optimal_bands(options.threshold, options.num_perm, LSH_FP_WEIGHT)[0],
        signature_bytes=signature_bytes(options))
    return RedisDeduplicator(index, options)


def test_exact_near_and_url_levels_as_with_sqlite(redis_url: str) -> None:
    dedup = redis_dedup(redis_url)
    html = page("en-supermarket")
    assert dedup.check(document(html, "https://a.example/x")).kept
    assert dedup.check(document(html, "https://b.example/y")).reason == EXACT
    assert dedup.check(document(edited(html, 3), "https://c.example/z")).reason == NEAR
    assert dedup.check(document(page("en-anarcat"), "https://d.example/")).kept
    assert dedup.check(document(page("fr-aoc"), "https://a.example/x")).reason == URL


def test_a_claimed_url_is_refused_to_every_other_worker(redis_url: str) -> None:
    first, second = redis_dedup(redis_url, owner="a"), redis_dedup(redis_url, owner="b")
    assert first.admit(42)
    assert not first.admit(42) and not second.admit(42)


def _verdict(verdict: Verdict) -> object:
    doc = verdict.document
    return (doc.text, doc.n_words) if doc is not None else verdict.reason


def test_paragraph_level_decides_as_the_sqlite_index(redis_url: str) -> None:
    options = DedupOptions(levels=ALL_LEVELS, min_words_left=40)
    first = document(page("en-supermarket"), "https://a.example/1", options)
    shared = [p for p in first.text.split("\n\n") if len(p.split()) >= 25][:3]
    fresh = [p for p in document(page("en-anarcat"), "https://x.example/", options).text
             .split("\n\n") if len(p.split()) >= 10]
    sequence = [first,
                document(_article(shared + fresh), "https://b.example/2", options),
                document(_article([*shared, "A short new line."]), "https://c.example/3", options),
                document(_article(fresh), "https://d.example/4", options)]
    sqlite_dedup, shared_dedup = deduplicator(options), redis_dedup(redis_url, options)
    verdicts = [_verdict(sqlite_dedup.check(doc)) for doc in sequence]
    assert [_verdict(shared_dedup.check(doc)) for doc in sequence] == verdicts
    assert verdicts[2] == PARAGRAPH and isinstance(verdicts[1], tuple)
    assert not any(p in verdicts[1][0] for p in shared)


def test_b_bit_signatures_estimate_jaccard_after_correction() -> None:
    rng = np.random.default_rng(3)
    hasher = MinHasher()
    words = [f"w{i}" for i in rng.integers(0, 10**6, 600)]
    for changed in (30, 120, 300):
        other = list(words)
        other[:changed] = [f"x{i}" for i in range(changed)]
        a, b = hasher.signature(words), hasher.signature(other)
        full = jaccard(a, b)
        estimate = similarity(compact(a, 4), compact(b, 4), 4, len(a))
        assert abs(estimate - full) < 0.12, (changed, estimate, full)
    assert similarity(compact(a, 4), compact(a, 4), 4, len(a)) == 1.0


def test_buckets_stay_in_the_compact_encoding(redis_url: str) -> None:
    import redis

    dedup = redis_dedup(redis_url + "?capacity=3000")
    for n in range(3000):
        assert dedup.admit(hash64(str(n)))
    client = redis.Redis.from_url(redis_url)
    buckets = list(client.scan_iter(match="cb:u:*"))
    assert len(buckets) == 3000 // 80 + 1
    assert sum(client.hlen(name) for name in buckets) == 3000
    assert {client.object("encoding", name) for name in buckets} == {b"listpack"}


def test_uncommitted_additions_are_released_and_committed_ones_adopted(redis_url: str) -> None:
    html, other = page("en-supermarket"), page("en-anarcat")
    worker = redis_dedup(redis_url, owner="task-1")
    assert worker.check(document(html, "https://a.example/1")).kept
    worker.redis.committed()  # epoch 1 committed
    assert worker.check(document(other, "https://a.example/2")).kept
    # the worker dies before committing epoch 2; its retry opens with epoch 1 committed
    retry = redis_dedup(redis_url, owner="task-1", committed=1)
    assert retry.check(document(html, "https://b.example/1")).reason == EXACT
    assert retry.check(document(other, "https://a.example/2")).kept
    assert retry.check(document(edited(other, 1), "https://b.example/2")).reason is not None


def test_a_journal_left_after_the_sqlite_commit_is_adopted(redis_url: str) -> None:
    worker = redis_dedup(redis_url, owner="task-2")
    assert worker.check(document(page("fr-aoc"), "https://a.example/1")).kept
    # crash after the corpus committed epoch 1, before the journal was dropped
    retry = redis_dedup(redis_url, owner="task-2", committed=1)
    assert retry.check(document(page("fr-aoc"), "https://b.example/1")).reason == EXACT


def test_other_parameters_are_refused(redis_url: str) -> None:
    redis_dedup(redis_url)
    with pytest.raises(IndexMismatchError):
        redis_dedup(redis_url, DedupOptions(num_perm=64))
    with pytest.raises(IndexMismatchError):
        redis_dedup(redis_url + "?capacity=10000000000")


def test_bad_urls_are_refused_in_one_line() -> None:
    with pytest.raises(ValueError, match="not a Redis URL"):
        RedisAddress.parse("http://localhost:6379")
    with pytest.raises(ValueError, match="capacity"):
        RedisAddress.parse("redis://localhost:6379/0?capacity=lots")
    assert RedisAddress.parse("redis://h:1/2?capacity=5&db=2").url == "redis://h:1/2?db=2"
