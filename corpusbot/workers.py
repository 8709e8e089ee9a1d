"""Where the Processor runs: in this process, or in a pool of worker processes.

Both pools take a list of pages and hand back a function that returns
their results in order; the caller keeps ``window`` tasks in flight. Each
page runs under a time limit (``timeout``). A worker that dies (a crash in
native code) breaks the process pool: the pool is started again and the
pages of the lost tasks are retried one at a time, so that only the page
that kills a worker again is rejected, as ``crash/worker``.
"""

from __future__ import annotations

import gc
import logging
import signal
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from types import FrameType
from typing import Protocol

from corpusbot.page import Page
from corpusbot.processor import Document, Processor, Rejection, reject

logger = logging.getLogger(__name__)

TIMEOUT = "timeout"
WORKER_CRASH = "crash/worker"
WINDOW_PER_JOB = 4
"""Tasks in flight per worker: enough that no worker waits while the main process adds."""

Result = Document | Rejection


class Pool(Protocol):
    """Runs ``Processor.process`` over lists of pages."""

    window: int

    def submit(self, pages: list[Page]) -> Callable[[], list[Result]]: ...


class _PageTimeout(BaseException):
    # A BaseException, so that no ``except Exception`` on the way turns it into a crash.
    pass


def _raise_timeout(signum: int, frame: FrameType | None) -> None:
    raise _PageTimeout


def process_pages(processor: Processor, pages: list[Page], timeout: float) -> list[Result]:
    """The results of ``pages``, each computed under a time limit of ``timeout`` seconds."""
    previous = signal.signal(signal.SIGALRM, _raise_timeout)
    try:
        return [_process_one(processor, page, timeout) for page in pages]
    finally:
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
    """Processes each task in this process, when its results are asked for."""

    window = 1

    def __init__(self, processor: Processor, timeout: float) -> None:
        self.processor, self.timeout = processor, timeout

    def submit(self, pages: list[Page]) -> Callable[[], list[Result]]:
        return lambda: process_pages(self.processor, pages, self.timeout)


def _ignore_interrupt() -> None:
    # Ctrl-C reaches the whole process group; the main process decides what it means.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class ProcessPool:
    """Processes tasks in ``jobs`` worker processes; see the module docstring."""

    def __init__(self, processor: Processor, jobs: int, timeout: float) -> None:
        self.processor, self.jobs, self.timeout = processor, jobs, timeout
        self.window = jobs * WINDOW_PER_JOB
        self._generation = 0
        self._executor = self._start()

    def submit(self, pages: list[Page]) -> Callable[[], list[Result]]:
        generation = self._generation
        future = self._executor.submit(process_pages, self.processor, pages, self.timeout)
        return lambda: self._resolve(future, pages, generation)

    def shutdown(self) -> None:
        """Stop the workers (tasks not yet started are cancelled)."""
        self._executor.shutdown(wait=True, cancel_futures=True)

    def _start(self) -> ProcessPoolExecutor:
        # Forked workers share what the parent loaded; frozen, the collector leaves it alone
        # and the shared pages stay shared.
        self.processor.warm_up()
        gc.freeze()
        executor = ProcessPoolExecutor(self.jobs, initializer=_ignore_interrupt)
        # Start the workers now, before the caller opens files or threads a fork would copy.
        executor.submit(int).result()
        return executor

    def _resolve(self, future: Future[list[Result]], pages: list[Page],
                 generation: int) -> list[Result]:
        try:
            return future.result()
        except BrokenProcessPool:
            self._restart(generation)
            return [self._retry(page) for page in pages]

    def _retry(self, page: Page) -> Result:
        generation = self._generation
        try:
            return self._executor.submit(process_pages, self.processor, [page],
                                         self.timeout).result()[0]
        except BrokenProcessPool:
            logger.error("%s: a worker process died on this page; rejected", page.url)
            self._restart(generation)
            return reject(page, WORKER_CRASH)

    def _restart(self, generation: int) -> None:
        if generation != self._generation:
            return  # another lost task already started a fresh pool
        logger.warning("a worker process died; starting the pool again")
        self._executor.shutdown(wait=False, cancel_futures=True)
        self._generation += 1
        self._executor = self._start()
