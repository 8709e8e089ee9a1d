"""Dask archive runs (issue 10): 2 workers against 1, with the shared Redis index.

    python benchmarks/dask_scaling.py                     # 4 files of every bench page
    python benchmarks/dask_scaling.py --files 4 --out benchmarks/dask-results.json
    python benchmarks/dask_scaling.py --one-file --ranges 8 \
        --out benchmarks/dask-ranges-results.json

Builds ``--files`` WARC files, each holding every HTML page of
``../shared/bench`` under its own URLs (so every record is extracted; the
copies after the first are dropped as exact duplicates, as across real
crawls); with ``--one-file``, the same rounds in one archive, cut into
``--ranges`` byte ranges (``--dask-range-mb``: the file's size over the
count). Starts a ``redis-server`` and, per run, a ``LocalCluster`` of 1 or
2 single-threaded worker processes, then times ``DaskRunner.run`` alone
(cluster start-up excluded), alternating 1 and 2 workers ``--repeat``
times and keeping each one's fastest run. Reports pages/s of each and the
ratio, and the documents kept (which must be equal). With ``--one-file``
it also times 2 workers on the file uncut (one task), the only way before
ranges.
"""

from __future__ import annotations

import argparse
import gzip
import json
import logging
import os
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import psutil

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from corpusbot.archive.dask_runner import DaskRunner, local_cluster  # noqa: E402
from corpusbot.archive.ranges import RANGE_BYTES_DEFAULT, split  # noqa: E402
from corpusbot.archive.runner import RunOptions  # noqa: E402
from corpusbot.corpus.sink import CorpusOptions  # noqa: E402
from corpusbot.dedup.backends import open_index  # noqa: E402
from corpusbot.processor import Processor, ProcessorOptions  # noqa: E402
from tests.conftest import bench_dir  # noqa: E402
from tests.corpus_support import Rec, write_warc  # noqa: E402
from tests.redis_support import start_redis  # noqa: E402

log = logging.getLogger("dask_scaling")


def build_files(folder: Path, count: int, one_file: bool,
                limit: int | None = None) -> tuple[list[Path], int]:
    """``count`` rounds of every bench page (the first ``limit``), in as many files or in
    one; the files and the records in all."""
    paths = sorted(bench_dir().glob("*/html/*.gz"))[:limit]
    pages = [gzip.decompress(p.read_bytes()) for p in paths]
    rounds = [[Rec(f"https://copy{n}.example/{i}", body) for i, body in enumerate(pages)]
              for n in range(count)]
    if one_file:
        files = [write_warc(folder / "all.warc.gz", [rec for round_ in rounds for rec in round_])]
    else:
        files = [write_warc(folder / f"part-{n}.warc.gz", round_)
                 for n, round_ in enumerate(rounds)]
    return files, len(pages) * count


class CpuMeter:
    """CPU seconds of the cluster's worker processes and everything they start (fork
    server, page processes), per worker, sampled every ``SAMPLE_SECONDS`` while active.

    What a run gets from a machine shared with other jobs says little about what it
    would get from free cores (Linux shares the CPU between sessions first); the CPU
    each worker used does not depend on that. A process's time after its last sample is
    lost: under half a second of a task that lasts a minute.
    """

    SAMPLE_SECONDS = 0.5

    def __init__(self, workers: set[int]) -> None:
        self._workers = workers
        self._seen: dict[int, tuple[int, float]] = {}  # pid: (its worker's pid, seconds)
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> CpuMeter:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._thread.join()
        self._sample()

    def per_worker(self) -> list[float]:
        totals: dict[int, float] = {}
        for worker, seconds in self._seen.values():
            totals[worker] = totals.get(worker, 0.0) + seconds
        return sorted(totals.values(), reverse=True)

    def _run(self) -> None:
        while not self._done.wait(self.SAMPLE_SECONDS):
            self._sample()

    def _sample(self) -> None:
        for pid in self._workers:
            try:
                worker = psutil.Process(pid)
                family = [worker, *worker.children(recursive=True)]
            except psutil.Error:
                continue
            for process in family:
                try:
                    times = process.cpu_times()
                except psutil.Error:
                    continue
                self._seen[process.pid] = (worker.pid, times.user + times.system)


