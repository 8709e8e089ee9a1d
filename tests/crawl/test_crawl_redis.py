"""A crawl shared by two processes through a real redis-server, and its components."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

pytest.importorskip("scrapy_redis", reason="scrapy-redis is missing: "
                    "pip install corpusbot[distributed-crawl]")

from scrapy import Request
from scrapy.utils.test import get_crawler

from corpusbot.crawl import default_settings
from corpusbot.crawl.redis_frontier import (
    CompactDupeFilter,
    SharedPoliteness,
    StartOnce,
    crawl_prefix,
)
from corpusbot.crawl.sites import SiteConfig
from tests.newssite.client import REPO, TEST_SETTINGS, NewsSite, corpus_records, crawl_stats


def crawler_process(site: NewsSite, out: Path, redis_url: str, worker: str,
                    *settings: str, verbose: bool = False) -> subprocess.Popen[str]:
    """``corpusbot crawl`` sharing ``redis_url``. ``verbose`` logs at INFO (when the spider
    opened: ``Watched``), which only a caller that reads stderr as it comes may ask for: a
    full pipe would stall the crawler."""
    command = [sys.executable, "-m", "corpusbot", *(["-v"] if verbose else []), "crawl",
               f"{site.url}/", "-o", str(out), "--redis", redis_url, "--worker", worker, "-q"]
    for setting in (*TEST_SETTINGS, *settings):
        command += ["-s", setting]
    return subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


class Watched:
    """A crawler process whose log is read as it comes, to tell when its spider opened."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.process, self.lines, self.opened = process, [], threading.Event()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.lines.append(line)
            if "Spider opened" in line:
                self.opened.set()

    def finish(self, timeout: float) -> tuple[int, str]:
        """The exit code and the log's end."""
        code = self.process.wait(timeout=timeout)
        self.reader.join(timeout=10)
        return code, "".join(self.lines)[-3000:]


GATED = ("DOWNLOAD_TIMEOUT=180",)
"""Settings of processes started against a gated site: their first requests wait there."""


def started_together(site: NewsSite, out: Path, redis_url: str,
                     *settings: str) -> list[Watched]:
    """Crawler processes "one" and "two" on a gated ``site``, opened once both spiders are:
    on a loaded machine a second process once started after the first had crawled it all."""
    crawlers = [Watched(crawler_process(site, out, redis_url, name, *settings, *GATED,
                                        verbose=True)) for name in ("one", "two")]
    for crawler in crawlers:
        assert crawler.opened.wait(timeout=120), crawler.finish(timeout=10)[1]
    site.open()
    return crawlers


def test_two_processes_fetch_each_url_once_and_keep_one_copy(tmp_path: Path,
                                                              redis_url: str) -> None:
    # Slow pages, and no process holding more than two requests: both get work; the site
    # serves nothing until both spiders are open (else the second once crawled it all again).
    slow = ("CONCURRENT_REQUESTS=2", "CONCURRENT_REQUESTS_PER_DOMAIN=2")
    with NewsSite(latency=1.0, gated=True) as site:
        for crawler in started_together(site, tmp_path / "out", redis_url, *slow):
            code, errors = crawler.finish(timeout=240)
            assert code == 0, errors
        hits, manifest = site.hits(), site.manifest()
    fetched_twice = {path for path, count in hits.items() if count > 1}
    # each process reads robots.txt itself; the flaky page fails once and is retried
    assert fetched_twice <= {"/robots.txt", manifest["flaky"]}
    records = corpus_records(tmp_path / "out" / "one") + corpus_records(tmp_path / "out" / "two")
    stored = Counter(r["url"].removeprefix(site.url) for r in records)
    assert sorted(stored) == manifest["articles"] and set(stored.values()) == {1}
    from corpusbot.cli import main

    # --check reads the two folders' committed documents back: none is held twice
    assert main(["merge", str(tmp_path / "out"), "-q", "--check"]) == 0
    merged = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert merged["documents"] == len(records) and len(merged["parts"]) == 2
    for worker in ("one", "two"):  # both took their share of the one frontier
        assert crawl_stats(tmp_path / "out" / worker).get("response_received_count", 0) > 0


def test_a_finished_shared_crawl_run_again_fetches_the_new_articles(tmp_path: Path,
                                                                    redis_url: str) -> None:
    # The README's daily rerun, shared through Redis: the frontier of a finished crawl
    # starts again from the start pages; the shared seen-store alone skips the old articles.
    with NewsSite() as site:
        first = crawler_process(site, tmp_path / "out", redis_url, "one")
        assert first.wait(timeout=240) == 0, first.communicate()[1][-3000:]
        before = site.hits()
        site.phase(2)
        again = crawler_process(site, tmp_path / "out", redis_url, "one")
        assert again.wait(timeout=240) == 0, again.communicate()[1][-3000:]
        fetched = Counter(site.hits()) - Counter(before)
        manifest = site.manifest()
    assert {manifest["held"], manifest["changed"]} <= set(fetched)
    stored = [r["url"].removeprefix(site.url) for r in corpus_records(tmp_path / "out" / "one")]
    assert manifest["held"] in stored
    assert crawl_stats(tmp_path / "out" / "one")["corpusbot/incremental/skipped"] >= 5


