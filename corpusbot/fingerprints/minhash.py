"""MinHash signatures over word shingles: the near-duplicate feature of one document.

Broder's MinHash estimates the Jaccard similarity of two shingle sets as the
share of equal signature slots. The signature is computed with numpy in one
pass per document instead of one Python call per shingle (datasketch's
``MinHash.update``); the hash family is Dietzfelbinger's multiply-add-shift
on 32-bit shingle hashes, ``h(x) = ((a·x + b) mod 2^64) >> 32``, pairwise
independent for odd ``a``. ``benchmarks/corpus.py`` measures it against
datasketch's ``update_batch``. The index side (LSH bands, the comparison)
is ``corpusbot.dedup.near``.
"""

from __future__ import annotations

import zlib

import numpy as np

NUM_PERM_DEFAULT = 128
"""Signature length: the Jaccard estimate's standard error is about sqrt(J(1-J)/128) = 0.035."""
SHINGLE_DEFAULT = 5
"""Words per shingle, as in most web-corpus pipelines (Gopher, datatrove)."""
THRESHOLD_DEFAULT = 0.8
"""Jaccard similarity above which two documents are near duplicates (issue 3)."""
SEED_DEFAULT = 1
_BLOCK = 4096  # shingles hashed at once: bounds the (perms x shingles) matrix to 4 MB
_MASK32 = np.uint64(0xFFFFFFFF)
_SHIFT32 = np.uint64(32)
# Odd 64-bit multipliers that mix word hashes into a shingle hash (position-dependent).
_MIX = np.array(
    [0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9, 0xD6E8FEB86659FD93,
     0xFF51AFD7ED558CCD, 0xC4CEB9FE1A85EC53, 0x94D049BB133111EB, 0xBF58476D1CE4E5B9],
    dtype=np.uint64,
)


def _permutations(num_perm: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The hash functions' odd multipliers and offsets, as read-only columns.

    Drawn once per MinHasher: each worker process builds its Processor (and
    so its MinHasher) once, when it starts (``corpusbot.pool``).
    """
    rng = np.random.default_rng(seed)
    odd = rng.integers(0, 2**63, num_perm, dtype=np.uint64) * np.uint64(2) + np.uint64(1)
    offsets = rng.integers(0, 2**63, num_perm, dtype=np.uint64)
    multipliers, offsets = odd[:, None], offsets[:, None]
    multipliers.flags.writeable = offsets.flags.writeable = False
    return multipliers, offsets


class MinHasher:
    """MinHash signatures of token lists; deterministic for a given seed in every process."""

    __slots__ = ("_a", "_b", "num_perm", "seed", "shingle")

    def __init__(self, num_perm: int = NUM_PERM_DEFAULT, shingle: int = SHINGLE_DEFAULT,
                 seed: int = SEED_DEFAULT) -> None:
        if not 1 <= shingle <= len(_MIX):
            raise ValueError(f"shingle size must be 1..{len(_MIX)}, got {shingle}")
        self.num_perm, self.shingle, self.seed = num_perm, shingle, seed
        self._a, self._b = _permutations(num_perm, seed)

    def __getstate__(self) -> tuple[int, int, int]:
        return self.num_perm, self.shingle, self.seed

    def __setstate__(self, state: tuple[int, int, int]) -> None:
        self.__init__(*state)  # type: ignore[misc]

    def signature(self, words: list[str]) -> np.ndarray:
        """The ``num_perm`` uint32 minima over the hashed shingles of ``words``."""
        # repeated shingles change no minimum: no need to make them unique
        shingles = self._shingle_hashes(words)
        signature = np.full(self.num_perm, 0xFFFFFFFF, dtype=np.uint64)
        for start in range(0, len(shingles), _BLOCK):
            # Permutations on rows, shingles on columns: the min runs over contiguous memory.
            with np.errstate(over="ignore"):
                values = self._a * shingles[start:start + _BLOCK]
                values += self._b
            values >>= _SHIFT32
            np.minimum(signature, values.min(axis=1), out=signature)
        return signature.astype(np.uint32)

    def _shingle_hashes(self, words: list[str]) -> np.ndarray:
        # crc32 is a C call per word; the shingle mix below is vectorised.
        hashes = np.fromiter(map(zlib.crc32, map(str.encode, words)), np.uint64, len(words))
        width = min(self.shingle, max(len(hashes), 1))
        count = max(len(hashes) - width + 1, 1 if len(hashes) else 0)
        mixed = np.zeros(count, dtype=np.uint64)
        with np.errstate(over="ignore"):
            for i in range(width):
                mixed += hashes[i:i + count] * _MIX[i]
            mixed ^= mixed >> _SHIFT32
        return mixed & _MASK32
