"""``corpusbot eval`` through ``corpusbot.cli.main`` on the miniature gold folders."""

from __future__ import annotations

import json
import logging
import shutil
from pathlib import Path

import pytest

from corpusbot.cli import main
from corpusbot.commands.exitcodes import EXIT_FAILED, EXIT_OK, EXIT_PARTIAL, EXIT_USAGE
from corpusbot.eval import scoring
from tests.conftest import FIXTURES_DIR, bench_dir, needs_bench

GOLD = FIXTURES_DIR / "gold"


def last_json_line(out: str) -> dict:
    return json.loads(out.strip().splitlines()[-1])


def test_help_describes_the_command(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["eval", "--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert "gold folder" in out and "--worst" in out and "--json" in out


def test_not_a_gold_folder_exits_1_with_a_clear_message(tmp_path, caplog):
    with caplog.at_level(logging.ERROR):
        assert main(["eval", str(tmp_path)]) == EXIT_FAILED
    assert "is not a gold folder" in caplog.text
    assert "ground-truth.json or snippets.json" in caplog.text


def test_unknown_mode_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["eval", str(GOLD / "scrapinghub"), "--mode", "magic"])
    assert exit_info.value.code == EXIT_USAGE


@pytest.mark.parametrize("name", ["scrapinghub", "multilingual-dev"])
def test_json_summary_on_the_last_line(name, capsys):
    assert main(["eval", str(GOLD / name), "--json"]) == EXIT_OK
    summary = last_json_line(capsys.readouterr().out)
    assert {"precision", "recall", "f1", "pages_per_s", "pages", "mode", "set"} <= set(summary)
    assert (summary["set"], summary["pages"], summary["mode"]) == (name, 3, "default")
    assert 0.0 <= summary["f1"] <= 1.0
    assert "worst" not in summary


def test_json_worst_pages(capsys):
    main(["eval", str(GOLD / "multilingual-dev"), "--json", "--worst", "2", "--mode", "justext"])
    summary = last_json_line(capsys.readouterr().out)
    assert summary["mode"] == "justext"
    assert len(summary["worst"]) == 2
    assert {"key", "f1", "missed", "leaked"} <= set(summary["worst"][0])


def test_human_table(capsys):
    assert main(["eval", str(GOLD / "scrapinghub"), "--worst", "1"]) == EXIT_OK
    out = capsys.readouterr().out
    assert "F1" in out and "pages/s" in out and "scrapinghub" in out
    assert "1 worst pages" in out


@pytest.mark.parametrize("name", ["scrapinghub", "wcxb"])
def test_worst_shows_missed_and_leaked_text_in_every_layout(name, capsys):
    main(["eval", str(GOLD / name), "--json", "--worst", "3", "--mode", "justext", "-j", "1"])
    worst = last_json_line(capsys.readouterr().out)["worst"]
    imperfect = [page for page in worst if page["f1"] < 1.0]
    assert imperfect
    for page in imperfect:  # a page lost or gained text: show which
        assert page["missed"] if page["fn"] else True
        assert page["leaked"] if page["fp"] else True
        assert page["missed"] or page["leaked"]


def test_missed_and_leaked_are_the_longest_runs_absent_from_the_other_side():
    gold = "one two three four five six seven eight nine ten"
    output = "zero one two three four five alpha beta gamma delta"
    missed, leaked = scoring.differences(gold, output)
    assert missed == ("three four five six seven eight nine ten",)
    assert leaked == ("zero one two three", "three four five alpha beta gamma delta")


def test_a_type_the_set_lacks_and_a_negative_limit_are_usage_errors(capsys, caplog):
    with caplog.at_level(logging.ERROR):
        assert main(["eval", str(GOLD / "wcxb"), "--type", "bogus"]) == EXIT_USAGE
    assert "no page of type 'bogus'" in caplog.text and "its types: " in caplog.text
    with pytest.raises(SystemExit) as exit_info:
        main(["eval", str(GOLD / "wcxb"), "--limit", "-5"])
    assert exit_info.value.code == EXIT_USAGE


def test_unloadable_page_exits_2(tmp_path, capsys, caplog):
    folder = shutil.copytree(GOLD / "multilingual-dev", tmp_path / "ml")
    (folder / "html" / "pociag.html.gz").write_bytes(b"\x1f\x8b not really gzip")
    with caplog.at_level(logging.ERROR):
        assert main(["eval", str(folder), "--json"]) == EXIT_PARTIAL
    summary = last_json_line(capsys.readouterr().out)
    assert (summary["pages"], summary["load_errors"]) == (2, 1)
    assert "https://gazeta.example/kraj/pociag" in caplog.text


def _scores_without_timing(summary: dict) -> dict:
    """The summary less ``pages_per_s``, the one figure that depends on the machine's load."""
    return {key: value for key, value in summary.items() if key != "pages_per_s"}


def _runs_with_one_and_two_jobs(folder: Path, capsys, *options: str) -> list[dict]:
    runs = []
    for jobs in ("1", "2"):
        assert main(["eval", str(folder), "--json", "--worst", "3", "-j", jobs, *options]) == 0
        runs.append(last_json_line(capsys.readouterr().out))
    assert runs[0]["pages_per_s"] > 0 and runs[1]["pages_per_s"] > 0
    return runs


@pytest.mark.parametrize("name", ["scrapinghub", "multilingual-dev", "wcxb"])
def test_one_and_two_jobs_give_the_same_json(name, capsys, monkeypatch):
    # One page per task, so that both workers take pages of the three-page sets.
    monkeypatch.setattr(scoring, "PAGES_PER_TASK", 1)
    one, two = _runs_with_one_and_two_jobs(GOLD / name, capsys)
    assert _scores_without_timing(one) == _scores_without_timing(two)


@needs_bench
def test_one_and_two_jobs_give_the_same_json_on_real_pages(capsys):
    one, two = _runs_with_one_and_two_jobs(bench_dir() / "multilingual-dev", capsys,
                                           "--limit", "40")
    assert one["pages"] == 40
    assert _scores_without_timing(one) == _scores_without_timing(two)


def test_jobs_below_one_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["eval", str(GOLD / "scrapinghub"), "--jobs", "0"])
    assert exit_info.value.code == EXIT_USAGE
    assert "number of processes" in capsys.readouterr().err
