"""What a worker process does with one crawled page: process it, read its metadata.

Runs in the crawl's process pool (``corpusbot.pipelines.process``), never
on the reactor thread. The Processor travels with each call: it pickles as
its options (a few hundred bytes) and rebuilds in microseconds, so workers
hold no state between pages.
"""

from __future__ import annotations

import logging
import signal
from dataclasses import replace
from typing import Any

from corpusbot.page import Page
from corpusbot.processor import Document, Processor, Rejection
from corpusbot.workers import process_pages

logger = logging.getLogger(__name__)


def process_page(processor: Processor, page: Page, timeout: float,
                 metadata: dict[str, Any] | None = None) -> Document | Rejection:
    """The page's Document, with its declared metadata in ``meta``; or a Rejection.

    A Processor with the ``metadata`` option reads it from the extraction's
    own parse; ``metadata`` is what a spider read already, and wins.
    """
    return process_batch(processor, timeout, [(page, metadata)])[0]


def process_batch(processor: Processor, timeout: float,
                  pages: list[tuple[Page, dict[str, Any] | None]]) -> list[Document | Rejection]:
    """``process_page`` for each (page, metadata) pair of one task, in order."""
    results = process_pages(processor, [page for page, _ in pages], timeout)
    return [_with_metadata(result, metadata) for result, (_, metadata) in
            zip(results, pages, strict=True)]


def _with_metadata(result: Document | Rejection,
                   metadata: dict[str, Any] | None) -> Document | Rejection:
    if not isinstance(result, Document) or not metadata:
        return result
    return replace(result, meta={**(result.meta or {}), **metadata})


_WARM_UP_PAGE = (
    b"<html><body><p>" + b"The council met on Tuesday to discuss the budget for roads. " * 12
    + b"</p></body></html>"
)


def warm_up() -> None:
    """Import and exercise the extraction stack (imports and the language profiles,
    loaded on first use), so that the first real page waits for nothing."""
    process_pages(Processor(), [Page(url="https://example.org/", body=_WARM_UP_PAGE)], 30)


def ignore_interrupt() -> None:
    """Worker initializer: Ctrl-C reaches the whole process group; Scrapy decides what it means."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
