"""Near-duplicate detection on the index side: LSH bands over MinHash signatures.

The signatures are made by the core (``corpusbot.fingerprints.minhash``);
LSH (Indyk & Motwani; Leskovec et al., *Mining of Massive Datasets*, ch. 3)
cuts a signature into ``b`` bands of ``r`` rows, and two documents become
candidates when any band matches in full. Candidates are then confirmed on
the full signature against the threshold, so a band collision alone never
drops a document.
"""

from __future__ import annotations

import functools
from hashlib import blake2b

import numpy as np


def jaccard(first: np.ndarray, second: np.ndarray) -> float:
    """The MinHash estimate of the Jaccard similarity: the share of equal slots."""
    return float(np.count_nonzero(first == second)) / len(first)


def band_keys(signature: np.ndarray, bands: int, rows: int) -> list[int]:
    """One signed 64-bit key per LSH band; the band index is part of the key."""
    keys = []
    for band in range(bands):
        chunk = signature[band * rows:(band + 1) * rows].tobytes()
        digest = blake2b(chunk, digest_size=8, salt=band.to_bytes(16, "big")).digest()
        keys.append(int.from_bytes(digest, "big", signed=True))
    return keys


# Cached: a pure function of three numbers whose grid search costs 30 ms,
# paid by every index opened (each run, each archive of a batch).
@functools.cache
def optimal_bands(threshold: float, num_perm: int, fp_weight: float = 0.5) -> tuple[int, int]:
    """The (bands, rows) whose S-curve best separates pairs at ``threshold``.

    Minimises the weighted areas of false positives (similarity below the
    threshold, yet a band matches) and false negatives (above it, none
    matches), the criterion datasketch's ``MinHashLSH`` uses; ``fp_weight``
    0.5 gives its layout.
    """
    grid = np.linspace(0.0, 1.0, 2001)
    below, above = grid[grid < threshold], grid[grid >= threshold]
    best, best_error = (1, num_perm), float("inf")
    for bands in range(1, num_perm + 1):
        for rows in range(1, num_perm // bands + 1):
            false_pos = np.trapezoid(1 - (1 - below**rows) ** bands, below)
            false_neg = np.trapezoid((1 - above**rows) ** bands, above)
            error = fp_weight * false_pos + (1 - fp_weight) * false_neg
            if error < best_error:
                best, best_error = (bands, rows), error
    return best
