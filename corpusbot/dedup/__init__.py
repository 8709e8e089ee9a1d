"""Deduplication: four levels, one persistent index, decisions in input order.

- ``text``: the tokens and normalised text every level (and the filters) read;
- ``url``: canonical-URL keys; ``near``: MinHash signatures and LSH bands;
- ``index``: ``DedupIndex``, the storage interface, and ``SQLiteIndex``;
- ``deduplicator``: ``Deduplicator``, which applies url, exact, near and
  paragraph dedup to the Processor's results against an index;
- ``options``: ``DedupOptions``, shared by the Processor and the index.
"""

from corpusbot.dedup.options import DedupOptions

__all__ = ["DedupOptions"]
