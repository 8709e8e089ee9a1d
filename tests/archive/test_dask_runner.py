"""Archive files as tasks on a Dask LocalCluster with the shared Redis index."""

from __future__ import annotations

import gzip
import json
import logging
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from corpusbot.archive.reader import ArchiveReader
from corpusbot.cli import main
from corpusbot.corpus.merge import read_manifest
from tests.conftest import REPO
from tests.corpus_support import Rec, page, page_names, write_warc
from tests.dedup.test_dedup import edited

pytest.importorskip("distributed", reason="Dask is missing: pip install corpusbot[dask]")
from distributed import Client

from corpusbot.archive.dask_runner import HEARTBEAT_FAILURE, hush_heartbeat_failures, local_cluster
from corpusbot.corpus.layout import TASKS

SITE = REPO / "tests" / "fixtures" / "site" / "articles"


def originals() -> list[bytes]:
    """Fifteen distinct real pages: the WARC fixture pages and the test site's articles."""
    return [page(name) for name in page_names()] + [p.read_bytes()
                                                  for p in sorted(SITE.glob("*.html"))]


def archives(folder: Path) -> list[Path]:
    """Three files with copies spread across them: exact and near copies, a repeated URL."""
    pages = originals()
    first = [Rec(f"https://a.example/{i}", body) for i, body in enumerate(pages[:8])]
    second = [Rec(f"https://b.example/{i}", body) for i, body in enumerate(pages[8:])]
    copies = [Rec("https://c.example/exact-1", pages[2]),
              Rec("https://c.example/exact-2", pages[9]),
              Rec("https://c.example/near", edited(pages[0], 3)),
              # A URL already in the first file, fetched again unchanged. (With other
              # content the kept page would depend on which file a worker reads first:
              # the URL level keeps the first page seen under a URL, and in parallel runs
              # "first" is the order tasks happen to finish in.)
              Rec("https://a.example/5", pages[5])]
    second.append(Rec("https://b.example/exact-3", pages[4]))
    return [write_warc(folder / "a.warc.gz", first), write_warc(folder / "b.warc.gz", second),
            write_warc(folder / "c.warc.gz", copies)]


def records(out: Path) -> list[dict]:
    found = []
    for path in sorted(out.rglob("*.jsonl.gz")):
        found += [json.loads(line) for line in gzip.decompress(path.read_bytes()).splitlines()]
    return found


def kept(out: Path) -> Counter[tuple[str, str]]:
    """The documents as (language, title): copies differ in URL, not in these."""
    return Counter((r["lang"], r["title"]) for r in records(out))


def test_two_dask_workers_with_redis_keep_what_one_process_keeps(
        tmp_path: Path, redis_url: str) -> None:
    inputs = [str(p) for p in archives(tmp_path)]
    assert main(["warc", *inputs, "-o", str(tmp_path / "one"), "-j", "1", "-q"]) == 0
    reference = kept(tmp_path / "one")
    assert sum(reference.values()) == 15 and max(reference.values()) == 1
    dask_run = ["warc", *inputs, "-o", str(tmp_path / "many"), "--dedup", redis_url,
                "--dask", "local:2", "-q"]
    assert main(dask_run) == 0
    assert kept(tmp_path / "many") == reference
    texts = [r["text"] for r in records(tmp_path / "many")]
    assert len(set(texts)) == len(texts)
    manifest = json.loads((tmp_path / "many" / "manifest.json").read_text())
    assert manifest["documents"] == 15 and len(manifest["parts"]) == 3
    assert manifest["rejections"] == {"dedup/exact": 3, "dedup/near": 1, "dedup/url": 1}
    # the same command again: every file is finished, nothing is added
    assert main(dask_run) == 0
    assert kept(tmp_path / "many") == reference


def test_dask_needs_the_shared_index(tmp_path: Path) -> None:
    inputs = [str(p) for p in archives(tmp_path)]
    assert main(["warc", *inputs, "-o", str(tmp_path / "o"), "--dask", "local:2", "-q"]) == 64


