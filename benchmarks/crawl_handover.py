"""Kill -9 and restart in a crawl shared through Redis (issue 10): lost, doubled, round trips.

    python benchmarks/crawl_handover.py                    # 6 kills on the local news site
    python benchmarks/crawl_handover.py --kills 10 --out results.json
    python benchmarks/crawl_handover.py --plain            # scrapy-redis's own scheduler

Serves the test news site (bench pages when ``../shared/bench`` is there,
``--copies`` more per article) with ``--latency`` seconds per page, and
starts a ``redis-server``. Three runs, each against the same site and its own
keys:

1. reference: two processes, never interrupted;
2. killed: two processes; ``--kills`` times one of them (in turn) is killed
   with SIGKILL at a random moment while it holds requests, and started
   again at once under the same worker name;
3. politeness: two processes against a sites file giving the site
   ``--delay`` seconds; the gaps between requests as the server saw them.

Reports documents (by id) lost and doubled against the reference, responses
archived more than once, and from the reference's stats the Redis round
trips the acknowledgement adds per request taken from the queue (acks, one
pipelined HDEL per commit; taking and the retry hand-over replace
scrapy-redis's own pop and push, one round trip each as before).
``--plain`` runs the killed crawl with scrapy-redis's scheduler instead, to
show what the hand-over prevents.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


from corpusbot.crawl.default_settings import CORPUSBOT_REDIS_HEARTBEAT_SECONDS  # noqa: E402
from tests.conftest import bench_dir  # noqa: E402
from tests.crashes import archived_responses  # noqa: E402
from tests.newssite.client import TEST_SETTINGS, NewsSite, corpus_records, crawl_stats  # noqa: E402
from tests.redis_support import start_redis  # noqa: E402

PLAIN = ("SCHEDULER=scrapy_redis.scheduler.Scheduler",
         "SCHEDULER_QUEUE_CLASS=scrapy_redis.queue.PriorityQueue")


def start(site: NewsSite, out: Path, redis_url: str, worker: str,
          settings: list[str]) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "corpusbot", "crawl", f"{site.url}/", "-o", str(out), "-q",
               "--redis", redis_url, "--worker", worker]
    for setting in (*TEST_SETTINGS, *settings):
        command += ["-s", setting]
    out.mkdir(parents=True, exist_ok=True)
    with (out / f"{worker}.log").open("ab") as log:  # the take-overs are logged
        return subprocess.Popen(command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=log)


def killed_crawl(site: NewsSite, out: Path, redis_url: str, settings: list[str], *,
                 kills: int, rng: random.Random, plain: bool) -> list[float]:
    """Two processes; kill one (in turn) ``kills`` times while it holds requests, restarting
    it at once; the moments of the kills (seconds from the start)."""
    import redis

    server = redis.Redis.from_url(redis_url)
    crawl = next(s.split("=", 1)[1] for s in settings if s.startswith("CORPUSBOT_REDIS_CRAWL="))
    running = {name: start(site, out, redis_url, name, settings) for name in ("one", "two")}
    began, moments = time.monotonic(), []
    before = {name: set() for name in running}  # what each held when last started
    while len(moments) < kills and all(p.poll() is None for p in running.values()):
        victim = ("one", "two")[len(moments) % 2]
        time.sleep(rng.uniform(1.0, 4.0))
        # a kill once the victim has taken a request since it was last started
        held = set(server.hkeys(f"{crawl}:held:{victim}"))
        if (plain or held - before[victim]) and running[victim].poll() is None:
            running[victim].kill()
            running[victim].wait()
            moments.append(round(time.monotonic() - began, 1))
            before[victim] = set(server.hkeys(f"{crawl}:held:{victim}"))
            time.sleep(0.5)
            running[victim] = start(site, out, redis_url, victim, settings)
    for process in running.values():
        process.wait()
    return moments


def outcome(out: Path) -> dict[str, Any]:
    ids: Counter[str] = Counter()
    archived: Counter[str] = Counter()
    stats: list[dict[str, Any]] = []
    for folder in sorted(p for p in out.iterdir() if p.is_dir()):
        ids.update(record["id"] for record in corpus_records(folder))
        archived.update({(url, folder.name): n for url, n in
                         archived_responses(folder).items()})
        if (folder / "crawl-stats.json").exists():
            stats.append(crawl_stats(folder))
    take_overs = sum(log.read_text(errors="replace").count("requests it held are queued again")
                     for log in out.glob("*.log"))
    return {"ids": ids, "archived": archived, "stats": stats, "take_overs": take_overs}


def round_trips(stats: list[dict[str, Any]]) -> dict[str, float]:
    taken = sum(s.get("scheduler/dequeued/redis", 0) for s in stats)
    acks = sum(s.get("corpusbot/handover/ack_round_trips", 0) for s in stats)
    elapsed = max(s.get("elapsed_time_seconds", 0) for s in stats)
    return {"requests_taken": taken, "ack_round_trips": acks,
            "ack_round_trips_per_request": round(acks / max(taken, 1), 4),
            # each heartbeat: the alive key, the look for dead workers
            "heartbeat_round_trips_per_second_per_process": round(
                2 / (CORPUSBOT_REDIS_HEARTBEAT_SECONDS / 3), 2),
            "elapsed_seconds": round(elapsed, 1)}


def politeness(site: NewsSite, out: Path, redis_url: str, delay: float) -> dict[str, Any]:
    sites = out.parent / "sites.toml"
    sites.write_text(f'[site."127.0.0.1"]\ndelay_seconds = {delay}\n')
    settings = ["CONCURRENT_REQUESTS=2", "CONCURRENT_REQUESTS_PER_DOMAIN=2",
                "CORPUSBOT_REDIS_CRAWL=polite", f"CORPUSBOT_DEDUP_URL={redis_url}?prefix=polite:",
                f"CORPUSBOT_SPIDER_SITES_FILE={sites}", "CLOSESPIDER_PAGECOUNT=60"]
    since = len(site.arrivals())
    processes = [start(site, out, redis_url, name, settings) for name in ("one", "two")]
    for process in processes:
        process.wait()
    times = [moment for moment, _ in site.arrivals()[since:]]
    gaps = [later - earlier for earlier, later in itertools.pairwise(times)]
    return {"delay_seconds": delay, "requests": len(times), "min_gap": round(min(gaps), 3),
            "median_gap": round(statistics.median(gaps), 3),
            "gaps_below_delay_minus_50ms": sum(gap < delay - 0.05 for gap in gaps)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=6)
    parser.add_argument("--copies", type=int, default=1)
    parser.add_argument("--latency", type=float, default=0.3)
    parser.add_argument("--delay", type=float, default=0.4)
    parser.add_argument("--seed", type=int, default=10)
    parser.add_argument("--plain", action="store_true",
                        help="the killed run with scrapy-redis's scheduler (no hand-over)")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    bench = bench_dir() / "scrapinghub"
    base = ["CONCURRENT_REQUESTS=2", "CONCURRENT_REQUESTS_PER_DOMAIN=2",
            "CORPUSBOT_CORPUS_COMMIT_ITEMS=10"]
    with tempfile.TemporaryDirectory() as work:
        folder = Path(work)
        server, port = start_redis(folder)
        url = f"redis://127.0.0.1:{port}/0"
        try:
            with NewsSite(bench=bench if bench.is_dir() else None, copies=args.copies,
                          latency=args.latency) as site:
                reference = [*base, "CORPUSBOT_REDIS_CRAWL=reference",
                             f"CORPUSBOT_DEDUP_URL={url}?prefix=reference:"]
                for process in [start(site, folder / "reference", url, name, reference)
                                for name in ("one", "two")]:
                    process.wait()
                killed = [*base, "CORPUSBOT_REDIS_CRAWL=killed",
                          f"CORPUSBOT_DEDUP_URL={url}?prefix=killed:",
                          *(PLAIN if args.plain else ())]
                moments = killed_crawl(site, folder / "killed", url, killed, kills=args.kills,
                                       rng=random.Random(args.seed), plain=args.plain)
                polite = politeness(site, folder / "polite", url, args.delay)
            expected, got = outcome(folder / "reference"), outcome(folder / "killed")
        finally:
            server.terminate()
            server.wait(10)
    pages: Counter[str] = Counter()
    for (url, _), count in got["archived"].items():
        if not url.endswith("/robots.txt"):
            pages[url] += count
    figures = {
        "scheduler": "scrapy-redis" if args.plain else "hand-over",
        "kills": len(moments), "kill_moments_seconds": moments,
        "documents_reference": sum(expected["ids"].values()),
        "documents_killed_run": sum(got["ids"].values()),
        "lost": len(set(expected["ids"]) - set(got["ids"])),
        "doubled": sum(n - 1 for n in got["ids"].values() if n > 1),
        "unexpected": len(set(got["ids"]) - set(expected["ids"])),
        "responses_archived_twice": sorted(
            f"{url} ({folder}: {n})" for (url, folder), n in got["archived"].items()
            if pages[url] > 1),
        "recovered_requests": sum(s.get("corpusbot/handover/recovered", 0)
                                  for s in got["stats"]),
        "take_overs_of_a_silent_worker": got["take_overs"],
        "round_trips": round_trips(expected["stats"]),
        "politeness_two_processes": polite,
    }
    print(json.dumps(figures, indent=2))
    if args.out:
        args.out.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
