"""Item pipeline: run the Processor on each page item, in worker processes.

    ITEM_PIPELINES = {"corpusbot.pipelines.process.ProcessPipeline": 300}

Extraction, language identification, the quality filters, dedup
fingerprints and metadata are CPU work, so they run in the worker pool
(``corpusbot.pool``, the same as ``corpusbot warc``'s) while the reactor
keeps fetching; ``process_item`` awaits the worker's result. The result, a
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
A worker that dies costs only the page that killed it (the pool's crash
policy, the same on both paths).
"""

from __future__ import annotations

import logging
import multiprocessing
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Self

from itemadapter import ItemAdapter
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.logformatter import LogFormatter

from corpusbot.crawl.default_settings import CorpusbotSettings
from corpusbot.crawl.items import page_from_item
from corpusbot.crawl.logformatter import ShortItems
from corpusbot.crawl.offload import await_future
from corpusbot.page import Page
from corpusbot.pool import Result, WorkerPool
from corpusbot.processor import Processor

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
    result: Future[Result] = field(default_factory=Future)


def _deliver(task: Future[list[Result]], batch: list[_Waiting]) -> None:
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
        self.start_method, self.timeout = start_method, timeout
        self.pool: WorkerPool | None = None
        self._queue: list[_Waiting] = []
        self._in_flight: list[Future[list[Result]]] = []

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        settings = CorpusbotSettings(crawler.settings)
        if not settings.getbool("CORPUSBOT_PROCESS_ENABLED"):
            raise NotConfigured("CORPUSBOT_PROCESS_ENABLED is off")
        if type(crawler.logformatter) is LogFormatter:  # Scrapy's own: no project's choice
            crawler.logformatter = ShortItems.from_crawler(crawler)
        return cls(crawler, Processor(processor_options(settings)), worker_count(settings),
                   settings.get("CORPUSBOT_PROCESS_START_METHOD"),
                   settings.getfloat("CORPUSBOT_PROCESS_TIMEOUT_SECONDS"))

    async def open_spider(self) -> None:
        if multiprocessing.get_context(self.start_method or None).get_start_method() == "fork":
            # Forked here, on the reactor thread: a fork beside a running thread risks
            # deadlocks (corpusbot.pool).
            self.pool = self._start_pool()
        else:
            # The first worker waits for the forkserver to import the pipeline: about 1 s,
            # several on a loaded machine. Off the reactor thread, the shared crawl's
            # heartbeat goes on meanwhile; silent past it, the process opening was taken
            # for dead by the others and stopped at its first commit.
            with ThreadPoolExecutor(1, thread_name_prefix="corpusbot-pool-start") as starter:
                self.pool = await await_future(starter.submit(self._start_pool))
        logger.info("processing pages in %d worker process(es)", self.workers)

    async def process_item(self, item: Any) -> Any:
        try:
            page = page_from_item(item)
        except KeyError:
            return item
        ItemAdapter(item)["result"] = await self._process(page)
        self.stats.inc_value("corpusbot/process/pages")
        return item

    def _start_pool(self) -> WorkerPool:
        return WorkerPool(self.processor, self.workers, self.timeout, self.start_method)

    def close_spider(self) -> None:
        if self.pool is not None:
            self.pool.shutdown()

    async def _process(self, page: Page) -> Result:
        waiting = _Waiting(page)
        self._queue.append(waiting)
        self._dispatch()
        try:
            return await await_future(waiting.result)
        finally:
            # Runs on the reactor thread once a task is done: send what waits.
            self._dispatch()

    def _dispatch(self) -> None:
        """Send waiting pages in tasks while the workers have room for them."""
        self._in_flight = [task for task in self._in_flight if not task.done()]
        while self._queue and len(self._in_flight) < BATCHES_PER_WORKER * self.workers:
            batch, self._queue = self._queue[:MAX_BATCH], self._queue[MAX_BATCH:]
            task = self.pool.submit([waiting.page for waiting in batch])
            self.stats.inc_value("corpusbot/process/tasks")
            task.add_done_callback(lambda done, batch=batch: _deliver(done, batch))
            self._in_flight.append(task)
