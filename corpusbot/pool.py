"""The one worker pool: where ``Processor.process`` runs, for archives and the crawl alike.

    pool = WorkerPool(processor, jobs=2, timeout=60)
    future = pool.submit(pages)          # concurrent.futures.Future of the results, in order
    results = future.result()

Each worker process receives the Processor once, when it starts (the
executor's initializer), so a task carries pages only. Each page runs under
two time limits. Inside the worker an alarm signal rejects a page still in
Python code after ``timeout`` seconds. A page stuck in native code (libxml2
holding one huge element, say) never sees that signal, so a watchdog thread
in the parent kills the worker that has held one page for ``timeout`` plus
``KILL_GRACE_SECONDS``; that page is rejected as ``timeout`` too.

One crash policy: a worker that dies (a crash in native code, or killed by
the watchdog) breaks the process pool. The pool starts again and the pages
of the lost tasks are retried one at a time, so that only a page that kills
a worker again is rejected, as ``process/crash/worker``; the other pages of its
task come through. ``InlinePool`` runs tasks in the calling process, for
one-job runs and tests, with the signal limit only.
"""

from __future__ import annotations

import gc
import itertools
import logging
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from types import FrameType
from typing import Protocol

from corpusbot.document import Document, Rejection, reject
from corpusbot.page import Page
from corpusbot.processor import Processor

logger = logging.getLogger(__name__)

TIMEOUT = "process/timeout"
WORKER_CRASH = "process/crash/worker"
TIMEOUT_SECONDS_DEFAULT = 60.0
"""Per page: the gold pages take 2-40 ms, the slowest fuzzed input under 2 s."""
KILL_GRACE_SECONDS = 5.0
"""How long past its limit a page may hold a worker before the watchdog kills it:
enough for the in-worker alarm to act first whenever the page is in Python code."""
WATCHDOG_INTERVAL_SECONDS = 0.5
OWNER_WATCH_SECONDS = 0.2
"""How often a worker checks that the process owning the pool is alive."""
FORKSERVER_PRELOAD = (__name__, "corpusbot.extraction.core", "corpusbot.html.metadata",
                      "htmldate", "corpusbot.filters.english", "ftfy")
"""What the fork server imports once for all its workers: this module (the Processor, its
steps) and what the steps import on their first page only, kept out of the main process (0.3 s
of each start; ``corpusbot.extraction.step``, ``corpusbot.filters.counts``), and ftfy, which
the extraction imports on its first page with mojibake (``corpusbot.html.mojibake``)."""

Result = Document | Rejection


class Pool(Protocol):
    """Runs ``Processor.process`` over lists of pages."""

    def submit(self, pages: list[Page]) -> Future[list[Result]]: ...

    def shutdown(self) -> None: ...


class _PageTimeout(BaseException):
    # A BaseException, so that no ``except Exception`` on the way turns it into a crash.
    pass


def _raise_timeout(signum: int, frame: FrameType | None) -> None:
    raise _PageTimeout


def process_pages(processor: Processor, pages: list[Page], timeout: float,
                  on_page: _Slot | None = None) -> list[Result]:
    """The results of ``pages``, each computed under an alarm of ``timeout`` seconds."""
    previous = signal.signal(signal.SIGALRM, _raise_timeout)
    try:
        results = []
        for index, page in enumerate(pages):
            if on_page is not None:
                on_page.start(index)
            results.append(_process_one(processor, page, timeout))
        return results
    finally:
        if on_page is not None:
            on_page.start(-1)
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _process_one(processor: Processor, page: Page, timeout: float) -> Result:
    try:
        signal.setitimer(signal.ITIMER_REAL, timeout)
        try:
            return processor.process(page)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    except _PageTimeout:
        logger.warning("%s: processing took over %.0f s; rejected", page.url, timeout)
        return reject(page, TIMEOUT)


class InlinePool:
    """Processes each task in this process, at once."""

    def __init__(self, processor: Processor, timeout: float = TIMEOUT_SECONDS_DEFAULT) -> None:
        self.processor, self.timeout = processor, timeout
        self._frozen = False

    def submit(self, pages: list[Page]) -> Future[list[Result]]:
        if not self._frozen:
            # The language profiles and stop-word lists, loaded once and kept for the run:
            # frozen, the collector's full passes stop rescanning them (each pass cost
            # ~45 ms, six pages' time; all collections 0.38 -> 0.06 ms a page over `warc -j 1`
            # of the gold records). What the caller had is frozen too, as in the forking
            # pool's parent.
            self.processor.warm_up()
            gc.freeze()
            self._frozen = True
        future: Future[list[Result]] = Future()
        future.set_result(process_pages(self.processor, pages, self.timeout))
        return future

    def shutdown(self) -> None:
        """Nothing to stop."""


