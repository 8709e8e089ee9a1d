"""Signals corpusbot's Scrapy components send each other through ``crawler.signals``,
and the finish reasons they close the spider with."""

corpus_committed = object()
"""Sent by the corpus pipeline after each commit of the corpus: whatever
depends on documents being safely stored (the incremental store) commits
after it, never before."""

TAKEN_OVER = "taken-over"
"""The finish reason of a shared crawl's process whose uncommitted pages another process
took over (it was silent past its heartbeat): the corpus pipeline stops the crawl at its
last commit."""

TAKEN_OVER_STAT = "corpusbot/handover/taken_over"
"""Set by the corpus pipeline when the index refused its work as taken over, on the way
(the crawl then stops with ``TAKEN_OVER``) or at the closing commit (the crawl was ending
anyway): the hand-over scheduler then queues again what the process still holds."""
