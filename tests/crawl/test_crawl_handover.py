"""The hand-over of requests in a shared crawl: kill -9, restarts, dead workers, politeness.

Real processes against the local news site and a real redis-server.
"""

from __future__ import annotations

import re
import signal
import statistics
import subprocess
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("scrapy_redis", reason="scrapy-redis is missing: "
                    "pip install corpusbot[distributed-crawl]")

import itertools

from scrapy import Request, Spider
from scrapy.core.downloader import Slot
from scrapy.exceptions import DontCloseSpider

from corpusbot.crawl.redis_frontier import (
    LEASE_MARGIN_SECONDS,
    CompactDupeFilter,
    SharedIdle,
    SharedPoliteness,
    local_wait,
)
from corpusbot.crawl.redis_handover import ADOPT, SILENT, HandOverQueue
from corpusbot.crawl.sites import load_site_config
from corpusbot.redis_keys import PREFIX_DEFAULT
from tests.crashes import archived_responses
from tests.crawl.test_crawl_redis import GATED, Watched, crawler_process, started_together
from tests.newssite.client import NewsSite, corpus_records, crawl_stats

SLOW = ("CONCURRENT_REQUESTS=2", "CONCURRENT_REQUESTS_PER_DOMAIN=2")
COMMITS = ("CORPUSBOT_CORPUS_COMMIT_ITEMS=2",)  # many commits, so many acknowledgements


def _server(redis_url: str):
    import redis

    return redis.Redis.from_url(redis_url)


def _finish(process: subprocess.Popen[str]) -> None:
    _, errors = process.communicate(timeout=240)
    assert process.returncode == 0, errors[-3000:]


def _kill(crawler: Watched | subprocess.Popen[str]) -> None:
    watched = isinstance(crawler, Watched)
    process = crawler.process if watched else crawler
    process.kill()
    process.wait(timeout=30)
    # Not read to their end: helpers of the killed process may hold them open a while. A
    # watched process's log is its reader thread's to finish.
    for stream in (process.stdout,) if watched else (process.stdout, process.stderr):
        if stream is not None:
            stream.close()
    time.sleep(0.5)  # its processing worker notices and exits, freeing the folder


def _finished_or_run_again(site: NewsSite, out: Path, redis_url: str, name: str,
                           end: tuple[int, str], *settings: str) -> None:
    """Worker ``name`` ended (``end``: its exit code and log) or stopped taken for dead.

    With the 2 s heartbeat of these tests, a loaded machine can make a process miss it
    while the others go on: it is taken for dead and stops at its last commit (exit 2).
    That is the protocol at work; the process is run again, as its message says, and the
    crawl ends all the same."""
    code, errors = end
    if code != 0:
        assert code == 2 and "took this one for dead" in errors, errors
        _finish(crawler_process(site, out, redis_url, name, *settings))


def _started_after_reference(site: NewsSite, out: Path, redis_url: str,
                             *settings: str) -> list[Watched]:
    """"one" and "two" started together once the reference crawl is done: both find the
    whole crawl still to do (a late process once found it finished and nothing to hold)."""
    site.shut()
    return started_together(site, out, redis_url, *settings)


def _wait_until(condition, seconds: float = 60, every: float = 0.05) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(every)
    return False


def _reference(site: NewsSite, out: Path, redis_url: str) -> Counter[str]:
    """Document ids of one uninterrupted process (its own crawl and dedup keys)."""
    _finish(crawler_process(site, out, redis_url, "ref", "CORPUSBOT_REDIS_CRAWL=reference",
                            f"CORPUSBOT_DEDUP_URL={redis_url}?prefix=ref:"))
    return Counter(record["id"] for record in corpus_records(out / "ref"))


def _uncommitted(server, worker: str) -> Iterator[bytes]:
    """The journals of a worker's dedup additions since its last commit (each commit drops
    them): not empty once it kept a page it has not committed yet."""
    owner = server.hget("corpusbot:owners", worker)
    return server.scan_iter(match=f"{PREFIX_DEFAULT}j:{owner.decode()}:*") if owner else iter(())