class _Slot:
    """A worker's entry in the shared table the watchdog reads: which task and page it
    is on, and since when (``time.monotonic`` is one clock for every process)."""

    __slots__ = ("index", "table")

    FIELDS = 4  # pid, task id, page index (-1: idle), start time

    def __init__(self, table: multiprocessing.Array, index: int) -> None:  # type: ignore[valid-type]
        self.table, self.index = table, index

    def begin_task(self, task_id: int) -> None:
        base = self.index * self.FIELDS
        self.table[base:base + 3] = [os.getpid(), task_id, -1]

    def start(self, page_index: int) -> None:
        base = self.index * self.FIELDS
        self.table[base + 2:base + 4] = [page_index, time.monotonic()]


# Set once per worker process by its initializer, and read by each task it runs: what
# a worker is for. The parent process never sets them.
_worker_processor: Processor | None = None
_worker_slot: _Slot | None = None


def _init_worker(processor: Processor, table: multiprocessing.Array,  # type: ignore[valid-type]
                 counter: multiprocessing.Value, owner: int) -> None:  # type: ignore[valid-type]
    global _worker_processor, _worker_slot
    # Ctrl-C reaches the whole process group; the main process decides what it means.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_exit_with_owner, args=(owner, os.getppid()), daemon=True,
                     name="corpusbot-owner-watch").start()
    with counter.get_lock():
        index = counter.value
        counter.value += 1
    _worker_processor, _worker_slot = processor, _Slot(table, index)
    processor.warm_up()


def _exit_with_owner(owner: int, parent: int) -> None:
    """End this worker once the process that owns the pool is gone.

    A ``kill -9`` of the main process gives its workers no signal, and a forked
    worker holds the write end of its own task queue, so it would wait forever
    (holding the output folder's lock, which it inherited): the next run of the
    same command would find the folder busy.
    """
    while True:
        time.sleep(OWNER_WATCH_SECONDS)
        if os.getppid() != parent or not _alive(owner):
            os._exit(0)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _run_task(task_id: int, pages: list[Page], timeout: float) -> list[Result]:
    assert _worker_processor is not None and _worker_slot is not None
    _worker_slot.begin_task(task_id)
    return process_pages(_worker_processor, pages, timeout, _worker_slot)


