"""The README's option tables list exactly the options each command takes."""

from __future__ import annotations

import argparse
import re

import pytest

from corpusbot.cli import COMMANDS, build_parser
from tests.conftest import REPO

_ROW = re.compile(r"^\| `([^`]+)` \|")


def readme_options(command: str) -> set[str]:
    """The first word of each row of the README table headed ``| `command` option |``."""
    lines = (REPO / "README.md").read_text().splitlines()
    start = lines.index(f"| `{command}` option | default | meaning |")
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append(_ROW.match(line).group(1).split()[0])
    return set(rows)


def command_options(command: str) -> list[set[str]]:
    """Each argument of ``command``: its option strings, or its metavar when positional."""
    parser = build_parser(command)
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    # -v is every command's, documented once beside --version
    return [set(action.option_strings) or {action.metavar}
            for action in sub.choices[command]._actions
            if not isinstance(action, argparse._HelpAction) and action.dest != "verbose"]


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_the_option_table_matches_the_command(command: str) -> None:
    documented = readme_options(command)
    arguments = command_options(command)
    undocumented = [names for names in arguments if not names & documented]
    assert not undocumented, f"{command}: not in the README table: {undocumented}"
    unknown = documented - set().union(*arguments)
    assert not unknown, f"{command}: in the README table, not taken: {unknown}"
