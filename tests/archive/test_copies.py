"""Exact copies in an archive take their first occurrence's outcome, as processing them would."""

from __future__ import annotations

import gzip
import json
import random
import re
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

from corpusbot.archive.copies import REUSED, TEXT_BYTES, CopyMemo, copy_key
from corpusbot.archive.reader import ArchiveReader
from corpusbot.archive.runner import Runner, RunOptions
from corpusbot.cli import main
from corpusbot.corpus.sink import Corpus, CorpusOptions
from corpusbot.dedup.backends import open_index
from corpusbot.document import reject
from corpusbot.fingerprints.options import LEVELS_DEFAULT, DedupOptions
from corpusbot.page import Page
from corpusbot.pool import TIMEOUT
from corpusbot.processor import CRASH, Processor, ProcessorOptions
from tests.commands.test_cli_warc import many_pages
from tests.corpus_support import Rec, page, page_names, read_shards, write_warc
from tests.crashes import corpus, index_agrees, killed_runs, rejects

NO_TEXT = b"<html><body><nav><a href='/'>Home</a></nav></body></html>"


def archive(tmp_path: Path) -> Path:
    """Two articles and a page without main text, each again under other URLs; one copy
    declares another charset, which changes what processing reads."""
    first, second = (page(name) for name in page_names()[:2])
    # a relative canonical link: the metadata of each copy names its own site
    first = re.sub(rb"<head[^>]*>", rb'\g<0><link rel="canonical" href="/canonical">', first,
                   count=1)
    return write_warc(tmp_path / "copies.warc.gz", [
        Rec("https://a.example/one", first),
        Rec("https://a.example/empty", NO_TEXT),
        Rec("https://mirror.example/one", first),            # kept first: dedup/exact
        Rec("https://a.example/two", second),
        Rec("https://mirror.example/empty", NO_TEXT),        # rejected first: the same reason
        Rec("https://b.example/empty?ref=x", NO_TEXT),
        Rec("https://latin.example/one", first, "text/html; charset=iso-8859-1"),
        Rec("https://mirror.example/two", second),
        Rec("https://blocked.example/one", first),
    ])


def run(archive: Path, out: Path, copies: int | None = None, jobs: int = 1,
        levels: frozenset[str] = LEVELS_DEFAULT, **overrides: str) -> dict:
    """The run's stats, and every record it wrote (documents and rejects), in order."""
    dedup = DedupOptions(levels=levels)
    options = ProcessorOptions(preset="fineweb" if overrides else "basic", overrides=overrides,
                               dedup=dedup)
    run_options = RunOptions(jobs=jobs, chunk_pages=2) if copies is None else RunOptions(
        jobs=jobs, chunk_pages=2, copies=copies)
    with Corpus(out, CorpusOptions(keep_rejects=True), index=open_index("", dedup)) as corpus:
        report = Runner(Processor(options), corpus, run_options).run([archive])
    written = {}
    for path in sorted(out.rglob("*.jsonl.gz")):
        written[str(path.relative_to(out))] = [
            json.loads(line) for line in gzip.decompress(path.read_bytes()).splitlines()]
    return {"stats": report.stats, "written": written}


def without(stats: dict, key: str) -> dict:
    return {name: count for name, count in stats.items() if name != key}


@pytest.mark.parametrize("jobs", [1, 2])
def test_copies_are_not_processed_again_and_the_corpus_is_the_same(
        tmp_path: Path, jobs: int) -> None:
    warc = archive(tmp_path)
    reused = run(warc, tmp_path / "reused", jobs=jobs)
    processed = run(warc, tmp_path / "processed", copies=0, jobs=jobs)
    assert reused["written"] == processed["written"]
    assert without(reused["stats"], REUSED) == processed["stats"]
    # the mirror of each article, both copies of the page without text and
    # blocked.example/one (basic has no URL lists); not the copy declaring another charset
    assert reused["stats"][REUSED] == 5 and processed["stats"][REUSED] == 0
    rejected = processed["stats"]
    assert rejected["rejected/dedup/exact"] == 4 and rejected["rejected/extract/no-main-text"] == 3


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_url_step_decides_each_copy_by_its_own_url(tmp_path: Path, jobs: int) -> None:
    warc = archive(tmp_path)
    blocked = tmp_path / "blocked.txt"
    blocked.write_text("a.example\nblocked.example\n")
    rules = {"urls.domain_lists": str(blocked)}
    # the copies of refused pages were read while their firsts were in flight: they are
    # processed when their turn comes, by the worker pool with two jobs
    reused = run(warc, tmp_path / "reused", jobs=jobs, **rules)
    processed = run(warc, tmp_path / "processed", copies=0, jobs=jobs, **rules)
    assert reused["written"] == processed["written"]
    assert without(reused["stats"], REUSED) == processed["stats"]
    # a.example's pages are blocked by their URL: that says nothing of their copies, which
    # are processed (mirror.example/one is the first kept); blocked.example/one is refused
    # by its own URL, not given the outcome of the copy before it
    kept = [r["url"] for name, records in reused["written"].items()
            if not name.startswith("rejects") for r in records]
    assert "https://mirror.example/one" in kept
    assert reused["stats"]["rejected/filter/urls/blocked.txt"] == 4


