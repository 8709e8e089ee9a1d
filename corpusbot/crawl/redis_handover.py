"""Reliable hand-over of requests between the shared queue and the crawl processes.

scrapy-redis pops a request from the shared queue and forgets it: a process
killed before the response is handled loses it. Here each process (a
*worker*, named by its folder) takes a request by moving it, in one Lua
script, from the queue into its own *held* hash in Redis (the encoded
request and its priority). The request leaves that hash (is acknowledged)
only once its outcome is durable:

- when the corpus commits (the ``corpus_committed`` signal), every held
  request the engine has finished with: its callback ran, its links are in
  the shared queue, and its items went through the pipelines, so the
  documents they made are in the commit that just ended. A request still
  in progress waits for the next commit. One pipelined round trip per
  commit acknowledges them all;
- at once, in the same step as the push, when the downloader turns it
  into another request (a retry, a redirect): the new one is queued, the
  old one is done.

A request is marked seen (the shared fingerprints) in the same Lua step
that queues it (``PUSH``): a process killed between the two lost the
request for good, and every page reached only through it.

What a worker still holds when it dies goes back to work: the same worker
started again (same ``--worker``, same folder) takes its held requests
first, before the queue; its archive already holds the responses it wrote,
which are not written again (``corpusbot.archive.resume``), and its corpus
resumed at its last commit. A worker that does not come back stops
refreshing its ``alive`` key; once that expires, any other process releases
the dedup entries its uncommitted pages made, so they are not taken for
duplicates of themselves, then moves its held requests back to the queue.
A worker that was only silent (stopped, swapping) and goes on is refused
every addition and its next commit by the shared dedup index
(``corpusbot.dedup.redis_calls``), stops at its last commit (finish reason
``taken-over``) and queues again what it took since: the pages it had not
committed are the others' now. One silent in the middle of a commit is
waited for, up to a minute: its commit may have landed, and the others
would keep its pages again. Past that minute (or killed between its SQLite
commit and Redis's confirmation) its last commit is undone when its folder
is opened again (``RedisIndex.lost_commit``): the pages are the others'.
"""

from __future__ import annotations

import logging
import socket
from typing import Any, Self

from scrapy import Request, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import DontCloseSpider
from scrapy_redis.queue import PriorityQueue
from scrapy_redis.scheduler import Scheduler

from corpusbot.crawl.default_settings import CorpusbotSettings
from corpusbot.crawl.redis_frontier import busy_key, busy_seconds, identity
from corpusbot.crawl.signals import TAKEN_OVER_STAT, corpus_committed

logger = logging.getLogger(__name__)

HELD_KEY = "corpusbot_held"
"""``request.meta`` key: this process's number for a request it holds."""

TAKE = """
-- KEYS: the queue (sorted set), this worker's held hash, its busy key. ARGV: how long a
-- busy mark lasts. Move the first request over and mark the taker busy at the same instant.
local first = redis.call("ZRANGE", KEYS[1], 0, 0, "WITHSCORES")
if #first == 0 then return false end
redis.call("ZREM", KEYS[1], first[1])
redis.call("HSET", KEYS[2], first[1], first[2])
redis.call("SET", KEYS[3], "1", "EX", ARGV[1])
return first
"""

PUSH = """
-- KEYS: the queue, this worker's held hash, the fingerprint's bucket. ARGV: the score, the
-- encoded request, the held request it replaces or "", the fingerprint's field or "" (not
-- filtered). Seen mark, push and acknowledgement in one step: a process killed between
-- marking a link seen and queueing it lost the link for good (its page, redone, finds the
-- link seen), and every page reached only through it. Marked after the push: a command
-- that fails stops the script without undoing what ran before it, and a link queued but
-- not marked is at worst queued twice, never lost.
if ARGV[4] ~= "" and redis.call("HEXISTS", KEYS[3], ARGV[4]) == 1 then return 0 end
redis.call("ZADD", KEYS[1], ARGV[1], ARGV[2])
if ARGV[4] ~= "" then redis.call("HSET", KEYS[3], ARGV[4], "") end
if ARGV[3] ~= "" then redis.call("HDEL", KEYS[2], ARGV[3]) end
return 1
"""

