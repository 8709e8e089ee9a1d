"""corpusbot as datatrove pipeline steps: its extraction and its language identification.

    from datatrove.executor import LocalPipelineExecutor
    from datatrove.pipeline.readers import WarcReader
    from datatrove.pipeline.writers import JsonlWriter
    from corpusbot.datatrove_steps import (
        CorpusbotExtractor, CorpusbotLanguageFilter, CorpusbotQualityFilter)

    LocalPipelineExecutor(pipeline=[
        WarcReader("crawl/"),
        CorpusbotExtractor(mode="default"),        # in place of Trafilatura()
        CorpusbotLanguageFilter(languages=["en", "de"]),
        CorpusbotQualityFilter(preset="fineweb", overrides={"gopher_quality.min_doc_words": 30}),
        JsonlWriter("out/"),
    ], tasks=4).run()

datatrove (the library behind FineWeb) runs the same pipeline locally, on
Slurm or on Ray. ``CorpusbotExtractor`` is a drop-in for its
``Trafilatura`` step: the same sandbox (a child process with a per-document
``timeout``, restarted when it dies), the same stats, and ``doc.text``
becomes exactly ``corpusbot.extract(html, mode=mode).text``; it also sets
``metadata["title"]``, ``["language"]`` and ``["language_score"]`` from the
same parse. ``CorpusbotLanguageFilter`` identifies the language of plain
text (after any extractor) and keeps the languages asked for, writing the
metadata keys datatrove's own ``LanguageFilter`` writes. Needs the
``datatrove`` extra (``pip install corpusbot[datatrove]``).
"""

from __future__ import annotations

from typing import Any

from datatrove.data import Document, DocumentsPipeline
from datatrove.pipeline.extractors.base import BaseExtractor, ExtractorSandbox
from datatrove.pipeline.filters.base_filter import BaseFilter
from datatrove.pipeline.writers.disk_base import DiskWriter
from datatrove.utils.typeshelper import StatHints

from corpusbot.document import Rejection
from corpusbot.extraction.core import extract
from corpusbot.extraction.mode_names import MODE_DEFAULT, check_mode
from corpusbot.language.identify import identify
from corpusbot.page import Page
from corpusbot.processor import Processor, ProcessorOptions
from corpusbot.refilter import refilter

TIMEOUT_SECONDS_DEFAULT = 1.0
"""Per document, as datatrove's Trafilatura step: the gold pages take 2-40 ms."""


def _extract(html: str, mode: str) -> tuple[str, str | None, str | None, float]:
    """Runs in the sandbox's child process: text, title, language and its probability."""
    found = extract(html, mode=mode)
    return found.text, found.title, found.language, found.language_probability


class CorpusbotExtractor(BaseExtractor):
    """corpusbot's extraction (any mode) as a datatrove step; see the module docstring."""

    name = "⛏ corpusbot"

    def __init__(self, mode: str = MODE_DEFAULT,
                 timeout: float = TIMEOUT_SECONDS_DEFAULT) -> None:
        check_mode(mode)
        super().__init__(timeout)
        self.mode = mode

    def extract(self, text: str) -> str:
        """The main text of one page's HTML (the step's ``run`` also keeps the metadata)."""
        return _extract(text, self.mode)[0]

    def run(self, data: DocumentsPipeline, rank: int = 0, world_size: int = 1) -> DocumentsPipeline:
        """Each document's HTML replaced by its main text; empty ones are dropped."""
        with ExtractorSandbox(timeout=self.timeout, warmup_text=("", self.mode)) as sandbox:
            for doc in data:
                self.stat_update(StatHints.total)
                with self.track_time():
                    found = self._sandboxed(sandbox, doc)
                if found is None:
                    continue
                doc.text, title, language, probability = found
                if not doc.text:
                    self.stat_update(StatHints.dropped)
                    continue
                doc.metadata.update(title=title, language=language, language_score=probability)
                self.stat_update(StatHints.forwarded)
                self.update_doc_stats(doc)
                yield doc

    def _sandboxed(self, sandbox: ExtractorSandbox, doc: Document) -> Any:
        """The child's answer, or None after counting why there is none."""
        try:
            return sandbox.process_document((doc.text, self.mode), _extract)
        except TimeoutError:
            self.stat_update("timeout")
        except EOFError:
            self.stat_update("broken_process")  # the sandbox starts a new child
        return None


class CorpusbotLanguageFilter(BaseFilter):
    """Keeps documents in ``languages`` (all when None) identified at ``language_threshold``."""

    name = "🌍 corpusbot language"

    def __init__(self, languages: list[str] | str | None = None, language_threshold: float = 0.0,
                 exclusion_writer: DiskWriter | None = None) -> None:
        super().__init__(exclusion_writer)
        self.languages = frozenset([languages] if isinstance(languages, str) else languages or [])
        self.language_threshold = language_threshold

    def filter(self, doc: Document) -> bool | tuple[bool, str]:
        """Sets ``language`` and ``language_score``; the drop reason when it does not keep."""
        guess = identify(doc.text)
        doc.metadata["language"], doc.metadata["language_score"] = guess.code, guess.probability
        if guess.code is None:
            return False, "no-language"
        if self.languages and guess.code not in self.languages:
            return False, "other-language"
        if guess.probability < self.language_threshold:
            return False, "language-score"
        return True


class CorpusbotQualityFilter(BaseFilter):
    """A preset's steps after extraction (``corpusbot filter``'s: the same ``--preset`` and
    ``step.option`` overrides as every other route) over extracted documents; an edit (C4's
    lines, masked PII) replaces ``doc.text``, a drop gives the step's reason."""

    name = "✅ corpusbot quality"

    def __init__(self, preset: str = "fineweb", overrides: dict[str, Any] | None = None,
                 exclusion_writer: DiskWriter | None = None) -> None:
        super().__init__(exclusion_writer)
        self.processor = Processor(ProcessorOptions(preset=preset, overrides=overrides or {}))

    def filter(self, doc: Document) -> bool | tuple[bool, str]:
        """Keep, maybe edited; or the reason a step dropped it."""
        meta = doc.metadata
        record = {"text": doc.text, "lang": meta.get("language"),
                  "lang_prob": meta.get("language_score"), "title": meta.get("title")}
        url = meta.get("url") or f"datatrove:{doc.id}"
        result = refilter(self.processor, record, Page(url=str(url), body=b""))
        if isinstance(result, Rejection):
            return False, result.reason
        doc.text = result.text
        return True