KILLED = """
import os, signal, sys
from pathlib import Path
sys.path.insert(0, {root!r})
from corpusbot.archive.dask_runner import run_task
from corpusbot.archive.ranges import ByteRange
from corpusbot.archive.runner import RunOptions
from corpusbot.corpus.sink import CorpusOptions
from corpusbot.dedup.backends import open_index
from corpusbot.processor import Processor, ProcessorOptions

class KillAfter:
    seen = 0
    def file(self, path): pass
    def update(self, done):
        self.seen += 1
        if self.seen == {after}:
            os.kill(os.getpid(), signal.SIGKILL)   # the worker dies mid-task

import corpusbot.archive.dask_runner as tasks
original = tasks.Runner
tasks.Runner = lambda p, c, o: original(p, c, o, KillAfter())
options = ProcessorOptions()
run_task(Processor(options), CorpusOptions(dedup={url!r}),
         RunOptions(jobs=1, chunk_pages=1, commit_pages=2), {folder!r}, ByteRange(Path({path!r})),
         index=open_index({url!r}, options.dedup))
"""


def test_a_worker_killed_mid_task_loses_and_duplicates_nothing(
        tmp_path: Path, redis_url: str) -> None:
    inputs = archives(tmp_path)
    assert main(["warc", *map(str, inputs), "-o", str(tmp_path / "one"), "-j", "1", "-q"]) == 0
    from corpusbot.archive.dask_runner import task_key

    folder = tmp_path / "many" / TASKS / task_key(inputs[1])
    script = KILLED.format(root=str(REPO), url=redis_url, folder=str(folder),
                           path=str(inputs[1]), after=5)
    died = subprocess.run([sys.executable, "-c", script], check=False)
    assert died.returncode == -signal.SIGKILL
    assert (folder / "state.sqlite").exists()
    assert main(["warc", *map(str, inputs), "-o", str(tmp_path / "many"), "--dedup", redis_url,
                 "--dask", "local:2", "-q"]) == 0
    assert kept(tmp_path / "many") == kept(tmp_path / "one")
    texts = [r["text"] for r in records(tmp_path / "many")]
    assert len(set(texts)) == len(texts)


def one_large_archive(path: Path, copies: int = 10) -> Path:
    """One file of ``copies`` rounds of the fifteen pages under new URLs, so that exact
    copies of each page lie in every range, plus a near copy and a repeated URL."""
    pages = originals()
    rounds = [Rec(f"https://c{n}.example/{i}", body) for n in range(copies)
              for i, body in enumerate(pages)]
    rounds += [Rec("https://d.example/near", edited(pages[0], 3)),
               Rec("https://c0.example/5", pages[11])]
    return write_warc(path, rounds)


def archive_counts(out: Path) -> dict:
    return json.loads((out / "manifest.json").read_text())["archive"]


def index_entries(redis_url: str) -> Counter[str]:
    """Entries of the shared index by kind (u: URLs, t: exact texts), and leftover
    journals (j) and in-flight sets (f), from the keys in Redis."""
    import redis

    client = redis.Redis.from_url(redis_url)
    entries: Counter[str] = Counter()
    for key in client.scan_iter(match="cb:*"):
        kind = key.decode().split(":")[1]
        if kind in ("u", "t"):
            entries[kind] += client.hlen(key)
        elif kind in ("j", "f"):
            entries[kind] += 1
    return entries


@pytest.mark.parametrize("suffix", ["warc.gz", "warc"])
def test_one_large_file_in_ranges_keeps_what_one_process_keeps(
        tmp_path: Path, redis_url: str, suffix: str) -> None:
    big = str(one_large_archive(tmp_path / f"big.{suffix}", copies=6))
    assert main(["warc", big, "-o", str(tmp_path / "one"), "-j", "1", "-q"]) == 0
    reference = kept(tmp_path / "one")
    range_mb = str(Path(big).stat().st_size / 5 / (1 << 20))  # cuts fall inside records
    dask_run = ["warc", big, "-o", str(tmp_path / "many"), "--dedup", redis_url,
                "--dask", "local:2", "--dask-range-mb", range_mb, "-q"]
    assert main(dask_run) == 0
    assert kept(tmp_path / "many") == reference
    texts = [r["text"] for r in records(tmp_path / "many")]
    assert len(set(texts)) == len(texts) == sum(reference.values())
    manifest = json.loads((tmp_path / "many" / "manifest.json").read_text())
    assert len(manifest["parts"]) == 5
    # every record read once: the ranges' counts add up to the whole file's
    whole = archive_counts(tmp_path / "one")
    ranged = archive_counts(tmp_path / "many")
    assert ranged["records"] == whole["records"] and ranged["ranges"] == 5
    assert manifest["rejections"] == json.loads(
        (tmp_path / "one" / "manifest.json").read_text())["rejections"]
    # the same command again: every range is finished, nothing is added or sent
    assert main(dask_run) == 0
    assert kept(tmp_path / "many") == reference
    assert archive_counts(tmp_path / "many") == ranged


