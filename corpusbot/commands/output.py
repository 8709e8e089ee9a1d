"""The output folder a command writes to: made, and proved writable, before any work starts.

A folder that cannot be written (a read-only mount, ``/proc/out``, an
existing file given as ``-o``) would otherwise fail deep inside the work
with an ``OSError`` traceback, after some state was written elsewhere.
"""

from __future__ import annotations

import shlex
import tempfile
from pathlib import Path


class OutputFolderError(OSError):
    """The output folder cannot be made or written; the message says which and why."""


def prepare_output(folder: Path) -> None:
    """Make ``folder`` (and its parents) and check that a file can be written in it."""
    if folder.exists() and not folder.is_dir():
        raise OutputFolderError(f"{folder} is a file, not a folder: give -o a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        reason = error.strerror or str(error)
        raise OutputFolderError(
            f"cannot write to {folder} ({reason}): give -o a folder you can write to") from None


def report_hint(folder: Path) -> str:
    """The line that tells where the corpus report is, and the command that writes it.

    Printed, not run: the report reads every shard again, a cost that grows
    with the whole corpus, which a run adding a few pages should not pay.
    """
    return (f"report: corpusbot report {shlex.quote(str(folder))}"
            f"  (writes {folder / 'report.html'})")
