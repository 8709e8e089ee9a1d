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
SQLite commit, then drops the journal and records the epoch as confirmed
(``committed``). On reopening, ``recover`` adopts journals of committed
epochs and releases the others: a task that died before committing leaves
nothing that would make its retried documents duplicates. A commit that
landed but was released before it was confirmed (the owner taken over in
between) is undone by the folder (``lost_commit``): its pages are redone
elsewhere.

Each entry a kept document adds holds the document's id (8 bytes: the
``owner``), so that a drop can name what it copies; copies dropped for a
kept document are counted in bucketed hashes (``n``), journaled like the
rest. Calls go through ``redis_calls``: retried for a bounded time when
Redis stops answering, answered once, and refused once the index's
generation changed (an emptied Redis: ``corpusbot dedup rebuild``).
"""

from __future__ import annotations

import copy
import logging
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from corpusbot.dedup.backends import IndexHandedOverError
from corpusbot.dedup.index import IndexMismatchError, built_with
from corpusbot.dedup.redis_calls import (
    HANDED_FIELD,
    HANDED_OVER,
    RETRY_SECONDS_DEFAULT,
    Caller,
    client,
    once,
)
from corpusbot.dedup.redis_scripts import (
    ABANDON,
    ADD,
    ADOPT,
    BEGIN_COMMIT,
    CLAIM,
    CLAIM_IN_FLIGHT,
    CONFIRM,
    COPY,
    DECIDE,
    RELEASE,
    REOWN,
)
from corpusbot.redis_keys import (
    CAPACITY_DEFAULT,
    PREFIX_DEFAULT,
    SIGNATURES_PER_BLOCK,
    DedupKeys,
    Layout,
)

logger = logging.getLogger(__name__)

SCHEMES = ("redis", "rediss", "unix")
COMMITTING_SECONDS = 60.0
"""How long an owner's commit counts as under way (``begin_commit``) unless it ends first:
far longer than a commit takes, short enough that the work of an owner that died in one is
taken over within a minute."""


@dataclass(slots=True, frozen=True)
class RedisAddress:
    """Where the index lives: a redis-py URL, plus corpusbot's own ``capacity``, ``prefix``
    and ``retry_seconds`` (``corpusbot.dedup.redis_calls``)."""

    url: str
    capacity: int = CAPACITY_DEFAULT
    prefix: str = PREFIX_DEFAULT
    retry_seconds: float = RETRY_SECONDS_DEFAULT

    @classmethod
    def parse(cls, text: str) -> RedisAddress:
        """``redis://host:port/db?capacity=N&prefix=P&retry_seconds=S``; a clear error for
        anything else."""
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
        retry = query.pop("retry_seconds", str(RETRY_SECONDS_DEFAULT))
        try:
            retry_seconds = float(retry)
        except ValueError:
            retry_seconds = -1.0
        if not 0 <= retry_seconds < float("inf"):
            raise ValueError(f"retry_seconds must be a number of seconds, got {retry}")
        url = urlunsplit(parts._replace(query=urlencode(query)))
        return cls(url, int(capacity), prefix, retry_seconds)


def owner_bytes(owner: int) -> bytes:
    """An index owner (a ``Document.id`` as a signed integer) as the 8 bytes Redis keeps."""
    return (owner & 0xFFFFFFFFFFFFFFFF).to_bytes(8, "big")


def owner_from_bytes(value: bytes) -> int:
    """The owner of 8 stored bytes; 0 (unknown) for anything else, as entries made before
    owners were kept (empty values) or a zeroed slot."""
    if len(value) != 8:
        return 0
    return int.from_bytes(value, "big", signed=True)


class RedisIndex:
    """Dedup storage in Redis, owned per corpus folder; see the module docstring."""

    def __init__(self, redis_client: Any, address: RedisAddress, owner: str, epoch: int, *,
                 bands: int, signature_bytes: int) -> None:
        self._client = redis_client
        self.address, self.owner = address, owner
        self.keys = DedupKeys(address.prefix)
        self.layout = Layout(address.prefix, address.capacity, bands)
        self.signature_bytes = signature_bytes
        self.epoch = epoch  # the epoch additions are journaled under until the next commit
        self.round_trips = 0
        self._generation_id = self._made_generation()
        self.calls = Caller(address.url, self.keys.calls(owner), self.keys.generation,
                            self._generation_id, address.retry_seconds)
        register = redis_client.register_script
        self._claim, self._decide = register(once(CLAIM)), register(once(DECIDE))
        self._claim_in_flight = register(once(CLAIM_IN_FLIGHT))
        self._add, self._copy, self._reown = register(once(ADD)), register(once(COPY)), \
            register(once(REOWN))
        self._adopt, self._release = register(ADOPT), register(RELEASE)
        self._begin_commit, self._abandon = register(BEGIN_COMMIT), register(ABANDON)
        self._confirm = register(once(CONFIRM))

    @classmethod
    def connect(cls, address: RedisAddress, owner: str, committed_epoch: int, *,
                bands: int, signature_bytes: int,
                undo: Callable[[], int] | None = None) -> RedisIndex:
        """Connect, check the server answers, and recover this owner's journals.

        ``undo`` brings the owner's folder back to the commit before its last one and
        returns that commit's epoch; it is called when the last commit was lost to another
        process (``lost_commit``)."""
        import redis  # optional extra: corpusbot[redis]  # noqa: PLC0415

        made = client(address.url)
        try:
            made.ping()
        except redis.RedisError as error:
            raise ConnectionError(f"cannot reach the Redis dedup index at {address.url}: "
                                  f"{error}") from error
        index = cls(made, address, owner, committed_epoch + 1, bands=bands,
                    signature_bytes=signature_bytes)
        if undo is not None and index.lost_commit(committed_epoch):
            committed_epoch = undo()
            index.epoch = committed_epoch + 1
        index.recover(committed_epoch)
        return index

    def generation(self) -> str:
        """The generation id this index was opened at (``corpusbot.dedup.redis_calls``)."""
        return self._generation_id

    def _made_generation(self) -> str:
        """The index's generation id, made on first use: an emptied Redis gets a new one."""
        key = self.keys.generation
        self._client.set(key, uuid.uuid4().hex, nx=True)
        return str(self._client.get(key).decode())

    def journal(self, epoch: int | None = None) -> str:
        return self.keys.journal(self.owner, self.epoch if epoch is None else epoch)

    def claim(self, kind: str, key: int, owner: bytes = b"") -> bool:
        """Add ``key`` of ``kind`` (for the kept document ``owner``) unless present; True when
        this call added it."""
        name, field = self.layout.place(kind, key)
        self.round_trips += 1
        return bool(self.calls.script(self._claim, [name, field, self.journal(), owner]))

    def in_flight(self) -> str:
        """The set of URLs claimed by pages read but not yet checked."""
        return self.keys.in_flight(self.owner)

    def claim_in_flight(self, kind: str, key: int) -> bytes | None:
        """Claim ``key`` for a page about to be processed: its journal item, or None when
        it was known. The item joins an epoch when ``decide`` or ``adopt`` gets it."""
        name, field = self.layout.place(kind, key)
        self.round_trips += 1
        if not self.calls.script(self._claim_in_flight, [name, field, self.in_flight()]):
            return None
        return b"h" + name.encode() + b"\n" + field

    def adopt(self, item: bytes) -> None:
        """The in-flight claim ``item`` now belongs to the open epoch."""
        self.round_trips += 1
        self.calls.run(lambda: self._adopt(args=[self.in_flight(), item, self.journal()]))

    def decide(self, args: Sequence[bytes | str | int | float], adopted: bytes = b"",
               owner: bytes = b"", url: tuple[str, bytes] = ("", b"")) -> list[Any]:
        """Run the DECIDE script (``args`` between the prefix and the in-flight set, see
        the script), adopting the in-flight URL claim ``adopted`` on the way; ``owner`` and
        the URL's place name the document on the entries it adds."""
        self.round_trips += 1
        return list(self.calls.script(self._decide, [self.journal(), self.address.prefix,
                                                     *args, self.in_flight(), adopted,
                                                     owner, *url]))

    def add(self, args: Sequence[bytes | str | int | float]) -> None:
        """Run the ADD script (rebuilding: a kept document's entries, unchecked)."""
        self.round_trips += 1
        self.calls.script(self._add, [self.journal(), self.address.prefix, *args])

    def reown(self, old: int, new: int, doc: int, places: Sequence[tuple[str, bytes]]) -> None:
        """Entries of owner ``old`` (and signature slot ``doc``) now belong to ``new``."""
        self.round_trips += 1
        args: list[bytes | str | int] = [owner_bytes(old), owner_bytes(new), self.address.prefix,
                                         SIGNATURES_PER_BLOCK, doc]
        for name, field in places:
            args += [name, field]
        self.calls.script(self._reown, args)

    def url_owner(self, key: int) -> int | None:
        """The kept document of URL ``key`` (0 unknown), or None when it is not known."""
        self.round_trips += 1
        value = self.calls.run(lambda: self._client.hget(*self.layout.place("u", key)))
        return None if value is None else owner_from_bytes(value)

    def add_copy(self, owner: int) -> None:
        """One more copy dropped for the kept document ``owner`` (journaled)."""
        self.round_trips += 1
        name, field = self.layout.place("n", owner)
        self.calls.script(self._copy, [name, field, self.journal()])

    def copies(self, owners: Sequence[int]) -> dict[int, int]:
        """The copies dropped for each of ``owners`` that has any."""
        pipe = self._client.pipeline(transaction=False)
        for owner in owners:
            pipe.hget(*self.layout.place("n", owner))
        counts = self.calls.run(pipe.execute)
        return {o: int(n) for o, n in zip(owners, counts, strict=True) if n and int(n) > 0}

    def committed(self) -> None:
        """The owner's SQLite commit of ``epoch`` is durable: its additions now count, its
        commit is no longer under way, and the epoch is recorded as confirmed.

        Raises ``IndexHandedOverError`` when another process took the owner over first
        (it stalled in the commit past ``COMMITTING_SECONDS``): that process released the
        epoch and redoes its pages, so the commit that landed is undone when the folder is
        opened again (``lost_commit``); confirmed, both folders would keep the pages.
        """
        self.round_trips += 1
        self.calls.script(self._confirm, [self.journal(), self.keys.committing(self.owner),
                                          self.keys.confirmed(self.owner), self.epoch])
        self.epoch += 1

    def lost_commit(self, committed_epoch: int) -> bool:
        """Whether the folder's last commit (``committed_epoch``) landed but was never
        confirmed, and its journal is gone: released by a process that took the owner over
        (or by this folder's own abort), so its pages are redone and count as new. The
        folder must undo that commit. An owner never confirmed under this scheme (an index
        older than it, or emptied since) tells nothing: False."""
        confirmed = self._client.get(self.keys.confirmed(self.owner))
        return (confirmed is not None and int(confirmed) < committed_epoch
                and not self._client.exists(self.journal(committed_epoch)))

    def release(self, epoch: int | None = None, *, retry: bool = True) -> int:
        """Take back every addition journaled under ``epoch`` (default: the open one, and
        the URLs still in flight)."""
        journals = [self.journal(epoch)] if epoch is not None else [
            self.journal(), self.in_flight()]
        undone = sum(self._release_journal(name, retry=retry) for name in journals)
        if epoch is None:  # an abort: no commit of this owner is under way any more
            mark = self.keys.committing(self.owner)
            self.calls.run(lambda: self._client.delete(mark), retry=retry)
        return undone

    def _release_journal(self, name: str, *, retry: bool = True) -> int:
        self.round_trips += 1
        return int(self.calls.run(lambda: self._release(
            args=[name, self.address.prefix, self.signature_bytes, SIGNATURES_PER_BLOCK]),
            retry=retry))

    def for_owner(self, owner: str) -> RedisIndex:
        """The same index as seen by another ``owner`` (to release what it left behind)."""
        sibling = copy.copy(self)
        sibling.owner = owner
        return sibling

    def abandon(self) -> int | None:
        """Release every addition this owner journaled, of every epoch, and its URLs in
        flight; None, releasing nothing, while a commit of the owner is under way.

        For the folder of a crawl process taken for dead: another process redoes
        its uncommitted pages, which must not count as duplicates of themselves.
        The owner is marked first (``HANDED_FIELD``): a process that was only
        stalled (swapping, a frozen machine) and goes on is refused every addition
        from then on, which could make the others' redone pages duplicates, and
        its next commit (``begin_commit``), which would keep them twice. An owner
        that stalled inside a commit may have landed it in SQLite: released, that
        epoch's pages would be kept again by the others. So its commit mark is
        waited for, up to ``COMMITTING_SECONDS``.
        """
        calls = self.keys.calls(self.owner)
        if not self.calls.run(lambda: self._abandon(
                keys=[calls, self.keys.committing(self.owner)])):
            return None
        undone = self._release_journal(self.in_flight())
        pattern = self.keys.journal(self.owner, "*")
        for name in list(self._client.scan_iter(match=pattern)):
            undone += self._release_journal(name.decode())
        return undone

    def begin_commit(self) -> None:
        """Before the owner's SQLite commit: mark it under way (``abandon`` waits for it),
        or raise ``IndexHandedOverError`` when another process released what this owner
        has not committed yet: committing it now would keep those pages twice."""
        self.round_trips += 1
        keys = [self.keys.calls(self.owner), self.keys.committing(self.owner)]
        milliseconds = int(COMMITTING_SECONDS * 1000)
        if not self.calls.run(lambda: self._begin_commit(keys=keys, args=[milliseconds])):
            raise IndexHandedOverError(HANDED_OVER)

    def recover(self, committed_epoch: int) -> None:
        """Adopt this owner's journals up to ``committed_epoch``; release later ones and
        the URLs left in flight (their pages were never checked). A mark of ``abandon`` is
        cleared: the folder starts again from its last commit, which counts as confirmed."""
        self._client.hdel(self.keys.calls(self.owner), HANDED_FIELD)
        self._client.delete(self.keys.committing(self.owner))  # it died in a commit
        self._release_journal(self.in_flight())
        pattern = self.keys.journal(self.owner, "*")
        for name in self._client.scan_iter(match=pattern):
            epoch = int(name.rsplit(b":", 1)[1])
            if epoch <= committed_epoch:
                self._client.delete(name)
            else:
                undone = self.release(epoch)
                logger.warning("released %d dedup entries of an uncommitted run of %s",
                               undone, self.owner)
        self._client.set(self.keys.confirmed(self.owner), committed_epoch)

    def check_parameters(self, parameters: dict[str, str]) -> None:
        """Store the parameters on first use; refuse an index made with others."""
        wanted = {**parameters, **self.layout.parameters(),
                  "signature_bytes": str(self.signature_bytes)}
        meta = self.keys.meta
        for key, value in wanted.items():
            self._client.hsetnx(meta, key, value)
        stored = {k.decode(): v.decode() for k, v in self._client.hgetall(meta).items()}
        differing = {k: (stored[k], v) for k, v in wanted.items() if stored.get(k) != v}
        if differing:
            raise IndexMismatchError(
                f"the Redis dedup index was built with {built_with(differing)}; use the same "
                "options, or another prefix or database")

    def memory(self) -> int:
        """Bytes Redis uses in all (``used_memory``)."""
        return int(self._client.info("memory")["used_memory"])

    def close(self) -> None:
        self._client.close()
