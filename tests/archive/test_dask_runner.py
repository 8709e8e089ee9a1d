"""Archive files as tasks on a Dask LocalCluster with the shared Redis index."""

from __future__ import annotations

import gzip
import json
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from corpusbot.cli import main
from tests.conftest import REPO
from tests.corpus_support import Rec, page, page_names, write_warc
from tests.dedup.test_dedup import edited

pytest.importorskip("distributed", reason="Dask is missing: pip install corpusbot[dask]")
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
              Rec("https://a.example/5", pages[11])]  # a URL already in the first file
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
from corpusbot.archive.runner import RunOptions
from corpusbot.corpus.sink import CorpusOptions
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
run_task(Processor(ProcessorOptions()), CorpusOptions(dedup_url={url!r}),
         RunOptions(jobs=1, chunk_pages=1, commit_pages=2), {folder!r}, {path!r})
"""


def test_a_worker_killed_mid_task_loses_and_duplicates_nothing(
        tmp_path: Path, redis_url: str) -> None:
    inputs = archives(tmp_path)
    assert main(["warc", *map(str, inputs), "-o", str(tmp_path / "one"), "-j", "1", "-q"]) == 0
    from corpusbot.archive.dask_runner import TASKS_FOLDER, task_key

    folder = tmp_path / "many" / TASKS_FOLDER / task_key(inputs[1])
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
