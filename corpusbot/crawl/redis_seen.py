"""The crawl's seen-URL store in Redis, shared by every process of a crawl.

Same questions and answers as ``SeenStore`` (``status``, ``changed``,
``mark``, ``commit``), for the processes of one ``corpusbot crawl --redis``
crawl: a URL processed by any of them is skipped by all, unless its sitemap
or feed now declares a later change. Stored compactly: the canonical URL's
64-bit key in bucketed hashes (``corpusbot.redis_keys.place``), the
value two 32-bit times (the fetch and the declared change, in seconds since
1970; 0 when unknown), 8 bytes. Marks are written, in one pipelined round
trip, by ``commit``, which the caller runs after the corpus commit.
"""

from __future__ import annotations

import struct
from datetime import UTC, datetime
from typing import Any

from corpusbot.crawl.seen import CHANGED, NEW, UNCHANGED
from corpusbot.fingerprints.url import url_key
from corpusbot.redis_keys import bucket_count, place

_TIMES = struct.Struct(">II")


def seconds(iso: str | None) -> int:
    """An ISO 8601 time as whole seconds since 1970 (UTC when no zone is given); 0 if none
    or unreadable, which compares as "unknown"."""
    if not iso:
        return 0
    try:
        moment = datetime.fromisoformat(iso.replace("Z", "+00:00"))
    except ValueError:
        return 0
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return max(0, min(int(moment.timestamp()), 0xFFFFFFFF))


class RedisSeenStore:
    """``SeenStore`` over Redis; see the module docstring."""

    def __init__(self, server: Any, name: str, capacity: int) -> None:
        self.server, self.name = server, name  # CrawlKeys.seen()
        self.buckets = bucket_count(capacity)
        self.pending: dict[int, tuple[int, int]] = {}

    def changed(self, url: str, modified: str | None) -> bool:
        """True when ``url`` should be fetched: never processed, or changed since."""
        return self.status(url, modified) != UNCHANGED

    def status(self, url: str, modified: str | None) -> str:
        """``NEW``, ``CHANGED`` or ``UNCHANGED``, as ``SeenStore.status`` decides."""
        value = self.server.hget(*place(self.name, self.buckets, url_key(url)))
        if value is None:
            return NEW
        fetched, declared = _TIMES.unpack(value)
        known, offered = declared or fetched, seconds(modified)
        return CHANGED if offered and known and offered > known else UNCHANGED

    def mark(self, url: str, fetched_at: str | None, modified: str | None) -> None:
        """Remember ``url`` as processed; written at the next ``commit``."""
        self.pending[url_key(url)] = (seconds(fetched_at), seconds(modified))

    def commit(self) -> int:
        """Write the marks made since the last commit (a declared change is kept when a new
        mark has none); return how many."""
        marks, self.pending = self.pending, {}
        places = [place(self.name, self.buckets, key) for key in marks]
        old = self._read(places)
        with self.server.pipeline(transaction=False) as pipe:
            for (name, field), (fetched, declared), before in zip(
                    places, marks.values(), old, strict=True):
                kept = declared or (_TIMES.unpack(before)[1] if before else 0)
                pipe.hset(name, field, _TIMES.pack(fetched, kept))
            pipe.execute()
        return len(marks)

    def _read(self, places: list[tuple[str, bytes]]) -> list[bytes | None]:
        with self.server.pipeline(transaction=False) as pipe:
            for name, field in places:
                pipe.hget(name, field)
            return pipe.execute()

    def __len__(self) -> int:
        return sum(self.server.hlen(name) for name in self.server.scan_iter(
            match=f"{self.name}:*"))

    def close(self) -> None:
        self.server.close()