@pytest.mark.parametrize("levels", [{"url"}, {"url", "exact", "paragraph"}])
def test_a_kept_copy_is_processed_when_the_sink_might_keep_its_copy(
        tmp_path: Path, levels: set[str]) -> None:
    # without the exact level, or with paragraph dedup trimming what is kept, a copy of a
    # kept page may be kept itself: with its own metadata, so it is processed
    warc = archive(tmp_path)
    reused = run(warc, tmp_path / "reused", levels=frozenset(levels))
    processed = run(warc, tmp_path / "processed", copies=0, levels=frozenset(levels))
    assert reused["written"] == processed["written"]
    assert without(reused["stats"], REUSED) == processed["stats"]
    assert reused["stats"][REUSED] == 2  # the copies of the page without text only
    if levels == {"url"}:
        canonical = {r["url"]: r["meta"].get("canonical_url") for records in
                     reused["written"].values() for r in records if "meta" in r}
        assert canonical["https://mirror.example/one"] == "https://mirror.example/canonical"


def test_the_command_reuses_by_default_and_processes_copies_when_asked(tmp_path: Path) -> None:
    warc = str(archive(tmp_path))
    for name, extra in (("reused", []), ("processed", ["--process-copies"])):
        assert main(["warc", warc, "-o", str(tmp_path / name), "-j", "1", "-q", *extra]) == 0
    manifests = {name: json.loads((tmp_path / name / "manifest.json").read_text())
                 for name in ("reused", "processed")}
    assert manifests["reused"]["archive"]["copies-reused"] == 5
    assert "copies-reused" not in manifests["processed"]["archive"]
    assert manifests["reused"]["rejections"] == manifests["processed"]["rejections"]
    assert read_shards(tmp_path / "reused") == read_shards(tmp_path / "processed")


def test_kill_9_mid_run_with_copies_loses_and_doubles_nothing(tmp_path: Path) -> None:
    # each article, then its exact copy and a copy of a page without text, under other URLs:
    # a run killed between a page and its copy resumes with an empty memory, and the copy is
    # processed (or reused after its first in the same run) to the same outcome
    articles = [r for r in ArchiveReader().read(many_pages(tmp_path / "many.warc.gz", 150))
                if r.page]
    records = []
    for n, record in enumerate(articles):
        records += [Rec(record.page.url, record.page.body),
                    Rec(f"https://mirror.example/{n}", record.page.body),
                    Rec(f"https://empty.example/{n}", NO_TEXT)]
    warc = write_warc(tmp_path / "copies.warc.gz", records)

    def command(out: Path) -> list[str]:
        return [sys.executable, "-m", "corpusbot", "warc", str(warc), "-o", str(out), "-j", "2",
                "--commit-every", "20", "--keep-rejects", "-q"]

    assert subprocess.run(command(tmp_path / "reference"), check=False).returncode == 0
    killed_runs(command(tmp_path / "out"), 4.0, 3, random.Random(5))
    documents = corpus(tmp_path / "out")
    assert documents == corpus(tmp_path / "reference") and max(documents.values()) == 1
    assert rejects(tmp_path / "out") == rejects(tmp_path / "reference")
    assert index_agrees(tmp_path / "out", documents)


def test_the_memory_holds_the_last_pages_and_a_bounded_text() -> None:
    memo = CopyMemo(DedupOptions(), [], capacity=2)
    pages = [Page(f"https://a.example/{n}", f"<p>{n}</p>".encode()) for n in range(4)]
    for one in pages[:3]:
        memo.remember(copy_key(one), reject(one, "filter/too-short", text="short"), False)
    assert [copy_key(one) in memo for one in pages[:3]] == [False, True, True]
    recalled = memo.recall(copy_key(pages[1]), pages[3])
    assert recalled is not None and recalled.url == pages[3].url
    assert recalled.reason == "filter/too-short" and recalled.text == "short"
    # a text past the bound is not kept, nor what came before it
    memo.remember(copy_key(pages[3]), reject(pages[3], "filter/too-short",
                                             text="x" * (TEXT_BYTES // 2 + 1)), False)
    assert not any(copy_key(one) in memo for one in pages)
    # a time limit or a crash depends on the moment, a document dropped by dedup on the index
    memo.remember(b"t", reject(pages[0], TIMEOUT), False)
    memo.remember(b"c", reject(pages[0], CRASH, detail="MemoryError: "), False)
    assert b"t" not in memo and b"c" not in memo


def test_copies_held_for_their_first_count_toward_a_task_so_memory_stays_bounded(
        tmp_path: Path) -> None:
    # an archive of one page and its copies under 300 URLs: none goes to a worker, so the
    # tasks must still close every few records, or every copy's body is held until the end
    body = page(page_names()[0])
    body += b"<!-- " + b"x" * (60_000 - len(body)) + b" -->" if len(body) < 60_000 else b""
    warc = write_warc(tmp_path / "same.warc.gz",
                      [Rec(f"https://m{n}.example/", body) for n in range(300)])
    updates = []

    class Counting:
        def file(self, path: str) -> None:
            pass

        def update(self, done: object) -> None:
            updates.append(1)

    processor = Processor()
    processor.warm_up()  # the language profiles: tens of megabytes, loaded once
    tracemalloc.start()
    try:
        with Corpus(tmp_path / "out") as corpus:
            report = Runner(processor, corpus, RunOptions(jobs=1, chunk_pages=2),
                            Counting()).run([warc])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert report.stats[REUSED] == 299
    assert len(updates) >= 150  # a task per two records
    assert peak < 300 * len(body) / 4, peak  # not every body at once
