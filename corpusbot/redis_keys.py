"""Every Redis key corpusbot writes, in one place: the dedup index's and the shared crawl's.

Both store 64-bit keys (text hashes, URL keys, request fingerprints) the
same compact way: small hashes chosen by the key's top bits ("buckets"),
the field the remaining bits as bytes, the value empty or short. Redis keeps
a hash of under 128 short fields as a listpack, about 10 bytes per field,
instead of about 70 for a key or a set member. ``place`` and ``Layout`` are
that scheme; ``DedupKeys`` and ``CrawlKeys`` name every other key.

The Lua scripts of the dedup index (``corpusbot.dedup.redis_scripts``)
build two names themselves, from the prefix they are given: the signature
blocks ``<prefix>s:<n>`` and the document counter ``<prefix>docs``
(``DedupKeys.signatures`` and ``DedupKeys.docs`` say the same).
"""

from __future__ import annotations

import math

CAPACITY_DEFAULT = 1_000_000
"""Documents the bucket layout is sized for; past it buckets grow out of the compact
encoding (still correct, several times the memory per entry). Set ``?capacity=`` in the URL."""
PREFIX_DEFAULT = "cb:"
BUCKET_FILL = 80
"""Mean fields per bucket: a Poisson(80) bucket stays under Redis's listpack limit
(``hash-max-listpack-entries``, 128) by 5.4 standard deviations (one bucket in 30
million converts), while a key's own ~64 bytes cost under one byte per field."""
PARAGRAPHS_PER_DOCUMENT = 16
"""Paragraph keys per document the paragraph buckets are sized for (gold pages: median 14)."""
BAND_FIELD_BYTES = 2
"""Band-key bytes kept beyond the bucket: a false match only costs a signature read, and
with 80 entries per bucket one band lookup in 800 meets one."""
SIGNATURES_PER_BLOCK = 255
"""255 signatures of 64 bytes and the string's header fit jemalloc's 16 KiB class exactly
(256 would spill into the 20 KiB class: 25 % more per signature)."""



def bucket_count(entries: int) -> int:
    """Buckets for ``entries`` fields at ``BUCKET_FILL`` each."""
    return max(16, math.ceil(entries / BUCKET_FILL))


def place(name: str, buckets: int, key: int, field_bits: int | None = None) -> tuple[str, bytes]:
    """The bucket (``name:<n>``) and field of a 64-bit ``key`` among ``buckets`` buckets;
    the field keeps the bits below the top ``log2(buckets)``, or only ``field_bits`` of them."""
    unsigned = key & 0xFFFFFFFFFFFFFFFF
    rest = 64 - (buckets.bit_length() - 1)
    low = unsigned & ((1 << rest) - 1)
    if field_bits is not None:
        low >>= rest - field_bits
        rest = field_bits
    return f"{name}:{(unsigned * buckets) >> 64}", low.to_bytes(-(-rest // 8), "big")


class Layout:
    """Where each kind of key goes: bucket names and fields for 64-bit keys.

    The bucket is the key's place in [0, buckets) by multiply-shift (Lemire's
    range reduction), so any count of buckets fills evenly; the field keeps
    the bits below the top ``log2(buckets)`` ones, so bucket and field still
    tell 64-bit keys apart (bands: 16 more bits only, see ``BAND_FIELD_BYTES``).
    """

    __slots__ = ("_buckets", "prefix")

    def __init__(self, prefix: str, capacity: int, bands: int) -> None:
        self.prefix = prefix
        self._buckets = {"u": bucket_count(capacity), "t": bucket_count(capacity),
                         "n": bucket_count(capacity),
                         "p": bucket_count(capacity * PARAGRAPHS_PER_DOCUMENT),
                         "b": bucket_count(capacity * max(bands, 1))}

    def place(self, kind: str, key: int) -> tuple[str, bytes]:
        """The hash key and field of the 64-bit ``key`` of ``kind``: u (URL), t (text),
        p (paragraph), b (LSH band) or n (copies of a kept document)."""
        field_bits = BAND_FIELD_BYTES * 8 if kind == "b" else None
        return place(f"{self.prefix}{kind}", self._buckets[kind], key, field_bits)

    def parameters(self) -> dict[str, str]:
        """What must match between runs sharing the index."""
        return {f"buckets_{kind}": str(count) for kind, count in self._buckets.items()}


class DedupKeys:
    """The names of the dedup index's keys under its ``prefix`` (``cb:`` by default)."""

    __slots__ = ("prefix",)

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix

    @property
    def meta(self) -> str:
        """The parameters the index was built with (a hash)."""
        return f"{self.prefix}meta"

    @property
    def generation(self) -> str:
        """A random id made when the index is first used: an emptied index gets a new one."""
        return f"{self.prefix}generation"

    @property
    def docs(self) -> str:
        """The counter of kept documents (their numbers in the signature and id blocks)."""
        return f"{self.prefix}docs"

    def signatures(self, block: int) -> str:
        return f"{self.prefix}s:{block}"

    def journal(self, owner: str, epoch: int | str) -> str:
        """What ``owner`` added in commit epoch ``epoch`` (``*``: a pattern over them all)."""
        return f"{self.prefix}j:{owner}:{epoch}"

    def in_flight(self, owner: str) -> str:
        """The URLs ``owner`` claimed for pages read but not yet checked."""
        return f"{self.prefix}f:{owner}"

    def calls(self, owner: str) -> str:
        """``owner``'s last call and its answer, so a call retried after a lost reply is
        answered, not run twice; and the mark (field ``h``) that another process took over
        what ``owner`` had not committed (``redis_calls``)."""
        return f"{self.prefix}c:{owner}"

    def committing(self, owner: str) -> str:
        """Set while ``owner`` commits (``RedisIndex.begin_commit``), with a time to live."""
        return f"{self.prefix}k:{owner}"

    def confirmed(self, owner: str) -> str:
        """The last commit epoch of ``owner`` that Redis heard had landed
        (``RedisIndex.committed``)."""
        return f"{self.prefix}e:{owner}"


class CrawlKeys:
    """The names of a shared crawl's keys under its name (``CORPUSBOT_REDIS_CRAWL``)."""

    __slots__ = ("prefix",)

    def __init__(self, crawl: str) -> None:
        self.prefix = f"{crawl}:"

    def requests(self, spider: str = "%(spider)s") -> str:
        """The shared request queue (scrapy-redis fills in the spider's name)."""
        return f"{self.prefix}{spider}:requests"

    def fingerprints(self, spider: str = "%(spider)s") -> str:
        """The shared request-fingerprint filter (bucketed: ``<this>:<n>``)."""
        return f"{self.prefix}{spider}:fingerprints"

    def seen(self) -> str:
        """The seen-URL store of incremental crawling (bucketed: ``<this>:<n>``)."""
        return f"{self.prefix}seen"
