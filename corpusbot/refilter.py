"""A preset's steps over records already extracted: what ``corpusbot filter`` runs.

Each JSON record (corpusbot's own, or any object with a ``text`` field)
becomes the state the steps read: its paragraphs (split at blank lines), its
title, language, probability and metadata when it has them. The Processor of
the same preset and overrides as ``corpusbot warc`` then runs every step but
extraction (``Processor.process_text``), so a refiltered corpus gets the same
decisions, edits and fingerprints as one built from the archives.
"""

from __future__ import annotations

from typing import Any

from corpusbot.document import Document, Rejection, reject
from corpusbot.page import Page
from corpusbot.processor import Processor
from corpusbot.steps import PageState
from corpusbot.text import PARAGRAPH_SEPARATOR

NOT_A_RECORD = "input/not-a-record"


def record_state(record: dict[str, Any], page: Page) -> PageState:
    """The state of a record's text, as the extraction step would have left it."""
    meta = record.get("meta")
    return PageState(
        page=page, paragraphs=[p for p in record["text"].split(PARAGRAPH_SEPARATOR)
                               if p.strip()],
        title=record.get("title"), lang=record.get("lang") or "und",
        lang_prob=float(record.get("lang_prob") or 0.0), lang_source=record.get("lang_source"),
        extractor=record.get("extractor") or "", meta=dict(meta) if isinstance(meta, dict) else {})


def refilter(processor: Processor, record: Any, page: Page) -> Document | Rejection:
    """The record's verdict under ``processor``'s steps (extraction skipped)."""
    if not isinstance(record, dict) or not isinstance(record.get("text"), str):
        return reject(page, NOT_A_RECORD)
    return processor.process_text(record_state(record, page))
