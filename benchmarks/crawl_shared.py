"""A crawl shared through Redis (issue 10): pages/s of two processes against one.

    python benchmarks/crawl_shared.py                       # the local news site
    python benchmarks/crawl_shared.py --copies 1 --latency 0.5 --out results.json

Serves the test news site (``tests/newssite``; bench pages when
``../shared/bench`` is there, ``--copies`` more articles per article) with
``--latency`` seconds per page, as a remote server has, and starts a
``redis-server``. Then crawls it with ``corpusbot crawl --redis`` in one
process, and again (emptied Redis, new folder) with two processes started
together, each limited to ``--concurrency`` requests at a time. Pages/s is
the responses received by all processes over the wall-clock time from the
first start to the last exit, start-up included. Also checks that every
path was fetched once and counts the documents kept by each run.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.conftest import bench_dir  # noqa: E402
from tests.newssite.client import TEST_SETTINGS, NewsSite, corpus_records, crawl_stats  # noqa: E402
from tests.redis_support import start_redis  # noqa: E402


def crawl(site: NewsSite, out: Path, redis_url: str, processes: int,
          concurrency: int) -> dict[str, float]:
    """Run ``processes`` crawlers together; pages/s, documents and repeated fetches."""
    settings = [*TEST_SETTINGS, f"CONCURRENT_REQUESTS={concurrency}",
                f"CONCURRENT_REQUESTS_PER_DOMAIN={concurrency}"]
    started = time.monotonic()
    running = [subprocess.Popen(
        [sys.executable, "-m", "corpusbot", "crawl", f"{site.url}/", "-o", str(out), "-q",
         "--redis", redis_url, "--worker", f"w{n}", *[a for s in settings for a in ("-s", s)]],
        cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for n in range(processes)]
    for process in running:
        process.wait()
    seconds = time.monotonic() - started
    pages = sum(crawl_stats(out / f"w{n}").get("response_received_count", 0)
                for n in range(processes))
    documents = sum(len(corpus_records(out / f"w{n}")) for n in range(processes))
    return {"seconds": round(seconds, 1), "pages": pages, "documents": documents,
            "pages_per_second": round(pages / seconds, 2)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=1)
    parser.add_argument("--latency", type=float, default=0.5)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    import redis

    bench = bench_dir() / "scrapinghub"
    with tempfile.TemporaryDirectory() as work:
        folder = Path(work)
        server, port = start_redis(folder)
        url = f"redis://127.0.0.1:{port}/0"
        runs = {}
        try:
            for processes in (1, 2):
                redis.Redis(port=port).flushall()
                with NewsSite(bench=bench if bench.is_dir() else None, copies=args.copies,
                              latency=args.latency) as site:
                    runs[processes] = crawl(site, folder / f"out{processes}", url, processes,
                                            args.concurrency)
                    runs[processes]["fetched_twice"] = sorted(
                        path for path, hits in site.hits().items()
                        if hits > 1 and path != "/robots.txt")
        finally:
            server.terminate()
            server.wait(10)
    figures = {"latency_seconds": args.latency, "concurrency_per_process": args.concurrency,
               "one_process": runs[1], "two_processes": runs[2],
               "speedup": round(runs[2]["pages_per_second"] / runs[1]["pages_per_second"], 2)}
    print(json.dumps(figures, indent=2))
    if args.out:
        args.out.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