def timed_run(workers: int, files: list[Path], out: Path, redis_url: str,
              range_bytes: int) -> dict[str, Any]:
    """Seconds of one run on a new local cluster, the documents kept, and the CPU
    seconds of each worker."""
    import redis

    redis.Redis.from_url(redis_url).flushall()
    shutil.rmtree(out, ignore_errors=True)
    with local_cluster(workers) as cluster:
        options = ProcessorOptions()
        runner = DaskRunner(Processor(options), out, CorpusOptions(dedup=redis_url),
                            RunOptions(), index=open_index(redis_url, options.dedup),
                            scheduler=cluster.scheduler_address, range_bytes=range_bytes)
        with CpuMeter(_workers(cluster)) as meter:
            started = time.perf_counter()
            runner.run(files)
            seconds = time.perf_counter() - started
    documents = json.loads((out / "manifest.json").read_text())["documents"]
    return {"seconds": seconds, "documents": documents, "cpu": meter.per_worker()}


def _workers(cluster: Any) -> set[int]:
    """The pids of the cluster's worker processes (children of this one)."""
    from distributed import Client

    with Client(cluster) as client:
        return set(client.run(os.getpid).values())


def report(best: dict[object, dict[str, Any]], pages: int) -> dict[str, Any]:
    """Wall-clock pages/s and their ratio; then from CPU time: what each run used, how
    many cores it got on average, and the ratio 2 workers would reach with a free core
    each (the busiest worker's CPU time bounds their wall time)."""
    wall = {name: run["seconds"] for name, run in best.items()}
    figures: dict[str, Any] = {
        "pages": pages, "documents_kept": {n: r["documents"] for n, r in best.items()},
        "pages_per_second": {n: round(pages / s, 1) for n, s in wall.items()},
        "speedup_2_vs_1": round(wall[1] / wall[2], 2),
        "cpu_seconds_per_worker": {n: [round(c, 1) for c in r["cpu"]] for n, r in best.items()},
        "cores_used": {n: round(sum(r["cpu"]) / wall[n], 2) for n, r in best.items()},
        "cpu_ms_per_page": {n: round(1000 * sum(r["cpu"]) / pages, 1)
                            for n, r in best.items()},
        "speedup_2_vs_1_on_free_cores": round(sum(best[1]["cpu"]) / best[2]["cpu"][0], 2)}
    if "2 uncut" in best:
        figures["speedup_2_uncut_vs_1"] = round(wall[1] / wall["2 uncut"], 2)
    return figures


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--one-file", action="store_true",
                        help="the rounds in one archive, cut into --ranges ranges")
    parser.add_argument("--ranges", type=int, default=8)
    parser.add_argument("--pages", type=int, help="only the first N bench pages (a quick try)")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    with tempfile.TemporaryDirectory() as work:
        folder = Path(work)
        files, pages = build_files(folder, args.files, args.one_file, args.pages)
        size = sum(path.stat().st_size for path in files)
        range_bytes = size // args.ranges + 1 if args.one_file else RANGE_BYTES_DEFAULT
        tasks = sum(len(split(path, range_bytes)) for path in files)
        server, port = start_redis(folder)
        url = f"redis://127.0.0.1:{port}/0"
        runs = {1: range_bytes, 2: range_bytes} | ({"2 uncut": size} if args.one_file else {})
        best: dict[object, dict[str, Any]] = {}
        try:
            for _ in range(args.repeat):
                for name, cut in runs.items():
                    workers = int(str(name).split()[0])
                    run = timed_run(workers, files, folder / "out", url, cut)
                    if name not in best or run["seconds"] < best[name]["seconds"]:
                        best[name] = run
                    log.warning("%s worker(s): %.1f s, CPU per worker %s", name,
                                run["seconds"], [round(c, 1) for c in run["cpu"]])
        finally:
            server.terminate()
            server.wait(10)
    figures = report(best, pages) | {"files": len(files), "bytes": size, "tasks": tasks}
    print(json.dumps(figures, indent=2))
    if args.out:
        args.out.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
