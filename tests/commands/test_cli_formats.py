"""``corpusbot warc --format parquet`` and ``--keep-rejects``: the same records through the
format seam, and the same commit guarantees (kill -9, then the same command again)."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from corpusbot.cli import main
from corpusbot.commands.exitcodes import EXIT_FAILED, EXIT_OK, EXIT_USAGE
from corpusbot.corpus.formats import read_records
from tests.commands.test_cli_warc import many_pages
from tests.conftest import REPO
from tests.corpus_support import Rec, write_warc
from tests.crashes import corpus, published, rejects

pytest.importorskip("pyarrow", reason="pyarrow is missing: pip install corpusbot[parquet]")

SAMPLE = REPO / "sample" / "sample.warc.gz"


def records(out: Path) -> list[dict]:
    return [record for shard in published(out) for record in read_records(shard)]


def test_parquet_holds_the_records_jsonl_holds(tmp_path: Path) -> None:
    for fmt in ("jsonl", "parquet"):
        assert main(["warc", str(SAMPLE), "-o", str(tmp_path / fmt), "-q", "-j", "1",
                     "--format", fmt]) == EXIT_OK
    jsonl, parquet = records(tmp_path / "jsonl"), records(tmp_path / "parquet")
    assert len(jsonl) == 35 and any("meta" in r for r in jsonl)
    assert parquet == jsonl  # every field, nested ones too, in the same order
    assert sorted(p.name for p in (tmp_path / "parquet" / "en").iterdir()) == ["en-00001.parquet"]
    manifest = json.loads((tmp_path / "parquet" / "manifest.json").read_text())
    assert manifest["format"] == "parquet"
    assert manifest["languages"]["en"]["shards"][0]["file"] == "en/en-00001.parquet"


def test_parquet_columns_are_typed(tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    assert main(["warc", str(SAMPLE), "-o", str(tmp_path), "-q", "-j", "1",
                 "--format", "parquet", "--compression", "zstd"]) == EXIT_OK
    schema = pq.read_schema(tmp_path / "en" / "en-00001.parquet")
    assert str(schema.field("source").type).startswith("struct<type: string, file: string")
    assert str(schema.field("meta").type) == "string"  # open keys: JSON
    assert str(schema.field("n_words").type) == "int64"
    assert pq.ParquetFile(tmp_path / "en" / "en-00001.parquet").metadata.row_group(0) \
        .column(0).compression == "ZSTD"


def test_a_corpus_refuses_a_run_in_another_format(tmp_path: Path,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    assert main(["warc", str(SAMPLE), "-o", str(tmp_path), "-q", "-j", "1"]) == EXIT_OK
    assert main(["warc", str(SAMPLE), "-o", str(tmp_path), "-q", "-j", "1",
                 "--format", "parquet"]) == EXIT_FAILED
    assert "holds jsonl shards; pass --format jsonl" in caplog.text


MISSING_PYARROW = """
import sys
sys.modules["pyarrow"] = None  # as if it were not installed
from corpusbot.cli import main
sys.exit(main(["warc", {sample!r}, "-o", {out!r}, "-q", "--format", "parquet"]))
"""


def test_parquet_without_pyarrow_is_one_line(tmp_path: Path) -> None:
    script = MISSING_PYARROW.format(sample=str(SAMPLE), out=str(tmp_path / "out"))
    done = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True,
                          text=True, check=False)
    assert done.returncode == EXIT_USAGE
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "Parquet output needs pyarrow: pip install 'corpusbot[parquet]'" in done.stderr
    assert not (tmp_path / "out" / "state.sqlite").exists()


def test_kill_9_of_a_parquet_run_loses_and_doubles_nothing(tmp_path: Path) -> None:
    archive = many_pages(tmp_path / "many.warc.gz", 200)
    out = tmp_path / "out"
    # small shards: conversions to Parquet happen during the run, and get killed too
    command = [sys.executable, "-m", "corpusbot", "warc", str(archive), "-o", str(out),
               "-j", "1", "--commit-every", "15", "--shard-size", "40k", "--format", "parquet",
               "-q"]
    # On an idle machine a run may finish before the third kill: at least one must land.
    assert kill_after_commits(command, out, 3, random.Random(5)) >= 1
    documents = corpus(out)
    assert sorted(url for url, _ in documents.elements()) == sorted(
        f"https://many.example/{i}" for i in range(200))
    assert len(list(out.glob("en/*.parquet"))) > 3
    assert not list(out.glob("en/*.part")) and not list(out.glob("en/*.tmp"))


def kill_after_commits(command: list[str], out: Path, kills: int, rng: random.Random) -> int:
    """Run ``command``, kill -9 it at a random moment after it committed something new, up to
    ``kills`` times; then run it to its end. The number of kills."""
    done = 0
    for _ in range(kills):
        before = _committed(out)
        process = subprocess.Popen(command, cwd=REPO, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        while process.poll() is None and _committed(out) == before:
            time.sleep(0.02)
        time.sleep(rng.uniform(0, 0.4))
        if process.poll() is None:
            process.send_signal(signal.SIGKILL)
            done += 1
        process.wait()
    subprocess.run(command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=False)
    return done


def _committed(out: Path) -> str:
    manifest = out / "manifest.json"
    return manifest.read_text() if manifest.exists() else ""


def pages_to_reject(path: Path) -> tuple[Path, Counter[tuple[str, str]]]:
    """An archive of articles, copies of them under other URLs, and pages too short to keep;
    and the rejection each page must get."""
    archive = many_pages(path, 120)
    from warcio.archiveiterator import ArchiveIterator

    with open(archive, "rb") as handle:
        bodies = [r.content_stream().read() for r in ArchiveIterator(handle)
                  if r.rec_type == "response"]
    copies = [Rec(f"https://copy.example/{i}", body) for i, body in enumerate(bodies[:20])]
    short = [Rec(f"https://short.example/{i}", f"<p>only {i} words here</p>".encode())
             for i in range(15)]
    records = [Rec(f"https://many.example/{i}", body) for i, body in enumerate(bodies)]
    # interleaved, so that kills fall between commits holding rejections
    mixed = [rec for i, article in enumerate(records)
             for rec in [article, *copies[i // 3:i // 3 + 1] * (i % 3 == 2),
                                         *short[i // 4:i // 4 + 1] * (i % 4 == 3)]]
    write_warc(path, mixed)
    expected = Counter({(r.url, "dedup/exact"): 1 for r in copies})
    expected.update({(r.url, "filter/too-short"): 1 for r in short})
    return path, expected


@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
def test_kill_9_with_keep_rejects_writes_every_rejection_once(tmp_path: Path, fmt: str) -> None:
    archive, expected = pages_to_reject(tmp_path / "mixed.warc.gz")
    out = tmp_path / "out"
    command = [sys.executable, "-m", "corpusbot", "warc", str(archive), "-o", str(out),
               "-j", "1", "--commit-every", "10", "--keep-rejects", "--format", fmt, "-q"]
    assert kill_after_commits(command, out, 3, random.Random(7)) >= 1
    assert rejects(out) == expected
    assert len(corpus(out)) == 120
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["rejections"] == {"dedup/exact": 20, "filter/too-short": 15}
    assert sorted(manifest["rejects"]) == ["dedup", "filter"]


def test_a_rejection_keeps_its_text_where_extraction_got_that_far(tmp_path: Path) -> None:
    archive, _ = pages_to_reject(tmp_path / "mixed.warc.gz")
    assert main(["warc", str(archive), "-o", str(tmp_path / "out"), "-q", "-j", "1",
                 "--keep-rejects"]) == EXIT_OK
    found = {r["url"]: r for shard in published(tmp_path / "out" / "rejects")
             for r in read_records(shard)}
    copy = found["https://copy.example/3"]
    assert copy["reason"] == "dedup/exact" and len(copy["text"].split()) > 100
    assert copy["source"]["type"] == "archive" and copy["source"]["offset"] > 0
    assert set(copy) == {"schema", "url", "reason", "detail", "duplicate_of", "text", "source"}
    assert found["https://short.example/2"]["reason"] == "filter/too-short"
    assert not (tmp_path / "out" / "rejects" / "dedup" / "dedup-00001.jsonl.gz.part").exists()
