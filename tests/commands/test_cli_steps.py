"""The processing steps on the command line: presets, --set, and one recipe per corpus."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from corpusbot.cli import main
from corpusbot.commands.exitcodes import EXIT_FAILED, EXIT_OK, EXIT_USAGE
from tests.corpus_support import Rec, html_records, read_shards, write_warc

SHORT = (b"<html><head><title>Notice</title></head><body><article><p>The town council met on "
         b"Tuesday evening and agreed to repair the old bridge over the river before the "
         b"winter, after residents had complained for months about the cracks, the noise "
         b"and the long detour that closing it would mean for everyone.</p></article>"
         b"</body></html>")


@pytest.fixture
def archives(tmp_path: Path) -> Path:
    """The fixture pages and one short one, in one archive."""
    records = [*html_records("https://a.example/"), Rec("https://a.example/short", SHORT)]
    return write_warc(tmp_path / "in.warc.gz", records)


def run(archive: Path, out: Path, *more: str) -> int:
    return main(["warc", str(archive), "-o", str(out), "-q", "-j", "1", *more])


def test_set_changes_one_option_and_the_manifest_records_every_step(
        archives: Path, tmp_path: Path) -> None:
    loose, strict = tmp_path / "loose", tmp_path / "strict"
    assert run(archives, loose) == EXIT_OK
    assert run(archives, strict, "--set", "length.min_words=100000") == EXIT_OK
    assert read_shards(loose) and not read_shards(strict)
    steps = json.loads((strict / "manifest.json").read_text())["options"]["processor"]["steps"]
    assert [s["step"] for s in steps] == ["extract", "language", "length", "nonletters",
                                          "fingerprints"]
    assert steps[2]["min_words"] == 100000


def test_a_shortcut_flag_is_the_same_override_as_set(archives: Path,
                                                     tmp_path: Path) -> None:
    by_flag, by_set = tmp_path / "flag", tmp_path / "set"
    assert run(archives, by_flag, "--min-words", "100000") == EXIT_OK
    assert run(archives, by_set, "--set", "length.min_words=100000") == EXIT_OK
    recipe = [json.loads((out / "manifest.json").read_text())["options"]["processor"]
              for out in (by_flag, by_set)]
    assert recipe[0] == recipe[1]


@pytest.mark.parametrize("bad, said", [
    (["--set", "length.min_words=many"], "option min_words: not a int"),
    (["--set", "gopherish.x=1"], "unknown step 'gopherish'"),
    (["--set", "length.most=1"], "unknown option 'most'"),
    (["--set", "length"], "write step.option=value"),
    (["--preset", "none", "--min-words", "10"], "step 'length' is not in preset 'none'"),
    (["--set", "nonletters.max_ratio=2"], "max_ratio must be in [0, 1]"),
])
def test_a_bad_step_option_stops_before_the_run_in_one_line(
        archives: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture, bad: list[str],
        said: str) -> None:
    assert run(archives, tmp_path / "out", *bad) == EXIT_USAGE
    assert said in caplog.text
    assert not (tmp_path / "out" / "manifest.json").exists()


def test_the_none_preset_keeps_what_basic_drops_as_too_short(archives: Path,
                                                              tmp_path: Path) -> None:
    basic, bare = tmp_path / "basic", tmp_path / "none"
    assert run(archives, basic, "--dedup-levels", "url") == EXIT_OK
    assert run(archives, bare, "--preset", "none", "--dedup-levels", "url") == EXIT_OK
    assert len(read_shards(bare)) > len(read_shards(basic))


def test_a_later_run_with_other_settings_is_refused(archives: Path, tmp_path: Path,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    out = tmp_path / "out"
    assert run(archives, out, "--lang", "en,de") == EXIT_OK
    before = (out / "manifest.json").read_text()
    assert run(archives, out, "--mode", "justext") == EXIT_FAILED
    assert "written with other settings (processor.steps[extract].mode: 'default' then, " \
           "'justext' now)" in caplog.text
    assert run(archives, out, "--status", "200,404") == EXIT_FAILED
    assert json.loads((out / "manifest.json").read_text())["documents"] == \
        json.loads(before)["documents"]
    assert run(archives, out, "--lang", "de,en", "-j", "2") == EXIT_OK  # same recipe
