"""Pages per second of a full crawl with every corpusbot component, against the bare spider.

Both crawls run the same ``news`` spider over the same local news site (all
pages of ../shared/bench/scrapinghub, served ``--copies`` times under
different URLs; the fixture pages on a plain clone), one after the other in
this run, each in its own subprocess and against a fresh server:

- ``bare``: the spider alone (no item pipelines, no WARC, no incremental store);
- ``full``: processing in worker processes, the corpus, WARC archiving,
  incremental store — what ``corpusbot crawl`` runs.

The rate is Scrapy's ``response_received_count / elapsed_time_seconds``.
``--latency`` adds a fixed delay to every response, as a remote server would;
0 makes the crawl CPU-bound, the hardest case for the pipelines. The machine
is shared and a crawl of some 1200 pages takes 10-15 s, so single pairs
vary by +-10 %: five alternating pairs by default, medians compared.

    python benchmarks/crawl.py [--copies 6] [--latency 0.05] [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.conftest import bench_dir  # noqa: E402
from tests.newssite.client import NewsSite, crawl_stats, run_crawl  # noqa: E402

BARE = (
    "CORPUSBOT_PROCESS_ENABLED=False",
    "CORPUSBOT_CORPUS_ENABLED=False",
    "CORPUSBOT_WARC_ENABLED=False",
    "CORPUSBOT_INCREMENTAL_ENABLED=False",
)


def crawl_rate(extra: tuple[str, ...], args: argparse.Namespace) -> dict:
    """One crawl of a fresh site; its pages/s and counts."""
    bench = bench_dir() / "scrapinghub"
    with NewsSite(bench=bench if bench.is_dir() else None, slow_seconds=0.2, copies=args.copies,
                  latency=args.latency) as site, tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out"
        settings = (*extra, f"CORPUSBOT_PROCESS_WORKERS={args.workers}",
                    f"CONCURRENT_REQUESTS_PER_DOMAIN={args.concurrency}",
                    "CORPUSBOT_SPIDER_DEPTH=3")
        result = run_crawl([f"{site.url}/"], out, *settings, timeout=1800)
        if result.returncode != 0:
            raise RuntimeError(result.stderr[-3000:])
        stats = crawl_stats(out)
    pages = stats["response_received_count"]
    return {"pages": pages, "articles": stats.get("corpusbot/pages/article", 0),
            "kept": stats.get("corpusbot/kept", 0), "seconds": stats["elapsed_time_seconds"],
            "rate": pages / stats["elapsed_time_seconds"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # Six copies make a crawl of some 1200 pages: the workers' start (a Python
    # process each, language profiles loaded, about 1.5 s of CPU) no longer
    # weighs on a crawl of a few seconds as it does with one.
    parser.add_argument("--copies", type=int, default=6, help="times every bench page is served")
    parser.add_argument("--latency", type=float, default=0.0, help="seconds added per response")
    parser.add_argument("--rounds", type=int, default=5,
                        help="bare/full pairs, alternating; the medians are compared")
    parser.add_argument("--workers", type=int, default=0, help="worker processes (0: cores - 1)")
    parser.add_argument("--concurrency", type=int, default=16,
                        help="CONCURRENT_REQUESTS_PER_DOMAIN (the site is one domain)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    runs: dict[str, list[dict]] = {"bare": [], "full": []}
    for _ in range(args.rounds):
        runs["bare"].append(crawl_rate(BARE, args))
        runs["full"].append(crawl_rate((), args))
    bare = statistics.median(r["rate"] for r in runs["bare"])
    full = statistics.median(r["rate"] for r in runs["full"])
    figures = {"latency_seconds": args.latency, "copies": args.copies,
               "concurrency": args.concurrency, "workers": args.workers,
               "pages": runs["full"][0]["pages"], "articles_kept": runs["full"][0]["kept"],
               "bare_pages_per_second": round(bare, 1), "full_pages_per_second": round(full, 1),
               "ratio": round(full / bare, 3), "runs": runs}
    if args.json:
        print(json.dumps(figures, indent=1))
        return
    print(f"site: {figures['pages']} pages, {figures['articles_kept']} articles kept; "
          f"latency {args.latency * 1000:.0f} ms, {args.concurrency} requests at a time")
    print(f"bare spider      {bare:7.1f} pages/s")
    print(f"full crawl       {full:7.1f} pages/s   ({full / bare:.0%} of bare; goal >= 80%)")


if __name__ == "__main__":
    main()
