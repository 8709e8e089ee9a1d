"""Item pipeline: run the Processor on each page item, in worker processes.

    ITEM_PIPELINES = {"corpusbot.pipelines.process.ProcessPipeline": 300}

Extraction, language identification, the quality filters, dedup
fingerprints and metadata are CPU work, so they run in a
``ProcessPoolExecutor`` (``corpusbot.crawlworker``) while the reactor keeps
fetching; ``process_item`` awaits the worker's result. The result, a
``Document`` or a ``Rejection``, goes on the item as ``result`` for the
corpus pipeline. Items that are not pages (no ``url`` and ``body``) pass
through untouched. How many pages wait for a worker is bounded by Scrapy
itself: the scraper stops taking responses once ``SCRAPER_SLOT_MAX_ACTIVE_SIZE``
bytes are in processing, which holds the downloader back.

Each worker has at most ``BATCHES_PER_WORKER`` tasks in flight; pages that
arrive meanwhile wait and leave together, up to ``MAX_BATCH`` in one task.
A page that arrives when a worker is free leaves at once, alone. Under
load this halves the pool's thread wake-ups and context switches per page
in the crawl's process, which runs Scrapy (a local crawl 4-5 % faster).
A worker that dies breaks the tasks in flight: their pages are rejected
as ``crash/worker`` and the pool starts again.
"""

from __future__ import annotations

import logging
import multiprocessing
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, Self

from itemadapter import ItemAdapter
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured

from corpusbot.crawlsettings import with_defaults
from corpusbot.crawlworker import ignore_interrupt, process_batch, warm_up
from corpusbot.items import page_from_item
from corpusbot.offload import await_future
from corpusbot.page import Page
from corpusbot.processor import Processor, reject
from corpusbot.workers import WORKER_CRASH

from .options import processor_options, worker_count

logger = logging.getLogger(__name__)

BATCHES_PER_WORKER = 2
"""Tasks in flight per worker: one running, one ready in its pipe."""
MAX_BATCH = 8
"""Pages in one task at most (each waits for those before it in the task)."""


@dataclass(slots=True)
class _Waiting:
    """A page waiting for a worker, and where its result will be put."""

    page: Page
    metadata: dict[str, Any] | None
    result: Future[Any] = field(default_factory=Future)
    executor: ProcessPoolExecutor | None = None


def _deliver(task: Future[list[Any]], batch: list[_Waiting]) -> None:
    """Hand each page its result (called in the pool's thread; futures are thread-safe)."""
    if task.cancelled():  # the pool shut down before the task started
        for waiting in batch:
            waiting.result.cancel()
        return
    error = task.exception()
    if error is not None:
        for waiting in batch:
            waiting.result.set_exception(error)
        return
    for waiting, result in zip(batch, task.result(), strict=True):
        waiting.result.set_result(result)


class ProcessPipeline:
    """Process page items in a pool of worker processes; see the module docstring."""

    def __init__(self, crawler: Crawler, processor: Processor, workers: int,
                 start_method: str, timeout: float) -> None:
        self.stats = crawler.stats
        self.processor, self.workers = processor, workers
        self.context = multiprocessing.get_context(start_method)
        self.timeout = timeout
        self.executor: ProcessPoolExecutor | None = None
        self._queue: list[_Waiting] = []
        self._in_flight: list[Future[Any]] = []

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        settings = with_defaults(crawler.settings)
        if not settings.getbool("CORPUSBOT_PROCESS_ENABLED"):
            raise NotConfigured("CORPUSBOT_PROCESS_ENABLED is off")
        return cls(crawler, Processor(processor_options(settings)), worker_count(settings),
                   settings.get("CORPUSBOT_PROCESS_START_METHOD"),
                   settings.getfloat("CORPUSBOT_PROCESS_TIMEOUT_SECONDS"))

    def open_spider(self) -> None:
        self.executor = self._start()
        logger.info("processing pages in %d worker process(es)", self.workers)

    async def process_item(self, item: Any) -> Any:
        try:
            page = page_from_item(item)
        except KeyError:
            return item
        adapter = ItemAdapter(item)
        adapter["result"] = await self._process(page, adapter.get("metadata"))
        self.stats.inc_value("process/pages")
        return item

    def close_spider(self) -> None:
        if self.executor is not None:
            self.executor.shutdown(wait=True, cancel_futures=True)

    async def _process(self, page: Page, metadata: dict[str, Any] | None) -> Any:
        waiting = _Waiting(page, metadata)
        self._queue.append(waiting)
        self._dispatch()
        try:
            return await await_future(waiting.result)
        except BrokenProcessPool:
            # A worker died (a crash in native code): the pages it held are the suspects.
            logger.error("%s: a worker process died while it held this page; rejected", page.url)
            self.stats.inc_value("process/crash")
            if waiting.executor is self.executor:
                self.executor = self._start()
            return reject(page, WORKER_CRASH)
        finally:
            # Runs on the reactor thread once a task is done: send what waits.
            self._dispatch()

    def _dispatch(self) -> None:
        """Send waiting pages in tasks while the workers have room for them."""
        self._in_flight = [task for task in self._in_flight if not task.done()]
        while self._queue and len(self._in_flight) < BATCHES_PER_WORKER * self.workers:
            batch, self._queue = self._queue[:MAX_BATCH], self._queue[MAX_BATCH:]
            pages = [(waiting.page, waiting.metadata) for waiting in batch]
            try:
                task = self.executor.submit(process_batch, self.processor, self.timeout, pages)
            except BrokenProcessPool:
                # A worker died since the last task was sent: start again first.
                self.executor = self._start()
                task = self.executor.submit(process_batch, self.processor, self.timeout, pages)
            for waiting in batch:
                waiting.executor = self.executor
            self.stats.inc_value("process/tasks")
            task.add_done_callback(lambda done, batch=batch: _deliver(done, batch))
            self._in_flight.append(task)

    def _start(self) -> ProcessPoolExecutor:
        executor = ProcessPoolExecutor(self.workers, mp_context=self.context,
                                       initializer=ignore_interrupt)
        # Start the workers now, while the spider fetches its first pages.
        for _ in range(self.workers):
            executor.submit(warm_up)
        return executor

