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
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from corpusbot.archive.dask_runner import DaskRunner, local_cluster  # noqa: E402
from corpusbot.archive.ranges import RANGE_BYTES_DEFAULT, split  # noqa: E402
from corpusbot.archive.runner import RunOptions  # noqa: E402
from corpusbot.corpus.sink import CorpusOptions  # noqa: E402
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


def timed_run(workers: int, files: list[Path], out: Path, redis_url: str,
              range_bytes: int) -> tuple[float, int]:
    """Seconds of one run on a new local cluster, and the documents kept."""
    import redis

    redis.Redis.from_url(redis_url).flushall()
    shutil.rmtree(out, ignore_errors=True)
    with local_cluster(workers) as cluster:
        runner = DaskRunner(Processor(ProcessorOptions()), out, CorpusOptions(dedup_url=redis_url),
                            RunOptions(), scheduler=cluster.scheduler_address,
                            range_bytes=range_bytes)
        started = time.perf_counter()
        runner.run(files)
        seconds = time.perf_counter() - started
    return seconds, json.loads((out / "manifest.json").read_text())["documents"]


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
        best: dict[object, float] = {}
        kept: dict[object, int] = {}
        try:
            for _ in range(args.repeat):
                for name, cut in runs.items():
                    workers = int(str(name).split()[0])
                    seconds, kept[name] = timed_run(workers, files, folder / "out", url, cut)
                    best[name] = min(best.get(name, seconds), seconds)
                    log.warning("%s worker(s): %.1f s", name, seconds)
        finally:
            server.terminate()
            server.wait(10)
    figures = {"files": len(files), "bytes": size, "pages": pages, "documents_kept": kept,
               "pages_per_second": {w: round(pages / s, 1) for w, s in best.items()},
               "speedup_2_vs_1": round(best[1] / best[2], 2)}
    if args.one_file:
        figures |= {"ranges": tasks, "speedup_2_uncut_vs_1": round(best[1] / best["2 uncut"], 2)}
    print(json.dumps(figures, indent=2))
    if args.out:
        args.out.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
