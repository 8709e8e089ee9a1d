"""Archive files as tasks on a Dask cluster, sharing one Redis dedup index.

    runner = DaskRunner(Processor(options), Path("out"), corpus_options, RunOptions(),
                        scheduler="local:2")          # or "tcp://scheduler:8786"
    report = runner.run([Path("a.warc.gz"), Path("b.warc.gz")])

Each input file is one task: a worker runs the ordinary ``Runner`` over it
with one job, into the task's own corpus folder ``OUT/tasks/<task>/``
(shards, checkpoint, manifest), deduplicating against the shared Redis
index (``CorpusOptions.dedup_url``, required). A task's key is a hash of
the file's path and size, so the same command run again finds the same
folders: finished files are skipped without being sent, and a task that
was cut short resumes at its last commit.

Failures: a task that raises is retried (``TASK_RETRIES``); a worker that
dies takes its task with it and the scheduler runs it elsewhere. Either
way the retry reopens the task's folder: the corpus restores its last
commit and the Redis index releases what the dead attempt had added but
not committed, so nothing is lost and nothing kept twice. When all tasks
have ended, ``OUT/manifest.json`` merges the tasks' manifests.

The task folders must be on storage every worker reaches under the same
path (one machine, or a shared file system).
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import replace
from hashlib import blake2b
from pathlib import Path
from typing import Any

from corpusbot.archive.runner import FILE_DONE, Progress, Runner, RunOptions, RunReport
from corpusbot.corpus.merge import read_manifest, write_merged_manifest
from corpusbot.corpus.sink import Corpus, CorpusOptions
from corpusbot.processor import Processor

logger = logging.getLogger(__name__)

TASKS_FOLDER = "tasks"
TASK_RETRIES = 2
"""Retries of a task that raised; a task whose worker died is rerun by the scheduler
(its ``distributed.scheduler.allowed-failures``, 3 by default)."""
LOCAL_PREFIX = "local:"
ALREADY_DONE = "archive/files/already-done"


def task_key(path: Path) -> str:
    """A stable name for the task of ``path``: the same file gives the same folder."""
    resolved = path.resolve()
    size = resolved.stat().st_size if resolved.exists() else -1
    return blake2b(f"{resolved}\0{size}".encode(), digest_size=8).hexdigest()


def run_task(processor: Processor, corpus_options: CorpusOptions, run_options: RunOptions,
             folder: str, path: str) -> dict[str, Any]:
    """One file into its own corpus folder, on a worker; the counts of this attempt."""
    logging.getLogger("warcio").setLevel(logging.ERROR)
    corpus = Corpus(Path(folder), corpus_options, run_options={"task": path})
    runner = Runner(processor, corpus, replace(run_options, jobs=1))
    try:
        report = runner.run([Path(path)])
    except BaseException:
        corpus.abort()
        raise
    return {"status": report.status, "stats": dict(report.stats)}


def is_finished(folder: Path, path: Path) -> bool:
    """Whether the task folder's committed manifest says ``path`` was read to its end."""
    manifest = read_manifest(folder)
    if manifest is None:
        return False
    size = path.stat().st_size if path.exists() else None
    return any(entry["done"] and entry["path"] == str(path.resolve())
               for entry in manifest.get("inputs", [])) and size is not None


class DaskRunner:
    """Runs archive files as Dask tasks into one corpus; see the module docstring."""

    def __init__(self, processor: Processor, out_dir: Path, corpus_options: CorpusOptions,
                 run_options: RunOptions, *, scheduler: str,
                 progress: Progress | None = None) -> None:
        if corpus_options.dedup_url is None:
            raise ValueError("a Dask run needs the shared dedup index: --dedup redis://HOST:PORT/DB")
        self.processor, self.out_dir = processor, Path(out_dir)
        self.corpus_options, self.run_options = corpus_options, run_options
        self.scheduler, self.progress = scheduler, progress

    def run(self, paths: list[Path]) -> RunReport:
        """Every file as a task; waits for all, merges the manifests, reports."""
        tasks_dir = self.out_dir / TASKS_FOLDER
        tasks_dir.mkdir(parents=True, exist_ok=True)
        stats: Counter[str] = Counter()
        todo = []
        for path in paths:
            folder = tasks_dir / task_key(path)
            if is_finished(folder, path):
                stats[ALREADY_DONE] += 1
            else:
                todo.append((folder, path))
        failed = self._run_all(todo, stats)
        manifest = write_merged_manifest(self.out_dir, sorted(tasks_dir.iterdir()))
        totals = Counter({"documents": manifest["documents"], "pages": manifest["pages"]})
        return RunReport("failed" if failed else "done", stats, totals)

    def _run_all(self, todo: list[tuple[Path, Path]], stats: Counter[str]) -> int:
        from distributed import as_completed  # optional extra: corpusbot[dask]  # noqa: PLC0415

        client, cluster = connect(self.scheduler)
        failed = 0
        try:
            futures = {client.submit(run_task, self.processor, self.corpus_options,
                                     self.run_options, str(folder), str(path),
                                     key=f"corpusbot-{folder.name}", retries=TASK_RETRIES,
                                     pure=False): path for folder, path in todo}
            for future in as_completed(futures):
                failed += self._collect(future, futures[future], stats)
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
        return failed

    def _collect(self, future: Any, path: Path, stats: Counter[str]) -> int:
        """Add a finished task's counts and show them; 1 when it failed for good."""
        try:
            result = future.result()
        except Exception as error:  # the task's own error, or KilledWorker
            logger.error("%s failed: %s", path, error)
            return 1
        stats.update(result["stats"])
        if self.progress:
            self.progress.file(str(path))
            self.progress.update(stats)
        if result["status"] != "done" or not result["stats"].get(FILE_DONE):
            logger.warning("%s ended %s; run the command again to continue", path,
                           result["status"])
        return 0


def connect(scheduler: str) -> tuple[Any, Any]:
    """A client of ``scheduler`` (an address), or of a new local cluster for ``local:N``."""
    import dask  # noqa: PLC0415
    from distributed import Client, LocalCluster  # noqa: PLC0415

    if not scheduler.startswith(LOCAL_PREFIX):
        return Client(scheduler), None
    workers = scheduler.removeprefix(LOCAL_PREFIX)
    if not workers.isdigit() or int(workers) < 1:
        raise ValueError(f"--dask local:N takes a number of workers, got {scheduler!r}")
    # A task runs its pages in a child process (time limits need a main thread), which
    # Dask's default daemonic workers may not start.
    with dask.config.set({"distributed.worker.daemon": False}):
        cluster = LocalCluster(n_workers=int(workers), threads_per_worker=1, processes=True,
                               dashboard_address=None)
    return Client(cluster), cluster
