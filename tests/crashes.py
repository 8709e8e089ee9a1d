"""kill -9 at random moments and the same command again: the checks shared by
``tests/commands/test_cli_warc.py``, ``tests/crawl`` and ``benchmarks/crash.py``."""

from __future__ import annotations

import random
import signal
import sqlite3
import subprocess
from collections import Counter
from pathlib import Path

from warcio.archiveiterator import ArchiveIterator

from corpusbot.corpus.formats import read_records, shard_endings
from tests.conftest import REPO


def corpus(out: Path) -> Counter[tuple[str, str]]:
    """(url, content_hash) of every document in the published shards under ``out``, in any
    record format."""
    found: Counter[tuple[str, str]] = Counter()
    for shard in published(out):
        found.update((r["url"], r["content_hash"]) for r in read_records(shard))
    return found


def rejects(out: Path) -> Counter[tuple[str, str]]:
    """(url, reason) of every record in the published rejects shards under ``out``."""
    found: Counter[tuple[str, str]] = Counter()
    for shard in published(out / "rejects"):
        found.update((r["url"], r["reason"]) for r in read_records(shard))
    return found


def published(folder: Path) -> list[Path]:
    """The published shards (any format) of the folders directly under ``folder``."""
    return sorted(p for p in folder.glob("*/*") if p.name.endswith(shard_endings()))


def index_agrees(out: Path, documents: Counter[tuple[str, str]]) -> bool:
    """Whether the dedup index's exact-text keys are the corpus's content hashes."""
    with sqlite3.connect(out / "dedup.sqlite") as db:
        keys = {row[0] for row in db.execute("SELECT key FROM dedup_texts")}
    hashes = {int(content_hash, 16) for _, content_hash in documents}
    signed = {h - (1 << 64) if h >= 1 << 63 else h for h in hashes}
    return keys in (hashes, signed)


def archived_responses(out: Path) -> Counter[str]:
    """Successful (200) response records per URL in the crawl's WARC files (a page that
    failed once is archived with its failure too)."""
    urls: Counter[str] = Counter()
    for path in sorted((out / "archive").glob("*.warc.gz")):
        with open(path, "rb") as handle:
            for record in ArchiveIterator(handle):
                if (record.rec_type == "response" and record.http_headers is not None
                        and record.http_headers.get_statuscode() == "200"):
                    urls[record.rec_headers.get_header("WARC-Target-URI")] += 1
    return urls


def killed_runs(command: list[str], reference_seconds: float, kills: int,
                rng: random.Random) -> list[float]:
    """Run ``command`` until it was killed ``kills`` times, each after a random delay over
    the first half of the reference run's duration (a run that ends first is not a kill, and
    at most ``3 * kills`` runs are tried); then once more, to its end."""
    moments: list[float] = []
    for _ in range(3 * kills):
        if len(moments) >= kills:
            break
        process = subprocess.Popen(command, cwd=REPO, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        delay = rng.uniform(0.3, max(0.6, reference_seconds * 0.5))
        try:
            process.wait(timeout=delay)
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGKILL)
            process.wait()
            moments.append(round(delay, 2))
    subprocess.run(command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=False)
    return moments
