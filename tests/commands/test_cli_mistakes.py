"""A newcomer's mistakes (issue 12): each is one line saying what to do, the documented exit
code, no traceback, and nothing left behind. Every case runs the real command."""

from __future__ import annotations

import gzip
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from corpusbot.commands.crawl import size, summary
from corpusbot.commands.exitcodes import EXIT_FAILED, EXIT_OK, EXIT_PARTIAL, EXIT_USAGE
from tests.conftest import REPO
from tests.corpus_support import html_records, page, write_warc

SAMPLE = REPO / "sample" / "sample.warc.gz"
# The crawl settings that make a failed fetch fail fast and quietly otherwise.
FAST = ["-s", "CORPUSBOT_CONTACT=tests@corpusbot.invalid", "-s", "RETRY_TIMES=1",
        "-s", "DOWNLOAD_TIMEOUT=10", "-s", "AUTOTHROTTLE_ENABLED=0", "-s", "DOWNLOAD_DELAY=0"]


def corpusbot(*args: str, stdin: bytes | None = None,
              env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m corpusbot ARGS``; asserts that it printed no traceback."""
    done = subprocess.run([sys.executable, "-m", "corpusbot", *args], cwd=REPO, input=stdin,
                          capture_output=True, timeout=180, check=False,
                          env={**os.environ, **(env or {})})
    result = subprocess.CompletedProcess(done.args, done.returncode,
                                         done.stdout.decode(errors="replace"),
                                         done.stderr.decode(errors="replace"))
    assert "Traceback" not in result.stderr, result.stderr
    return result


def error_lines(result: subprocess.CompletedProcess[str]) -> list[str]:
    return [line for line in result.stderr.splitlines() if " ERROR " in line]


@pytest.fixture
def archive(tmp_path: Path) -> Path:
    return write_warc(tmp_path / "a.warc.gz", html_records("https://a.example/"))


# -- output folders ------------------------------------------------------------------


def _existing_file(tmp_path: Path) -> Path:
    path = tmp_path / "taken"
    path.write_text("mine\n")
    return path


@pytest.mark.parametrize(("command", "make", "says"), [
    ("warc", lambda tmp: Path("/proc/out"), "cannot write to /proc/out"),
    ("warc", _existing_file, "is a file, not a folder"),
    ("warc", lambda tmp: _existing_file(tmp) / "out", "cannot write to"),
    ("crawl", _existing_file, "is a file, not a folder"),
])
def test_an_output_folder_that_cannot_be_written(tmp_path: Path, archive: Path, command: str,
                                                 make, says: str) -> None:
    out = make(tmp_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    source = [str(archive)] if command == "warc" else ["http://127.0.0.1:9/"]
    result = corpusbot(command, *source, "-o", str(out), "-q")
    assert result.returncode == EXIT_FAILED
    [line] = error_lines(result)
    assert says in line and "give -o a folder" in line
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    if out.name == "taken":
        assert out.read_text() == "mine\n"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_output_folder(tmp_path: Path, archive: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        result = corpusbot("warc", str(archive), "-o", str(locked / "out"), "-q")
    finally:
        locked.chmod(0o755)
    assert result.returncode == EXIT_FAILED
    assert "Permission denied" in error_lines(result)[0]
    assert not list(locked.iterdir())


# -- compression without its package -------------------------------------------------


def test_zstd_without_zstandard_writes_nothing_and_a_rerun_works(tmp_path: Path,
                                                                 archive: Path) -> None:
    blocker = tmp_path / "block"
    blocker.mkdir()
    # As if zstandard were not installed: its import fails in every process.
    (blocker / "sitecustomize.py").write_text("import sys\nsys.modules['zstandard'] = None\n")
    out = tmp_path / "out"
    result = corpusbot("warc", str(archive), "-o", str(out), "--compression", "zstd",
                       env={"PYTHONPATH": str(blocker)})
    assert result.returncode == EXIT_USAGE
    [line] = error_lines(result)
    assert "pip install 'corpusbot[zstd]'" in line
    assert not out.exists()
    assert corpusbot("warc", str(archive), "-o", str(out), "-q").returncode == EXIT_OK


# -- crawl arguments -----------------------------------------------------------------


@pytest.mark.parametrize(("content", "says"), [
    (None, "cannot read"),
    ('[site."news.example"\nstart = 1\n', "is not valid TOML"),
    ('[site."news.example"]\nstrat = ["https://news.example/"]\n', "unknown site option"),
])
def test_a_sites_file_that_is_missing_or_malformed(tmp_path: Path, content: str | None,
                                                   says: str) -> None:
    sites = tmp_path / "sites.toml"
    if content is not None:
        sites.write_text(content)
    out = tmp_path / "out"
    result = corpusbot("crawl", "--sites", str(sites), "-o", str(out), "-q")
    assert result.returncode == EXIT_USAGE
    [line] = error_lines(result)
    assert says in line and "sites.toml" in line
    assert not out.exists()


@pytest.mark.parametrize("start", ["notaurl", "ftp://news.example/"])
def test_a_start_that_is_not_a_url_is_a_usage_error(tmp_path: Path, start: str) -> None:
    out = tmp_path / "out"
    result = corpusbot("crawl", start, "-o", str(out), "-q")
    assert result.returncode == EXIT_USAGE
    [line] = error_lines(result)
    assert f"not a URL: {start!r}" in line
    assert not out.exists()


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.parametrize(("host", "reason"), [
    # the port is found when the test runs: an id fixed at collection stays the same in
    # every process that collects the suite, and the port is free just before the fetch
    ("127.0.0.1:{closed_port}", "refused"),
    ("nothing.invalid", "DNS lookup failed"),
])
def test_a_failed_fetch_is_one_line_with_its_url_and_reason(tmp_path: Path, host: str,
                                                            reason: str) -> None:
    host = host.format(closed_port=_closed_port())
    result = corpusbot("crawl", f"http://{host}/", "-o", str(tmp_path / "out"), "-q", *FAST,
                       "--allow-private-networks")
    assert result.returncode == EXIT_FAILED
    assert "install_root_handler" not in result.stderr  # Scrapy 2.19's deprecation warning
    for url in (f"http://{host}/robots.txt", f"http://{host}/"):
        lines = [line for line in result.stderr.splitlines() if f"<GET {url}>" in line]
        assert len(lines) == 1, result.stderr
        assert reason in lines[0]


# -- what a warc run says ------------------------------------------------------------


@pytest.mark.parametrize(("option", "names"), [
    (["--lang", "ja"], "filter/language refused 5 of 5 pages; check --lang"),
    (["--min-words", "100000"], "filter/too-short refused 5 of 5 pages; check --min-words"),
])
def test_a_run_that_keeps_nothing_names_the_filter(tmp_path: Path, archive: Path,
                                                  option: list[str], names: str) -> None:
    result = corpusbot("warc", str(archive), "-o", str(tmp_path / "out"), "-q", *option)
    assert result.returncode == EXIT_OK
    assert names in result.stderr


def test_a_damaged_run_says_partial_beside_exit_2(tmp_path: Path, archive: Path) -> None:
    data = bytearray(archive.read_bytes())
    data[len(data) // 2:len(data) // 2 + 100] = bytes(100)
    archive.write_bytes(bytes(data))
    result = corpusbot("warc", str(archive), "-o", str(tmp_path / "out"))
    assert result.returncode == EXIT_PARTIAL
    status = next(line for line in result.stdout.splitlines() if line.startswith("status"))
    assert status.split() == ["status", "partial"]


def test_a_file_that_is_not_an_archive_is_named(tmp_path: Path, archive: Path) -> None:
    readme = tmp_path / "readme.warc"
    shutil.copy(REPO / "README.md", readme)
    out = tmp_path / "out"
    result = corpusbot("warc", str(archive), str(readme), "-o", str(out), "-q")
    assert result.returncode == EXIT_PARTIAL
    [warning] = [line for line in result.stderr.splitlines() if " WARNING " in line]
    assert f"{readme} is not an archive" in warning
    alone = corpusbot("warc", str(readme), "-o", str(tmp_path / "alone"), "-q")
    assert alone.returncode == EXIT_FAILED
    assert not (tmp_path / "alone").exists()


def test_another_near_threshold_on_a_corpus_names_the_option(tmp_path: Path,
                                                              archive: Path) -> None:
    out = tmp_path / "out"
    assert corpusbot("warc", str(archive), "-o", str(out), "-q").returncode == EXIT_OK
    result = corpusbot("warc", str(archive), "-o", str(out), "-q", "--near-threshold", "0.5")
    assert result.returncode == EXIT_FAILED
    [line] = error_lines(result)
    assert "(processor.steps[fingerprints].threshold: 0.8 then, 0.5 now)" in line, line
    # Another corpus on the same index: the index names the option it was built with.
    index = str(tmp_path / "index.sqlite")
    assert corpusbot("warc", str(archive), "-o", str(tmp_path / "a"), "-q",
                     "--dedup", index).returncode == EXIT_OK
    result = corpusbot("warc", str(archive), "-o", str(tmp_path / "b"), "-q", "--dedup", index,
                       "--near-threshold", "0.5")
    assert result.returncode == EXIT_FAILED
    [line] = error_lines(result)
    assert "built with another --near-threshold (its LSH bands" in line, line
    assert "{'bands'" not in line


@pytest.mark.parametrize("command", ["warc", "crawl", "extract", "eval", "report", "merge"])
def test_every_option_says_what_it_does(command: str) -> None:
    from corpusbot.cli import build_parser

    parser = build_parser(command)
    sub = next(a for a in parser._actions if a.dest == "command").choices[command]
    silent = [a.option_strings or a.dest for a in sub._actions if not a.help]
    assert silent == []


# -- extract and eval ----------------------------------------------------------------


def test_extract_reads_gzip_from_a_file_and_from_standard_input(tmp_path: Path) -> None:
    html = page("en-supermarket")
    plain = tmp_path / "page.html"
    plain.write_bytes(html)
    packed = tmp_path / "page.html.gz"
    packed.write_bytes(gzip.compress(html))
    expected = corpusbot("extract", str(plain))
    assert expected.returncode == EXIT_OK and expected.stdout.strip()
    assert corpusbot("extract", str(packed)).stdout == expected.stdout
    assert corpusbot("extract", "-", stdin=gzip.compress(html)).stdout == expected.stdout


def test_extract_of_a_broken_gzip_is_one_line(tmp_path: Path) -> None:
    broken = tmp_path / "page.html.gz"
    broken.write_bytes(gzip.compress(page("en-supermarket"))[:200])
    result = corpusbot("extract", str(broken))
    assert result.returncode == EXIT_FAILED
    [line] = error_lines(result)
    assert f"cannot read {broken}" in line


def test_extract_takes_language_codes_as_warc_does(tmp_path: Path) -> None:
    plain = tmp_path / "page.html"
    plain.write_bytes(page("en-supermarket"))
    result = corpusbot("extract", str(plain), "--lang", "english")
    assert result.returncode == EXIT_USAGE
    assert "unknown language code 'english'" in result.stderr
    assert corpusbot("extract", str(plain), "--lang", "en").returncode == EXIT_OK


def test_extract_into_a_closed_pipe_prints_no_traceback(tmp_path: Path) -> None:
    # `corpusbot extract … | head -3`: the reader leaves before the text is written
    plain = tmp_path / "page.html"
    plain.write_bytes(page("en-supermarket") * 40)
    process = subprocess.Popen([sys.executable, "-m", "corpusbot", "extract", str(plain),
                                "--json"], cwd=REPO, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    process.stdout.close()
    errors = process.stderr.read().decode()
    process.wait(timeout=60)
    assert "Traceback" not in errors and "BrokenPipeError" not in errors, errors
    assert process.returncode == EXIT_FAILED


def test_verbose_goes_before_or_after_the_command(tmp_path: Path) -> None:
    result = corpusbot("report", str(tmp_path), "-v")
    assert result.returncode == EXIT_FAILED and "holds no manifest.json" in result.stderr


def test_eval_on_a_folder_that_does_not_exist(tmp_path: Path) -> None:
    result = corpusbot("eval", str(tmp_path / "nowhere"))
    assert result.returncode == EXIT_FAILED
    [line] = error_lines(result)
    assert "nowhere does not exist" in line


# -- the crawl summary ---------------------------------------------------------------


def test_the_crawl_summary_shows_kilobytes_for_small_archives(tmp_path: Path) -> None:
    stats = {"corpusbot/warc/records": 82, "corpusbot/warc/bytes": 69_725}
    assert "82 records, 69.7 kB in" in summary(stats, tmp_path)
    assert size(1_500_000) == "1.5 MB"


def test_the_crawl_summary_says_partial_when_errors_made_the_run_partial(tmp_path: Path) -> None:
    stats = {"finish_reason": "finished", "response_received_count": 3, "log_count/ERROR": 1}
    assert "finished           partial (errors in the log) after" in summary(
        stats, tmp_path, partial=True)
    assert "finished           finished after" in summary(stats, tmp_path)


def test_a_rerun_of_duplicates_names_the_largest_reason(tmp_path: Path, archive: Path) -> None:
    out = str(tmp_path / "out")
    assert corpusbot("warc", str(archive), "-o", out, "-q").returncode == EXIT_OK
    again = tmp_path / "again.warc.gz"  # the same pages under another file name
    shutil.copy(archive, again)
    result = corpusbot("warc", str(again), "-o", out, "-q")
    assert result.returncode == EXIT_OK
    [warning] = [line for line in result.stderr.splitlines() if "no page kept" in line]
    assert "dedup/url refused 5 of 5 pages" in warning
    assert "no mistake" in warning and "--min-words" not in warning


def test_a_symlink_loop_is_named_as_one(tmp_path: Path, archive: Path) -> None:
    loop = tmp_path / "loop.warc.gz"
    loop.symlink_to(loop)
    result = corpusbot("warc", str(archive), str(loop), "-o", str(tmp_path / "out"), "-q")
    assert result.returncode == EXIT_PARTIAL
    [line] = [line for line in result.stderr.splitlines() if str(loop) in line]
    assert line.endswith(f"no archive found at {loop}: it is a symbolic link loop")
