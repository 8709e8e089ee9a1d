"""Signals corpusbot's Scrapy components send each other through ``crawler.signals``."""

corpus_committed = object()
"""Sent by the corpus pipeline after each commit of the corpus: whatever
depends on documents being safely stored (the incremental store) commits
after it, never before."""
