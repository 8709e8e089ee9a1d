"""The processing core: one Page in, one Document or Rejection out.

    processor = Processor(ProcessorOptions(mode="default", languages=frozenset({"en", "de"})))
    result = processor.process(page)        # Document | Rejection, never raises

``Processor.process`` is pure and picklable: it decodes and extracts the
page (``corpusbot.extract``), reads the language, applies the filters of
``corpusbot.filters`` and computes everything dedup needs (normalised-text
hash, MinHash signature, paragraph hashes, canonical-URL key), so that all
CPU work runs wherever the processor runs, one process or many. Deciding
what is a duplicate needs the persistent index and the input order, so it
happens in the sink, ``corpusbot.corpus.Corpus.add``.

``Document.to_record()`` is one line of the corpus (schema version
``SCHEMA_VERSION``, documented in the README under "Corpus schema").
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from corpusbot import filters
from corpusbot.dedup.near import MinHasher
from corpusbot.dedup.options import DedupOptions
from corpusbot.dedup.text import PARAGRAPH_SEPARATOR, hash64, nonletter_ratio, normalise, tokens
from corpusbot.dedup.url import url_key
from corpusbot.extraction import extract
from corpusbot.metadata import extract_metadata
from corpusbot.page import Page

logger = logging.getLogger(__name__)

SCHEMA_VERSION = 1
"""Version of the JSONL record; bumped on any change a reader must know about."""
UNKNOWN_LANGUAGE = "und"
"""ISO 639-2 "undetermined": the language of a text the detector could not place."""
CRASH = "crash"


@dataclass(slots=True, frozen=True)
class ProcessorOptions:
    """Everything that decides what the Processor keeps: one route for configuration."""

    mode: str = "default"
    languages: frozenset[str] = frozenset()
    min_words: int = filters.MIN_WORDS_DEFAULT
    max_nonletter_ratio: float = filters.MAX_NONLETTER_RATIO_DEFAULT
    dedup: DedupOptions = field(default_factory=DedupOptions)
    metadata: bool = False
    """Read the page's declared metadata (``corpusbot.metadata``) into ``Document.meta``,
    from the extraction's own parse."""


@dataclass(slots=True, frozen=True)
class Document:
    """One corpus record, plus the dedup features the sink reads (not written out).

    ``text`` holds paragraphs joined by a blank line; ``paragraph_hashes`` is
    aligned with them (0 for a paragraph too short to dedup). ``signature``
    is the MinHash as uint32 bytes (empty when near dedup is off).
    ``meta`` carries optional page metadata (publication date, authors …).
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
    paragraph_hashes: tuple[int, ...] = ()
    meta: Mapping[str, Any] | None = None

    @property
    def id(self) -> str:
        """A stable id: the same page with the same text has the same id in every run."""
        return f"{hash64(f'{self.url_key}:{self.content_hash}') & (2**64 - 1):016x}"

    def to_record(self) -> dict[str, Any]:
        """The JSON object written to the corpus."""
        record: dict[str, Any] = {
            "schema": SCHEMA_VERSION, "id": self.id, "url": self.url, "lang": self.lang,
            "lang_prob": round(self.lang_prob, 4), "title": self.title, "text": self.text,
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
    """A page that yields no document, and why (the stat ``rejected/<reason>``)."""

    url: str
    reason: str
    source: str = "crawl"
    record_id: str | None = None
    offset: int | None = None
    url_key: int | None = None
    detail: str | None = None


def source_record(source: str, record_id: str | None, offset: int | None) -> dict[str, Any]:
    """Where a document came from: the crawl, or an archive file, record ID and offset."""
    if source == "crawl" and record_id is None:
        return {"type": "crawl"}
    return {"type": "archive", "file": source, "record_id": record_id, "offset": offset}


class Processor:
    """Turns pages into documents under one ``ProcessorOptions``; see the module docstring."""

    __slots__ = ("_minhash", "options")

    def __init__(self, options: ProcessorOptions | None = None) -> None:
        self.options = options or ProcessorOptions()
        dedup = self.options.dedup
        self._minhash = MinHasher(dedup.num_perm, dedup.shingle, dedup.seed)

    def __getstate__(self) -> ProcessorOptions:
        return self.options

    def __setstate__(self, options: ProcessorOptions) -> None:
        self.__init__(options)  # type: ignore[misc]

    def warm_up(self) -> None:
        """Load what the first page would load (the language profiles, the stop-word lists).

        Called in a parent before it forks workers, so that they share those
        tens of megabytes instead of each loading its own copy.
        """
        words = " ".join(["the quick brown fox jumps over a lazy dog"] * 8)
        self.process(Page(url="https://example.invalid/warm-up",
                          body=f"<html><body><p>{words}</p></body></html>".encode()))

    def process(self, page: Page) -> Document | Rejection:
        """Extract, identify, filter and fingerprint one page; bad input becomes a Rejection."""
        try:
            return self._process(page)
        except Exception as error:  # the invariant: no exception escapes for any input
            logger.warning("processing %s crashed: %s: %s", page.url, type(error).__name__, error)
            return reject(page, CRASH, detail=f"{type(error).__name__}: {error}")

    def _process(self, page: Page) -> Document | Rejection:
        options = self.options
        meta: dict[str, Any] = {}
        on_tree = (lambda root: meta.update(extract_metadata(root, page.url).declared())
                   ) if options.metadata else None
        extraction = extract(page.body, url=page.url, headers=page.headers, mode=options.mode,
                             on_tree=on_tree)
        if not extraction.text:
            return reject(page, f"extract/{extraction.reason or 'empty'}")
        words = tokens(extraction.text)
        lang = extraction.language or UNKNOWN_LANGUAGE
        reason = (
            filters.check_language(lang, options.languages)
            or filters.check_length(len(words), options.min_words)
            or filters.check_nonletters(nonletter_ratio(extraction.text),
                                        options.max_nonletter_ratio)
        )
        if reason:
            return reject(page, reason)
        return Document(
            url=page.url, text=extraction.text, title=extraction.title, lang=lang,
            lang_prob=extraction.language_probability, n_words=len(words),
            extractor=extraction.mode, content_hash=hash64(normalise(words)),
            url_key=url_key(page.url), source=page.source, record_id=page.record_id,
            offset=page.offset, fetched_at=page.fetched_at,
            signature=self._signature(words), paragraph_hashes=self._paragraphs(extraction.text),
            meta=meta or None,
        )

    def _signature(self, words: list[str]) -> bytes:
        if not self.options.dedup.uses("near"):
            return b""
        return self._minhash.signature(words).tobytes()

    def _paragraphs(self, text: str) -> tuple[int, ...]:
        dedup = self.options.dedup
        if not dedup.uses("paragraph"):
            return ()
        return tuple(paragraph_hash(p, dedup.paragraph_min_words)
                     for p in text.split(PARAGRAPH_SEPARATOR))


def paragraph_hash(paragraph: str, min_words: int) -> int:
    """The dedup key of one paragraph, or 0 when it is too short to mean anything."""
    words = tokens(paragraph)
    if len(words) < min_words:
        return 0
    return hash64(normalise(words)) or 1  # 0 means "too short"; a real hash of 0 moves aside


def reject(page: Page, reason: str, detail: str | None = None) -> Rejection:
    """The Rejection of ``page`` for ``reason``."""
    return Rejection(url=page.url, reason=reason, source=page.source, record_id=page.record_id,
                     offset=page.offset, url_key=url_key(page.url), detail=detail)
