"""The README's add-on block works when copied into a project ``scrapy startproject`` made."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO

_BLOCK = re.compile(r"```python\n(# settings\.py of your project.*?)```", re.DOTALL)


def scrapy(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "scrapy", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120, check=False)


def test_the_readme_block_lists_the_news_spider(tmp_path: Path) -> None:
    block = _BLOCK.search((REPO / "README.md").read_text()).group(1)
    made = scrapy("startproject", "myproject", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    project = tmp_path / "myproject"
    settings = project / "myproject" / "settings.py"
    settings.write_text(settings.read_text() + "\n" + block)
    listed = scrapy("list", cwd=project)
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.split() == ["news"]
    # The settings as the crawl reads them: the add-on's pipelines, the project's own choices.
    got = scrapy("settings", "--get", "CORPUSBOT_PROCESS_LANGUAGES", cwd=project)
    assert got.returncode == 0 and "'en', 'de'" in got.stdout, got.stderr