class WorkerPool:
    """Processes tasks in ``jobs`` worker processes; see the module docstring."""

    def __init__(self, processor: Processor, jobs: int, timeout: float = TIMEOUT_SECONDS_DEFAULT,
                 start_method: str | None = None,
                 kill_grace: float = KILL_GRACE_SECONDS) -> None:
        self.processor, self.jobs, self.timeout = processor, jobs, timeout
        self.kill_grace = kill_grace
        self.context = multiprocessing.get_context(start_method)
        if self.context.get_start_method() == "forkserver":
            # The server imports the pipeline once; each worker forked from it starts warm.
            self.context.set_forkserver_preload(list(FORKSERVER_PRELOAD))
        self._lock = threading.RLock()
        self._task_ids = itertools.count()
        self._timed_out: set[tuple[int, int]] = set()
        self._generation = 0
        self._closed = threading.Event()
        # Retries run one task at a time, so that a page retried alone shares the
        # workers with few others a crash would take down with it.
        self._retrying = threading.Lock()
        self._executor, self._table = self._start()
        self._watchdog = threading.Thread(target=self._watch, name="corpusbot-watchdog",
                                          daemon=True)
        self._watchdog.start()

    def submit(self, pages: list[Page]) -> Future[list[Result]]:
        """The future results of ``pages``; a lost worker never fails it (see the docstring)."""
        outcome: Future[list[Result]] = Future()
        task_id = next(self._task_ids)
        with self._lock:
            generation, executor = self._generation, self._executor
        try:
            task = executor.submit(_run_task, task_id, pages, self.timeout)
        except (BrokenProcessPool, RuntimeError):
            self._retry_in_thread(task_id, pages, outcome, generation)
            return outcome
        task.add_done_callback(lambda done: self._settle(done, task_id, pages, outcome,
                                                         generation))
        return outcome

    def shutdown(self) -> None:
        """Stop the workers (tasks not yet started are cancelled)."""
        self._closed.set()
        with self._lock:
            executor = self._executor
        executor.shutdown(wait=True, cancel_futures=True)

    def _start(self) -> tuple[ProcessPoolExecutor, multiprocessing.Array]:  # type: ignore[valid-type]
        if self.context.get_start_method() == "fork":
            # Forked workers share what the parent loaded; frozen, the collector leaves it
            # alone and the shared pages stay shared.
            self.processor.warm_up()
            gc.freeze()
        table = self.context.Array("d", self.jobs * _Slot.FIELDS, lock=False)
        counter = self.context.Value("i", 0)
        executor = ProcessPoolExecutor(self.jobs, mp_context=self.context,
                                       initializer=_init_worker,
                                       initargs=(self.processor, table, counter, os.getpid()))
        started = [executor.submit(int) for _ in range(self.jobs)]
        if self.context.get_start_method() == "fork":
            # Start every worker now, before the caller opens files or threads a fork would
            # copy. Other start methods start them in the background: a crawl's reactor
            # goes on fetching meanwhile.
            for worker in started:
                worker.result()
        return executor, table

    def _settle(self, done: Future[list[Result]], task_id: int, pages: list[Page],
                outcome: Future[list[Result]], generation: int) -> None:
        if done.cancelled():  # shut down before the task started
            outcome.cancel()
            return
        error = done.exception()
        if error is None:
            outcome.set_result(done.result())
        elif isinstance(error, BrokenProcessPool):
            # Never retried here: this callback may run in the executor's own thread.
            self._retry_in_thread(task_id, pages, outcome, generation)
        else:
            outcome.set_exception(error)

    def _retry_in_thread(self, task_id: int, pages: list[Page], outcome: Future[list[Result]],
                         generation: int) -> None:
        threading.Thread(target=self._retry_task, args=(task_id, pages, outcome, generation),
                         name="corpusbot-retry", daemon=True).start()

    def _retry_task(self, task_id: int, pages: list[Page], outcome: Future[list[Result]],
                    generation: int) -> None:
        if self._closed.is_set():
            outcome.cancel()
            return
        self._restart(generation)
        try:
            with self._retrying:
                outcome.set_result([self._retry_page(task_id, index, page)
                                    for index, page in enumerate(pages)])
        except Exception as error:  # the pool was shut down meanwhile
            outcome.set_exception(error)

    def _retry_page(self, task_id: int, index: int, page: Page) -> Result:
        with self._lock:
            if (task_id, index) in self._timed_out:
                return reject(page, TIMEOUT)
            generation, executor = self._generation, self._executor
        retry_id = next(self._task_ids)
        try:
            return executor.submit(_run_task, retry_id, [page], self.timeout).result()[0]
        except BrokenProcessPool:
            self._restart(generation)
            with self._lock:
                if (retry_id, 0) in self._timed_out:
                    return reject(page, TIMEOUT)
            logger.error("%s: a worker process died on this page; rejected", page.url)
            return reject(page, WORKER_CRASH)

    def _restart(self, generation: int) -> None:
        with self._lock:
            if generation != self._generation or self._closed.is_set():
                return  # another lost task already started a fresh pool
            logger.warning("a worker process died; starting the pool again")
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._generation += 1
            self._executor, self._table = self._start()

    def _watch(self) -> None:
        """Kill a worker that has held one page past its limit (see the module docstring)."""
        limit = self.timeout + self.kill_grace
        while not self._closed.wait(WATCHDOG_INTERVAL_SECONDS):
            with self._lock:
                table, now = self._table, time.monotonic()
                for base in range(0, len(table), _Slot.FIELDS):
                    pid, task_id, page_index, started = table[base:base + _Slot.FIELDS]
                    if page_index >= 0 and pid and now - started > limit:
                        self._kill(int(pid), int(task_id), int(page_index))
                        table[base + 2] = -1

    def _kill(self, pid: int, task_id: int, page_index: int) -> None:
        logger.warning("a page held worker %d over %.0f s; killing it", pid, self.timeout)
        self._timed_out.add((task_id, page_index))
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
