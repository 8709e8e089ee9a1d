"""Deduplication: four levels, one persistent index, decisions in input order.

The features each level compares (URL keys, MinHash signatures, paragraph
hashes) and ``DedupOptions`` are the core's: ``corpusbot.fingerprints``.
Here, the sink side:

- ``backends``: the seam, ``open_index(url, options)`` by scheme, the
  ``OpenIndex`` protocol the corpus calls (decisions and commit hooks) and
  ``Verdict`` (reason, and the id of the kept document a drop copies);
- ``index``: ``DedupIndex``, the storage interface, and ``SQLiteIndex``;
  ``sqlite``: its backend (a file attached to the corpus's database);
- ``deduplicator``: ``Deduplicator``, which applies url, exact, near and
  paragraph dedup to the Processor's results against an index;
- ``near``: LSH bands over signatures; ``bbit``: compact signatures;
- ``redis_dedup`` (the Redis backend), ``redis_index``, ``redis_scripts``,
  ``redis_calls``: the same levels against one Redis index shared by many
  processes and machines, with per-owner journals for crash safety and
  calls that survive a lost connection (its keys: ``corpusbot.redis_keys``).
"""

from corpusbot.dedup.backends import open_index
from corpusbot.fingerprints.options import DedupOptions

__all__ = ["DedupOptions", "open_index"]
