"""Shared test helpers: where the gold sets are, and small HTML builders."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
FIXTURES_DIR = REPO / "tests" / "fixtures"


def bench_dir() -> Path:
    """The shared gold sets: $CORPUSBOT_BENCH, else ../shared/bench beside the repo."""
    return Path(os.environ.get("CORPUSBOT_BENCH", REPO.parent / "shared" / "bench"))


needs_bench = pytest.mark.skipif(
    not (bench_dir() / "scrapinghub").is_dir(),
    reason="gold sets not found: ../shared/bench is absent on a plain clone "
    "(set CORPUSBOT_BENCH to run these)",
)


from tests.redis_support import redis_port, redis_url  # noqa: E402  (fixtures for every folder)

__all__ = ["bench_dir", "needs_bench", "redis_port", "redis_url"]