def _merged(out: Path) -> tuple[Counter[str], Counter[str]]:
    """Document ids and archived 200 responses (by URL) over every worker folder."""
    ids: Counter[str] = Counter()
    archived: Counter[str] = Counter()
    for folder in sorted(p for p in out.iterdir() if p.is_dir()):
        ids.update(record["id"] for record in corpus_records(folder))
        archived.update(archived_responses(folder))
    return ids, archived


def test_a_process_killed_and_started_again_loses_and_repeats_nothing(
        tmp_path: Path, redis_url: str) -> None:
    held = _server(redis_url)
    with NewsSite(latency=0.5) as site:
        expected = _reference(site, tmp_path / "reference", redis_url)
        out = tmp_path / "out"
        one: Watched | subprocess.Popen[str]
        one, two = _started_after_reference(site, out, redis_url, *SLOW, *COMMITS)
        kills = 0
        # first kill: while "one" holds requests; second: during its recovery
        for ready in (lambda: held.hlen("corpusbot:held:one") >= 2,
                      lambda: time.sleep(1.5) or True):
            assert _wait_until(ready)
            if (one.process if isinstance(one, Watched) else one).poll() is not None:
                break
            _kill(one)
            kills += 1
            one = crawler_process(site, out, redis_url, "one", *SLOW, *COMMITS)
        assert not isinstance(one, Watched)
        _finish(one)
        code, errors = two.finish(timeout=240)
        assert code == 0, errors
    assert kills == 2
    ids, archived = _merged(out)
    assert ids == expected and set(ids.values()) == {1}  # same documents, none twice
    pages = {url: count for url, count in archived.items() if not url.endswith("/robots.txt")}
    assert pages and set(pages.values()) == {1}  # each response archived once
    assert crawl_stats(out / "one").get("corpusbot/handover/recovered", 0) > 0
    assert not held.exists("corpusbot:held:one") and not held.exists("corpusbot:held:two")


def test_a_starter_killed_before_robots_txt_came_leaves_no_sitemap_unread(
        tmp_path: Path, redis_url: str) -> None:
    # The process that sends the start requests has its start done once the start page is
    # queued; the sitemaps robots.txt names come later, with robots.txt. Killed in between,
    # it took them along: started again, it found its start done, the other process had
    # never awaited them, and the articles only the sitemaps list were in no folder.
    server = _server(redis_url)
    with NewsSite(latency=2.0, gated=True) as site:  # robots.txt is not gated: 2 s
        out = tmp_path / "out"
        starter = crawler_process(site, out, redis_url, "one", *GATED)
        assert _wait_until(lambda: server.exists("corpusbot:started:done"), 120)
        _kill(starter)
        for crawler in started_together(site, out, redis_url):
            code, errors = crawler.finish(timeout=240)
            assert code == 0, errors
        manifest = site.manifest()
    stored = {r["url"].removeprefix(site.url) for folder in ("one", "two")
              for r in corpus_records(out / folder)}
    assert sorted(stored) == manifest["articles"]


def test_a_dead_worker_s_requests_are_taken_over_by_another(tmp_path: Path,
                                                             redis_url: str) -> None:
    held = _server(redis_url)
    beat = ("CORPUSBOT_REDIS_HEARTBEAT_SECONDS=2",)
    with NewsSite(latency=0.5) as site:
        expected = _reference(site, tmp_path / "reference", redis_url)
        out = tmp_path / "out"
        one, two = _started_after_reference(site, out, redis_url, *SLOW, *COMMITS, *beat)
        assert _wait_until(lambda: held.hlen("corpusbot:held:one") >= 2)
        _kill(one)  # and never started again
        _finished_or_run_again(site, out, redis_url, "two", two.finish(timeout=240),
                               *SLOW, *COMMITS, *beat)
    ids, _ = _merged(out)
    assert ids == expected and set(ids.values()) == {1}
    adopted = re.findall(r"worker one stopped: (\d+) requests", "".join(two.lines))
    assert adopted and int(adopted[0]) >= 2  # "two" took over what "one" held
    assert not held.exists("corpusbot:held:one")


