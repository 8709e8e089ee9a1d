"""Signals corpusbot's Scrapy components send each other through ``crawler.signals``,
and the finish reasons they close the spider with."""

corpus_committed = object()
"""Sent by the corpus pipeline after each commit of the corpus: whatever
depends on documents being safely stored (the incremental store) commits
after it, never before."""

TAKEN_OVER = "taken-over"
"""The finish reason of a shared crawl's process whose uncommitted pages another process
took over (it was silent past its heartbeat): the corpus pipeline stops the crawl at its
last commit, and the hand-over scheduler queues what the process still holds again."""
