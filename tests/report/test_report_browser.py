"""The report in a real headless browser (Debian's chromium): it renders with no console
error, and a screenshot shows the charts."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

pytest.importorskip("matplotlib", reason="the report needs matplotlib: corpusbot[report]")

from matplotlib.image import imread

from corpusbot.report import write_report
from tests.report.support import build_corpus

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="no chromium on PATH: apt-get install chromium (as .ci/run does) "
    "to render the report in a real browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--enable-logging=stderr", "--v=0", "--window-size=1100,2400"]
CHART_BLUE = (0x4C, 0x72, 0xB0)  # the first colour of corpusbot.report.charts.COLORS


def screenshot(page: Path, shot: Path, profile: Path) -> str:
    """Open ``page`` in chromium, save a screenshot; the browser's log."""
    done = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={profile}",
                           f"--screenshot={shot}", page.resolve().as_uri()],
                          capture_output=True, text=True, timeout=120, check=False)
    assert shot.exists(), done.stderr[-2000:]
    return done.stderr


def console_lines(log: str) -> list[str]:
    return [line for line in log.splitlines() if ":CONSOLE" in line]


@needs_chromium
def test_console_errors_are_seen(tmp_path: Path) -> None:
    # The check below would be empty if chromium stopped logging the console.
    page = tmp_path / "bad.html"
    page.write_text("<p>x</p><script>console.error('seen'); undefinedName();</script>")
    assert len(console_lines(screenshot(page, tmp_path / "bad.png", tmp_path / "p"))) == 2


@needs_chromium
def test_the_report_renders_with_charts_and_no_console_error(tmp_path: Path) -> None:
    page = write_report(build_corpus(tmp_path / "corpus"), tmp_path / "report.html")
    log = screenshot(page, tmp_path / "shot.png", tmp_path / "profile")
    assert console_lines(log) == []
    pixels = (imread(tmp_path / "shot.png")[..., :3] * 255).round().astype(int)
    assert pixels.shape[:2] == (2400, 1100)
    not_white = (pixels < 250).any(axis=-1).mean()
    assert 0.02 < not_white < 0.6, not_white  # text and charts, not a blank or broken page
    blue = (abs(pixels - CHART_BLUE) <= 3).all(axis=-1).sum()
    assert blue > 2000, blue  # the bars of the charts were drawn
