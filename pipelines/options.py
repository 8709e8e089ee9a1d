"""The Processor's and the corpus's options, read from Scrapy settings.

Both pipelines read the dedup settings through here, so that the features
the workers compute and the index the corpus checks them against always
agree.
"""

from __future__ import annotations

import os
from pathlib import Path

from corpusbot.corpus.sink import CorpusOptions
from corpusbot.crawl.default_settings import CorpusbotSettings
from corpusbot.dedup.options import DedupOptions
from corpusbot.processor import ProcessorOptions


def dedup_options(settings: CorpusbotSettings) -> DedupOptions:
    return DedupOptions(
        levels=frozenset(settings.getlist("CORPUSBOT_DEDUP_LEVELS")),
        threshold=settings.getfloat("CORPUSBOT_DEDUP_NEAR_THRESHOLD"),
    )


def processor_options(settings: CorpusbotSettings) -> ProcessorOptions:
    return ProcessorOptions(
        mode=settings.get("CORPUSBOT_PROCESS_MODE"),
        languages=frozenset(settings.getlist("CORPUSBOT_PROCESS_LANGUAGES")),
        min_words=settings.getint("CORPUSBOT_PROCESS_MIN_WORDS"),
        max_nonletter_ratio=settings.getfloat("CORPUSBOT_PROCESS_MAX_NONLETTER_RATIO"),
        dedup=dedup_options(settings),
        metadata=settings.getbool("CORPUSBOT_PROCESS_METADATA"),
    )


def corpus_options(settings: CorpusbotSettings) -> CorpusOptions:
    dedup_path = settings.get("CORPUSBOT_DEDUP_PATH")
    shared = dedup_path if "://" in dedup_path else None  # redis://host:port/db
    return CorpusOptions(
        compression=settings.get("CORPUSBOT_CORPUS_COMPRESSION"),
        format=settings.get("CORPUSBOT_CORPUS_FORMAT"),
        keep_rejects=settings.getbool("CORPUSBOT_CORPUS_KEEP_REJECTS"),
        shard_bytes=settings.getint("CORPUSBOT_CORPUS_SHARD_BYTES"),
        dedup=dedup_options(settings),
        dedup_path=Path(dedup_path) if dedup_path and not shared else None,
        dedup_url=shared,
    )


def worker_count(settings: CorpusbotSettings) -> int:
    """``CORPUSBOT_PROCESS_WORKERS``, where 0 means every core but one (at least one)."""
    workers = settings.getint("CORPUSBOT_PROCESS_WORKERS")
    return workers if workers > 0 else max(1, (os.cpu_count() or 1) - 1)


def check_settings(settings: CorpusbotSettings) -> None:
    """Raise ValueError naming the first ``CORPUSBOT_*`` setting group that is invalid,
    so that a bad setting stops a crawl before it starts, in one line."""
    for prefix, build in (("CORPUSBOT_PROCESS_", processor_options),
                          ("CORPUSBOT_CORPUS_ / CORPUSBOT_DEDUP_", corpus_options),
                          ("CORPUSBOT_PROCESS_WORKERS", worker_count)):
        try:
            build(settings)
        except ValueError as error:
            raise ValueError(f"invalid {prefix} setting: {error}") from None
