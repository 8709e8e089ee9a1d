"""The item corpusbot's pipelines take: one fetched page, ready to become a ``Page``.

Any spider can feed the pipelines: ``yield PageItem.from_response(response)``
in a callback. A plain dict (or any item type ``itemadapter`` reads) with at
least ``url`` and ``body`` works too; ``page_from_item`` accepts both.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from itemadapter import ItemAdapter
from scrapy.http import Response

from corpusbot.page import Page

META_KEY = "corpusbot_warc"
"""``request.meta`` key under which the WARC middleware leaves the response record's
location (``corpusbot.archive.writer.RecordLocation``)."""
MODIFIED_KEY = "corpusbot_modified"
"""``request.meta`` key of the last change a sitemap or feed declared."""
REVISIT_KEY = "corpusbot_revisit"
"""``request.meta`` key set on a URL processed by an earlier run and fetched
again because its sitemap or feed says it changed."""


@dataclass(slots=True)
class PageItem:
    """A fetched page and what the crawl learnt about it.

    ``modified`` is the sitemap or feed date that led to the page;
    ``revisit`` marks a page an earlier run stored, fetched again because it
    changed (its new version may join the corpus under the same URL);
    ``warc_file``/``warc_offset``/``warc_record_id`` locate the archived
    response. The process pipeline fills ``result`` (a Document, whose
    ``meta`` holds what the page declares about itself, or a Rejection).
    """

    url: str
    body: bytes
    headers: dict[str, str] = field(default_factory=dict)
    status: int = 200
    fetched_at: str | None = None
    request_url: str | None = None
    modified: str | None = None
    revisit: bool = False
    kind: str | None = None
    warc_file: str | None = None
    warc_offset: int | None = None
    warc_record_id: str | None = None
    result: Any = None

    def __repr__(self) -> str:
        # Scrapy logs items on drop and at DEBUG; a 100 kB body is no log line.
        outcome = type(self.result).__name__ if self.result is not None else "unprocessed"
        return f"<PageItem {self.status} {self.url} ({len(self.body)} bytes, {outcome})>"

    @classmethod
    def from_response(cls, response: Response, kind: str | None = None) -> PageItem:
        """The item for a response as a spider callback receives it."""
        location = response.meta.get(META_KEY)
        redirects = response.meta.get("redirect_urls") or [response.url]
        return cls(
            url=response.url,
            body=response.body,
            headers=flat_headers(response),
            status=response.status,
            fetched_at=location.date if location else None,
            request_url=redirects[0],
            modified=response.meta.get(MODIFIED_KEY),
            revisit=bool(response.meta.get(REVISIT_KEY)),
            kind=kind,
            warc_file=location.filename if location else None,
            warc_offset=location.offset if location else None,
            warc_record_id=location.record_id if location else None,
        )


def flat_headers(response: Response) -> dict[str, str]:
    """Response headers as ``str`` to ``str``, repeated headers joined with ``, ``."""
    return {
        name.decode("latin-1"): ", ".join(v.decode("latin-1") for v in values)
        for name, values in response.headers.items()
    }


def page_from_item(item: Any) -> Page:
    """The ``Page`` of a ``PageItem``, a dict or any itemadapter-supported item.

    Raises KeyError naming the missing field when there is no ``url`` or
    ``body`` (``html`` is accepted for the body, as text or bytes).
    """
    adapter = ItemAdapter(item)
    body = adapter.get("body", adapter.get("html"))
    if body is None or "url" not in adapter:
        raise KeyError("a page item needs 'url' and 'body' (or 'html')")
    if isinstance(body, str):
        body = body.encode("utf-8")
    return Page(
        url=adapter["url"],
        body=body,
        headers=dict(adapter.get("headers") or {}),
        fetched_at=adapter.get("fetched_at"),
        source=adapter.get("warc_file") or "crawl",
        record_id=adapter.get("warc_record_id"),
        offset=adapter.get("warc_offset"),
        status=adapter.get("status") or 200,
    )
