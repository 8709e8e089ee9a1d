"""Dask archive runs (issue 10): 2 workers against 1, with the shared Redis index.

    python benchmarks/dask_scaling.py                     # 4 files of every bench page
    python benchmarks/dask_scaling.py --files 4 --out benchmarks/dask-results.json

Builds ``--files`` WARC files, each holding every HTML page of
``../shared/bench`` under its own URLs (so every record is extracted; the
copies after the first are dropped as exact duplicates, as across real
crawls). Starts a ``redis-server`` and, per run, a ``LocalCluster`` of 1 or
2 single-threaded worker processes, then times ``DaskRunner.run`` alone
(cluster start-up excluded), alternating 1 and 2 workers ``--repeat``
times and keeping each one's fastest run. Reports pages/s of each and the
ratio, and the documents kept (which must be equal).
"""

from __future__ import annotations

import argparse
import gzip
import json
import logging
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from corpusbot.archive.dask_runner import DaskRunner, local_cluster  # noqa: E402
from corpusbot.archive.runner import RunOptions  # noqa: E402
from corpusbot.corpus.sink import CorpusOptions  # noqa: E402
from corpusbot.processor import Processor, ProcessorOptions  # noqa: E402
from tests.conftest import bench_dir  # noqa: E402
from tests.corpus_support import Rec, write_warc  # noqa: E402
from tests.redis_support import start_redis  # noqa: E402

log = logging.getLogger("dask_scaling")


def build_files(folder: Path, count: int) -> tuple[list[Path], int]:
    """``count`` WARC files of every bench page; the files and the records in all."""
    pages = [gzip.decompress(p.read_bytes()) for p in sorted(bench_dir().glob("*/html/*.gz"))]
    files = [write_warc(folder / f"part-{n}.warc.gz",
                        [Rec(f"https://copy{n}.example/{i}", body) for i, body in enumerate(pages)])
             for n in range(count)]
    return files, len(pages) * count


def timed_run(workers: int, files: list[Path], out: Path, redis_url: str) -> tuple[float, int]:
    """Seconds of one run on a new local cluster, and the documents kept."""
    import redis

    redis.Redis.from_url(redis_url).flushall()
    shutil.rmtree(out, ignore_errors=True)
    with local_cluster(workers) as cluster:
        runner = DaskRunner(Processor(ProcessorOptions()), out, CorpusOptions(dedup_url=redis_url),
                            RunOptions(), scheduler=cluster.scheduler_address)
        started = time.perf_counter()
        runner.run(files)
        seconds = time.perf_counter() - started
    return seconds, json.loads((out / "manifest.json").read_text())["documents"]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    with tempfile.TemporaryDirectory() as work:
        folder = Path(work)
        files, pages = build_files(folder, args.files)
        server, port = start_redis(folder)
        best: dict[int, float] = {}
        kept: dict[int, int] = {}
        try:
            for _ in range(args.repeat):
                for workers in (1, 2):
                    seconds, kept[workers] = timed_run(workers, files, folder / "out",
                                                       f"redis://127.0.0.1:{port}/0")
                    best[workers] = min(best.get(workers, seconds), seconds)
                    log.warning("%d worker(s): %.1f s", workers, seconds)
        finally:
            server.terminate()
            server.wait(10)
    figures = {"files": args.files, "pages": pages, "documents_kept": kept,
               "pages_per_second": {w: round(pages / s, 1) for w, s in best.items()},
               "speedup_2_vs_1": round(best[1] / best[2], 2)}
    print(json.dumps(figures, indent=2))
    if args.out:
        args.out.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
