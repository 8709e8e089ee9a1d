"""What keeping the undo log of the last commit costs each corpus commit.

    python benchmarks/commit_time.py                       # 300 commits a variant, best of 5
    python benchmarks/commit_time.py --inputs 5000 --out /tmp/commit.json

Every commit logs the rows it changes as they were before it
(``Checkpoint.begin_undo_log`` and ``_log_before``: input positions, shard states,
counts, settings), so that a commit lost to another process of a shared
crawl can be undone (``Checkpoint.undo_last_commit``). Here a folder holds
``--inputs`` input positions (one per WARC file read), forty count keys and
shards in ten languages, and each commit follows a few documents
(``--docs``): the commit's own work (shard flushes and fsyncs, the SQLite
transaction with ``synchronous = FULL``, the manifest and the card) with the
log, against the same commit without it (the reference). The two variants
alternate within one run, ``--repeat`` rounds of ``--commits`` commits
each; the median and best per commit are given, and their ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from corpusbot.corpus.checkpoint import Checkpoint, InputPosition  # noqa: E402
from corpusbot.corpus.sink import Corpus, CorpusOptions  # noqa: E402
from tests.corpus_support import make_doc  # noqa: E402

LANGUAGES = ("en", "de", "fr", "es", "it", "nl", "pl", "pt", "ru", "cs")


@contextmanager
def undo_log(keep: bool) -> Iterator[None]:
    """Commits with the undo log, or without it (the reference)."""
    names = ("begin_undo_log", "_log_before")
    kept = {name: getattr(Checkpoint, name) for name in names}
    for name, method in kept.items():
        setattr(Checkpoint, name, timed(method) if keep else lambda self, *args: None)
    try:
        yield
    finally:
        for name, method in kept.items():
            setattr(Checkpoint, name, method)


LOG_SECONDS = [0.0]
"""Time spent writing the undo log, summed over the variant with it."""


def timed(method: Callable[..., None]) -> Callable[..., None]:
    def run(self: Checkpoint, *args: object) -> None:
        began = time.perf_counter()
        method(self, *args)
        LOG_SECONDS[0] += time.perf_counter() - began
    return run


def prepared(folder: Path, inputs: int) -> None:
    """A folder with the state of a long archive run."""
    with Corpus(folder, CorpusOptions(shard_bytes=20_000)) as corpus:
        for i in range(200):
            corpus.add(make_doc(i, LANGUAGES[i % len(LANGUAGES)]))
        for i in range(40):
            corpus.count(f"rejected/reason-{i}")
        for i in range(inputs):
            corpus.advance(InputPosition(f"crawl-data/segment/warc/{i:06d}.warc.gz", 10**9, True))


def commits(folder: Path, keep: bool, count: int, docs: int, start: int) -> list[float]:
    """Seconds per commit, each after ``docs`` new documents."""
    times = []
    with undo_log(keep), Corpus(folder, CorpusOptions(shard_bytes=20_000)) as corpus:
        for n in range(count):
            for i in range(docs):
                number = start + n * docs + i
                corpus.add(make_doc(number, LANGUAGES[number % len(LANGUAGES)]))
            began = time.perf_counter()
            corpus.commit()
            times.append(time.perf_counter() - began)
    return times


def measure(work: Path, inputs: int, repeat: int, count: int, docs: int) -> dict:
    runs: dict[str, list[float]] = {"with the undo log": [], "without (reference)": []}
    start = 1_000
    for _ in range(repeat):
        for label, keep in (("with the undo log", True), ("without (reference)", False)):
            folder = work / label.split()[0]
            shutil.rmtree(folder, ignore_errors=True)
            prepared(folder, inputs)
            runs[label].append(statistics.median(commits(folder, keep, count, docs, start)))
            start += count * docs
    logged = LOG_SECONDS[0] / (repeat * count)
    best = {label: min(values) for label, values in runs.items()}
    first = {label: values[0] for label, values in runs.items()}
    return {
        "inputs": inputs, "commits_per_run": count, "documents_per_commit": docs,
        "load": os.getloadavg()[0],
        "median_ms_per_commit_first_run": {k: round(v * 1000, 3) for k, v in first.items()},
        "median_ms_per_commit_best_run": {k: round(v * 1000, 3) for k, v in best.items()},
        "log_ms_per_commit_mean": round(logged * 1000, 3),
        "ratio_first": round(first["with the undo log"] / first["without (reference)"], 3),
        "ratio_best": round(best["with the undo log"] / best["without (reference)"], 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--inputs", type=int, default=1000, help="input positions in the state")
    parser.add_argument("--commits", type=int, default=300, help="commits a run")
    parser.add_argument("--docs", type=int, default=5, help="documents before each commit")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--out", type=Path,
                        default=REPO / "benchmarks" / "commit-time-results.json")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="corpusbot-commit-"))
    try:
        result = measure(work, args.inputs, args.repeat, args.commits, args.docs)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
