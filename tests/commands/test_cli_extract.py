"""``corpusbot extract``: output, JSON, standard input and exit statuses."""

from __future__ import annotations

import io
import json
import sys

import pytest

from corpusbot.cli import main
from corpusbot.commands.exitcodes import EXIT_FAILED, EXIT_OK, EXIT_PARTIAL, EXIT_USAGE

PARAGRAPH = (
    "The council said on Monday that the new bridge over the river would open in the "
    "spring, after two years of work and a long debate about its cost to the town. "
    "Residents have asked for the works to stop at night, and the council agreed."
)
# four reports, a day apart (a page is rarely one paragraph given four times)
PARAGRAPHS = [PARAGRAPH.replace("Monday", day) for day in ("Monday", "Tuesday", "Wednesday",
                                                            "Thursday")]
PAGE = f"<html><body><h1>Bridge</h1>{''.join(f'<p>{p}</p>' for p in PARAGRAPHS)}</body></html>"


@pytest.fixture
def page_file(tmp_path):
    path = tmp_path / "page.html"
    path.write_text(PAGE, encoding="utf-8")
    return path


def test_prints_the_text(page_file, capsys):
    assert main(["extract", str(page_file)]) == EXIT_OK
    assert capsys.readouterr().out.strip() == "\n\n".join(PARAGRAPHS)


def test_json_output(page_file, capsys):
    assert main(["extract", str(page_file), "--json", "--mode", "justext", "--lang", "en"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["mode"] == "justext"
    assert record["language"] == "en"
    # jusText keeps the heading before good text; every mode returns it as the title only
    assert record["title"] == "Bridge"
    assert record["paragraphs"] == PARAGRAPHS


def test_reads_standard_input(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(PAGE.encode())))
    assert main(["extract", "-"]) == EXIT_OK
    assert PARAGRAPH in capsys.readouterr().out


def test_no_main_text_is_partial(tmp_path):
    path = tmp_path / "menu.html"
    path.write_text("<html><body><a href='/'>Home</a></body></html>")
    assert main(["extract", str(path)]) == EXIT_PARTIAL


def test_unreadable_file_fails(tmp_path):
    assert main(["extract", str(tmp_path / "missing.html")]) == EXIT_FAILED


def test_usage_errors_have_their_own_status(page_file):
    with pytest.raises(SystemExit) as exit_info:
        main(["extract", str(page_file), "--mode", "nonsense"])
    assert exit_info.value.code == EXIT_USAGE
    with pytest.raises(SystemExit) as exit_info:
        main(["no-such-command"])
    assert exit_info.value.code == EXIT_USAGE


def test_help_exits_cleanly(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["extract", "--help"])
    assert exit_info.value.code == 0
    assert "--mode" in capsys.readouterr().out
