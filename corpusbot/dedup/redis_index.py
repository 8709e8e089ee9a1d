"""The Redis dedup index: one index shared by every worker, on one machine or many.

Same levels and semantics as ``SQLiteIndex``, stored compactly (measured
by ``benchmarks/redis_memory.py``):

- URL, text and paragraph keys (64-bit hashes) live in small hashes chosen
  by their top bits ("buckets"); the field is the remaining bits as bytes
  and the value is empty. Redis keeps a hash of under 128 short fields as a
  listpack, about 10 bytes per field, instead of about 70 for a key or a
  set member; ``capacity`` (expected documents) sets the number of buckets
  so that they stay that small.
- Near duplicates: each document with a signature gets an id (a counter);
  its b-bit signature (``corpusbot.dedup.bbit``, 64 bytes) sits at a fixed
  offset of a block string of 256 signatures, and each of its LSH bands
  maps the band key (bucketed, 3 more bytes) to its id.

Every decision is one Lua script (``redis_scripts``), so two workers never
both keep one text. Crash safety: additions are journaled per owner (a
corpus folder) and commit epoch. The corpus records the epoch in its own
SQLite commit, then drops the journal (``committed``). On reopening,
``recover`` adopts journals of committed epochs and releases the others:
a task that died before committing leaves nothing that would make its
retried documents duplicates.
"""

from __future__ import annotations

import copy
import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from corpusbot.dedup.index import IndexMismatchError, built_with
from corpusbot.dedup.redis_scripts import ADOPT, CLAIM, CLAIM_IN_FLIGHT, DECIDE, RELEASE

logger = logging.getLogger(__name__)

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
SCHEMES = ("redis", "rediss", "unix")


@dataclass(slots=True, frozen=True)
class RedisAddress:
    """Where the index lives: a redis-py URL, plus corpusbot's own ``capacity`` and ``prefix``."""

    url: str
    capacity: int = CAPACITY_DEFAULT
    prefix: str = PREFIX_DEFAULT

    @classmethod
    def parse(cls, text: str) -> RedisAddress:
        """``redis://host:port/db?capacity=N&prefix=P``; a clear error for anything else."""
        parts = urlsplit(text)
        if parts.scheme not in SCHEMES:
            raise ValueError(f"not a Redis URL: {text!r} (try redis://127.0.0.1:6379/0)")
        query = dict(parse_qsl(parts.query))
        capacity = query.pop("capacity", str(CAPACITY_DEFAULT))
        prefix = query.pop("prefix", PREFIX_DEFAULT)
        if not capacity.isdigit() or int(capacity) < 1:
            raise ValueError(f"capacity must be a positive number of documents, got {capacity}")
        if "\n" in prefix:
            raise ValueError("a Redis key prefix cannot hold a newline")
        url = urlunsplit(parts._replace(query=urlencode(query)))
        return cls(url, int(capacity), prefix)


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
                         "p": bucket_count(capacity * PARAGRAPHS_PER_DOCUMENT),
                         "b": bucket_count(capacity * max(bands, 1))}

    def place(self, kind: str, key: int) -> tuple[str, bytes]:
        """The hash key and field of the 64-bit ``key`` of ``kind`` (u, t, p or b)."""
        field_bits = BAND_FIELD_BYTES * 8 if kind == "b" else None
        return place(f"{self.prefix}{kind}", self._buckets[kind], key, field_bits)

    def parameters(self) -> dict[str, str]:
        """What must match between runs sharing the index."""
        return {f"buckets_{kind}": str(count) for kind, count in self._buckets.items()}


