"""Item pipeline: deduplicate processed pages and write the corpus.

    ITEM_PIPELINES = {"corpusbot.pipelines.corpus.CorpusPipeline": 800}

Takes the ``result`` the process pipeline put on each item and hands it to
the corpus sink (``corpusbot.corpus.sink.Corpus``) in the main thread, where
dedup decisions are made in arrival order against the persistent index.
A kept document's item goes on to later pipelines; a rejected or duplicate
one is dropped with its reason (``corpusbot/rejected/<reason>``); every cut made to
a page's markup before its parse counts as ``corpusbot/html/cut/<reason>``. The corpus
commits every ``CORPUSBOT_CORPUS_COMMIT_ITEMS`` items or
``CORPUSBOT_CORPUS_COMMIT_SECONDS``, and at the end; after each commit the
``corpus_committed`` signal lets the incremental store commit in turn.

A dedup index that stops answering (past its retry time) or lost what this
corpus committed stops the crawl with one line (finish reason
``dedup-index-unavailable``, exit 2): the corpus is left at its last commit,
which the next run resumes from.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, Self

from itemadapter import ItemAdapter
from scrapy.crawler import Crawler
from scrapy.exceptions import DropItem, NotConfigured
from scrapy.utils.defer import deferred_from_coro

from corpusbot.corpus.cadence import CommitCadence
from corpusbot.corpus.sink import Corpus, CorpusOptions, recorded_options
from corpusbot.crawl.default_settings import CorpusbotSettings
from corpusbot.crawl.signals import corpus_committed
from corpusbot.dedup.backends import IndexFactory, IndexLostError, IndexUnavailableError
from corpusbot.document import Document, Rejection
from corpusbot.processor import ProcessorOptions

from .options import corpus_options, dedup_index, processor_options

logger = logging.getLogger(__name__)

INDEX_FAILED = "dedup-index-unavailable"


class CorpusPipeline:
    """Add processed pages to the corpus; see the module docstring."""

    def __init__(self, crawler: Crawler, out_dir: Path, options: CorpusOptions,
                 commit_items: int, commit_seconds: float) -> None:
        self.crawler, self.stats = crawler, crawler.stats
        self.out_dir, self.options = out_dir, options
        self.cadence = CommitCadence(commit_items, commit_seconds)
        self.corpus: Corpus | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        settings = CorpusbotSettings(crawler.settings)
        if not settings.getbool("CORPUSBOT_CORPUS_ENABLED"):
            raise NotConfigured("CORPUSBOT_CORPUS_ENABLED is off")
        options = corpus_options(settings)
        pipeline = cls(crawler, settings.layout().root, options,
                       settings.getint("CORPUSBOT_CORPUS_COMMIT_ITEMS"),
                       settings.getfloat("CORPUSBOT_CORPUS_COMMIT_SECONDS"))
        # Opened here, not in open_spider: a folder another run is writing to
        # stops the crawl before anything starts.
        pipeline.open_corpus(processor_options(settings), dedup_index(settings, options))
        return pipeline

    def open_corpus(self, processing: ProcessorOptions, index: IndexFactory | None = None) -> None:
        recorded = {"source": "crawl", "processor": processing.describe(),
                    "corpus": recorded_options(self.options)}
        self.corpus = Corpus(self.out_dir, self.options, run_options=recorded, index=index,
                             recipe={"processor": processing.describe()})

    async def process_item(self, item: Any) -> Any:
        adapter = ItemAdapter(item)
        result = adapter.get("result")
        if not isinstance(result, (Document, Rejection)):
            return item
        if self.corpus is None:  # stopped: the index failed
            raise DropItem(f"not added, the corpus stopped: {result.url}", log_level="DEBUG")
        try:
            reason = self._add(result, bool(adapter.get("revisit")))
        except (IndexUnavailableError, IndexLostError) as error:
            self._stop(error)
            raise DropItem(f"not added: {result.url}", log_level="DEBUG") from None
        for cut in result.cuts:
            self.stats.inc_value(f"corpusbot/{cut}")
        self._maybe_commit()
        if reason:
            self.stats.inc_value(f"corpusbot/rejected/{reason}")
            raise DropItem(f"{reason}: {result.url}", log_level="DEBUG")
        self.stats.inc_value("corpusbot/kept")
        self.stats.inc_value(f"corpusbot/kept/{result.lang}")
        return item

    def close_spider(self) -> None:
        if self.corpus is None:
            return
        self.corpus.close()
        self.corpus = None
        self.crawler.signals.send_catch_log(corpus_committed)

    def _stop(self, error: Exception) -> None:
        """The index failed: one line, the corpus back to its last commit, the crawl closing."""
        logger.error("%s", error)
        if self.corpus is not None:
            self.corpus.abort()
            self.corpus = None
        engine = self.crawler.engine
        if hasattr(engine, "close_spider_async"):  # Scrapy 2.14 and later
            deferred_from_coro(engine.close_spider_async(reason=INDEX_FAILED))
        else:
            engine.close_spider(self.crawler.spider, INDEX_FAILED)

    def _add(self, result: Document | Rejection, revisit: bool) -> str | None:
        """Add ``result``; None when kept, else the reason it was not."""
        self.cadence.add()
        return self.corpus.add_verdict(result, revisit)

    def _maybe_commit(self) -> None:
        if self.cadence.due():
            self.corpus.commit()
            self.cadence.committed()
            self.stats.inc_value("corpusbot/commits")
            self.crawler.signals.send_catch_log(corpus_committed)


