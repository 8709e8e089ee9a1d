"""Item pipeline: run the Processor on each page item, in worker processes.

    ITEM_PIPELINES = {"corpusbot.pipelines.process.ProcessPipeline": 300}

Extraction, language identification, the quality filters, dedup
fingerprints and metadata are CPU work, so they run in a
``ProcessPoolExecutor`` (``corpusbot.crawlworker``) while the reactor keeps
fetching; ``process_item`` awaits the worker's future. The result, a
``Document`` or a ``Rejection``, goes on the item as ``result`` for the
corpus pipeline. Items that are not pages (no ``url`` and ``body``) pass
through untouched. How many pages wait for a worker is bounded by Scrapy
itself: the scraper stops taking responses once ``SCRAPER_SLOT_MAX_ACTIVE_SIZE``
bytes are in processing, which holds the downloader back.
"""

from __future__ import annotations

import logging
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Self

from itemadapter import ItemAdapter
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured

from corpusbot.crawlsettings import with_defaults
from corpusbot.crawlworker import ignore_interrupt, process_page, warm_up
from corpusbot.items import page_from_item
from corpusbot.offload import await_future
from corpusbot.page import Page
from corpusbot.processor import Processor, reject
from corpusbot.workers import WORKER_CRASH

from .options import processor_options, worker_count

logger = logging.getLogger(__name__)


class ProcessPipeline:
    """Process page items in a pool of worker processes; see the module docstring."""

    def __init__(self, crawler: Crawler, processor: Processor, workers: int,
                 start_method: str, timeout: float) -> None:
        self.stats = crawler.stats
        self.processor, self.workers = processor, workers
        self.context = multiprocessing.get_context(start_method)
        self.timeout = timeout
        self.executor: ProcessPoolExecutor | None = None

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
        executor = self.executor
        future = executor.submit(process_page, self.processor, page, self.timeout, metadata)
        try:
            return await await_future(future)
        except BrokenProcessPool:
            # A worker died (a crash in native code): this page is the suspect.
            logger.error("%s: a worker process died on this page; rejected", page.url)
            self.stats.inc_value("process/crash")
            if executor is self.executor:
                self.executor = self._start()
            return reject(page, WORKER_CRASH)

    def _start(self) -> ProcessPoolExecutor:
        executor = ProcessPoolExecutor(self.workers, mp_context=self.context,
                                       initializer=ignore_interrupt)
        # Start the workers now, while the spider fetches its first pages.
        for _ in range(self.workers):
            executor.submit(warm_up)
        return executor

