"""A hostile payload costs bounded memory in a whole ``corpusbot warc`` run (issue 21)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.archive import damage

PEAK_MB_MAX = 500
"""The issue's goal for a run over a 5 GiB chunked bomb; unbounded it took 10.6 GB."""


def run_measured(args: list[str], timeout: float = 300) -> tuple[subprocess.CompletedProcess,
                                                                 int]:
    """``corpusbot ARGS`` run under a fresh Python parent that reports the peak RSS (MB) of
    its largest descendant, so earlier tests' children do not count."""
    script = ("import resource, subprocess, sys; done = subprocess.run(sys.argv[1:]);"
              "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024,"
              " file=sys.stderr); sys.exit(done.returncode)")
    done = subprocess.run([sys.executable, "-c", script, sys.executable, "-m", "corpusbot",
                           *args], capture_output=True, text=True, timeout=timeout, check=False)
    peak = done.stderr.rstrip().rsplit("\n", 1)[-1]
    return done, int(peak)


def test_a_chunked_gzip_payload_bomb_is_too_large_in_bounded_memory(tmp_path: Path) -> None:
    archive = tmp_path / "bomb.warc.gz"
    # One response, chunked and gzip-encoded, whose single chunk inflates to 3 GiB.
    archive.write_bytes(damage.chunked_bomb("https://bad.example/chunked-bomb", 3 << 30, True))
    assert archive.stat().st_size < 4 << 20
    done, peak = run_measured(["warc", str(archive), "-o", str(tmp_path / "out"), "-j", "2",
                               "-q"])
    assert "Traceback" not in done.stderr
    assert done.returncode == 2, done.stderr  # partial: the page is not in the corpus
    assert peak < PEAK_MB_MAX, f"peak RSS {peak} MB"
    stats = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert "too-large" in json.dumps(stats)
