"""SIGTERM, what schedulers and containers send, stops a crawl as the first Ctrl-C does:
the pages in flight finish, the corpus and the archive commit, exit 2 (issue 21)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

from tests.newssite.client import REPO, TEST_SETTINGS, NewsSite, corpus_records


def test_sigterm_commits_a_crawl_like_ctrl_c(tmp_path) -> None:
    out = tmp_path / "out"
    with NewsSite() as site:
        command = [sys.executable, "-m", "corpusbot", "crawl", f"{site.url}/", "-o", str(out)]
        for setting in (*TEST_SETTINGS, "CONCURRENT_REQUESTS=1", "DOWNLOAD_DELAY=0.5"):
            command += ["-s", setting]
        crawl = subprocess.Popen(command, cwd=REPO, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 90
        while not list(out.glob("*/*.jsonl.gz.part")) and time.monotonic() < deadline:
            time.sleep(0.2)  # until a document is being written
        crawl.send_signal(signal.SIGTERM)
        _, errors = crawl.communicate(timeout=90)
    assert crawl.returncode == 2, errors[-3000:]
    assert "run the same command again" in errors
    stats = json.loads((out / "crawl-stats.json").read_text())
    assert stats["finish_reason"] == "shutdown"
    assert len(corpus_records(out)) == stats["corpusbot/kept"] > 0
    assert list(out.glob("archive/*.warc.gz")) and not list(out.glob("archive/*.open"))