def test_a_worker_that_stalled_past_its_heartbeat_keeps_none_of_what_was_taken_over(
        tmp_path: Path, redis_url: str) -> None:
    # A worker is stopped (SIGSTOP: swapping, a frozen VM) with pages kept but not yet
    # committed; the other takes it for dead, queues its requests again and releases its
    # dedup entries. When the stalled one goes on, it must not commit those pages too.
    server = _server(redis_url)
    # one commit at the end only: a worker holds every page it kept uncommitted
    settings = (*SLOW, "CORPUSBOT_REDIS_HEARTBEAT_SECONDS=2",
                "CORPUSBOT_CORPUS_COMMIT_ITEMS=100000", "CORPUSBOT_CORPUS_COMMIT_SECONDS=3600")
    with NewsSite(latency=0.5) as site:
        expected = _reference(site, tmp_path / "reference", redis_url)
        out = tmp_path / "out"
        crawlers = dict(zip(("one", "two"),
                            _started_after_reference(site, out, redis_url, *settings),
                            strict=True))
        stalled = ""

        def one_kept_a_page() -> bool:
            nonlocal stalled
            stalled = next((name for name in crawlers if any(_uncommitted(server, name))), "")
            return bool(stalled)

        assert _wait_until(one_kept_a_page, seconds=120, every=0.005)
        crawlers[stalled].process.send_signal(signal.SIGSTOP)
        try:
            assert _wait_until(lambda: not server.exists(f"corpusbot:held:{stalled}"), 30)
        finally:
            crawlers[stalled].process.send_signal(signal.SIGCONT)
        survivor = next(name for name in crawlers if name != stalled)
        ends = {name: crawlers[name].finish(timeout=240) for name in (survivor, stalled)}
        code, errors = ends[stalled]
        assert code == 2, errors  # stopped at its last commit
        assert "took this one for dead" in errors
        for name, end in ends.items():
            _finished_or_run_again(site, out, redis_url, name, end, *settings)
    ids, _ = _merged(out)
    assert ids == expected and set(ids.values()) == {1}
    assert not server.exists(f"corpusbot:held:{stalled}")
    assert not server.exists(f"corpusbot:held:{survivor}")


def test_processes_keep_the_delay_of_the_sites_file(tmp_path: Path, redis_url: str) -> None:
    delay = 0.4
    sites = tmp_path / "sites.toml"
    sites.write_text(f'[site."127.0.0.1"]\ndelay_seconds = {delay}\n')
    # DOWNLOAD_DELAY is 0 in the test settings: only the sites file sets a delay
    # Two requests at a time per process: neither takes the whole queue for itself. The
    # site serves no page until both spiders are open (a late second process once found
    # little left: 17 requests in all).
    fast = (*SLOW, "CLOSESPIDER_PAGECOUNT=14", f"CORPUSBOT_SPIDER_SITES_FILE={sites}")
    with NewsSite(gated=True) as site:
        for crawler in started_together(site, tmp_path / "out", redis_url, *fast):
            crawler.finish(timeout=240)
        arrivals = site.arrivals()
    gaps = [later - earlier for (earlier, _), (later, _) in itertools.pairwise(arrivals)]
    assert len(gaps) >= 20
    for name in ("one", "two"):  # both processes crawled
        assert crawl_stats(tmp_path / "out" / name).get("response_received_count", 0) > 2
    assert min(gaps) >= delay - 0.05, sorted(gaps)[:5]
    assert statistics.median(gaps) < delay * 2.5  # and the rate is not far below it


