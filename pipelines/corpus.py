"""Item pipeline: deduplicate processed pages and write the corpus.

    ITEM_PIPELINES = {"corpusbot.pipelines.corpus.CorpusPipeline": 800}

Takes the ``result`` the process pipeline put on each item and hands it to
the corpus sink (``corpusbot.corpus.sink.Corpus``) on one dedicated thread,
which runs every add and commit in the order the items arrived: dedup
decisions are made in arrival order against the persistent index, as if on
the reactor thread, but the sink's JSON encoding, gzip, SQLite commits (with
their fsyncs) and Redis calls no longer hold the reactor. Measured with
``benchmarks/sink_time.py`` (the local news site, 1215 pages, two crawls each
way alternating in one run, load 10-15 on 2 cores): done on the reactor
thread, the sink held it for 3.1 % of the crawl's wall time (0.25 % in CPU,
the rest waiting for fsyncs and for a core), and each commit stalled it for
100-250 ms; handed to the thread, the hand-overs take 1.8 % (0.03 % in CPU,
waits for a core or the GIL) and no stall is a commit (longest 52-78 ms).
A kept document's item goes on to later pipelines; a rejected or duplicate
one is dropped with its reason (``corpusbot/rejected/<reason>``); every cut made to
a page's markup before its parse counts as ``corpusbot/html/cut/<reason>``. The corpus
commits every ``CORPUSBOT_CORPUS_COMMIT_ITEMS`` items or
``CORPUSBOT_CORPUS_COMMIT_SECONDS``, when the crawl runs out of work, and at the
end (closing the spider waits for the thread's queue); after each commit the
``corpus_committed`` signal, sent on the reactor thread, lets the incremental
store commit in turn. Items
are marked seen only once their add has run, so the store never commits a
mark for a page the corpus has not committed.

A dedup index that stops answering (past its retry time) or lost what this
corpus committed stops the crawl with one line (finish reason
``dedup-index-unavailable``, exit 2): the corpus is left at its last commit,
which the next run resumes from. So does a commit the shared index refuses
because another process of a shared crawl took this one for dead and took
over its uncommitted pages (finish reason ``taken-over``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Self, TypeVar

from itemadapter import ItemAdapter
from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import DropItem, NotConfigured
from scrapy.utils.defer import deferred_from_coro

from corpusbot.corpus.cadence import CommitCadence
from corpusbot.corpus.sink import Corpus, CorpusOptions, recorded_options
from corpusbot.crawl.default_settings import CorpusbotSettings
from corpusbot.crawl.offload import await_future
from corpusbot.crawl.signals import TAKEN_OVER, TAKEN_OVER_STAT, corpus_committed
from corpusbot.dedup.backends import (
    IndexFactory,
    IndexHandedOverError,
    IndexLostError,
    IndexUnavailableError,
)
from corpusbot.document import Document, Rejection
from corpusbot.processor import ProcessorOptions

from .options import corpus_options, dedup_index, processor_options

logger = logging.getLogger(__name__)
T = TypeVar("T")

INDEX_FAILED = "dedup-index-unavailable"


class CorpusStoppedError(Exception):
    """The corpus was aborted after an index failure; later items are not added."""


class CorpusPipeline:
    """Add processed pages to the corpus; see the module docstring.

    ``self.corpus`` belongs to the sink thread: after it is opened, only work
    submitted to ``self.sink`` touches it.
    """

    def __init__(self, crawler: Crawler, out_dir: Path, options: CorpusOptions,
                 commit_items: int, commit_seconds: float) -> None:
        self.crawler, self.stats = crawler, crawler.stats
        self.out_dir, self.options = out_dir, options
        self.cadence = CommitCadence(commit_items, commit_seconds)
        # One worker: its queue is first in, first out, so adds and commits
        # run in the order they were submitted.
        self.sink = ThreadPoolExecutor(max_workers=1, thread_name_prefix="corpus-sink")
        self.corpus: Corpus | None = None
        self.stopped = False

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
        crawler.signals.connect(pipeline.idle, signal=signals.spider_idle)
        return pipeline

    def open_corpus(self, processing: ProcessorOptions, index: IndexFactory | None = None) -> None:
        recorded = {"source": "crawl", "processor": processing.describe(),
                    "corpus": recorded_options(self.options)}
        try:
            self.corpus = self.sink.submit(
                Corpus, self.out_dir, self.options, run_options=recorded, index=index,
                recipe={"processor": processing.describe()}).result()
        except BaseException:
            self.sink.shutdown()
            raise

    async def process_item(self, item: Any) -> Any:
        adapter = ItemAdapter(item)
        result = adapter.get("result")
        if not isinstance(result, (Document, Rejection)):
            return item
        if self.stopped:
            raise DropItem(f"not added, the corpus stopped: {result.url}", log_level="DEBUG")
        commit = self._commit_due()
        try:
            reason = await await_future(
                self.sink.submit(self._add, result, bool(adapter.get("revisit")), commit))
        except (IndexUnavailableError, IndexLostError) as error:
            self._stop(error)
            raise DropItem(f"not added: {result.url}", log_level="DEBUG") from None
        except CorpusStoppedError:
            raise DropItem(f"not added, the corpus stopped: {result.url}",
                           log_level="DEBUG") from None
        for cut in result.cuts:
            self.stats.inc_value(f"corpusbot/{cut}")
        if commit:
            self.stats.inc_value("corpusbot/commits")
            self.crawler.signals.send_catch_log(corpus_committed)
        if reason:
            self.stats.inc_value(f"corpusbot/rejected/{reason}")
            raise DropItem(f"{reason}: {result.url}", log_level="DEBUG")
        self.stats.inc_value("corpusbot/kept")
        self.stats.inc_value(f"corpusbot/kept/{result.lang}")
        return item

    def close_spider(self) -> None:
        """Wait for the queued work, commit and close; the crawl is over, so blocking is fine."""
        closed = self.sink.submit(self._close).result()
        self.sink.shutdown()
        if closed:
            self.crawler.signals.send_catch_log(corpus_committed)

    def idle(self) -> None:
        """Nothing in progress: commit what was added since the last commit, and say so.

        A process of a shared crawl then holds no finished request unacknowledged
        (``redis_handover``) while it waits for the others: killed then, it leaves
        nothing held that the others, about to stop, would have to take over. Blocking,
        as at the end: one commit, and none while nothing was added.
        """
        if self.stopped:
            return
        if self.cadence.pages:
            self.cadence.committed()
            try:
                self.sink.submit(self._run_guarded, Corpus.commit).result()
            except (IndexUnavailableError, IndexLostError) as error:
                self._stop(error)
                return
            except CorpusStoppedError:
                return
            self.stats.inc_value("corpusbot/commits")
        self.crawler.signals.send_catch_log(corpus_committed)

    def _commit_due(self) -> bool:
        """Count one more page; whether the add just submitted is to be followed by a commit."""
        self.cadence.add()
        if not self.cadence.due():
            return False
        self.cadence.committed()
        return True

    def _stop(self, error: Exception) -> None:
        """The index failed, or refused a commit (the sink thread aborted the corpus): one
        line, the crawl closing."""
        logger.error("%s", error)
        self.stopped = True
        reason = TAKEN_OVER if self.stats.get_value(TAKEN_OVER_STAT) else INDEX_FAILED
        engine = self.crawler.engine
        if hasattr(engine, "close_spider_async"):  # Scrapy 2.14 and later
            deferred_from_coro(engine.close_spider_async(reason=reason))
        else:
            engine.close_spider(self.crawler.spider, reason)

    # -- on the sink thread ------------------------------------------------

    def _add(self, result: Document | Rejection, revisit: bool, commit: bool) -> str | None:
        """Add ``result`` (then commit if asked); None when kept, else the reason it was not."""

        def add(corpus: Corpus) -> str | None:
            reason = corpus.add_verdict(result, revisit)
            if commit:
                corpus.commit()
            return reason

        return self._run_guarded(add)

    def _run_guarded(self, work: Callable[[Corpus], T]) -> T:
        """``work`` on the corpus; an index failure aborts the corpus back to its last
        commit, so that the items queued behind are refused rather than added."""
        if self.corpus is None:
            raise CorpusStoppedError
        try:
            return work(self.corpus)
        except (IndexUnavailableError, IndexLostError) as error:
            self.corpus.abort()
            self.corpus = None
            if isinstance(error, IndexHandedOverError):
                self.stats.set_value(TAKEN_OVER_STAT, 1)
            raise

    def _close(self) -> bool:
        """Commit and close; False when there was nothing to close or the index refused the
        commit (the corpus is then back at its last commit, and the error is one line)."""
        try:
            self._run_guarded(Corpus.close)
        except CorpusStoppedError:
            return False
        except (IndexUnavailableError, IndexLostError) as error:
            logger.error("%s", error)
            return False
        self.corpus = None
        return True
