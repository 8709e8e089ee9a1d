"""Build a corpus from archive files: read in order, process in workers, add in order.

    runner = Runner(Processor(options), corpus, RunOptions(jobs=4))
    report = runner.run([Path("a.warc.gz"), Path("b.arc.gz")])
    report = runner.run([ByteRange(Path("big.warc.gz"), 0, 268435456)])  # a part of a file

The main process reads the archives and groups their records into tasks
of a few pages; up to ``window`` tasks run at once in ``jobs`` worker
processes (in this process when ``jobs`` is 1), and their results are taken
back in input order and handed to ``Corpus.add``. Dedup therefore sees the
same sequence whatever the number of workers, and the corpus is the same.
Memory stays bounded by the window, not by the archive. A page whose bytes
an earlier page of the run had (an exact copy under another URL) is not
sent to a worker: it takes the earlier page's outcome (``archive.copies``),
and the corpus is byte for byte what processing it again would give.

After each task the input position advances; every ``commit_pages`` pages
or ``commit_seconds`` the corpus commits, and that position becomes where a
re-run resumes. ``stop()`` (wired to the first Ctrl-C or SIGTERM by
``interrupt_stops``) stops reading, lets the tasks in flight finish, and commits.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
from collections import Counter, deque
from collections.abc import Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Protocol

from corpusbot.archive.copies import COPIES_DEFAULT, REUSED, CopyMemo, copy_key
from corpusbot.archive.ranges import ByteRange
from corpusbot.archive.reader import (
    DAMAGED,
    DAMAGED_DIGEST,
    SKIPPED_TOO_LARGE,
    UNREADABLE,
    ArchiveReader,
    ReaderOptions,
    Record,
)
from corpusbot.corpus.cadence import CommitCadence
from corpusbot.corpus.checkpoint import InputPosition
from corpusbot.corpus.sink import Corpus
from corpusbot.dedup.deduplicator import check_same
from corpusbot.document import Rejection
from corpusbot.page import Page
from corpusbot.pool import TIMEOUT_SECONDS_DEFAULT, InlinePool, Pool, Result, WorkerPool
from corpusbot.processor import Processor, ProcessorOptions

logger = logging.getLogger(__name__)

CHUNK_PAGES_DEFAULT = 8
"""Pages per worker task: large enough to amortise the hand-over, small enough to stay ordered."""
COMMIT_PAGES_DEFAULT = 2000
COMMIT_SECONDS_DEFAULT = 30.0
TASKS_PER_JOB = 4
"""Tasks in flight per worker: enough that no worker waits while the main process adds."""
RECORDS = "archive/records"
FILE_DONE = "archive/files"
RANGE_DONE = "archive/ranges"
_NOT_RECORDS = frozenset({DAMAGED, UNREADABLE, FILE_DONE, RANGE_DONE})


@dataclass(slots=True, frozen=True)
class RunOptions:
    """How the work is spread and how often it is committed."""

    jobs: int = field(default_factory=lambda: os.cpu_count() or 1)
    chunk_pages: int = CHUNK_PAGES_DEFAULT
    commit_pages: int = COMMIT_PAGES_DEFAULT
    commit_seconds: float = COMMIT_SECONDS_DEFAULT
    timeout_seconds: float = TIMEOUT_SECONDS_DEFAULT
    reader: ReaderOptions = field(default_factory=ReaderOptions)
    start_method: str | None = None
    """How worker processes start (``multiprocessing``'s names); None: the process's default."""
    copies: int = COPIES_DEFAULT
    """Outcomes of distinct pages remembered for their exact copies (``archive.copies``);
    0: every copy is processed again."""

    def __post_init__(self) -> None:
        for name in ("jobs", "chunk_pages", "commit_pages"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be 1 or more, got {getattr(self, name)}")
        if self.copies < 0:
            raise ValueError(f"copies must be 0 or more, got {self.copies}")
        if self.timeout_seconds <= 0 or self.commit_seconds <= 0:
            raise ValueError("time limits must be positive")


def recipe(processor: ProcessorOptions, run: RunOptions) -> dict[str, object]:
    """What decides what an archive run's corpus holds: the steps with all their options and
    the HTTP statuses read; a corpus refuses a later run with another (``Corpus``)."""
    return {"processor": processor.describe(), "statuses": sorted(run.reader.statuses)}


class Progress(Protocol):
    """What a progress display is told."""

    def file(self, path: str) -> None: ...
    def update(self, done: Counter[str]) -> None: ...


@dataclass(slots=True)
class RunReport:
    """How a run ended: ``status`` is done, interrupted or failed; ``stats`` counts this run."""

    status: str
    stats: Counter[str]
    totals: Counter[str]

    @property
    def damaged(self) -> bool:
        """Some records or files could not be read, a record's bytes failed its digest, or a
        page was past the size limit (a decompression bomb, or a page the corpus lacks)."""
        return bool(self.stats[DAMAGED] or self.stats[DAMAGED_DIGEST] or self.stats[UNREADABLE]
                    or self.stats[SKIPPED_TOO_LARGE])


@dataclass(slots=True)
class _Step:
    """One record's place in a task: what to count or add, and where the input stands after it."""

    position: InputPosition
    skipped: str | None = None  # a stat to count instead of a page
    page: int = -1  # index into the task's pages, when the page went to a worker
    refused: Rejection | None = None  # known without a worker: the URL was processed
    key: bytes | None = None  # the page's copy key (``archive.copies``), when one is kept
    copy_of: bytes | None = None  # an exact copy of a page read before: not sent ...
    held: Page | None = None  # ... but held here, to process if its first's outcome is unknown


@dataclass(slots=True)
class _Task:
    steps: list[_Step] = field(default_factory=list)
    pages: list[Page] = field(default_factory=list)
    held: int = 0  # copies held in its steps: pages in memory as much as those sent

    @property
    def size(self) -> int:
        return len(self.pages) + self.held


class Runner:
    """Feeds archive records through a Processor into a Corpus; see the module docstring."""

    def __init__(self, processor: Processor, corpus: Corpus, options: RunOptions | None = None,
                 progress: Progress | None = None) -> None:
        check_same(processor.options.dedup, corpus.dedup_options)  # one line, before any work
        self.processor, self.corpus = processor, corpus
        self.options = options or RunOptions()
        self.progress = progress
        self._reader = ArchiveReader(self.options.reader)
        self._stopping = False
        self._before: Counter[str] = Counter()
        self._cadence = CommitCadence(self.options.commit_pages, self.options.commit_seconds)
        url_steps = processor.url_steps()
        self._url_steps = url_steps or []
        self._copies = (CopyMemo(corpus.dedup_options, url_steps, self.options.copies)
                        if url_steps is not None and self.options.copies else None)
        self._unsettled: set[bytes] = set()  # first occurrences sent and not yet added
        self._pool_now: Pool | None = None

    def stop(self) -> None:
        """Stop reading; finish the tasks in flight and commit."""
        self._stopping = True

    def run(self, paths: list[Path] | list[ByteRange]) -> RunReport:
        """Process every input (files, or ranges of files) in order; commit and report."""
        self._before = before = Counter(self.corpus.stats)
        status = "failed"
        with self._pool() as pool:
            self._pool_now = pool
            self._drive(pool, self._tasks(paths))
            status = "interrupted" if self._stopping else "done"
        self.corpus.close(status)
        stats = self.corpus.stats - before
        return RunReport(status, stats, Counter(self.corpus.stats))

    @contextmanager
    def _pool(self) -> Iterator[Pool]:
        options = self.options
        # The inline pool's time limit is a signal, which only the main thread receives:
        # elsewhere (a Dask worker's task thread) one job runs in a worker process.
        inline = options.jobs <= 1 and threading.current_thread() is threading.main_thread()
        pool: Pool = (InlinePool(self.processor, options.timeout_seconds) if inline
                      else WorkerPool(self.processor, options.jobs, options.timeout_seconds,
                                      start_method=options.start_method))
        try:
            yield pool
        finally:
            pool.shutdown()

    def _drive(self, pool: Pool, tasks: Iterator[_Task]) -> None:
        in_flight: deque[tuple[_Task, Future[list[Result]]]] = deque()
        window = max(1, self.options.jobs * TASKS_PER_JOB)
        for task in tasks:
            in_flight.append((task, pool.submit(task.pages)))
            if len(in_flight) >= window:
                self._consume(*in_flight.popleft())
        while in_flight:
            self._consume(*in_flight.popleft())

    def _consume(self, task: _Task, results_due: Future[list[Result]]) -> None:
        results = results_due.result() if task.pages else []
        corpus = self.corpus
        for step in task.steps:
            if step.skipped not in _NOT_RECORDS:
                corpus.count(RECORDS)
            if step.skipped:
                corpus.count(step.skipped)
            elif step.page >= 0:
                self._add(results[step.page], step.key)
            elif step.copy_of is not None and step.held is not None:
                self._add_copy(step.copy_of, step.held)
            elif step.refused is not None:
                corpus.add(step.refused)
            corpus.advance(step.position)
        self._cadence.add(len(task.pages))
        if self.progress:
            self.progress.update(corpus.stats - self._before)
        self._maybe_commit()

    def _add(self, result: Result, key: bytes | None) -> None:
        kept = self.corpus.add_verdict(result) is None
        if key is not None and self._copies is not None:
            self._unsettled.discard(key)
            self._copies.remember(key, result, kept)

    def _add_copy(self, key: bytes, page: Page) -> None:
        """Add the result of an exact copy of a page read before: the first's remembered
        outcome under the copy's identity, or, when there is none, the copy processed."""
        assert self._copies is not None and self._pool_now is not None
        refused = (self.processor.url_rejection(page, self._url_steps)
                   if self._url_steps else None)
        result = refused or self._copies.recall(key, page)
        if result is not None:
            self.corpus.add(result)
            if refused is None:
                self.corpus.count(REUSED)
            return
        self._add(self._pool_now.submit([page]).result()[0], key)

    def _maybe_commit(self) -> None:
        if self._cadence.due():
            self.corpus.commit()
            self._cadence.committed()

    def _tasks(self, paths: list[Path] | list[ByteRange]) -> Iterator[_Task]:
        task = _Task()
        for step, page in self._steps(paths):
            if page is not None:
                step.page = len(task.pages)
                task.pages.append(page)
            elif step.held is not None:
                task.held += 1
            task.steps.append(step)
            if task.size >= self.options.chunk_pages:
                yield task
                task = _Task()
        if task.steps:
            yield task

    def _steps(self, paths: list[Path] | list[ByteRange]) -> Iterator[tuple[_Step, Page | None]]:
        for item in paths:
            if self._stopping:
                return
            part = item if isinstance(item, ByteRange) else ByteRange(item)
            start = self._start_offset(part)
            if start is None:
                continue
            if self.progress:
                self.progress.file(str(part))
            yield from self._file_steps(part, start)

    def _file_steps(self, part: ByteRange, start: int) -> Iterator[tuple[_Step, Page | None]]:
        key, size = part.key, _size(part.path)
        end, unreadable = start, False
        for record in self._reader.read(part.path, start, part.end):
            end, unreadable = record.end, record.skipped == UNREADABLE
            yield self._step(record, InputPosition(key, end, False, size))
            if self._stopping:
                return
        if not unreadable:  # an unreadable file is tried again by the next run
            done = FILE_DONE if part.whole else RANGE_DONE
            yield _Step(InputPosition(key, end, True, size), skipped=done), None

    def _step(self, record: Record, position: InputPosition) -> tuple[_Step, Page | None]:
        if record.page is None:
            return _Step(position, skipped=record.skipped), None
        page = record.page
        refused = self.corpus.admit(page)
        if refused is not None:
            return _Step(position, refused=refused), None
        if self._copies is None:
            return _Step(position), page
        key = copy_key(page)
        if key in self._unsettled or key in self._copies:
            return _Step(position, copy_of=key, held=page), None
        self._unsettled.add(key)
        return _Step(position, key=key), page

    def _start_offset(self, part: ByteRange) -> int | None:
        """Where to start reading ``part``: its start, the committed offset, or None when
        it is done."""
        known = self.corpus.position(part.key)
        if known is None:
            return part.start
        size = _size(part.path)
        if known.done and known.size == size:
            logger.info("%s was read completely by an earlier run; skipping it", part)
            self.corpus.count("archive/files/already-done")
            return None
        if size is not None and known.offset > size:
            logger.warning("%s is shorter than when it was read: reading it from the start", part)
            return part.start
        return known.offset


def _size(path: Path) -> int | None:
    try:
        return path.stat().st_size
    except OSError:
        return None


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
"""Ctrl-C, and what schedulers and containers send to stop a job: both commit first."""


@contextmanager
def interrupt_stops(runner: Runner) -> Iterator[None]:
    """While active, the first Ctrl-C or SIGTERM stops ``runner`` at the next commit; a
    second aborts."""

    def handle(signum: int, frame: FrameType | None) -> None:
        logger.warning("%s: finishing the pages in flight and committing (Ctrl-C or SIGTERM "
                       "again to abort without committing)",
                       "interrupted" if signum == signal.SIGINT else "terminated (SIGTERM)")
        runner.stop()
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)

    previous = {number: signal.signal(number, handle) for number in STOP_SIGNALS}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