def _queue(redis_url: str, worker: str) -> HandOverQueue:
    queue = HandOverQueue(_server(redis_url), Spider("news"), "c:%(spider)s:requests")
    queue.attach(f"c:held:{worker}", f"c:busy:{worker}", 5)
    return queue


def test_held_requests_stay_until_acknowledged_and_dead_workers_are_adopted(
        redis_url: str) -> None:
    server = _server(redis_url)
    one, two = _queue(redis_url, "one"), _queue(redis_url, "two")
    for number in range(4):
        one.push(Request(f"https://a.example/{number}", priority=-number))
    taken = [one.take() for _ in range(3)]
    assert [request.url for request, _ in taken] == [f"https://a.example/{n}" for n in range(3)]
    assert len(one) == 1 and server.hlen("c:held:one") == 3
    one.ack([taken[0][1]])
    # a retry queued in place of a held request: both in one transaction
    one.push(Request("https://a.example/1", dont_filter=True), done=taken[1][1])
    assert [request.url for request, _ in one.held()] == ["https://a.example/2"]
    server.sadd("c:workers", "one", "two")
    server.set("c:alive:two", b"1")
    silent, adopt = server.register_script(SILENT), server.register_script(ADOPT)
    # "one" is alive: nothing moves; once its key is gone, its request goes back
    server.set("c:alive:one", b"1")
    assert silent(keys=["c:workers"], args=["c:", "two"]) == []
    assert adopt(keys=["c:workers", two.key], args=["c:", "one"]) == -1
    server.delete("c:alive:one")
    assert silent(keys=["c:workers"], args=["c:", "two"]) == [b"one"]
    assert adopt(keys=["c:workers", two.key], args=["c:", "one"]) == 1
    assert adopt(keys=["c:workers", two.key], args=["c:", "one"]) == -1  # adopted once
    assert not server.exists("c:held:one") and len(two) == 3
    urls = sorted(two.take()[0].url for _ in range(3))
    assert urls == ["https://a.example/1", "https://a.example/2", "https://a.example/3"]


def test_a_worker_taken_for_dead_while_it_stalled_is_adopted_when_it_dies(
        redis_url: str) -> None:
    # CI, under load: "one" missed its heartbeat, "two" adopted it and struck it off the
    # list of workers; "one" went on, took requests and was killed; "two" finished the
    # crawl without them, because no adoption looked for "one" again.
    from corpusbot.crawl.redis_handover import HandOverScheduler

    server = _server(redis_url)
    one = HandOverScheduler.__new__(HandOverScheduler)
    one.server, one.prefix, one.worker, one.heartbeat = server, "c:", "one", 2.0
    one.queue = _queue(redis_url, "one")
    adopt = server.register_script(ADOPT)
    server.sadd("c:workers", "one")  # as when it opened
    one._alive()
    assert server.smembers("c:workers") == {b"one"} and server.pttl("c:alive:one") > 0
    server.delete("c:alive:one")  # the stall outlasts the key
    assert adopt(keys=["c:workers", one.queue.key], args=["c:", "one"]) == 0
    assert not server.sismember("c:workers", "one")
    one._alive()  # its next beat
    one.queue.push(Request("https://a.example/taken-after-the-stall"))
    assert one.queue.take() is not None
    server.delete("c:alive:one")  # killed now
    assert adopt(keys=["c:workers", one.queue.key], args=["c:", "one"]) == 1
    assert one.queue.take()[0].url == "https://a.example/taken-after-the-stall"


def test_a_worker_taken_over_queues_again_what_it_still_holds(redis_url: str) -> None:
    # What it took after the others took it for dead is not committed either: back to the
    # queue at once, at its priority, rather than held until its heartbeat expires.
    server = _server(redis_url)
    one, two = _queue(redis_url, "one"), _queue(redis_url, "two")
    for number in range(3):
        one.push(Request(f"https://a.example/{number}", priority=-number))
    assert one.take() is not None and one.take() is not None
    assert one.hand_back() == 2 and not server.exists("c:held:one")
    assert [two.take()[0].url for _ in range(3)] == [f"https://a.example/{n}" for n in range(3)]
    assert one.hand_back() == 0


