"""Extension: a crawl's resume state is trusted only if the run that wrote it closed it.

Scrapy resumes a paused crawl from ``JOBDIR``: the request queue
(``requests.queue``, queuelib's disk queues, whose record counts are written
when the queue closes) and the seen-request fingerprints (``requests.seen``,
written through a buffer). Both are complete only after a clean stop; after
``kill -9``, a crash of the machine or an out-of-memory kill, the fingerprints
of requests may be on disk while the requests themselves are not (so they are
never fetched), and a queue file can end inside its header (so the next run
fails as it schedules its first request at that priority).

``UncleanStop`` marks ``JOBDIR`` while a run is open and unmarks it once the
scheduler has closed. A run that finds the mark left behind discards that
state and starts again from the start pages: the articles the earlier runs
stored are skipped by the seen-store (``corpusbot.crawl.incremental``) and by
dedup, so nothing is lost and nothing stored twice; only listing pages are
fetched again.
"""

from __future__ import annotations

import logging
import shutil
from pathlib import Path
from typing import Self

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured

logger = logging.getLogger(__name__)

JOB_STATE = ("requests.seen", "requests.queue")
"""What Scrapy keeps in ``JOBDIR`` to resume a crawl (the scheduler's state)."""

OPEN_MARK = "corpusbot-run-open"
"""The file in ``JOBDIR`` that says a run is open (or died without closing)."""


def clear_job_state(jobdir: Path) -> bool:
    """Remove the scheduler's resume state from ``jobdir``; whether there was any."""
    found = False
    for name in JOB_STATE:
        path = jobdir / name
        if path.is_dir():
            shutil.rmtree(path)
            found = True
        elif path.exists():
            path.unlink()
            found = True
    return found


class UncleanStop:
    """Discard resume state that a killed run left; mark this run open until it closes."""

    def __init__(self, crawler: Crawler, jobdir: Path) -> None:
        self.mark = jobdir / OPEN_MARK
        # Before the engine opens the spider, so before the scheduler reads the state.
        if self.mark.exists() and clear_job_state(jobdir):
            crawler.stats.set_value("corpusbot/job/unclean-restart", 1)
            logger.warning(
                "the last run in %s stopped without closing (killed or crashed): its request "
                "queue cannot be resumed, so this run starts again from the start pages "
                "(articles stored before are skipped, not fetched again)", jobdir)
        jobdir.mkdir(parents=True, exist_ok=True)
        self.mark.touch()
        # Scrapy sends spider_closed after the scheduler closed and wrote its state.
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        jobdir = crawler.settings.get("JOBDIR")
        if not jobdir:
            # Without JOBDIR there is nothing to resume: not worth a warning line.
            raise NotConfigured
        return cls(crawler, Path(jobdir))

    def spider_closed(self) -> None:
        self.mark.unlink(missing_ok=True)
