"""What comes out of the processing core: a Document, or a Rejection with its reason.

``Document.to_record()`` is one line of the corpus (schema version
``SCHEMA_VERSION``, documented in the README under "Corpus schema"). The
sinks (dedup, the corpus writer) read these types and nothing of the
Processor that makes them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from corpusbot.page import Page
from corpusbot.text import hash64

SCHEMA_VERSION = 1
"""Version of the record; bumped on any change a reader must know about."""

SOURCE_FIELDS: dict[str, Any] = {"type": str, "file": str, "record_id": str, "offset": int}
RECORD_FIELDS: dict[str, Any] = {
    "schema": int, "id": str, "url": str, "lang": str, "lang_prob": float, "lang_source": str,
    "title": str,
    "text": str, "n_words": int, "extractor": str, "source": SOURCE_FIELDS, "fetched_at": str,
    "content_hash": str, "meta": dict,
}
"""Every field ``Document.to_record`` may write, in order, with its type (each may be null;
``dict`` is an object whose keys vary): what a typed format such as Parquet declares."""
REJECTION_FIELDS: dict[str, Any] = {
    "schema": int, "url": str, "reason": str, "detail": str, "duplicate_of": str,
    "text": str, "source": SOURCE_FIELDS,
}
"""The same for ``Rejection.to_record``, one record of the rejects output."""


@dataclass(slots=True, frozen=True)
class Document:
    """One corpus record, plus the dedup features the sink reads (not written out).

    ``text`` holds paragraphs joined by a blank line; ``paragraph_hashes`` is
    aligned with them (0 for a paragraph too short to dedup). ``signature``
    is the MinHash as uint32 bytes (empty when near dedup is off).
    ``meta`` carries optional page metadata (publication date, authors …).
    ``cuts`` names what was cut from the markup before the parse
    (``html/cut/<reason>``), counted by the sinks, not written out; ``edits`` the lines
    and characters the steps removed from the text (``edit/<step>/<rule>/lines`` and
    ``…/chars``), counted the same way.
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
    edits: Mapping[str, int] | None = None
    lang_source: str | None = None
    """How the language was decided (see ``corpusbot.language.identify``)."""

    def __repr__(self) -> str:
        # Scrapy logs items holding a Document; its text and signature are no log line.
        return f"<Document {self.lang} {self.n_words} words {self.url}>"

    @property
    def id(self) -> str:
        """A stable id: the same page with the same text has the same id in every run."""
        return f"{hash64(f'{self.url_key}:{self.content_hash}') & (2**64 - 1):016x}"

    def to_record(self, folder: Path | None = None) -> dict[str, Any]:
        """The JSON object written to the corpus in ``folder``: see ``source_record``."""
        record: dict[str, Any] = {
            "schema": SCHEMA_VERSION, "id": self.id, "url": self.url, "lang": self.lang,
            "lang_prob": round(self.lang_prob, 4), "lang_source": self.lang_source,
            "title": self.title, "text": self.text,
            "n_words": self.n_words, "extractor": self.extractor,
            "source": source_record(self.source, self.record_id, self.offset, folder),
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
    text: str | None = None
    duplicate_of: str | None = None

    @property
    def stage(self) -> str:
        """The first segment of the reason (``extract``, ``filter``, ``dedup`` ...)."""
        return self.reason.partition("/")[0]

    def to_record(self, folder: Path | None = None) -> dict[str, Any]:
        """The JSON object written to the rejects output in ``folder``: why, and the text when
        extraction got that far; a duplicate names the id of the kept document it copies."""
        return {"schema": SCHEMA_VERSION, "url": self.url, "reason": self.reason,
                "detail": self.detail, "duplicate_of": self.duplicate_of, "text": self.text,
                "source": source_record(self.source, self.record_id, self.offset, folder)}


def source_record(source: str, record_id: str | None, offset: int | None,
                  folder: Path | None = None) -> dict[str, Any]:
    """Where a document came from: the crawl, or an archive file, record ID and offset.

    The file is recorded relative to the corpus ``folder`` when it lies inside it (a
    crawl's own archive), else as an absolute path: never relative to the working
    directory of the run, so the record stays true when the corpus is moved or read
    from elsewhere.
    """
    if source == "crawl" and record_id is None:
        return {"type": "crawl"}
    file = source if folder is None else archive_path(source, str(folder))
    return {"type": "archive", "file": file, "record_id": record_id, "offset": offset}


@lru_cache(maxsize=256)
def archive_path(file: str, folder: str) -> str:
    """``file`` relative to ``folder`` when inside it, else absolute (both resolved)."""
    path, base = Path(file).resolve(), Path(folder).resolve()
    return path.relative_to(base).as_posix() if path.is_relative_to(base) else str(path)


def reject(page: Page, reason: str, detail: str | None = None,
           cuts: tuple[str, ...] = (), text: str | None = None) -> Rejection:
    """The Rejection of ``page`` for ``reason`` (``text``: what extraction got, if anything)."""
    return Rejection(url=page.url, reason=reason, source=page.source, record_id=page.record_id,
                     offset=page.offset, url_key=page.url_key, detail=detail, cuts=cuts,
                     text=text)
