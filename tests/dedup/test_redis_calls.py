"""Calls to the Redis index: answered once however often retried, refused once it was emptied."""

from __future__ import annotations

import pytest
import redis

from corpusbot.dedup.backends import IndexLostError
from tests.corpus_support import page
from tests.dedup.test_dedup import document
from tests.dedup.test_redis_dedup import redis_dedup


def test_a_call_sent_again_after_a_lost_reply_is_answered_not_run_again(redis_url: str) -> None:
    index = redis_dedup(redis_url).redis
    server = redis.Redis.from_url(redis_url)
    assert index.claim("t", 123)
    entries = server.llen(index.journal())
    index.calls._number -= 1  # the same call again: a retry after its reply was lost
    assert index.claim("t", 123)  # answered as the first time, not "already there"
    assert server.llen(index.journal()) == entries
    assert not index.claim("t", 123)  # a new call sees the key


def test_an_index_emptied_under_a_run_is_refused_at_the_next_call(redis_url: str) -> None:
    dedup = redis_dedup(redis_url)
    assert dedup.check(document(page("en-supermarket"), "https://a.example/1")).kept
    redis.Redis.from_url(redis_url).flushall()  # as a restart without persistence
    with pytest.raises(IndexLostError):
        dedup.check(document(page("en-supermarket"), "https://b.example/1"))