def test_a_link_is_marked_seen_and_queued_in_one_server_call(redis_url: str) -> None:
    # Killed between marking a link seen and queueing it, a process lost the link for good:
    # its page, redone after the restart, found it seen, as did every other page linking to
    # it; a listing's next page took every article behind it along.
    server = _server(redis_url)
    one, two = _queue(redis_url, "one"), _queue(redis_url, "two")
    fingerprints = CompactDupeFilter(server, "c:fp")
    assert one.push(Request("https://a.example/"))  # the script is loaded from here on
    link = Request("https://a.example/list?page=2&s=1")
    with server.monitor() as monitor:
        assert one.push(link, seen=fingerprints.place_of(link))
        one.server.echo("pushed")  # on the connection the push used
        calls = []
        while (command := monitor.next_command())["command"] != "ECHO pushed":
            if command["client_type"] != "lua":  # not a call the script itself makes
                calls.append(command["command"].split()[0])
    assert calls == ["EVALSHA"]
    same = Request("https://a.example/list?s=1&page=2")
    assert not two.push(same, seen=fingerprints.place_of(same)) and len(two) == 2
    assert fingerprints.request_seen(same)
    # a redirect to a page seen already queues nothing and leaves its request held; to a
    # new page it is queued and its request acknowledged, in that same call
    taken = [one.take() for _ in range(2)]
    redirect = Request("https://a.example/list?page=2&s=1", meta={"redirect_times": 1})
    assert not one.push(redirect, done=taken[0][1], seen=fingerprints.place_of(redirect))
    assert server.hlen("c:held:one") == 2 and len(one) == 0
    redirect = Request("https://a.example/list?page=3", meta={"redirect_times": 1})
    assert one.push(redirect, done=taken[0][1], seen=fingerprints.place_of(redirect))
    assert [request.url for request, _ in one.held()] == [taken[1][0].url] and len(one) == 1


def test_a_push_that_fails_leaves_its_link_unmarked(redis_url: str) -> None:
    # A command that fails stops a Lua script without undoing the commands before it: a
    # link marked seen before a push that failed would never be queued by anyone.
    import redis

    server = _server(redis_url)
    one = _queue(redis_url, "one")
    fingerprints = CompactDupeFilter(server, "c:fp")
    link = Request("https://a.example/list?page=2")
    server.set(one.key, b"not a queue")  # a foreign key where the queue should be
    with pytest.raises(redis.ResponseError, match="WRONGTYPE"):
        one.push(link, seen=fingerprints.place_of(link))
    assert not server.hexists(*fingerprints.place_of(link))
    server.delete(one.key)
    assert one.push(link, seen=fingerprints.place_of(link)) and len(one) == 1
    assert server.hexists(*fingerprints.place_of(link))


def test_a_worker_counts_as_busy_from_the_instant_it_takes_a_request(redis_url: str) -> None:
    # "two" runs out of work while "one" has just taken a page, before any heartbeat: it
    # must wait, for that page's links may yet be queued (and once it took the crawl for
    # done, cleared the fingerprints, and the start page was fetched again).
    one, two = _queue(redis_url, "one"), SharedIdle(None, _server(redis_url), "c:", "two")
    one.push(Request("https://a.example/article"))
    two.idle()  # a queued request alone is nobody's work yet
    assert one.take() is not None
    with pytest.raises(DontCloseSpider, match="1 other process"):
        two.idle()
    assert one.take() is None and _server(redis_url).ttl("c:busy:one") > 0


def _index(redis_url: str, owner: str):
    from corpusbot.dedup.redis_index import RedisAddress, RedisIndex

    address = RedisAddress.parse(f"{redis_url}?capacity=1000")
    return RedisIndex.connect(address, owner, 0, bands=16, signature_bytes=64)


