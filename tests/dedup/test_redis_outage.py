"""A real redis-server killed under ``corpusbot warc``: emptied, or gone mid-run.

Issue 21: Redis without persistence, killed and restarted empty, made two
reruns keep 112 texts twice; Redis going away mid-run ended in a traceback.
"""

from __future__ import annotations

import gzip
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from corpusbot.cli import main
from tests.archive.test_dask_runner import archives, originals
from tests.conftest import REPO
from tests.corpus_support import Rec, write_warc
from tests.redis_support import start_redis

pytestmark = pytest.mark.skipif(shutil.which("redis-server") is None,
                                reason="redis-server not installed")
pytest.importorskip("redis")


def ids(*outs: Path) -> list[str]:
    found = []
    for out in outs:
        for path in sorted(out.rglob("*.jsonl.gz")):
            found += [json.loads(line)["id"] for line in gzip.decompress(path.read_bytes())
                      .splitlines()]
    return found


def texts(*outs: Path) -> list[str]:
    found = []
    for out in outs:
        for path in sorted(out.rglob("*.jsonl.gz")):
            found += [json.loads(line)["text"] for line in gzip.decompress(path.read_bytes())
                      .splitlines()]
    return found


def warc(tmp_path: Path, *names: str) -> list[str]:
    return [str(tmp_path / name) for name in names]


def test_an_emptied_index_is_refused_and_the_rebuild_restores_it(tmp_path: Path) -> None:
    archives(tmp_path)  # a (8 pages), b (8), c: copies of pages of a and b, a repeated URL
    assert main(["warc", *warc(tmp_path, "a.warc.gz", "b.warc.gz", "c.warc.gz"),
                 "-o", str(tmp_path / "reference"), "-j", "1", "-q"]) == 0
    reference = sorted(ids(tmp_path / "reference"))
    server, port = start_redis(tmp_path)
    url = f"redis://127.0.0.1:{port}/0"
    one, two = tmp_path / "one", tmp_path / "two"
    try:
        assert main(["warc", *warc(tmp_path, "a.warc.gz"), "-o", str(one), "--dedup", url,
                     "-j", "1", "-q"]) == 0
        assert main(["warc", *warc(tmp_path, "b.warc.gz"), "-o", str(two), "--dedup", url,
                     "-j", "1", "-q"]) == 0
        server.kill()
        server.wait(10)
        server, _ = start_redis(tmp_path, port)  # no persistence: empty
        before = ids(one, two)
        # both go on with c, whose pages copy theirs: the emptied index would keep them again
        for out, first in ((one, "a.warc.gz"), (two, "b.warc.gz")):
            assert main(["warc", *warc(tmp_path, first, "c.warc.gz"), "-o", str(out),
                         "--dedup", url, "-j", "1", "-q"]) == 1
        assert ids(one, two) == before
        assert main(["dedup", "rebuild", str(one), str(two), "--dedup", url, "-q"]) == 0
        for out, first in ((one, "a.warc.gz"), (two, "b.warc.gz")):
            assert main(["warc", *warc(tmp_path, first, "c.warc.gz"), "-o", str(out),
                         "--dedup", url, "-j", "1", "-q"]) == 0
    finally:
        server.kill()
        server.wait(10)
    assert sorted(ids(one, two)) == reference
    assert len(set(texts(one, two))) == len(texts(one, two))


def test_a_deleted_sqlite_index_is_refused_too(tmp_path: Path) -> None:
    archives(tmp_path)
    out = tmp_path / "out"
    assert main(["warc", *warc(tmp_path, "a.warc.gz"), "-o", str(out), "-j", "1", "-q"]) == 0
    (out / "dedup.sqlite").unlink()
    assert main(["warc", *warc(tmp_path, "c.warc.gz"), "-o", str(out), "-j", "1", "-q"]) == 1
    assert main(["dedup", "rebuild", str(out), "-q"]) == 0
    assert main(["warc", *warc(tmp_path, "c.warc.gz"), "-o", str(out), "-j", "1", "-q"]) == 0
    assert len(set(texts(out))) == len(texts(out)) == 9  # c adds one page of b, copies none


