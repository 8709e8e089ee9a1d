"""Start the test news site as a subprocess and talk to its control endpoints."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
import urllib.request
from pathlib import Path
from types import TracebackType
from typing import Any

REPO = Path(__file__).resolve().parents[2]


class NewsSite:
    """The site server, running from ``__enter__`` to ``__exit__``; ``url`` is its base."""

    def __init__(self, bench: Path | None = None, slow_seconds: float = 1.0,
                 copies: int = 0, latency: float = 0.0, gated: bool = False) -> None:
        self.args = [sys.executable, "-m", "tests.newssite", "--slow-seconds", str(slow_seconds),
                     "--latency-seconds", str(latency)]
        if gated:
            self.args.append("--gated")
        if bench is not None:
            self.args += ["--bench", str(bench)]
        if copies:
            self.args += ["--copies", str(copies)]
        self.process: subprocess.Popen[str] | None = None
        self.url = ""

    def __enter__(self) -> NewsSite:
        self.process = subprocess.Popen(self.args, cwd=REPO, stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline() if self.process.stdout else ""
        if not line.startswith("READY "):
            self.process.kill()
            raise RuntimeError(f"the news site did not start: {line!r}")
        self.url = line.split()[1]
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(f"{self.url}{path}", timeout=10) as response:
            return json.loads(response.read())

    def manifest(self) -> dict[str, Any]:
        return self.get("/__manifest.json")

    def hits(self) -> dict[str, int]:
        return self.get("/__hits.json")

    def arrivals(self) -> list[tuple[float, str]]:
        """(server time in seconds, path) of every page request, in arrival order."""
        return [(float(moment), path) for moment, path in self.get("/__arrivals.json")]

    def phase(self, number: int) -> None:
        self.get(f"/__phase/{number}")

    def open(self) -> None:
        """Let a gated site serve its pages."""
        self.get("/__open")

    def shut(self) -> None:
        """Gate the site: pages wait until ``open`` (as if started ``gated``)."""
        self.get("/__shut")


# Fast and deterministic on 127.0.0.1: no politeness delays (their settings
# are checked in test_addon.py), one worker process.
TEST_SETTINGS = (
    "CORPUSBOT_CONTACT=tests@corpusbot.invalid",
    "AUTOTHROTTLE_ENABLED=False",
    "DOWNLOAD_DELAY=0",
    "CONCURRENT_REQUESTS_PER_DOMAIN=8",
    "CORPUSBOT_PROCESS_WORKERS=1",
    # The site is on 127.0.0.1, which the network guard refuses by default.
    "CORPUSBOT_NETGUARD_ENABLED=False",
)


def run_crawl(urls: list[str], out: Path, *settings: str,
              timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``corpusbot crawl`` in a subprocess (the reactor cannot restart in one process)."""
    command = [sys.executable, "-m", "corpusbot", "crawl", *urls, "-o", str(out)]
    for setting in (*TEST_SETTINGS, *settings):
        command += ["-s", setting]
    return subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=timeout,
                          check=False)


def crawl_stats(out: Path) -> dict[str, Any]:
    return json.loads((out / "crawl-stats.json").read_text(encoding="utf-8"))


def corpus_records(out: Path) -> list[dict[str, Any]]:
    """Every document of the corpus under ``out``, all languages."""
    records = []
    for shard in sorted(out.glob("*/*.jsonl.gz")):
        with gzip.open(shard, "rt", encoding="utf-8") as lines:
            records += [json.loads(line) for line in lines]
    return records
