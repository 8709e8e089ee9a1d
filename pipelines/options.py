"""The Processor's and the corpus's options, read from Scrapy settings.

Both pipelines read the dedup settings through here, so that the features
the workers compute and the index the corpus checks them against always
agree.
"""

from __future__ import annotations

import os
import warnings

from scrapy.exceptions import ScrapyDeprecationWarning

from corpusbot.corpus.sink import CorpusOptions
from corpusbot.crawl.default_settings import CorpusbotSettings
from corpusbot.dedup.backends import IndexFactory, open_index
from corpusbot.filters.registry import overrides_from
from corpusbot.fingerprints.options import DedupOptions
from corpusbot.processor import ProcessorOptions


def dedup_options(settings: CorpusbotSettings) -> DedupOptions:
    return DedupOptions(
        levels=frozenset(settings.getlist("CORPUSBOT_DEDUP_LEVELS")),
        threshold=settings.getfloat("CORPUSBOT_DEDUP_NEAR_THRESHOLD"),
    )


def processor_options(settings: CorpusbotSettings) -> ProcessorOptions:
    """The preset, ``CORPUSBOT_PROCESS_SET`` and the shortcut settings, as the CLI's flags."""
    shortcuts = {
        "mode": settings.get("CORPUSBOT_PROCESS_MODE"),
        "metadata": settings.getbool("CORPUSBOT_PROCESS_METADATA"),
        "languages": ",".join(settings.getlist("CORPUSBOT_PROCESS_LANGUAGES")) or None,
        "min_words": settings.get("CORPUSBOT_PROCESS_MIN_WORDS"),
        "max_nonletter_ratio": settings.get("CORPUSBOT_PROCESS_MAX_NONLETTER_RATIO"),
    }
    return ProcessorOptions(
        preset=settings.get("CORPUSBOT_PROCESS_PRESET"),
        overrides=overrides_from(shortcuts, settings.getdict("CORPUSBOT_PROCESS_SET")),
        dedup=dedup_options(settings),
    )


def index_url(settings: CorpusbotSettings) -> str:
    """``CORPUSBOT_DEDUP_URL``; in a shared crawl, by default the crawl's own Redis."""
    url = settings.get("CORPUSBOT_DEDUP_URL")
    if not url and settings.get("CORPUSBOT_DEDUP_PATH"):
        warnings.warn("CORPUSBOT_DEDUP_PATH is renamed CORPUSBOT_DEDUP_URL (it takes a path or "
                      "a URL); the old name stops working in a later release",
                      ScrapyDeprecationWarning, stacklevel=2)
        url = settings.get("CORPUSBOT_DEDUP_PATH")
    return str(url or settings.get("CORPUSBOT_REDIS_URL") or "")


def corpus_options(settings: CorpusbotSettings) -> CorpusOptions:
    return CorpusOptions(
        compression=settings.get("CORPUSBOT_CORPUS_COMPRESSION"),
        format=settings.get("CORPUSBOT_CORPUS_FORMAT"),
        keep_rejects=settings.getbool("CORPUSBOT_CORPUS_KEEP_REJECTS"),
        shard_bytes=settings.getint("CORPUSBOT_CORPUS_SHARD_BYTES"),
        dedup=index_url(settings),
    )


def dedup_index(settings: CorpusbotSettings, options: CorpusOptions) -> IndexFactory:
    """The index ``options`` name, checking with the options the Processor fingerprints by."""
    return open_index(options.dedup, processor_options(settings).dedup)


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
