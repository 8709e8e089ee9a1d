"""A preset's steps over records already extracted: what ``corpusbot filter`` runs.

Each JSON record (corpusbot's own, or any object with a ``text`` field)
becomes the state the steps read: its paragraphs (split at blank lines), its
language and probability when it has them. The steps of the preset run in
order: "extract" is skipped (the text is there), "language" applies the
allow-list, "length" and "nonletters" corpusbot's basic filters, the quality
steps their rules; what survives gets its dedup fingerprints and becomes a
Document for the corpus sink, edits counted.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from corpusbot import filters
from corpusbot.dedup.near import MinHasher
from corpusbot.dedup.options import DedupOptions
from corpusbot.dedup.paragraph import paragraph_hash
from corpusbot.document import Document, Rejection, reject
from corpusbot.page import Page
from corpusbot.quality.presets import PRESETS, step_classes
from corpusbot.steps import PageState, Step, parse_option
from corpusbot.text import PARAGRAPH_SEPARATOR, hash64, normalise

SKIPPED = frozenset({"extract", "fingerprints"})
CORE = frozenset({"language", "length", "nonletters"})
NOT_A_RECORD = "input/not-a-record"


@dataclass(slots=True, frozen=True)
class RefilterOptions:
    """The preset, the ``step.option=value`` overrides, and the basic filters' settings."""

    preset: str = "fineweb"
    overrides: Mapping[str, str] = field(default_factory=dict)
    languages: frozenset[str] = frozenset()
    min_words: int = filters.MIN_WORDS_DEFAULT
    max_nonletter_ratio: float = filters.MAX_NONLETTER_RATIO_DEFAULT
    dedup: DedupOptions = field(default_factory=DedupOptions)

    def __post_init__(self) -> None:
        if self.preset not in PRESETS:
            raise ValueError(f"unknown preset {self.preset!r}; known: {', '.join(PRESETS)}")


def build_steps(preset: str, overrides: Mapping[str, str]) -> list[str | Step]:
    """The preset's steps, each quality step made with its options (preset's, then the
    overrides); a core step stays a name. Raises ValueError in one line."""
    classes = step_classes()
    names = [name for name, _ in PRESETS[preset]]
    by_step: dict[str, dict[str, Any]] = {name: dict(values) for name, values in PRESETS[preset]}
    for key, value in overrides.items():
        name, _, option = key.partition(".")
        if name not in classes:
            raise ValueError(f"--set {key}: unknown step {name!r}; known: {', '.join(classes)}")
        if name not in names:
            raise ValueError(f"--set {key}: preset {preset} has no step {name}")
        by_step[name][option] = parse_option(classes[name].Options, option, value)
    return [classes[name](classes[name].Options(**by_step[name])) if name in classes else name
            for name in names if name not in SKIPPED]


class Refilter:
    """Turns records into Documents or Rejections under one preset."""

    __slots__ = ("_minhash", "options", "steps")

    def __init__(self, options: RefilterOptions | None = None) -> None:
        self.options = options or RefilterOptions()
        self.steps = build_steps(self.options.preset, self.options.overrides)
        dedup = self.options.dedup
        self._minhash = MinHasher(dedup.num_perm, dedup.shingle, dedup.seed)

    def process(self, record: Any, page: Page) -> tuple[Document | Rejection, PageState | None]:
        """The record's verdict, and the state the steps left (its edits) when it had text."""
        if not isinstance(record, dict) or not isinstance(record.get("text"), str):
            return reject(page, NOT_A_RECORD), None
        state = PageState(page=page, paragraphs=[p for p in record["text"].split(
            PARAGRAPH_SEPARATOR) if p.strip()], title=record.get("title"),
            lang=record.get("lang") or "und", lang_prob=float(record.get("lang_prob") or 0.0),
            extractor=record.get("extractor") or "")
        for step in self.steps:
            reason = self._core(step, state) if isinstance(step, str) else _drop_reason(step, state)
            if reason:
                return reject(page, reason), state
        return self._document(state, record), state

    def _core(self, name: str, state: PageState) -> str | None:
        o = self.options
        if name == "language":
            return filters.check_language(state.lang, o.languages)
        if name == "length":
            return filters.check_length(len(state.words()), o.min_words)
        return filters.check_nonletters(filters.nonletter_ratio(state.text),
                                        o.max_nonletter_ratio)

    def _document(self, state: PageState, record: dict) -> Document:
        words, dedup, page = state.words(), self.options.dedup, state.page
        signature = self._minhash.signature(words).tobytes() if dedup.uses("near") else b""
        hashes = (tuple(paragraph_hash(w, dedup.paragraph_min_words)
                        for w in state.paragraph_words()) if dedup.uses("paragraph") else ())
        meta = record.get("meta") if isinstance(record.get("meta"), dict) else None
        return Document(
            url=page.url, text=state.text, title=state.title, lang=state.lang,
            lang_prob=state.lang_prob, n_words=len(words), extractor=state.extractor,
            content_hash=hash64(normalise(words)), url_key=page.url_key, source=page.source,
            record_id=page.record_id, offset=page.offset, fetched_at=record.get("fetched_at"),
            signature=signature, paragraphs=tuple(state.paragraphs), paragraph_hashes=hashes,
            meta=meta, lang_source=record.get("lang_source"))


def _drop_reason(step: Step, state: PageState) -> str | None:
    drop = step.apply(state)
    return drop.reason if drop else None