def kill_a_worker_mid_task(client: object, out: Path, pids: dict[str, int]) -> tuple[int, Path]:
    """SIGKILL the worker process running a task that has committed some pages but not
    finished; its pid and the task's folder."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        for address, keys in client.processing().items():  # type: ignore[attr-defined]
            for key in keys:
                folder = out / TASKS / str(key).removeprefix("corpusbot-")
                manifest = read_manifest(folder)
                if manifest and manifest["pages"] and not manifest["inputs"][0]["done"]:
                    os.kill(pids[address], signal.SIGKILL)
                    return pids[address], folder
        time.sleep(0.02)
    raise AssertionError("no task was caught running")


def test_a_live_dask_worker_killed_mid_task_loses_and_duplicates_nothing(
        tmp_path: Path, redis_url: str) -> None:
    big = str(one_large_archive(tmp_path / "big.warc.gz"))
    assert main(["warc", big, "-o", str(tmp_path / "one"), "-j", "1", "-q"]) == 0
    reference = kept(tmp_path / "one")
    with local_cluster(2) as cluster, Client(cluster) as client:
        pids = client.run(os.getpid)
        out = tmp_path / "many"
        run = ["warc", big, "-o", str(out), "--dedup", redis_url, "--dask",
               cluster.scheduler_address, "--commit-every", "8", "-q",
               "--dask-range-mb", str(Path(big).stat().st_size / 3 / (1 << 20))]
        with ThreadPoolExecutor(1) as pool:
            finished = pool.submit(main, run)
            killed, folder = kill_a_worker_mid_task(client, out, pids)
            assert finished.result(timeout=600) == 0
        assert killed not in client.run(os.getpid).values()  # the nanny started another
    # the killed attempt never ended; the rerun of its task resumed from its last commit
    runs = read_manifest(folder)["runs"]
    assert [run["status"] for run in runs] == ["running", "done"]
    assert kept(out) == reference
    texts = [r["text"] for r in records(out)]
    assert len(set(texts)) == len(texts) == sum(reference.values())
    assert archive_counts(out)["records"] == archive_counts(tmp_path / "one")["records"]
    # the index holds one text per kept document, every URL once, no journal left over
    entries = index_entries(redis_url)
    assert entries["t"] == sum(reference.values())
    urls = {r.page.url for r in ArchiveReader().read(big) if r.page}
    assert entries["u"] == len(urls) and not entries["j"] and not entries["f"]


def worker_would_log(message: str) -> bool:
    """Whether a worker's logger lets ``message`` through."""
    return bool(logging.getLogger("distributed.worker").filter(
        logging.makeLogRecord({"msg": message, "levelno": logging.ERROR})))


def test_a_closing_local_cluster_drops_only_heartbeat_failures() -> None:
    # The race itself is rare (one CI run in some dozens): what the run does about it is
    # checked here, on workers of a live cluster.
    with local_cluster(1) as cluster, Client(cluster) as client:
        assert list(client.run(worker_would_log, HEARTBEAT_FAILURE + ".").values()) == [True]
        client.run(hush_heartbeat_failures)
        assert list(client.run(worker_would_log, HEARTBEAT_FAILURE + ".").values()) == [False]
        assert list(client.run(worker_would_log, "Unmanaged memory use is high").values()) \
            == [True]


def test_a_local_cluster_logs_nothing_at_the_default_level(tmp_path: Path,
                                                          redis_url: str) -> None:
    inputs = [str(p) for p in archives(tmp_path)]
    done = subprocess.run([sys.executable, "-m", "corpusbot", "warc", *inputs, "-o",
                           str(tmp_path / "out"), "--dedup", redis_url, "--dask", "local:2",
                           "-q"], cwd=REPO, capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stderr == ""  # distributed's INFO lines from the scheduler, nannies, workers
