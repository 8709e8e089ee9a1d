"""Archive files as tasks on a Dask cluster, sharing one Redis dedup index.

    runner = DaskRunner(Processor(options), Path("out"), corpus_options, RunOptions(),
                        scheduler="local:2")          # or "tcp://scheduler:8786"
    report = runner.run([Path("a.warc.gz"), Path("b.warc.gz")])

Each input file is one task, or, when it is larger than ``range_bytes``,
one task per byte range (``corpusbot.archive.ranges``: cut at record
starts, each record in exactly one range), so that one large archive keeps
every worker busy. A worker runs the ordinary ``Runner`` over its file or
range with one job, into the task's own corpus folder ``OUT/tasks/<task>/``
(shards, checkpoint, manifest), deduplicating against the shared Redis
index (``index``, from ``open_index``: a shared one is required). A task's key is a hash of
the file's path and size (and the range's offsets), so the same command run
again finds the same folders: finished files and ranges are skipped without
being sent, and a task that was cut short resumes at its last commit.

Failures: a task that raises is retried (``TASK_RETRIES``); a worker that
dies (killed, out of memory) takes its task with it, its nanny starts a new
worker, and the scheduler runs the task again on a live one. Either
way the retry reopens the task's folder: the corpus restores its last
commit and the Redis index releases what the dead attempt had added but
not committed, so nothing is lost and nothing kept twice. When all tasks
have ended, ``OUT/manifest.json`` merges the tasks' manifests.

The task folders must be on storage every worker reaches under the same
path (one machine, or a shared file system).
"""

from __future__ import annotations

import logging
import warnings
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import replace
from hashlib import blake2b
from pathlib import Path
from typing import Any

from corpusbot.archive.ranges import RANGE_BYTES_DEFAULT, ByteRange, split
from corpusbot.archive.runner import (
    FILE_DONE,
    RANGE_DONE,
    Progress,
    Runner,
    RunOptions,
    RunReport,
    recipe,
)
from corpusbot.corpus.layout import Layout
from corpusbot.corpus.merge import read_manifest, write_merged_manifest
from corpusbot.corpus.sink import Corpus, CorpusOptions
from corpusbot.dedup.backends import IndexFactory
from corpusbot.processor import Processor

logger = logging.getLogger(__name__)

TASK_RETRIES = 2
"""Retries of a task that raised; a task whose worker died is rerun by the scheduler
(its ``distributed.scheduler.allowed-failures``, 3 by default)."""
LOCAL_PREFIX = "local:"
TASK_START_METHOD = "forkserver"
"""How a task starts the process that runs its pages. Dask's workers run under ``spawn``,
which would start a fresh interpreter per task, importing corpusbot again: 1-2 s on an idle
core, 8 s at this machine's load of 15-20 (benchmarks/dask_scaling.py, 8-page tasks). A fork
server is started once per Dask worker and forks each task's process with corpusbot already
imported; ``fork`` itself is unsafe in a process running Dask's threads."""
ALREADY_DONE = "archive/files/already-done"
RANGE_ALREADY_DONE = "archive/ranges/already-done"


def task_key(part: ByteRange | Path) -> str:
    """A stable name for the task of a file or range: the same part gives the same folder."""
    part = part if isinstance(part, ByteRange) else ByteRange(part)
    resolved = part.path.resolve()
    size = resolved.stat().st_size if resolved.exists() else -1
    name = f"{resolved}\0{size}" + ("" if part.whole else f"\0{part.start}\0{part.end}")
    return blake2b(name.encode(), digest_size=8).hexdigest()


def run_task(processor: Processor, corpus_options: CorpusOptions, run_options: RunOptions,
             folder: str, part: ByteRange, *, index: IndexFactory) -> dict[str, Any]:
    """One file or range into its own corpus folder, on a worker; this attempt's counts."""
    logging.getLogger("warcio").setLevel(logging.ERROR)
    corpus = Corpus(Path(folder), corpus_options, run_options={"task": part.key}, index=index,
                    recipe=recipe(processor.options, run_options))
    runner = Runner(processor, corpus,
                    replace(run_options, jobs=1, start_method=TASK_START_METHOD))
    try:
        report = runner.run([part])
    except BaseException:
        corpus.abort()
        raise
    return {"status": report.status, "stats": dict(report.stats)}


def is_finished(folder: Path, part: ByteRange) -> bool:
    """Whether the task folder's committed manifest says ``part`` was read to its end."""
    manifest = read_manifest(folder)
    if manifest is None or not part.path.exists():
        return False
    return any(entry["done"] and entry["path"] == part.key
               for entry in manifest.get("inputs", []))


