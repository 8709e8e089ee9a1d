"""What comes out of the processing core: a Document, or a Rejection with its reason.

``Document.to_record()`` is one line of the corpus (schema version
``SCHEMA_VERSION``, documented in the README under "Corpus schema"). The
sinks (dedup, the corpus writer) read these types and nothing of the
Processor that makes them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from corpusbot.page import Page
from corpusbot.text import hash64

SCHEMA_VERSION = 1
"""Version of the JSONL record; bumped on any change a reader must know about."""


@dataclass(slots=True, frozen=True)
class Document:
    """One corpus record, plus the dedup features the sink reads (not written out).

    ``text`` holds paragraphs joined by a blank line; ``paragraph_hashes`` is
    aligned with them (0 for a paragraph too short to dedup). ``signature``
    is the MinHash as uint32 bytes (empty when near dedup is off).
    ``meta`` carries optional page metadata (publication date, authors …).
    ``cuts`` names what was cut from the markup before the parse
    (``html/cut/<reason>``), counted by the sinks, not written out.
    """

    url: str
    text: str
    title: str | None
    lang: str
    lang_prob: float
    n_words: int
    extractor: str
    content_hash: int
    url_key: int
    source: str = "crawl"
    record_id: str | None = None
    offset: int | None = None
    fetched_at: str | None = None
    signature: bytes = b""
    paragraphs: tuple[str, ...] = ()
    paragraph_hashes: tuple[int, ...] = ()
    meta: Mapping[str, Any] | None = None
    cuts: tuple[str, ...] = ()
    lang_source: str | None = None
    """How the language was decided (see ``corpusbot.language.identify``)."""

    @property
    def id(self) -> str:
        """A stable id: the same page with the same text has the same id in every run."""
        return f"{hash64(f'{self.url_key}:{self.content_hash}') & (2**64 - 1):016x}"

    def to_record(self) -> dict[str, Any]:
        """The JSON object written to the corpus."""
        record: dict[str, Any] = {
            "schema": SCHEMA_VERSION, "id": self.id, "url": self.url, "lang": self.lang,
            "lang_prob": round(self.lang_prob, 4), "lang_source": self.lang_source,
            "title": self.title, "text": self.text,
            "n_words": self.n_words, "extractor": self.extractor,
            "source": source_record(self.source, self.record_id, self.offset),
            "fetched_at": self.fetched_at,
            "content_hash": f"{self.content_hash & (2**64 - 1):016x}",
        }
        if self.meta:
            record["meta"] = dict(self.meta)
        return record


@dataclass(slots=True, frozen=True)
class Rejection:
    """A page that yields no document, and why (the stat ``rejected/<reason>``); ``cuts``
    as for a Document (a page may be cut and then rejected)."""

    url: str
    reason: str
    source: str = "crawl"
    record_id: str | None = None
    offset: int | None = None
    url_key: int | None = None
    detail: str | None = None
    cuts: tuple[str, ...] = ()


def source_record(source: str, record_id: str | None, offset: int | None) -> dict[str, Any]:
    """Where a document came from: the crawl, or an archive file, record ID and offset."""
    if source == "crawl" and record_id is None:
        return {"type": "crawl"}
    return {"type": "archive", "file": source, "record_id": record_id, "offset": offset}


def reject(page: Page, reason: str, detail: str | None = None,
           cuts: tuple[str, ...] = ()) -> Rejection:
    """The Rejection of ``page`` for ``reason``."""
    return Rejection(url=page.url, reason=reason, source=page.source, record_id=page.record_id,
                     offset=page.offset, url_key=page.url_key, detail=detail, cuts=cuts)