REQUEUE = """
-- Every request of the held hash `held` back to the queue `queue`, at its priority.
local function requeue(held, queue)
  local members = redis.call("HGETALL", held)
  for i = 1, #members, 2 do redis.call("ZADD", queue, members[i + 1], members[i]) end
  redis.call("DEL", held)
  return #members / 2
end
"""

SILENT = """
-- KEYS: the workers set. ARGV: the crawl's key prefix, this worker's name. Every other
-- worker whose alive key expired.
local silent = {}
for _, name in ipairs(redis.call("SMEMBERS", KEYS[1])) do
  if name ~= ARGV[2] and redis.call("EXISTS", ARGV[1] .. "alive:" .. name) == 0 then
    silent[#silent + 1] = name
  end
end
return silent
"""

ADOPT = REQUEUE + """
-- KEYS: the workers set, the queue. ARGV: the crawl's key prefix, a worker's name. Its
-- held requests back to the queue, and its name off the list: how many (-1 when it is
-- alive again, or another process adopted it first).
local name = ARGV[2]
if redis.call("SISMEMBER", KEYS[1], name) == 0
    or redis.call("EXISTS", ARGV[1] .. "alive:" .. name) == 1 then
  return -1
end
local count = requeue(ARGV[1] .. "held:" .. name, KEYS[2])
redis.call("SREM", KEYS[1], name)
return count
"""

HAND_BACK = REQUEUE + """
-- KEYS: this worker's held hash, the queue. Everything it holds back to the queue.
return requeue(KEYS[1], KEYS[2])
"""


class HandOverQueue(PriorityQueue):
    """scrapy-redis's priority queue whose pops are held for a worker until acknowledged."""

    held_key = ""
    busy_key = ""
    busy_for = 0

    def take(self) -> tuple[Request, bytes] | None:
        """The next request and its encoded form, now held by this worker.

        The worker counts as busy (``SharedIdle``) from that instant. Marked only at its
        next heartbeat, it once looked idle for up to a second with a page in progress:
        another process that finished then took the whole crawl for done and cleared the
        shared fingerprints, and that page's link to the start page fetched it again."""
        first = self._take(keys=[self.key, self.held_key, self.busy_key], args=[self.busy_for])
        return (self._decode_request(first[0]), first[0]) if first else None

    def push(self, request: Request, done: bytes | None = None,
             seen: tuple[str, bytes] | None = None) -> bool:
        """Queue ``request`` unless its fingerprint's place ``seen`` (bucket, field) is marked
        already, then mark it; acknowledge the held ``done`` in the same step. False when
        it was seen (nothing changed)."""
        bucket, field = seen or (self.key, b"")
        return bool(self._push(keys=[self.key, self.held_key, bucket],
                               args=[-request.priority, self._encode_request(request),
                                     done or b"", field]))

    def ack(self, members: list[bytes]) -> None:
        self.server.hdel(self.held_key, *members)

    def held(self) -> list[tuple[Request, bytes]]:
        """What this worker held when it last stopped, best priority first."""
        found = self.server.hgetall(self.held_key)
        ranked = sorted(found.items(), key=lambda pair: float(pair[1]))
        return [(self._decode_request(member), member) for member, _ in ranked]

    def attach(self, held_key: str, busy_key: str, busy_for: int) -> None:
        self.held_key, self.busy_key, self.busy_for = held_key, busy_key, busy_for
        self._take = self.server.register_script(TAKE)
        self._push = self.server.register_script(PUSH)
        self.silent_script = self.server.register_script(SILENT)
        self.adopt_script = self.server.register_script(ADOPT)
        self._hand_back = self.server.register_script(HAND_BACK)

    def hand_back(self) -> int:
        """Queue again everything this worker holds; how many requests that was."""
        return int(self._hand_back(keys=[self.held_key, self.key]))


