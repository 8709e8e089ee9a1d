"""The processing core: one Page in, one Document or Rejection out, through a list of steps.

    options = ProcessorOptions(preset="basic", overrides={"language.allowed": "en,de"})
    processor = Processor(options)
    result = processor.process(page)        # Document | Rejection, never raises

``Processor.process`` is pure and picklable: it runs the preset's steps
(``corpusbot.filters.registry``) in order over one ``PageState`` — extract
(decode, parse, main text, language), the filters, any edits, and last the
dedup fingerprints of the final text — so that all CPU work runs wherever
the processor runs, one process or many. The first step that drops the page
makes its Rejection. Deciding what is a duplicate needs the persistent index
and the input order, so it happens in the sink (``corpusbot.corpus.sink``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from itertools import takewhile
from typing import Any, TypeVar

from corpusbot.document import Document, Rejection, reject
from corpusbot.filters.registry import EXTRACT, LAST, PRESET_DEFAULT, build_steps
from corpusbot.fingerprints.options import DedupOptions
from corpusbot.page import Page
from corpusbot.steps import PageState, Step

logger = logging.getLogger(__name__)

CRASH = "process/crash"
_R = TypeVar("_R")


@dataclass(slots=True, frozen=True)
class ProcessorOptions:
    """What decides what the Processor keeps: a preset, overrides of its steps' options
    (``"step.option" -> value``, strings parsed as the option's type), and the run's one
    ``DedupOptions`` (the fingerprint step's options, the same object the index gets)."""

    preset: str = PRESET_DEFAULT
    overrides: Mapping[str, Any] = field(default_factory=dict)
    dedup: DedupOptions = field(default_factory=DedupOptions)

    def __post_init__(self) -> None:
        steps = build_steps(self.preset, self.overrides, self.dedup)  # validates, one line
        if EXTRACT not in [step.name for step in steps] or steps[-1].name != LAST:
            raise ValueError(f"preset {self.preset!r} must run {EXTRACT} and end with {LAST}")

    def describe(self) -> dict[str, Any]:
        """Every step in order with all its options resolved: what a corpus records."""
        return {"preset": self.preset, "steps": [
            {"step": step.name, **_plain(step.options)}
            for step in build_steps(self.preset, self.overrides, self.dedup)]}


class Processor:
    """Turns pages into documents under one ``ProcessorOptions``; see the module docstring."""

    __slots__ = ("options", "steps")

    def __init__(self, options: ProcessorOptions | None = None) -> None:
        self.options = options or ProcessorOptions()
        self.steps: list[Step] = build_steps(self.options.preset, self.options.overrides,
                                             self.options.dedup)

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
        """Run the steps over one page; bad input becomes a Rejection."""
        return self._run(PageState(page), self.steps)

    def process_text(self, state: PageState) -> Document | Rejection:
        """Run every step but extraction over a text extracted before (``corpusbot filter``:
        ``state`` holds its paragraphs, language and page)."""
        return self._run(state, [step for step in self.steps if step.name != EXTRACT])

    def url_steps(self) -> list[Step] | None:
        """The steps whose answer depends on the URL (``Step.reads_url``) when they run before
        every other step, so that the rest answer from a page's bytes alone; None otherwise."""
        leading = list(takewhile(lambda step: step.reads_url, self.steps))
        if any(step.reads_url for step in self.steps[len(leading):]):
            return None
        return leading

    def url_rejection(self, page: Page, steps: list[Step]) -> Rejection | None:
        """What ``url_steps`` make of ``page``: its Rejection, or None when they pass it."""
        state = PageState(page)
        return self._guarded(state, lambda: self._first_drop(state, steps))

    def _run(self, state: PageState, steps: list[Step]) -> Document | Rejection:
        return self._guarded(state, lambda: self._first_drop(state, steps) or _document(state))

    @staticmethod
    def _first_drop(state: PageState, steps: list[Step]) -> Rejection | None:
        for step in steps:
            drop = step.apply(state)
            if drop is not None:
                return reject(state.page, drop.reason, detail=drop.detail, cuts=state.cuts,
                              text=state.text or None)
        return None

    @staticmethod
    def _guarded(state: PageState, work: Callable[[], _R]) -> _R | Rejection:
        try:
            return work()
        except Exception as error:  # the invariant: no exception escapes for any input
            page = state.page
            logger.warning("processing %s crashed: %s: %s", page.url, type(error).__name__, error)
            return reject(page, CRASH, detail=f"{type(error).__name__}: {error}")


def _document(state: PageState) -> Document:
    page, found = state.page, state.fingerprints
    return Document(
        url=page.url, text=state.text, title=state.title, lang=state.lang,
        lang_prob=state.lang_prob, n_words=found["n_words"], extractor=state.extractor,
        content_hash=found["content_hash"], url_key=page.url_key, source=page.source,
        record_id=page.record_id, offset=page.offset, fetched_at=page.fetched_at,
        signature=found["signature"], paragraphs=tuple(state.paragraphs),
        paragraph_hashes=found["paragraph_hashes"], meta=state.meta or None,
        cuts=state.cuts, edits=dict(state.edits) or None, lang_source=state.lang_source,
    )


def _plain(options: object) -> dict[str, Any]:
    """An options dataclass as JSON-ready values (sets sorted)."""
    out = {}
    for name in getattr(options, "__dataclass_fields__", {}):
        value = getattr(options, name)
        out[name] = sorted(value) if isinstance(value, (set, frozenset)) else value
    return out
