"""Shared test helpers: where the gold sets are, and small HTML builders."""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[1]
FIXTURES_DIR = REPO / "tests" / "fixtures"
FIXTURE_PAGES = FIXTURES_DIR / "pages"
"""Whole pages in the shapes of their sites (see its README)."""


def bench_dir() -> Path:
    """The shared gold sets: $CORPUSBOT_BENCH, else ../shared/bench beside the repo."""
    return Path(os.environ.get("CORPUSBOT_BENCH", REPO.parent / "shared" / "bench"))


needs_bench = pytest.mark.skipif(
    not (bench_dir() / "scrapinghub").is_dir(),
    reason="gold sets not found: ../shared/bench is absent on a plain clone "
    "(set CORPUSBOT_BENCH to run these)",
)


def patchable(module: str) -> pytest.MarkDecorator:
    """Skip a test that replaces a function of ``module`` when that module is compiled: the
    compiled composition calls it directly, so no patch reaches it (the pure passes run it)."""
    from corpusbot.compiled import compiled_modules

    return pytest.mark.skipif(
        module in compiled_modules(),
        reason=f"{module} is compiled: the compiled composition calls it directly and no "
        "patch reaches it (the pure passes run this test)")


def benchmark_modules(*names: str) -> list[ModuleType]:
    """The scripts of ``benchmarks/`` named, imported for a test (a folder, not a package)."""
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        return [importlib.import_module(name) for name in names]
    finally:
        sys.path.remove(str(REPO / "benchmarks"))


from tests.redis_support import redis_port, redis_url  # noqa: E402  (fixtures for every folder)

__all__ = ["FIXTURE_PAGES", "bench_dir", "benchmark_modules", "needs_bench", "redis_port",
           "redis_url"]
