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

from corpusbot.decode import decode_html
from corpusbot.dom import ParseError, parse_html
from corpusbot.metadata import extract_metadata
from corpusbot.page import Page
from corpusbot.processor import Document, Processor, Rejection
from corpusbot.workers import process_pages

logger = logging.getLogger(__name__)


def process_page(processor: Processor, page: Page, timeout: float,
                 metadata: dict[str, Any] | None = None) -> Document | Rejection:
    """The page's Document, with its declared metadata in ``meta``; or a Rejection.

    ``metadata`` is what the spider already read from the page it parsed
    (the news spider does); without it the page is parsed here for it.
    Metadata is read only for kept documents: a rejected page needs none.
    """
    result = process_pages(processor, [page], timeout)[0]
    if not isinstance(result, Document):
        return result
    meta = page_metadata(page) if metadata is None else metadata
    return replace(result, meta={**(result.meta or {}), **meta}) if meta else result


_WARM_UP_PAGE = (
    b"<html><body><p>" + b"The council met on Tuesday to discuss the budget for roads. " * 12
    + b"</p></body></html>"
)


def warm_up() -> None:
    """Import and exercise the extraction stack (the language profiles load on first use,
    about a second), so that the first real page waits for nothing."""
    process_pages(Processor(), [Page(url="https://example.org/", body=_WARM_UP_PAGE)], 30)


def ignore_interrupt() -> None:
    """Worker initializer: Ctrl-C reaches the whole process group; Scrapy decides what it means."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def page_metadata(page: Page) -> dict[str, Any]:
    """The page's declared metadata (``corpusbot.metadata``), without empty fields."""
    try:
        decoded = decode_html(page.body, page.headers)
        root = parse_html(decoded.utf8 or decoded.text, html_elements=True)
    except ParseError as error:
        logger.debug("%s: no metadata, the page does not parse: %s", page.url, error)
        return {}
    return extract_metadata(root, page.url).declared()