def test_abandoning_a_dead_owner_releases_its_uncommitted_entries(redis_url: str) -> None:
    dead, alive = _index(redis_url, "dead"), _index(redis_url, "alive")
    assert dead.claim("u", 12345) and dead.claim("t", 777)
    dead.committed()  # epoch 1 committed: stays
    assert dead.claim("u", 999)  # epoch 2, never committed
    assert not alive.claim("u", 999)
    assert alive.for_owner("dead").abandon() == 1
    assert alive.claim("u", 999) and not alive.claim("u", 12345)


def test_an_owner_taken_over_while_it_stalled_can_neither_add_nor_commit(
        redis_url: str) -> None:
    from corpusbot.dedup.backends import IndexHandedOverError

    stalled, other = _index(redis_url, "stalled"), _index(redis_url, "other")
    assert stalled.claim("u", 999)  # a page kept, not committed yet
    other.for_owner("stalled").abandon()  # taken for dead: its page is the other's to redo
    assert other.claim("u", 999)
    # going on, it may not add (its page's text would make the other's redone page a
    # duplicate), nor commit (both would keep the page)
    with pytest.raises(IndexHandedOverError, match="took this one for dead"):
        stalled.claim("t", 5)
    with pytest.raises(IndexHandedOverError):
        stalled.begin_commit()
    assert other.claim("t", 5)
    again = _index(redis_url, "stalled")  # its folder opened again: it goes on from its last commit
    again.begin_commit()
    assert again.claim("t", 6) and not again.claim("u", 999)


def test_an_owner_silent_in_the_middle_of_a_commit_is_waited_for(redis_url: str) -> None:
    # Stalled between its SQLite commit and dropping that epoch's journal, an owner taken
    # over had the epoch released: the others redid its pages, and both kept them.
    server = _server(redis_url)
    stalled, other = _index(redis_url, "stalled"), _index(redis_url, "other")
    assert stalled.claim("u", 999)  # a page kept
    stalled.begin_commit()  # and silent from here: its SQLite commit may have landed
    assert other.for_owner("stalled").abandon() is None  # not taken over, nothing released
    assert not other.claim("u", 999)
    stalled.committed()  # it goes on: that epoch counts for good
    assert stalled.claim("t", 5)
    assert other.for_owner("stalled").abandon() == 1  # later: the open epoch only
    assert not other.claim("u", 999) and other.claim("t", 5)
    # one that died in a commit is taken over once its mark expires
    dead = _index(redis_url, "dead")
    assert dead.claim("u", 1000)
    dead.begin_commit()
    assert other.for_owner("dead").abandon() is None
    server.pexpire(dead.keys.committing("dead"), 1)
    time.sleep(0.05)
    assert other.for_owner("dead").abandon() == 1 and other.claim("u", 1000)


def test_a_commit_that_lands_after_its_owner_was_taken_over_is_not_confirmed(
        redis_url: str) -> None:
    # Silent past the minute inside its commit, then its SQLite commit (epoch 1) lands:
    # Redis refuses to confirm it, and the folder opened again is asked to undo it, once.
    from corpusbot.dedup.backends import IndexHandedOverError
    from corpusbot.dedup.redis_index import RedisAddress, RedisIndex

    server = _server(redis_url)
    stalled, other = _index(redis_url, "stalled"), _index(redis_url, "other")
    assert stalled.claim("u", 999)
    stalled.begin_commit()
    server.pexpire(stalled.keys.committing("stalled"), 1)
    time.sleep(0.05)
    assert other.for_owner("stalled").abandon() == 1 and other.claim("u", 999)
    with pytest.raises(IndexHandedOverError):
        stalled.committed()
    assert stalled.lost_commit(1) and not stalled.lost_commit(0)
    undone = []

    def undo() -> int:
        undone.append(1)
        return 0  # the folder is back at the commit before

    address = RedisAddress.parse(f"{redis_url}?capacity=1000")
    again = RedisIndex.connect(address, "stalled", 1, bands=16, signature_bytes=64, undo=undo)
    assert undone == [1] and again.epoch == 1 and not again.lost_commit(0)
    RedisIndex.connect(address, "stalled", 0, bands=16, signature_bytes=64, undo=undo)
    assert undone == [1]
    # one killed after its commit, with nobody taking over, keeps it: the journal is adopted
    dead = _index(redis_url, "dead")
    assert dead.claim("u", 1000)
    assert not dead.lost_commit(1)


