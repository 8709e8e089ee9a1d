"""Sustained load: a 10,000-page crawl and a ~1 GB archive, with memory sampled over time.

- ``crawl``: ``corpusbot crawl`` of the local news site serving the
  ../shared/bench/scrapinghub pages ``--copies`` times under different URLs
  (181 pages x 56 copies = 10,136 articles, plus their index pages);
- ``warc``: ``corpusbot warc -j 2`` over an archive built under /tmp from the
  same gold pages, each written again under new URLs until the file reaches
  ``--archive-mb`` (the pages repeat, so most are exact duplicates after the
  first round: the dedup index grows with every URL all the same).

Every two seconds the resident memory of the command's whole process tree
(main process and workers, from /proc) is sampled; the report gives pages
per second and the RSS at each tenth of the run, so a leak shows as a
rising series. Nothing is committed: the archive and outputs live in a
temporary folder.

    python benchmarks/load.py [--target crawl|warc|both] [--copies 56] [--archive-mb 1000]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.conftest import FIXTURES_DIR, bench_dir  # noqa: E402
from tests.corpus_support import Rec, write_warc  # noqa: E402
from tests.newssite.client import TEST_SETTINGS, NewsSite  # noqa: E402


def tree_rss_mb(root: int) -> float:
    """Resident memory of ``root`` and all its descendants, from /proc."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    total, stack = 0, [root]
    while stack:
        pid = stack.pop()
        stack += children.get(pid, [])
        try:
            fields = (Path("/proc") / str(pid) / "statm").read_text().split()
            total += int(fields[1]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, IndexError):
            continue
    return total / 1e6


def sampled(command: list[str]) -> tuple[float, list[tuple[float, float]]]:
    """Run ``command``; its duration and (seconds, tree RSS MB) every two seconds."""
    started = time.monotonic()
    process = subprocess.Popen(command, cwd=REPO, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    samples = []
    while process.poll() is None:
        samples.append((round(time.monotonic() - started, 1), round(tree_rss_mb(process.pid))))
        time.sleep(2)
    return time.monotonic() - started, samples


def tenths(samples: list[tuple[float, float]]) -> list[float]:
    """The RSS samples at each tenth of the run (a flat series means no leak)."""
    if not samples:
        return []
    return [samples[min(len(samples) - 1, i * len(samples) // 10)][1] for i in range(10)]


def gold_pages() -> list[bytes]:
    """The scrapinghub gold pages; on a plain clone (no ../shared) the tests' three."""
    folder = bench_dir() / "scrapinghub" / "html"
    if not folder.is_dir():
        folder = FIXTURES_DIR / "gold" / "scrapinghub" / "html"
    pages = []
    for path in sorted(folder.glob("*.html*")):
        data = path.read_bytes()
        pages.append(gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data)
    return pages


def build_archive(path: Path, megabytes: int) -> int:
    """A .warc.gz of the gold pages under ever new URLs, about ``megabytes`` large."""
    pages, records, round_ = gold_pages(), [], 0
    # One round's size as written: each page gzipped as warcio does (level 9), plus
    # about 600 bytes of WARC and HTTP headers per record. (Guessing a quarter of the
    # HTML made a 791 MB file of --archive-mb 1000.)
    per_round = sum(len(zlib.compress(p, 9)) + 600 for p in pages)
    rounds = max(1, megabytes * 1_000_000 // per_round)
    for round_ in range(rounds):
        records += [Rec(f"https://load{round_}.example/{i}", page)
                    for i, page in enumerate(pages)]
    write_warc(path, records)
    return len(records)


def warc_load(folder: Path, megabytes: int) -> dict:
    archive = folder / "load.warc.gz"
    records = build_archive(archive, megabytes)
    command = [sys.executable, "-m", "corpusbot", "warc", str(archive), "-o",
               str(folder / "warc-out"), "-j", "2", "-q"]
    seconds, samples = sampled(command)
    manifest = json.loads((folder / "warc-out" / "manifest.json").read_text())
    return {"archive_mb": round(archive.stat().st_size / 1e6), "records": records,
            "seconds": round(seconds), "pages_per_s": round(records / seconds, 1),
            "documents": manifest["documents"], "rss_mb_by_tenth": tenths(samples),
            "peak_rss_mb": max(s[1] for s in samples)}


def crawl_load(folder: Path, copies: int) -> dict:
    with NewsSite(bench=bench_dir() / "scrapinghub", copies=copies) as site:
        settings = [item for s in TEST_SETTINGS for item in ("-s", s)]
        command = [sys.executable, "-m", "corpusbot", "crawl", f"{site.url}/", "-o",
                   str(folder / "crawl-out"), "-q", *settings,
                   "-s", "CORPUSBOT_PROCESS_WORKERS=2", "-s", "CONCURRENT_REQUESTS=16"]
        seconds, samples = sampled(command)
    stats = json.loads((folder / "crawl-out" / "crawl-stats.json").read_text())
    fetched = stats.get("response_received_count", 0)
    return {"fetched": fetched, "kept": stats.get("corpusbot/kept", 0),
            "seconds": round(seconds), "pages_per_s": round(fetched / seconds, 1),
            "rss_mb_by_tenth": tenths(samples), "peak_rss_mb": max(s[1] for s in samples)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", choices=("crawl", "warc", "both"), default="both")
    parser.add_argument("--copies", type=int, default=56)
    parser.add_argument("--archive-mb", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if args.target in ("warc", "both"):
            print(json.dumps({"warc": warc_load(Path(tmp), args.archive_mb)}), flush=True)
        if args.target in ("crawl", "both"):
            print(json.dumps({"crawl": crawl_load(Path(tmp), args.copies)}), flush=True)


if __name__ == "__main__":
    main()
