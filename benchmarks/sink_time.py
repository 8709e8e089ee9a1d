"""How long the corpus sink holds Scrapy's reactor thread during a crawl, and what it costs.

Runs the full crawl of ``benchmarks/crawl.py`` (the local news site) with the
corpus pipeline replaced by a subclass that times, with ``time.perf_counter``
on the reactor thread, each hand-over to the sink: an add, an add followed by
a commit, and the close (the last commit). Two variants, alternating within
one run so that their ratios are comparable on a loaded machine:

- ``inline``: the sink's work done in the call, on the reactor thread (the
  pipeline before the sink had a thread of its own);
- ``thread``: the pipeline as it is, the work queued to the sink thread.

Reported: the sum as a share of the crawl's wall time (``elapsed_time_seconds``),
the reactor thread's CPU time in them (``time.thread_time``: on a loaded
machine the wall time also counts the waits for a core and for the GIL), the
longest single stalls during the crawl (the close, after it, apart), and pages/s.

    python benchmarks/sink_time.py [--rounds 3] [--copies 6]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from corpusbot.pipelines.corpus import CorpusPipeline  # noqa: E402

TIMINGS = "sink-timings.json"
VARIANTS = {"inline": "benchmarks.sink_time.InlineTimed",
            "thread": "benchmarks.sink_time.ThreadTimed"}


class InlineExecutor(Executor):
    """Runs the submitted call at once, in the caller's thread."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as error:  # handed to the awaiting caller
            future.set_exception(error)
        return future


class TimedSubmit:
    """An executor's ``submit``, timed on the calling thread and labelled by what it runs."""

    def __init__(self, executor: Executor) -> None:
        self.executor = executor
        self.times: dict[str, list[float]] = {"add": [], "commit": [], "close": []}
        self.cpu: dict[str, list[float]] = {"add": [], "commit": [], "close": []}

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        start, cpu = time.perf_counter(), time.thread_time()
        try:
            return self.executor.submit(fn, *args, **kwargs)
        finally:
            label = {"_add": "commit" if args[-1:] == (True,) else "add",
                     "_close": "close"}.get(getattr(fn, "__name__", ""))
            if label:
                self.times[label].append(time.perf_counter() - start)
                self.cpu[label].append(time.thread_time() - cpu)

    def shutdown(self, wait: bool = True) -> None:
        self.executor.shutdown(wait)


class ThreadTimed(CorpusPipeline):
    """The pipeline as it is, its hand-overs to the sink thread timed."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.sink = TimedSubmit(self._executor())

    def _executor(self) -> Executor:
        return self.sink

    def close_spider(self) -> None:
        start, cpu = time.perf_counter(), time.thread_time()
        super().close_spider()
        self.sink.times["close"] = [time.perf_counter() - start]
        self.sink.cpu["close"] = [time.thread_time() - cpu]
        (self.out_dir / TIMINGS).write_text(json.dumps({"wall": self.sink.times,
                                                        "cpu": self.sink.cpu}))


class InlineTimed(ThreadTimed):
    """The sink's work on the reactor thread, as before it had a thread of its own."""

    def _executor(self) -> Executor:
        self.sink.shutdown()
        return InlineExecutor()


def _pipelines(variant: str) -> str:
    return json.dumps({"corpusbot.pipelines.corpus.CorpusPipeline": None,
                       variant: 800})


def one_crawl(variant: str, args: argparse.Namespace) -> dict[str, Any]:
    """One full crawl with ``variant`` as the corpus pipeline; its timings."""
    from tests.conftest import bench_dir
    from tests.newssite.client import NewsSite, crawl_stats, run_crawl

    bench = bench_dir() / "scrapinghub"
    with NewsSite(bench=bench if bench.is_dir() else None, slow_seconds=0.2,
                  copies=args.copies) as site, tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out"
        result = run_crawl([f"{site.url}/"], out, f"ITEM_PIPELINES={_pipelines(variant)}",
                           "CORPUSBOT_PROCESS_WORKERS=0", "CONCURRENT_REQUESTS_PER_DOMAIN=16",
                           "CORPUSBOT_SPIDER_DEPTH=3", timeout=1800)
        if result.returncode != 0:
            raise RuntimeError(result.stderr[-3000:])
        stats = crawl_stats(out)
        timings = json.loads((out / TIMINGS).read_text())
    return summary(stats, timings)


def summary(stats: dict[str, Any], timings: dict[str, list[float]]) -> dict[str, Any]:
    """Time on the reactor thread as a share of the wall time, and the longest stalls."""
    wall = stats["elapsed_time_seconds"]
    adds, commits = timings["wall"]["add"], timings["wall"]["commit"]
    close = timings["wall"]["close"][0]
    cpu = sum(sum(times) for times in timings["cpu"].values())
    stalls = sorted(adds + commits, reverse=True)
    return {"pages": stats["response_received_count"], "kept": stats.get("corpusbot/kept", 0),
            "wall_seconds": round(wall, 2),
            "rate": round(stats["response_received_count"] / wall, 1),
            "adds": len(adds), "add_seconds": round(sum(adds), 3),
            "add_median_ms": round(statistics.median(adds) * 1000, 3) if adds else 0,
            "commits": len(commits), "commit_seconds": round(sum(commits), 3),
            "close_ms": round(close * 1000, 1),
            "share_of_wall": round((sum(adds) + sum(commits) + close) / wall, 4),
            "cpu_share_of_wall": round(cpu / wall, 4),
            "longest_stalls_ms": [round(s * 1000, 1) for s in stalls[:5]],
            "stalls_over_50ms": sum(s > 0.05 for s in stalls)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=6, help="times every bench page is served")
    parser.add_argument("--rounds", type=int, default=3, help="crawls per variant, alternating")
    args = parser.parse_args()
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in VARIANTS}
    for _ in range(args.rounds):
        for name, variant in VARIANTS.items():
            runs[name].append(one_crawl(variant, args))
            print(name, json.dumps(runs[name][-1]), flush=True)
    for name, results in runs.items():
        share = statistics.median(r["share_of_wall"] for r in results)
        worst = max(r["longest_stalls_ms"][0] for r in results)
        rate = statistics.median(r["rate"] for r in results)
        cpu = statistics.median(r["cpu_share_of_wall"] for r in results)
        print(f"{name:7} sink on the reactor thread {share:6.2%} of wall time, "
              f"its CPU {cpu:6.2%} (medians); longest stall during the crawl {worst:6.1f} ms; "
              f"{rate:5.1f} pages/s (median)")


if __name__ == "__main__":
    main()
