"""``corpusbot crawl`` refuses bad settings before anything starts, and says why a crawl
fetched nothing."""

from __future__ import annotations

import re
import socket
from pathlib import Path

import pytest

from corpusbot.cli import main
from corpusbot.commands.exitcodes import EXIT_FAILED, EXIT_USAGE
from tests.newssite.client import run_crawl


@pytest.mark.parametrize("setting", ["CORPUSBOT_PROCESS_MODE=fast",
                                     "CORPUSBOT_PROCESS_MIN_WORDS=many",
                                     "CORPUSBOT_CORPUS_COMPRESSION=rar"])
def test_a_bad_setting_is_a_usage_error_and_nothing_is_written(
        tmp_path: Path, setting: str, caplog: pytest.LogCaptureFixture) -> None:
    out = tmp_path / "out"
    assert main(["crawl", "http://127.0.0.1:9/", "-o", str(out), "-q", "-s", setting]) == (
        EXIT_USAGE)
    assert not out.exists()
    assert setting.split("=", maxsplit=1)[0].rsplit("_", 1)[0][:18] in caplog.text


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_a_crawl_that_fetches_nothing_says_why(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{_closed_port()}/"
    done = run_crawl([url], tmp_path / "out", "RETRY_TIMES=1")
    assert done.returncode == EXIT_FAILED
    assert "Warning" not in done.stderr, done.stderr  # (Scrapy 2.19: install_root_handler)
    line = next(line for line in done.stderr.splitlines() if "nothing could be fetched" in line)
    # the start page and its robots.txt, each counted once though retried
    assert line.endswith("nothing could be fetched: connection refused (2 requests)"), line
    assert re.search(r"^127\.0\.0\.1 +0 +0 +0 +2$", done.stdout, re.MULTILINE), done.stdout
