"""b-bit MinHash: a compact signature that keeps the near-duplicate check.

Li & König, "b-Bit Minwise Hashing" (WWW 2010): keeping only the lowest
``b`` bits of each MinHash slot, two slots still agree whenever the full
minima agree (probability J), and otherwise agree by chance with
probability about ``2^-b`` (the minima are uniform over 2^32 values, far
more than the sets' sizes, so the paper's correction terms vanish). The
share of equal slots P therefore estimates ``C + (1 - C)·J`` with
``C = 2^-b``, and ``J = (P - C) / (1 - C)`` is the corrected estimate.

With 128 slots and ``b = 4`` a signature takes 64 bytes instead of 512; the
estimate's standard error at J = 0.8 grows from 0.035 (full slots) to
sqrt(P(1-P)/128)/(1-C) = 0.037, the cost the paper predicts. The Redis
index stores and compares this form (its Lua twin is in ``redis_scripts``).
"""

from __future__ import annotations

import numpy as np

BITS_DEFAULT = 4
"""Bits kept per slot: 64-byte signatures at 0.002 more standard error than full slots
(``benchmarks/redis_memory.py`` reports both against the exact Jaccard)."""
BITS_ALLOWED = (1, 2, 4, 8)
"""Slot widths that pack whole slots into a byte, as the Lua comparison reads them."""


def compact(signature: np.ndarray, bits: int = BITS_DEFAULT) -> bytes:
    """The lowest ``bits`` bits of every uint32 slot, packed little end first into bytes."""
    if bits not in BITS_ALLOWED:
        raise ValueError(f"b-bit signatures take {BITS_ALLOWED} bits per slot, got {bits}")
    per_byte = 8 // bits
    slots = (signature.astype(np.uint32) & np.uint32((1 << bits) - 1)).astype(np.uint8)
    padded = np.zeros(-(-len(slots) // per_byte) * per_byte, dtype=np.uint8)
    padded[:len(slots)] = slots
    grouped = padded.reshape(-1, per_byte)
    shifts = (np.arange(per_byte, dtype=np.uint8) * bits)[None, :]
    return np.bitwise_or.reduce(grouped << shifts, axis=1).astype(np.uint8).tobytes()


def chance_agreement(bits: int) -> float:
    """C: how often two slots whose full minima differ agree in their lowest ``bits`` bits."""
    return 2.0 ** -bits


def corrected(equal_share: float, bits: int) -> float:
    """The Jaccard estimate from the share of equal b-bit slots (see the module docstring)."""
    chance = chance_agreement(bits)
    return (equal_share - chance) / (1.0 - chance)


def similarity(first: bytes, second: bytes, bits: int, slots: int) -> float:
    """The corrected Jaccard estimate of two compact signatures of ``slots`` slots."""
    a = np.unpackbits(np.frombuffer(first, dtype=np.uint8), bitorder="little")
    b = np.unpackbits(np.frombuffer(second, dtype=np.uint8), bitorder="little")
    differs = (a != b).reshape(-1, bits).any(axis=1)[:slots]
    return corrected(1.0 - float(np.count_nonzero(differs)) / slots, bits)
