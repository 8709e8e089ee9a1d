"""The dedup fingerprints as the Processor's last step: what the sink's index compares.

Computed where the Processor runs (one process or many), so that the sink
only looks them up: the normalised-text hash (always: it is part of the
document's id), the MinHash signature when near dedup is on, and one hash
per paragraph when paragraph dedup is on. The step's options are the run's
one ``DedupOptions``, the same object the index is opened with.
"""

from __future__ import annotations

from corpusbot.fingerprints.minhash import MinHasher
from corpusbot.fingerprints.options import DedupOptions
from corpusbot.fingerprints.paragraph import paragraph_hash
from corpusbot.steps import Drop, PageState, Step
from corpusbot.text import hash64, normalise


class FingerprintStep(Step):
    """Fingerprint the final text (after every edit) for the dedup levels asked for."""

    name = "fingerprints"
    Options = DedupOptions
    summary = "the dedup fingerprints of the final text (options: the --dedup-* flags)"

    __slots__ = ("_minhash",)

    def __init__(self, options: DedupOptions | None = None) -> None:
        super().__init__(options)
        self._minhash = MinHasher(self.options.num_perm, self.options.shingle, self.options.seed)

    def apply(self, state: PageState) -> Drop | None:
        dedup = self.options
        paragraph_words = state.paragraph_words()
        words = [word for part in paragraph_words for word in part]
        found = state.fingerprints
        found["content_hash"] = hash64(normalise(words))
        found["n_words"] = len(words)
        found["signature"] = (self._minhash.signature(words).tobytes()
                              if dedup.uses("near") else b"")
        found["paragraph_hashes"] = (
            tuple(paragraph_hash(w, dedup.paragraph_min_words) for w in paragraph_words)
            if dedup.uses("paragraph") else ())
        return None