def many(tmp_path: Path) -> Path:
    """300 pages: the 15 distinct ones under 20 URLs each, spread so that runs take seconds
    (each copy's bytes differ by a comment, so that it is processed, not taken for the exact
    copy it would be: ``corpusbot.archive.copies``)."""
    pages = originals()
    records = [Rec(f"https://m{n}.example/{i}", body + f"<!-- {n} -->".encode())
               for n in range(20) for i, body in enumerate(pages)]
    return write_warc(tmp_path / "many.warc.gz", records)


def run_warc(archive: Path, out: Path, url: str) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "corpusbot.cli", "warc", str(archive), "-o", str(out),
               "--dedup", url, "-j", "1", "--commit-every", "5"]
    return subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def wait_for_commits(out: Path, pages: int, process: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None:
        try:
            if json.loads((out / "manifest.json").read_text())["pages"] >= pages:
                return
        except (OSError, ValueError, KeyError):
            pass
        time.sleep(0.05)
    raise AssertionError("the run did not commit in time")


def test_redis_gone_mid_run_ends_in_one_line_and_exit_2_and_nothing_is_lost(
        tmp_path: Path) -> None:
    archive = many(tmp_path)
    assert main(["warc", str(archive), "-o", str(tmp_path / "reference"), "-j", "1", "-q"]) == 0
    server, port = start_redis(tmp_path, persist=True)
    url = f"redis://127.0.0.1:{port}/0?retry_seconds=2"
    out = tmp_path / "out"
    process = run_warc(archive, out, url)
    try:
        wait_for_commits(out, 20, process)
        server.kill()
        server.wait(10)
        _, stderr = process.communicate(timeout=120)
        assert process.returncode == 2, stderr
        assert "Traceback" not in stderr
        assert "did not answer for 2 s" in stderr
        server, _ = start_redis(tmp_path, port, persist=True)  # back, with what it had
        again = run_warc(archive, out, url)
        _, stderr = again.communicate(timeout=180)
        assert again.returncode == 0, stderr
    finally:
        process.kill()
        server.kill()
        server.wait(10)
    assert sorted(ids(out)) == sorted(ids(tmp_path / "reference"))
    assert len(set(texts(out))) == len(texts(out))


def test_a_short_outage_is_ridden_out(tmp_path: Path) -> None:
    archive = many(tmp_path)
    assert main(["warc", str(archive), "-o", str(tmp_path / "reference"), "-j", "1", "-q"]) == 0
    server, port = start_redis(tmp_path, persist=True)
    out = tmp_path / "out"
    process = run_warc(archive, out, f"redis://127.0.0.1:{port}/0?retry_seconds=30")
    try:
        wait_for_commits(out, 20, process)
        server.kill()
        server.wait(10)
        time.sleep(1)
        server, _ = start_redis(tmp_path, port, persist=True)
        _, stderr = process.communicate(timeout=180)
        assert process.returncode == 0, stderr
        assert "stopped answering" in stderr and "Traceback" not in stderr
    finally:
        process.kill()
        server.kill()
        server.wait(10)
    assert sorted(ids(out)) == sorted(ids(tmp_path / "reference"))
    assert len(set(texts(out))) == len(texts(out))


def test_a_crawl_whose_redis_index_goes_away_stops_in_one_line_with_exit_2(
        tmp_path: Path) -> None:
    from tests.newssite.client import TEST_SETTINGS, NewsSite

    server, port = start_redis(tmp_path)
    out = tmp_path / "out"
    try:
        with NewsSite(latency=0.5) as site:
            command = [sys.executable, "-m", "corpusbot", "crawl", f"{site.url}/", "-o",
                       str(out)]
            for setting in (*TEST_SETTINGS, "CORPUSBOT_CORPUS_COMMIT_ITEMS=1",
                            f"CORPUSBOT_DEDUP_URL=redis://127.0.0.1:{port}/0?retry_seconds=1"):
                command += ["-s", setting]
            process = subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, text=True)
            try:
                wait_for_commits(out, 1, process)
                server.kill()
                server.wait(10)
                _, stderr = process.communicate(timeout=180)
            finally:
                process.kill()
    finally:
        server.kill()
        server.wait(10)
    assert process.returncode == 2, stderr[-3000:]
    assert "did not answer for 1 s" in stderr and "Traceback" not in stderr
    errors = [line for line in stderr.splitlines() if " ERROR " in line]
    assert len(errors) == 1 and "corpusbot.pipelines.corpus" in errors[0], errors
