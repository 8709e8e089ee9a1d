"""The dedup features the core computes for every page, once, wherever it runs.

- ``url``: the canonical-URL key (``Page.url_key``);
- ``minhash``: the MinHash signature of a text's word shingles;
- ``paragraph``: one key per paragraph long enough to mean something;
- ``options``: ``DedupOptions``, the one object that says which features are
  made and with which parameters, handed both to the Processor and to the
  dedup index (``corpusbot.dedup.open_index``), so the two cannot disagree.

Deciding what is a duplicate needs the persistent index and the input
order, so it happens in the sink (``corpusbot.dedup``), which imports this
package; nothing here imports a sink.
"""