class RedisIndex:
    """Dedup storage in Redis, owned per corpus folder; see the module docstring."""

    def __init__(self, client: object, address: RedisAddress, owner: str, epoch: int, *,
                 bands: int, signature_bytes: int) -> None:
        self._client = client
        self.address, self.owner = address, owner
        self.layout = Layout(address.prefix, address.capacity, bands)
        self.signature_bytes = signature_bytes
        self.epoch = epoch  # the epoch additions are journaled under until the next commit
        self.round_trips = 0
        self._claim = client.register_script(CLAIM)  # type: ignore[attr-defined]
        self._decide = client.register_script(DECIDE)  # type: ignore[attr-defined]
        self._claim_in_flight = client.register_script(CLAIM_IN_FLIGHT)  # type: ignore[attr-defined]
        self._adopt = client.register_script(ADOPT)  # type: ignore[attr-defined]
        self._release = client.register_script(RELEASE)  # type: ignore[attr-defined]

    @classmethod
    def connect(cls, address: RedisAddress, owner: str, committed_epoch: int, *,
                bands: int, signature_bytes: int) -> RedisIndex:
        """Connect, check the server answers, and recover this owner's journals."""
        import redis  # optional extra: corpusbot[redis]  # noqa: PLC0415

        client = redis.Redis.from_url(address.url)
        try:
            client.ping()
        except redis.RedisError as error:
            raise ConnectionError(f"cannot reach the Redis dedup index at {address.url}: "
                                  f"{error}") from error
        index = cls(client, address, owner, committed_epoch + 1, bands=bands,
                    signature_bytes=signature_bytes)
        index.recover(committed_epoch)
        return index

    def journal(self, epoch: int | None = None) -> str:
        return f"{self.address.prefix}j:{self.owner}:{self.epoch if epoch is None else epoch}"

    def claim(self, kind: str, key: int) -> bool:
        """Add ``key`` of ``kind`` unless present; True when this call added it."""
        name, field = self.layout.place(kind, key)
        self.round_trips += 1
        return bool(self._claim(args=[name, field, self.journal()]))

    def in_flight(self) -> str:
        """The set of URLs claimed by pages read but not yet checked."""
        return f"{self.address.prefix}f:{self.owner}"

    def claim_in_flight(self, kind: str, key: int) -> bytes | None:
        """Claim ``key`` for a page about to be processed: its journal item, or None when
        it was known. The item joins an epoch when ``decide`` or ``adopt`` gets it."""
        name, field = self.layout.place(kind, key)
        self.round_trips += 1
        if not self._claim_in_flight(args=[name, field, self.in_flight()]):
            return None
        return b"h" + name.encode() + b"\n" + field

    def adopt(self, item: bytes) -> None:
        """The in-flight claim ``item`` now belongs to the open epoch."""
        self.round_trips += 1
        self._adopt(args=[self.in_flight(), item, self.journal()])

    def decide(self, args: Sequence[bytes | str | int | float], adopted: bytes = b"") -> list[int]:
        """Run the DECIDE script (``args`` between the prefix and the in-flight set, see
        the script), adopting the in-flight URL claim ``adopted`` on the way."""
        self.round_trips += 1
        answer = self._decide(args=[self.journal(), self.address.prefix, *args,
                                    self.in_flight(), adopted])
        return [int(x) for x in answer]

    def committed(self) -> None:
        """The owner's SQLite commit of ``epoch`` is durable: its additions now count."""
        self.round_trips += 1
        self._client.delete(self.journal())  # type: ignore[attr-defined]
        self.epoch += 1

    def release(self, epoch: int | None = None) -> int:
        """Take back every addition journaled under ``epoch`` (default: the open one, and
        the URLs still in flight)."""
        journals = [self.journal(epoch)] if epoch is not None else [
            self.journal(), self.in_flight()]
        return sum(self._release_journal(name) for name in journals)

    def _release_journal(self, name: str) -> int:
        self.round_trips += 1
        return int(self._release(args=[name, self.address.prefix, self.signature_bytes,
                                       SIGNATURES_PER_BLOCK]))

    def for_owner(self, owner: str) -> RedisIndex:
        """The same index as seen by another ``owner`` (to release what it left behind)."""
        sibling = copy.copy(self)
        sibling.owner = owner
        return sibling

    def abandon(self) -> int:
        """Release every addition this owner journaled, of every epoch, and its URLs in flight.

        For the folder of a crawl process that died for good: another process
        redoes its uncommitted pages, which must not count as duplicates of
        themselves. (An epoch whose SQLite commit landed in the instant before
        the process died, its journal not yet dropped, is released too.)
        """
        undone = self._release_journal(self.in_flight())
        pattern = f"{self.address.prefix}j:{self.owner}:*"
        for name in list(self._client.scan_iter(match=pattern)):  # type: ignore[attr-defined]
            undone += self._release_journal(name.decode())
        return undone

    def recover(self, committed_epoch: int) -> None:
        """Adopt this owner's journals up to ``committed_epoch``; release later ones and
        the URLs left in flight (their pages were never checked)."""
        self._release_journal(self.in_flight())
        pattern = f"{self.address.prefix}j:{self.owner}:*"
        for name in self._client.scan_iter(match=pattern):  # type: ignore[attr-defined]
            epoch = int(name.rsplit(b":", 1)[1])
            if epoch <= committed_epoch:
                self._client.delete(name)  # type: ignore[attr-defined]
            else:
                undone = self.release(epoch)
                logger.warning("released %d dedup entries of an uncommitted run of %s",
                               undone, self.owner)

    def check_parameters(self, parameters: dict[str, str]) -> None:
        """Store the parameters on first use; refuse an index made with others."""
        wanted = {**parameters, **self.layout.parameters(),
                  "signature_bytes": str(self.signature_bytes)}
        meta = f"{self.address.prefix}meta"
        for key, value in wanted.items():
            self._client.hsetnx(meta, key, value)  # type: ignore[attr-defined]
        stored = {k.decode(): v.decode()
                  for k, v in self._client.hgetall(meta).items()}  # type: ignore[attr-defined]
        differing = {k: (stored[k], v) for k, v in wanted.items() if stored.get(k) != v}
        if differing:
            raise IndexMismatchError(
                f"the Redis dedup index was built with {built_with(differing)}; use the same "
                "options, or another prefix or database")

    def memory(self) -> int:
        """Bytes Redis uses in all (``used_memory``)."""
        return int(self._client.info("memory")["used_memory"])  # type: ignore[attr-defined]

    def close(self) -> None:
        self._client.close()  # type: ignore[attr-defined]
