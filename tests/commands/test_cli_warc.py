"""``corpusbot warc``: real archives in, a corpus out; exit codes, resume, Ctrl-C, kill -9."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from contextlib import nullcontext
from pathlib import Path

import pytest

from corpusbot.cli import main
from corpusbot.commands.exitcodes import EXIT_FAILED, EXIT_OK, EXIT_PARTIAL, EXIT_USAGE
from tests.conftest import REPO
from tests.corpus_support import Rec, html_records, page, read_shards, write_arc, write_warc

ROOT = REPO


@pytest.fixture
def archives(tmp_path: Path) -> Path:
    folder = tmp_path / "in"
    folder.mkdir()
    write_warc(folder / "a.warc.gz", html_records("https://a.example/"))
    # The same pages again, under other URLs: exact copies to drop.
    write_arc(folder / "b.arc.gz", html_records("http://b.example/"))
    return folder


def manifest(out: Path) -> dict:
    return json.loads((out / "manifest.json").read_text())


def test_a_run_builds_the_corpus_and_prints_a_summary(archives: Path, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "out"
    assert main(["warc", str(archives), "-o", str(out), "-j", "1"]) == EXIT_OK
    state = manifest(out)
    assert state["documents"] == 5 and state["rejections"] == {"dedup/exact": 5}
    assert {lang: v["documents"] for lang, v in state["languages"].items()} == {
        "de": 2, "en": 2, "fr": 1}
    assert all(r["url"].startswith("https://a.example/") for r in read_shards(out))
    captured = capsys.readouterr()
    printed = captured.out
    assert "documents kept" in printed and "dedup/exact" in printed
    # words beside documents per language; prose labels, no internal stats keys
    assert re.search(r"^de +2 +[\d,]+$", printed, re.MULTILINE)
    assert re.search(r"^corpus in total +5 documents, [\d,]+ words$", printed, re.MULTILINE)
    assert "archive/" not in printed and "documents/" not in printed
    assert f"report: corpusbot report {out}" in printed
    assert "\r" not in captured.err  # stderr is no terminal here: no progress bar


def test_source_file_is_relative_to_out_inside_it_else_absolute(
        archives: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # the inputs as a user types them, relative to here
    assert main(["warc", "in/a.warc.gz", "-o", "out", "-j", "1", "-q"]) == EXIT_OK
    assert {r["source"]["file"] for r in read_shards(tmp_path / "out")} == {
        str(archives / "a.warc.gz")}
    (tmp_path / "inside" / "inputs").mkdir(parents=True)
    (archives / "b.arc.gz").rename(tmp_path / "inside" / "inputs" / "b.arc.gz")
    assert main(["warc", "inside/inputs", "-o", "inside", "-j", "1", "-q"]) == EXIT_OK
    assert {r["source"]["file"] for r in read_shards(tmp_path / "inside")} == {
        "inputs/b.arc.gz"}


def test_the_bundled_sample(tmp_path: Path) -> None:
    out = tmp_path / "corpus"
    assert main(["warc", str(ROOT / "sample" / "sample.warc.gz"), "-o", str(out), "-q"]) == 0
    state = manifest(out)
    assert state["documents"] == 35
    assert state["rejections"] == {"dedup/exact": 4, "dedup/near": 4}
    assert {"en", "de", "fr", "es", "pl"} <= set(state["languages"])
    # what pages declare reaches the corpus from archives as from a crawl
    records = read_shards(out)
    assert sum("published" in r.get("meta", {}) for r in records) >= 20
    again = tmp_path / "plain"
    assert main(["warc", str(ROOT / "sample" / "sample.warc.gz"), "-o", str(again), "-q",
                 "--no-metadata"]) == 0
    assert not any("meta" in r for r in read_shards(again))


def test_a_second_run_adds_nothing(archives: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert main(["warc", str(archives), "-o", str(out), "-q"]) == EXIT_OK
    before = read_shards(out)
    assert main(["warc", str(archives), "-o", str(out), "-q"]) == EXIT_OK
    assert read_shards(out) == before
    assert manifest(out)["archive"]["files/already-done"] == 2
    # the options once: not again under corpus, nor in a run that has the last run's
    text = (out / "manifest.json").read_text()
    assert text.count('"threshold"') == 1 and text.count('"shingle"') == 1
    assert main(["warc", str(archives), "-o", str(out), "-q", "-j", "1"]) == EXIT_OK
    runs = manifest(out)["runs"]
    assert [("options" in run) for run in runs] == [True, True, False]
    assert runs[0]["options"]["jobs"] != manifest(out)["options"]["jobs"] == 1


def test_workers_do_not_change_the_corpus(archives: Path, tmp_path: Path) -> None:
    assert main(["warc", str(archives), "-o", str(tmp_path / "one"), "-j", "1", "-q"]) == EXIT_OK
    assert main(["warc", str(archives), "-o", str(tmp_path / "two"), "-j", "2", "-q"]) == EXIT_OK
    assert read_shards(tmp_path / "one") == read_shards(tmp_path / "two")


def test_allowed_languages(archives: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert main(["warc", str(archives / "a.warc.gz"), "-o", str(out), "--lang", "de", "-q"]) == 0
    assert {r["lang"] for r in read_shards(out)} == {"de"}
    assert manifest(out)["rejections"]["filter/language"] == 3


def test_paragraph_dedup_and_zstd_from_the_command_line(archives: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert main(["warc", str(archives), "-o", str(out), "-q", "--compression", "zstd",
                 "--dedup-levels", "url,exact,near,paragraph"]) == EXIT_OK
    assert len(read_shards(out)) == 5
    assert all(p.name.endswith(".jsonl.zst") for p in out.glob("*/*"))
    options = manifest(out)["options"]
    fingerprints = options["processor"]["steps"][-1]
    assert fingerprints["step"] == "fingerprints"
    assert fingerprints["levels"] == ["exact", "near", "paragraph", "url"]


@pytest.mark.parametrize("option", [["--dedup-levels", "fuzzy"], ["--near-threshold", "2"],
                                    ["--lang", "english"], ["-j", "0"], ["--mode", "fast"],
                                    ["--status", "abc"], ["--dask-range-mb", "0"],
                                    ["--dask-range-mb", "-5"], ["--dask-range-mb", "inf"],
                                    ["--dask-range-mb", "big"]])
def test_a_refused_option_is_a_usage_error_and_writes_nothing(
        archives: Path, tmp_path: Path, option: list[str]) -> None:
    out = tmp_path / "o"
    exits = ("--mode", "--status", "--dask-range-mb")
    with pytest.raises(SystemExit) if option[0] in exits else nullcontext():
        assert main(["warc", str(archives), "-o", str(out), "-q", *option]) == EXIT_USAGE
    assert not out.exists()


def test_damaged_records_make_a_partial_run(tmp_path: Path) -> None:
    path = write_warc(tmp_path / "d.warc.gz", html_records())
    data = bytearray(path.read_bytes())
    data[len(data) // 2:len(data) // 2 + 100] = bytes(100)
    path.write_bytes(bytes(data))
    out = tmp_path / "out"
    assert main(["warc", str(path), "-o", str(out), "-q"]) == EXIT_PARTIAL
    assert manifest(out)["archive"]["damaged"] == 1
    assert 3 <= manifest(out)["documents"] <= 4


def test_every_kind_of_damage_is_a_partial_run_without_traceback(tmp_path: Path) -> None:
    from tests.archive import damage

    folder = tmp_path / "in"
    folder.mkdir()
    intact = write_warc(folder / "a-intact.warc.gz", html_records("https://a.example/"))
    source = damage.layout(write_warc(tmp_path / "src.warc.gz",
                                      html_records("https://b.example/")))
    rng = random.Random(5)
    cases = {"b-cut.warc.gz": damage.truncated(source, len(source.data) // 2),
             "c-flipped.warc.gz": damage.flipped(source, 3, rng),
             "d-length.warc.gz": damage.content_length(source, 1, "1" + "0" * 30),
             "e-garbage.warc.gz": damage.garbage(50_000, rng),
             "f-bomb.warc.gz": damage.whole_file_bomb(1 << 30)}
    for name, case in cases.items():
        (folder / name).write_bytes(case.data)
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-m", "corpusbot", "warc", str(folder), "-o",
                           str(out), "-q", "-j", "2"], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == EXIT_PARTIAL, done.stderr[-3000:]
    assert "Traceback" not in done.stderr
    # each problem named with its file and offset; a file with no record start at all is
    # (garbage, a bomb of zeros) is named as no archive and left out before reading
    for name in cases:
        assert f"{name}: damaged at offset" in done.stderr or (
            name in ("e-garbage.warc.gz", "f-bomb.warc.gz")
            and f"{name} is not an archive" in done.stderr), name
    assert str(intact) not in done.stderr
    assert manifest(out)["archive"]["damaged"] == done.stderr.count("damaged at offset")
    stored = {r["url"] for r in read_shards(out)}
    assert {r.url for r in html_records("https://a.example/")} <= stored


def test_markup_cut_before_the_parse_is_counted_in_the_manifest(
        tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    from corpusbot.html import bounds

    gold = page("en-anarcat")
    attributes = b"<div " + b" ".join(b"a%d=x" % i for i in range(bounds.MAX_ATTRIBUTES + 1))
    long_text = b"<p>" + b"a" * (bounds.MAX_TEXT_CHARS + 1) + b"</p>"
    path = write_warc(tmp_path / "cut.warc.gz", [
        Rec("https://a.example/plain", gold),
        Rec("https://b.example/attributes", gold.replace(b"<body", attributes + b"><body", 1)),
        Rec("https://c.example/text", gold.replace(b"<body>", b"<body>" + long_text, 1)),
    ])
    out = tmp_path / "out"
    assert main(["warc", str(path), "-o", str(out), "-j", "2"]) == EXIT_OK
    assert manifest(out)["html"] == {"cut/attributes": 1, "cut/text": 1}
    assert re.search(r"^attributes +1$", capsys.readouterr().out, re.MULTILINE)


def test_inputs_that_are_not_there_fail(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["warc", str(empty), str(tmp_path / "*.warc"), "-o", str(tmp_path / "o")]) == (
        EXIT_FAILED)


def test_some_inputs_missing_is_partial(archives: Path, tmp_path: Path) -> None:
    assert main(["warc", str(archives), str(tmp_path / "gone.warc"), "-q",
                 "-o", str(tmp_path / "o")]) == EXIT_PARTIAL


def test_usage_errors(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["warc", "x.warc", "-o", str(tmp_path), "--shard-size", "lots"])
    assert exit_info.value.code == EXIT_USAGE


def test_quiet_prints_nothing(archives: Path, tmp_path: Path,
                              capsys: pytest.CaptureFixture) -> None:
    assert main(["warc", str(archives), "-o", str(tmp_path / "o"), "-q"]) == EXIT_OK
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""


def many_pages(path: Path, count: int) -> Path:
    """``count`` distinct articles made of words from a real page."""
    words = page("en-supermarket").decode().split()
    vocabulary = [w for w in words if w.isalpha() and w.islower()]
    rng = random.Random(3)
    records = []
    for i in range(count):
        paragraphs = "".join(
            "<p>" + " ".join(rng.choice(vocabulary) for _ in range(40)) + ".</p>"
            for _ in range(4))
        html = (f"<html><head><title>Article {i}</title></head>"
                f"<body><article>{paragraphs}</article></body></html>")
        records.append(Rec(f"https://many.example/{i}", html.encode()))
    return write_warc(path, records)


def _start(archive: Path, out: Path) -> subprocess.Popen:
    command = [sys.executable, "-m", "corpusbot", "warc", str(archive), "-o", str(out),
               "-j", "1", "--commit-every", "10", "-q"]
    return subprocess.Popen(command, cwd=ROOT, stderr=subprocess.PIPE, text=True)


def _wait_for_first_commit(out: Path, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + 60
    while not (out / "manifest.json").exists() and process.poll() is None:
        assert time.monotonic() < deadline, "no commit within a minute"
        time.sleep(0.05)


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL])
def test_a_stopped_run_resumes_with_nothing_lost_or_doubled(tmp_path: Path, how: int) -> None:
    archive = many_pages(tmp_path / "many.warc.gz", 300)
    out = tmp_path / "out"
    process = _start(archive, out)
    _wait_for_first_commit(out, process)
    os.kill(process.pid, how)
    _, errors = process.communicate(timeout=60)
    if how in (signal.SIGINT, signal.SIGTERM):  # both commit what is in flight
        assert process.returncode == EXIT_PARTIAL, errors
        assert "run the same command again" in errors
    else:
        assert process.returncode == -signal.SIGKILL
    stopped_at = manifest(out)["documents"]
    assert 0 < stopped_at < 300
    assert main(["warc", str(archive), "-o", str(out), "-q"]) == EXIT_OK
    urls = [r["url"] for r in read_shards(out)]
    assert sorted(urls) == sorted(f"https://many.example/{i}" for i in range(300))


def test_a_second_ctrl_c_aborts_in_one_line_and_the_rerun_completes(tmp_path: Path) -> None:
    archive = many_pages(tmp_path / "many.warc.gz", 300)
    out = tmp_path / "out"
    process = _start(archive, out)
    _wait_for_first_commit(out, process)
    os.kill(process.pid, signal.SIGINT)
    time.sleep(0.05)
    os.kill(process.pid, signal.SIGINT)
    _, errors = process.communicate(timeout=60)
    assert "Traceback" not in errors and "KeyboardInterrupt" not in errors, errors
    assert process.returncode == EXIT_PARTIAL, errors
    assert "aborted: what was committed stays" in errors or "run the same command" in errors
    assert main(["warc", str(archive), "-o", str(out), "-q"]) == EXIT_OK
    urls = [r["url"] for r in read_shards(out)]
    assert sorted(urls) == sorted(f"https://many.example/{i}" for i in range(300))


def test_kill_9_of_a_two_worker_run_three_times_loses_and_doubles_nothing(tmp_path: Path) -> None:
    from tests.crashes import corpus, index_agrees, killed_runs

    archive = many_pages(tmp_path / "many.warc.gz", 200)
    command = [sys.executable, "-m", "corpusbot", "warc", str(archive), "-o",
               str(tmp_path / "out"), "-j", "2", "--commit-every", "20", "-q"]
    killed_runs(command, 6.0, 3, random.Random(2))
    documents = corpus(tmp_path / "out")
    assert sorted(url for url, _ in documents.elements()) == sorted(
        f"https://many.example/{i}" for i in range(200))
    assert index_agrees(tmp_path / "out", documents)