class DaskRunner:
    """Runs archive files as Dask tasks into one corpus; see the module docstring."""

    def __init__(self, processor: Processor, out_dir: Path, corpus_options: CorpusOptions,
                 run_options: RunOptions, *, index: IndexFactory, scheduler: str,
                 progress: Progress | None = None,
                 range_bytes: int = RANGE_BYTES_DEFAULT) -> None:
        if not index.shared:
            raise ValueError("a Dask run needs the shared dedup index: --dedup redis://HOST:PORT/DB")
        self.processor, self.out_dir, self.index = processor, Path(out_dir), index
        self.corpus_options, self.run_options = corpus_options, run_options
        self.scheduler, self.progress = scheduler, progress
        self.range_bytes = range_bytes
        self._left: Counter[Path] = Counter()  # unfinished ranges per split file

    def run(self, paths: list[Path]) -> RunReport:
        """Every file or range as a task; waits for all, merges the manifests, reports."""
        tasks_dir = Layout(self.out_dir).tasks
        tasks_dir.mkdir(parents=True, exist_ok=True)
        stats: Counter[str] = Counter()
        todo = []
        for part in self._parts(paths):
            folder = tasks_dir / task_key(part)
            if is_finished(folder, part):
                self._finished(part, stats, earlier=True)
            else:
                todo.append((folder, part))
        failed = self._run_all(todo, stats)
        manifest = write_merged_manifest(self.out_dir, sorted(tasks_dir.iterdir()))
        totals = Counter({"documents": manifest["documents"], "pages": manifest["pages"]})
        return RunReport("failed" if failed else "done", stats, totals)

    def _parts(self, paths: list[Path]) -> list[ByteRange]:
        """The files cut into ranges of about ``range_bytes`` (whole when not larger)."""
        parts = [part for path in paths for part in split(path, self.range_bytes)]
        self._left = Counter(part.path for part in parts if not part.whole)
        return parts

    def _finished(self, part: ByteRange, stats: Counter[str], *, earlier: bool) -> None:
        """Count a part read to its end (by an ``earlier`` run or now); a split file
        counts as a file once all its ranges are."""
        file_key = ALREADY_DONE if earlier else FILE_DONE
        if part.whole:
            stats[file_key] += 1
            return
        stats[RANGE_ALREADY_DONE if earlier else RANGE_DONE] += 1
        self._left[part.path] -= 1
        if self._left[part.path] == 0:
            stats[file_key] += 1

    def _run_all(self, todo: list[tuple[Path, ByteRange]], stats: Counter[str]) -> int:
        from distributed import as_completed  # optional extra: corpusbot[dask]  # noqa: PLC0415

        failed = 0
        with connect(self.scheduler) as client:
            futures = {client.submit(run_task, self.processor, self.corpus_options,
                                     self.run_options, str(folder), part, index=self.index,
                                     key=f"corpusbot-{folder.name}", retries=TASK_RETRIES,
                                     pure=False): part for folder, part in todo}
            for future in as_completed(futures):
                failed += self._collect(future, futures[future], stats)
        return failed

    def _collect(self, future: Any, part: ByteRange, stats: Counter[str]) -> int:
        """Add a finished task's counts and show them; 1 when it failed for good."""
        try:
            result = future.result()
        except Exception as error:  # the task's own error, or KilledWorker
            logger.error("%s failed: %s", part, error)
            return 1
        done = result["stats"].pop(FILE_DONE if part.whole else RANGE_DONE, 0)
        stats.update(result["stats"])
        if result["status"] == "done" and done:
            self._finished(part, stats, earlier=False)
        else:
            logger.warning("%s ended %s; run the command again to continue", part,
                           result["status"])
        if self.progress:
            self.progress.file(str(part))
            self.progress.update(stats)
        return 0


@contextmanager
def connect(scheduler: str) -> Iterator[Any]:
    """A client of ``scheduler`` (an address), or of a new local cluster for ``local:N``;
    closed (with the cluster) on leaving."""
    from distributed import Client  # noqa: PLC0415

    # distributed sets its loggers to INFO on import: hold them to the caller's level
    # (the CLI's WARNING, INFO with -v), or a local cluster logs some 30 lines of its start
    logging.getLogger("distributed").setLevel(logging.getLogger().getEffectiveLevel())
    if not scheduler.startswith(LOCAL_PREFIX):
        with Client(scheduler) as client:
            yield client
        return
    workers = scheduler.removeprefix(LOCAL_PREFIX)
    if not workers.isdigit() or int(workers) < 1:
        raise ValueError(f"--dask local:N takes a number of workers, got {scheduler!r}")
    with local_cluster(int(workers)) as cluster, Client(cluster) as client:
        try:
            yield client
        finally:
            with suppress(OSError):  # a cluster already gone has nothing left to say
                client.run(hush_heartbeat_failures, on_error="ignore")


HEARTBEAT_FAILURE = "Failed to communicate with scheduler during heartbeat"


def hush_heartbeat_failures() -> None:
    """Run in each worker of the run's own cluster as it closes: a worker whose heartbeat is
    in flight when the scheduler shuts down logs a failure and its traceback (a race that
    distributed itself names, dask/distributed#9032), after a run that succeeded. Only that
    message is dropped: a worker's memory warnings still reach the user."""
    logging.getLogger("distributed.worker").addFilter(
        lambda record: not record.getMessage().startswith(HEARTBEAT_FAILURE))


@contextmanager
def local_cluster(workers: int) -> Iterator[Any]:
    """``workers`` single-threaded worker processes on this machine, each with a nanny that
    starts a new one when it dies.

    A task runs its pages in a child process (time limits need a main thread), which
    Dask's default daemonic workers may not start. The setting is held for the cluster's
    whole life: a nanny reads it again each time it restarts a dead worker."""
    import dask  # noqa: PLC0415
    from distributed import LocalCluster  # noqa: PLC0415

    with warnings.catch_warnings():
        # The scheduler's HTTP server takes another port when 8787 is taken (another
        # cluster on the machine), and says so: nothing for the user to do.
        warnings.filterwarnings("ignore", message="Port .* is already in use")
        with (dask.config.set({"distributed.worker.daemon": False}),
              LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                           dashboard_address=None) as cluster):
            yield cluster