class HandOverScheduler(Scheduler):
    """scrapy-redis's scheduler with held requests, acknowledged at the corpus commit."""

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        scheduler = super().from_crawler(crawler)
        settings = CorpusbotSettings(crawler.settings)
        scheduler.crawler = crawler
        scheduler.prefix = f"{settings.get('CORPUSBOT_REDIS_CRAWL')}:"
        scheduler.worker = settings.get("CORPUSBOT_REDIS_WORKER") or (
            f"{socket.gethostname()}:{settings.layout().root}")
        scheduler.heartbeat = settings.getfloat("CORPUSBOT_REDIS_HEARTBEAT_SECONDS")
        scheduler.ack_at_close = not settings.getbool("CORPUSBOT_CORPUS_ENABLED")
        scheduler.holding = {}  # number -> (request, encoded)
        scheduler.recovered = []
        scheduler.numbers = 0
        scheduler.beat = None
        crawler.signals.connect(scheduler.settle, signal=corpus_committed)
        crawler.signals.connect(scheduler.idle, signal=signals.spider_idle)
        return scheduler

    def open(self, spider: Any) -> None:
        super().open(spider)
        if not hasattr(self.crawler.engine, "_slot"):
            raise RuntimeError("this Scrapy's engine keeps no requests in progress: "
                               "the Redis hand-over cannot tell finished requests")
        if not hasattr(self.df, "place_of"):
            raise RuntimeError(f"DUPEFILTER_CLASS {type(self.df).__name__} cannot mark a "
                               "request seen in the step that queues it; a shared crawl needs "
                               "corpusbot.crawl.redis_frontier.CompactDupeFilter")
        self.queue.attach(f"{self.prefix}held:{self.worker}",
                          busy_key(self.prefix, identity(self.crawler)),
                          busy_seconds(self.heartbeat))
        self._alive()
        self._publish_dedup_owner()
        self.recovered = self.queue.held()
        if self.recovered:
            logger.info("taking back %d requests this worker held when it stopped",
                        len(self.recovered))
            self.stats.inc_value("corpusbot/handover/recovered", len(self.recovered))
        self.adopt()
        from twisted.internet.task import LoopingCall  # noqa: PLC0415  (after the reactor)

        self.beat = LoopingCall(self._beat)
        self.beat.start(self.heartbeat / 3, now=False)

    def close(self, reason: str) -> None:
        if self.beat is not None and self.beat.running:
            self.beat.stop()
        if self.ack_at_close:
            self.settle()
        if self.stats.get_value(TAKEN_OVER_STAT):
            self._hand_back()
        if not self.holding and not self.recovered:  # nothing left for anyone to take over
            self.server.srem(f"{self.prefix}workers", self.worker)
            self.server.delete(f"{self.prefix}alive:{self.worker}")
        super().close(reason)

    def enqueue_request(self, request: Request) -> bool:
        """Queue ``request`` unless it was seen, in one step (``PUSH``)."""
        parent = self._replaced(request)
        seen = None if request.dont_filter else self.df.place_of(request)
        done = None if parent is None else self.holding[parent][1]
        if not self.queue.push(request, done, seen):
            self.df.log(request, self.spider)
            return False
        if parent is not None:
            del self.holding[parent]
            self.stats.inc_value("corpusbot/handover/acked")
        self.stats.inc_value("scheduler/enqueued/redis")
        return True

    def next_request(self) -> Request | None:
        if self.recovered:
            request, member = self.recovered.pop(0)
            self.server.set(self.queue.busy_key, b"1", ex=self.queue.busy_for)  # as take does
        else:
            taken = self.queue.take()
            if taken is None:
                return None
            request, member = taken
        self.stats.inc_value("scheduler/dequeued/redis")
        self.numbers += 1
        request.meta[HELD_KEY] = self.numbers
        self.holding[self.numbers] = (request, member)
        return request

    def has_pending_requests(self) -> bool:
        return bool(self.recovered) or len(self) > 0

    def settle(self) -> None:
        """Acknowledge every held request the engine has finished with (module docstring)."""
        busy = self.crawler.engine._slot.inprogress if self.crawler.engine._slot else set()
        done = [number for number, (request, _) in self.holding.items() if request not in busy]
        if not done:
            return
        self.queue.ack([self.holding.pop(number)[1] for number in done])
        self.stats.inc_value("corpusbot/handover/acked", len(done))
        self.stats.inc_value("corpusbot/handover/ack_round_trips")

    def idle(self) -> None:
        """Nothing left here: first take over what dead workers held."""
        if self.adopt():
            raise DontCloseSpider("took over the requests of a stopped worker")

    def adopt(self) -> int:
        """Queue again the held requests of workers whose heartbeat expired.

        The dedup entries of a worker's uncommitted pages are released first, and its
        requests queued after: the other way round, a page redone at once could find its
        own entries and be dropped as a copy, and an adopter killed in between left them
        so for good. A worker silent in the middle of a commit is left to a later beat
        (``RedisIndex.abandon``): it may be only stalled, with its commit landed."""
        workers = f"{self.prefix}workers"
        moved = 0
        for name in (raw.decode() for raw in self.queue.silent_script(
                keys=[workers], args=[self.prefix, self.worker])):
            released = self._release_dedup(name)
            if released is None:
                logger.info("worker %s went silent in the middle of a commit: waiting for "
                            "it", name)
                continue
            count = int(self.queue.adopt_script(keys=[workers, self.queue.key],
                                                args=[self.prefix, name]))
            if count < 0 or not (count or released):
                continue  # alive again or adopted by another process; or it held nothing
            logger.warning("worker %s stopped: %d requests it held are queued again, %d "
                           "dedup entries of its uncommitted pages released",
                           name, count, released)
            moved += count
        self.stats.inc_value("corpusbot/handover/adopted", moved)
        return moved

    def _replaced(self, request: Request) -> int | None:
        """The number of the held request ``request`` was made from by the downloader (a
        retry or a redirect: its count of those is higher), which it replaces once queued."""
        number = request.meta.get(HELD_KEY)
        if number not in self.holding:
            return None
        parent = self.holding[number][0]
        if not any(request.meta.get(key, 0) > parent.meta.get(key, 0)
                   for key in ("retry_times", "redirect_times")):
            return None  # a link that carries its page's meta along
        return int(number)

    def _alive(self) -> None:
        """Alive for one more heartbeat, and on the crawl's list of workers.

        The list is renewed with the key: a worker that stalled past its heartbeat (swapping,
        a loaded machine) was taken for dead and struck off by whoever adopted its requests;
        off the list, the requests it takes afterwards would never be adopted if it then
        died, and the crawl would end without them."""
        with self.server.pipeline(transaction=False) as pipe:
            pipe.set(f"{self.prefix}alive:{self.worker}", b"1", px=int(self.heartbeat * 1000))
            pipe.sadd(f"{self.prefix}workers", self.worker)  # after the key: never listed dead
            pipe.execute()

    def _hand_back(self) -> None:
        """Taken over: what was held before is in the queue already, and what was taken
        since goes back now, uncommitted. Left held, it would wait for this worker's
        heartbeat to expire while the others may have stopped."""
        count = self.queue.hand_back()
        logger.warning("queued again the %d requests this worker took since it was taken "
                       "for dead", count)
        self.stats.inc_value("corpusbot/handover/handed_back", count)
        self.holding.clear()
        self.recovered.clear()

    def _beat(self) -> None:
        self._alive()
        self.adopt()

    def _publish_dedup_owner(self) -> None:
        """Record which dedup owner this worker's folder is, for whoever adopts its work."""
        index = self._dedup_index()
        if index is not None:
            self.server.hset(f"{self.prefix}owners", self.worker, index.owner)

    def _release_dedup(self, name: str) -> int | None:
        """Release the dedup entries of worker ``name``'s uncommitted pages: how many, or
        None while a commit of its is under way."""
        index, owner = self._dedup_index(), self.server.hget(f"{self.prefix}owners", name)
        if index is None or owner is None:
            return 0
        return index.abandon(owner.decode())

    def _dedup_index(self) -> Any:
        """The shared dedup index of this process's corpus (None without one): the one whose
        entries belong to an owner that another process may have to release."""
        for component in getattr(self.crawler.engine.scraper.itemproc, "middlewares", ()):
            corpus = getattr(component, "corpus", None)
            index = getattr(corpus, "index", None) if corpus is not None else None
            if hasattr(index, "abandon"):
                return index
        return None
