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
            # A bar redrawn with \r is for a terminal; in a log file it is noise.
            self._bar = tqdm(unit=" records", file=self._stream, dynamic_ncols=True,
                             mininterval=0.5, smoothing=0.1, disable=not _terminal(self._stream))
            self._clock = time.monotonic()
        return self._bar


def _terminal(stream: TextIO) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def _short(path: str, width: int = 40) -> str:
    return path if len(path) <= width else "…" + path[-(width - 1):]


_ARCHIVE_ROWS = (("archive/copies-reused", "exact copies, not extracted again"),
                 ("archive/files", "files read"), ("archive/files/already-done",
                  "files already read"), ("archive/ranges", "ranges read"),
                 ("archive/damaged", "damaged records"), ("archive/unreadable",
                                                          "unreadable files"))


def summary(report: RunReport, seconds: float, out_dir: str) -> str:
    """The closing table: what this run read, kept per language (documents and words), and
    dropped with every reason; prose labels above, reason codes (as in the manifest) in
    their own columns below."""
    stats = report.stats
    rate = stats["pages"] / max(seconds, 1e-9)
    rows = [("status", report.status), ("corpus", out_dir),
            ("time", f"{seconds:.1f} s, {rate:.1f} pages/s"),
            ("records read", f"{stats[RECORDS]:,}"), ("pages processed", f"{stats['pages']:,}"),
            ("documents kept", f"{stats['documents']:,}")]
    rows += [(label, f"{stats[key]:,}") for key, label in _ARCHIVE_ROWS if stats[key]]
    totals = report.totals
    rows.append(("corpus in total", f"{totals['documents']:,} documents, "
                 f"{_words(totals):,} words"))
    width = max(len(name) for name, _ in rows)
    lines = [f"{name:<{width}}  {value}" for name, value in rows]
    lines += _languages(stats)
    lines += _reasons(stats, "rejected/", "rejected, by reason", "pages")
    lines += _reasons(stats, "archive/skipped/", "skipped, by reason", "records")
    lines += _reasons(stats, "html/cut/", "cut from the markup", "pages")
    return "\n".join(lines)


def _words(stats: Counter[str]) -> int:
    return sum(value for key, value in stats.items() if key.startswith("words/"))


def _table(head: tuple[str, ...], rows: list[tuple[str, ...]]) -> list[str]:
    widths = [max(len(row[i]) for row in [head, *rows]) for i in range(len(head))]
    return ["", *("  ".join([row[0].ljust(widths[0])] + [cell.rjust(width) for cell, width
                                                          in zip(row[1:], widths[1:],
                                                                 strict=True)])
                  for row in [head, *rows])]


def _languages(stats: Counter[str]) -> list[str]:
    langs = sorted((key.removeprefix("documents/") for key in stats
                    if key.startswith("documents/") and stats[key]),
                   key=lambda lang: (-stats[f"documents/{lang}"], lang))
    if not langs:
        return []
    rows = [(lang, f"{stats[f'documents/{lang}']:,}", f"{stats[f'words/{lang}']:,}")
            for lang in langs]
    return _table(("kept, by language", "documents", "words"), rows)


def _reasons(stats: Counter[str], prefix: str, title: str, unit: str) -> list[str]:
    found = sorted(((key.removeprefix(prefix), value) for key, value in stats.items()
                    if key.startswith(prefix) and value), key=lambda kv: (-kv[1], kv[0]))
    return _table((title, unit), [(reason, f"{value:,}") for reason, value in found]) \
        if found else []