def _politeness(redis_url: str, delay: float) -> SharedPoliteness:
    import redis

    return SharedPoliteness(redis.Redis.from_url(redis_url), "t:", delay, SiteConfig())


def test_processes_share_one_rate_per_site(redis_url: str) -> None:
    processes = [_politeness(redis_url, 0.2) for _ in range(3)]

    async def fetch_all() -> list[float]:
        started, times = time.monotonic(), []

        async def one(middleware: SharedPoliteness, url: str) -> None:
            await middleware.process_request(Request(url))
            times.append(time.monotonic() - started)

        await asyncio.gather(*(one(m, "https://a.example/x") for m in processes),
                             one(processes[0], "https://b.example/y"))
        return sorted(times)

    times = asyncio.run(fetch_all())
    assert times[1] < 0.15  # the other site waits for nobody
    same_site = sorted(times[:1] + times[2:]) if times[0] < times[1] else times[1:]
    assert same_site[-1] >= 0.38  # three requests to one site take two delays


def test_fingerprints_are_shared_and_compact(redis_url: str) -> None:
    import redis

    server = redis.Redis.from_url(redis_url)
    one, two = CompactDupeFilter(server, "c:fp"), CompactDupeFilter(server, "c:fp")
    one.buckets = two.buckets = 16
    assert not one.request_seen(Request("https://a.example/?b=2&a=1"))
    assert two.request_seen(Request("https://a.example/?a=1&b=2"))
    assert not two.request_seen(Request("https://a.example/other"))
    names = list(server.scan_iter(match="c:fp:*"))
    assert sum(server.hlen(name) for name in names) == 2
    assert {server.object("encoding", name) for name in names} == {b"listpack"}
    one.clear()
    assert not list(server.scan_iter(match="c:fp:*"))


def test_only_the_first_process_sends_the_start_requests(redis_url: str) -> None:
    import redis

    async def starts(middleware: StartOnce) -> list[str]:
        async def start():
            for url in ("https://a.example/", "https://b.example/"):
                yield Request(url)

        return [r.url async for r in middleware.process_start(start())]

    first = StartOnce(redis.Redis.from_url(redis_url), "s:", "one")
    second = StartOnce(redis.Redis.from_url(redis_url), "s:", "two")
    assert asyncio.run(starts(first)) == ["https://a.example/", "https://b.example/"]
    assert asyncio.run(starts(second)) == []


def test_start_requests_cut_short_are_sent_again(redis_url: str) -> None:
    import redis

    server = redis.Redis.from_url(redis_url)

    async def first_only(middleware: StartOnce) -> list[str]:
        async def start():
            yield Request("https://a.example/")
            yield Request("https://b.example/")

        async for request in middleware.process_start(start()):
            return [request.url]  # killed after the first one
        return []

    async def starts(middleware: StartOnce) -> list[str]:
        async def start():
            for url in ("https://a.example/", "https://b.example/"):
                yield Request(url)

        return [r.url async for r in middleware.process_start(start())]

    assert asyncio.run(first_only(StartOnce(server, "s:", "one"))) == ["https://a.example/"]
    server.set("s:alive:one", b"1")  # "one" is still alive: another does not step in
    assert asyncio.run(starts(StartOnce(server, "s:", "two"))) == []
    # "one" started again (or, its heartbeat expired, any other process) sends them again
    assert len(asyncio.run(starts(StartOnce(server, "s:", "one")))) == 2
    assert asyncio.run(starts(StartOnce(server, "s:", "two"))) == []


def test_the_shared_seen_store_answers_as_the_sqlite_one(tmp_path: Path, redis_url: str) -> None:
    import redis

    from corpusbot.crawl.redis_seen import RedisSeenStore
    from corpusbot.crawl.seen import SeenStore

    stores = [SeenStore(tmp_path / "seen.sqlite"),
              RedisSeenStore(redis.Redis.from_url(redis_url), "s:seen", 1000)]
    marks = [("https://a.example/1?b=2&a=1", "2024-05-01T10:00:00+00:00", None),
             ("https://a.example/2", "2024-05-01T10:00:00+00:00", "2024-04-30T08:00:00+00:00")]
    questions = [("https://a.example/1?a=1&b=2", None),
                 ("https://a.example/1?a=1&b=2", "2024-05-02T00:00:00+00:00"),
                 ("https://a.example/2", "2024-04-30T08:00:00+00:00"),
                 ("https://a.example/2", "2024-05-01T00:00:00+00:00"),
                 ("https://a.example/3", None)]
    answers = []
    for store in stores:
        assert [store.status(url, None) for url, _, _ in marks] == ["new", "new"]
        for mark in marks:
            store.mark(*mark)
        assert store.commit() == 2 and len(store) == 2
        answers.append([store.status(url, modified) for url, modified in questions])
        store.close()
    assert answers[0] == answers[1] == ["unchanged", "changed", "unchanged", "changed", "new"]


def test_the_shared_components_take_their_defaults_without_the_add_on() -> None:
    crawler = get_crawler(settings_dict={})  # no add-on: no default was set (was 'None:')
    assert crawl_prefix(crawler) == f"{default_settings.CORPUSBOT_REDIS_CRAWL}:"
