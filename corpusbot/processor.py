"""The processing core: one Page in, one Document or Rejection out.

    processor = Processor(ProcessorOptions(mode="default", languages=frozenset({"en", "de"})))
    result = processor.process(page)        # Document | Rejection, never raises

``Processor.process`` is pure and picklable: it decodes and extracts the
page (``corpusbot.extract``), reads the language, applies the filters of
``corpusbot.filters`` and computes everything dedup needs (normalised-text
hash, MinHash signature, paragraph hashes, canonical-URL key), so that all
CPU work runs wherever the processor runs, one process or many. Deciding
what is a duplicate needs the persistent index and the input order, so it
happens in the sink, ``corpusbot.corpus.sink.Corpus.add``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from corpusbot import filters
from corpusbot.dedup.near import MinHasher
from corpusbot.dedup.options import DedupOptions
from corpusbot.dedup.paragraph import paragraph_hash
from corpusbot.document import Document, Rejection, reject
from corpusbot.extraction.core import extract
from corpusbot.extraction.modes import MODE_DEFAULT, MODES
from corpusbot.html.metadata import extract_metadata
from corpusbot.language.identify import known_languages
from corpusbot.page import Page
from corpusbot.text import hash64, normalise, tokens

logger = logging.getLogger(__name__)

UNKNOWN_LANGUAGE = "und"
"""ISO 639-2 "undetermined": the language of a text the detector could not place."""
CRASH = "process/crash"


@dataclass(slots=True, frozen=True)
class ProcessorOptions:
    """Everything that decides what the Processor keeps: one route for configuration."""

    mode: str = MODE_DEFAULT
    languages: frozenset[str] = frozenset()
    min_words: int = filters.MIN_WORDS_DEFAULT
    max_nonletter_ratio: float = filters.MAX_NONLETTER_RATIO_DEFAULT
    dedup: DedupOptions = field(default_factory=DedupOptions)
    metadata: bool = True
    """Read the page's declared metadata (``corpusbot.html.metadata``) into ``Document.meta``,
    from the extraction's own parse."""

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"unknown extraction mode {self.mode!r}; known: {', '.join(MODES)}")
        unknown = sorted(set(self.languages) - known_languages())
        if unknown:
            raise ValueError(f"unknown language code(s) {', '.join(unknown)}: give ISO 639-1 "
                             "codes such as en, de, zh")
        if self.min_words < 0:
            raise ValueError(f"min_words must be 0 or more, got {self.min_words}")
        if not 0.0 <= self.max_nonletter_ratio <= 1.0:
            raise ValueError("max_nonletter_ratio must be in [0, 1], "
                             f"got {self.max_nonletter_ratio}")


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
            return reject(page, f"extract/{extraction.reason or 'empty'}",
                          cuts=extraction.cuts)
        # Tokenised once, per paragraph: the whole text's tokens are their concatenation,
        # since no token spans the blank line between two paragraphs.
        paragraph_words = [tokens(p) for p in extraction.paragraphs]
        words = [word for part in paragraph_words for word in part]
        lang = extraction.language or UNKNOWN_LANGUAGE
        reason = (
            filters.check_language(lang, options.languages)
            or filters.check_length(len(words), options.min_words)
            or filters.check_nonletters(filters.nonletter_ratio(extraction.text),
                                        options.max_nonletter_ratio)
        )
        if reason:
            return reject(page, reason, cuts=extraction.cuts)
        return Document(
            url=page.url, text=extraction.text, title=extraction.title, lang=lang,
            lang_prob=extraction.language_probability, n_words=len(words),
            extractor=extraction.mode, content_hash=hash64(normalise(words)),
            url_key=page.url_key, source=page.source, record_id=page.record_id,
            offset=page.offset, fetched_at=page.fetched_at,
            signature=self._signature(words), paragraphs=extraction.paragraphs,
            paragraph_hashes=self._paragraph_hashes(paragraph_words), meta=meta or None,
            cuts=extraction.cuts, lang_source=extraction.language_source,
        )

    def _signature(self, words: list[str]) -> bytes:
        if not self.options.dedup.uses("near"):
            return b""
        return self._minhash.signature(words).tobytes()

    def _paragraph_hashes(self, paragraph_words: list[list[str]]) -> tuple[int, ...]:
        dedup = self.options.dedup
        if not dedup.uses("paragraph"):
            return ()
        return tuple(paragraph_hash(words, dedup.paragraph_min_words)
                     for words in paragraph_words)