def test_a_silent_worker_s_entries_are_released_before_its_requests_are_queued_again(
        redis_url: str) -> None:
    # Queued first, a page redone at once could find its own entries and be dropped as a
    # copy; an adopter killed between the two left them so for good.
    from scrapy.utils.test import get_crawler

    from corpusbot.crawl.redis_handover import HandOverScheduler

    server = _server(redis_url)
    silent, mine = _index(redis_url, "owner-one"), _index(redis_url, "owner-two")
    one = _queue(redis_url, "one")
    one.push(Request("https://a.example/article"))
    assert one.take() is not None
    assert silent.claim("u", 999)  # its page, kept and not committed
    server.sadd("c:workers", "one", "two")
    server.hset("c:owners", "one", "owner-one")
    two = HandOverScheduler.__new__(HandOverScheduler)
    two.server, two.prefix, two.worker, two.heartbeat = server, "c:", "two", 2.0
    two.queue, two.stats = _queue(redis_url, "two"), get_crawler().stats

    class Corpus:  # the corpus's dedup index, as the scheduler finds it
        @staticmethod
        def abandon(owner: str) -> int | None:
            return mine.for_owner(owner).abandon()

    two._dedup_index = lambda: Corpus
    silent.begin_commit()  # silent in the middle of a commit: waited for
    assert two.adopt() == 0 and server.hlen("c:held:one") == 1
    server.delete(silent.keys.committing("owner-one"))  # its mark expired: it died there
    with server.monitor() as monitor:
        assert two.adopt() == 1
        server.echo("adopted")
        order = []
        while (command := monitor.next_command())["command"] != "ECHO adopted":
            words = command["command"].split()
            if words[0] in ("HSET", "HDEL", "ZADD"):
                order.append(words[0])
    assert order.index("HDEL") < order.index("ZADD")  # released, then queued
    assert "HSET" in order[:order.index("ZADD")]  # marked taken over first of all
    assert mine.claim("u", 999) and len(two.queue) == 1


def test_the_lease_follows_the_sites_file(tmp_path: Path, redis_url: str) -> None:
    sites = tmp_path / "sites.toml"
    sites.write_text('[site."slow.example"]\ndelay_seconds = 2.5\n'
                     '[site."free.example"]\ndelay_seconds = 0\n')
    polite = SharedPoliteness(_server(redis_url), "p:", 0.5, load_site_config(sites))
    margin = int(LEASE_MARGIN_SECONDS * 1000)
    assert polite.delay_ms(Request("https://www.slow.example/a")) == 2500 + margin
    assert polite.delay_ms(Request("https://free.example/a")) == 0
    assert polite.delay_ms(Request("https://other.example/a")) == 500 + margin


@pytest.mark.parametrize("clock", [time.time, time.monotonic])
def test_a_slot_just_used_waits_its_delay_whichever_clock_stamped_it(clock) -> None:
    # Scrapy 2.15 stamps lastseen with time.time(), later releases with time.monotonic()
    slot = Slot(concurrency=1, delay=0.4, randomize_delay=False)
    slot.lastseen = clock()
    assert 0.3 < local_wait(slot) <= 0.4
    slot.lastseen = clock() - 1.0
    assert local_wait(slot) == 0.0
