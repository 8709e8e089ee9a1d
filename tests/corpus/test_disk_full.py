"""A full disk under the corpus: one line naming it, exit 1, and nothing committed lost.

Run on a real tmpfs, mounted small (root only; skipped elsewhere), so that the
disk fills at a different write point for each size: opening the state and the
index, writing the shards, the final commit.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from corpusbot.commands.exitcodes import EXIT_FAILED, EXIT_OK
from tests.conftest import REPO
from tests.corpus_support import read_shards

SAMPLE = REPO / "sample" / "sample.warc.gz"


def _mount(point: Path, size: str, remount: bool = False) -> bool:
    options = f"remount,size={size}" if remount else f"size={size}"
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(point)],
                          capture_output=True, check=False)
    return done.returncode == 0


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    point = tmp_path / "disk"
    point.mkdir()
    if os.geteuid() != 0 or not _mount(point, "64k"):
        pytest.skip("needs root and tmpfs to mount a small filesystem")
    try:
        yield point
    finally:
        subprocess.run(["umount", str(point)], check=False)


def _warc(out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "corpusbot", "warc", str(SAMPLE), "-o",
                           str(out), "-j", "1", "-q"], capture_output=True, text=True,
                          timeout=300, check=False)


def _texts(out: Path) -> list[str]:
    return sorted(record["text"] for record in read_shards(out))


# Where the sample's run fills each size: opening the index, finishing the shards, the
# checkpoint's positions, the final COMMIT (the case).
@pytest.mark.parametrize("size", ["64k", "160k", "212k", "228k"])
def test_a_full_disk_is_one_line_exit_1_and_the_rerun_is_whole(tmp_path: Path,
                                                               small_disk: Path,
                                                               size: str) -> None:
    reference = tmp_path / "reference"
    assert _warc(reference).returncode == EXIT_OK
    assert _mount(small_disk, size, remount=True)
    out = small_disk / "out"
    full = _warc(out)
    assert full.returncode == EXIT_FAILED, full.stderr
    assert "Traceback" not in full.stderr
    assert [line.split(": ", 1)[-1] for line in full.stderr.splitlines()
            if " ERROR " in line] == [f"disk full at {out}"]
    assert _mount(small_disk, "4m", remount=True)
    again = _warc(out)
    assert again.returncode == EXIT_OK, again.stderr
    assert _texts(out) == _texts(reference)
