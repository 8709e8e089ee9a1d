"""Deduplication: four levels, one persistent index, decisions in input order.

- ``text``: the tokens and normalised text every level (and the filters) read;
- ``url``: canonical-URL keys; ``near``: MinHash signatures and LSH bands;
- ``index``: ``DedupIndex``, the storage interface, and ``SQLiteIndex``;
- ``deduplicator``: ``Deduplicator``, which applies url, exact, near and
  paragraph dedup to the Processor's results against an index;
- ``options``: ``DedupOptions``, shared by the Processor and the index;
- ``redis_index``, ``redis_dedup``, ``redis_scripts``, ``bbit``: the same
  levels against one Redis index shared by many processes and machines,
  with compact (b-bit) signatures and per-owner journals for crash safety.
"""

from corpusbot.fingerprints.options import DedupOptions

__all__ = ["DedupOptions"]
