"""What a corpus run shows: a live progress bar, and a summary table at the end."""

from __future__ import annotations

import sys
import time
from collections import Counter
from typing import TextIO

from tqdm import tqdm

from corpusbot.archive.runner import RECORDS, RunReport


class ProgressBar:
    """A tqdm bar over archive records: documents kept, pages per second, current file."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self._stream = stream or sys.stderr
        self._bar: tqdm | None = None
        self._clock = time.monotonic()

    def file(self, path: str) -> None:
        bar = self._ensure_bar()
        bar.set_description_str(_short(path), refresh=False)

    def update(self, done: Counter[str]) -> None:
        """Show this run's counts so far."""
        bar = self._ensure_bar()
        elapsed = max(time.monotonic() - self._clock, 1e-9)
        bar.set_postfix_str(f"pages={done['pages']} kept={done['documents']}"
                            f" {done['pages'] / elapsed:.1f} pages/s", refresh=False)
        bar.update(done[RECORDS] - bar.n)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()

    def _ensure_bar(self) -> tqdm:
        # Made on first use, after the worker processes have started: no thread to fork.
        if self._bar is None:
            self._bar = tqdm(unit=" records", file=self._stream, dynamic_ncols=True,
                             mininterval=0.5, smoothing=0.1)
            self._clock = time.monotonic()
        return self._bar


def _short(path: str, width: int = 40) -> str:
    return path if len(path) <= width else "…" + path[-(width - 1):]


def summary(report: RunReport, seconds: float, out_dir: str) -> str:
    """The closing table: what this run read, kept and dropped, and why."""
    stats = report.stats
    rows = [("status", report.status), ("output", out_dir),
            ("time", f"{seconds:.1f} s"),
            ("records read", stats[RECORDS]), ("pages processed", stats["pages"]),
            ("pages/s", f"{stats['pages'] / max(seconds, 1e-9):.1f}"),
            ("documents kept", stats["documents"])]
    rows += _grouped(stats, "documents/", "  ")
    rows += [("rejected", sum(v for k, v in stats.items() if k.startswith("rejected/")))]
    rows += _grouped(stats, "rejected/", "  ")
    rows += [(key, value) for key, value in sorted(stats.items())
             if (key.startswith("archive/") and key != RECORDS) or key.startswith("html/cut/")]
    rows.append(("corpus total documents", report.totals["documents"]))
    width = max(len(str(name)) for name, _ in rows)
    return "\n".join(f"{name:<{width}}  {value:>10}" for name, value in rows)


def _grouped(stats: Counter[str], prefix: str, indent: str) -> list[tuple[str, object]]:
    chosen = [(key[len(prefix):], value) for key, value in stats.items()
              if key.startswith(prefix) and value]
    return [(indent + key, value) for key, value in sorted(chosen, key=lambda kv: -kv[1])]
