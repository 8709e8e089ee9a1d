"""Every ``sh`` and ``python`` block of the README, run as printed (issue 22, defect 1).

Each block runs in a folder of its own, laid out as the README assumes: the
sample archive, a page to extract, ``crawls/``, ``cc/`` and ``crawl/``
holding archives, a seeds file and a sites file for the local news site,
the repository's ``scrapy.cfg``, ``.venv`` (this interpreter's
environment) and ``../shared/bench``. What a block cannot reach here is
named in an HTML comment just above it, which GitHub does not show:

    <!-- test: "OLD" -> "NEW" -->   replace OLD (it must occur) by NEW, where {site} is the
                                    local news site, {redis} a Redis database of the test's
                                    own server, {port} a free port, {settings} the crawl
                                    settings of the crawl tests, {python}, {repo}, and
                                    {pip_install} pip or uv, offline, as a dry run
    <!-- test: servers -->          each command is a server: it must start and keep running
    <!-- test: scrapy settings -->  lines for the settings.py of a ``scrapy startproject``
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.conftest import REPO, bench_dir
from tests.corpus_support import page
from tests.newssite.client import TEST_SETTINGS, NewsSite

README = REPO / "README.md"
_FENCE = re.compile(r"^```(\w*)\s*$")
_DIRECTIVE = re.compile(r'^<!-- test: (?:"(.*)" -> "(.*)"|([a-z ]+)) -->$')
BLOCK_SECONDS = 300
SERVER_SECONDS = 4.0


@dataclass
class Block:
    line: int
    language: str
    text: str
    replacements: list[tuple[str, str]] = field(default_factory=list)
    modes: set[str] = field(default_factory=set)


def readme_blocks() -> list[Block]:
    """The README's code blocks with the directives just above each."""
    blocks, pending, current = [], Block(0, "", ""), None
    for number, line in enumerate(README.read_text().splitlines(), 1):
        fence = _FENCE.match(line)
        if current is not None:
            if fence:
                blocks.append(current)
                current = None
            else:
                current.text += line + "\n"
        elif fence:
            current = Block(number, fence.group(1), "", pending.replacements, pending.modes)
            pending = Block(0, "", "")
        elif directive := _DIRECTIVE.match(line):
            if directive.group(3):
                pending.modes.add(directive.group(3))
            else:
                pending.replacements.append(
                    (directive.group(1).replace('\\"', '"'), directive.group(2)))
        elif line.strip():
            pending = Block(0, "", "")
    return [block for block in blocks if block.language in ("sh", "python")]


BLOCKS = readme_blocks()


@pytest.fixture(scope="module")
def news_site() -> Iterator[NewsSite]:
    with NewsSite() as site:
        yield site


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def pip_install() -> str:
    """pip (or uv, in an environment uv made without pip), offline, as a dry run."""
    if importlib.util.find_spec("pip"):
        return f"{sys.executable} -m pip install --no-index --dry-run"
    uv = shutil.which("uv") or shutil.which("uv", path=str(Path(sys.executable).parent))
    if uv is None:
        pytest.skip("this environment has neither pip nor uv to check the pip lines with")
    return f"{uv} pip install --python {sys.executable} --offline --dry-run"


def workspace(root: Path, site: str) -> Path:
    """A folder laid out as the README's blocks assume (see the module docstring)."""
    work = root / "work"
    for folder in ("crawls", "cc", "crawl"):
        (work / folder).mkdir(parents=True)
        shutil.copy(REPO / "sample" / "sample.warc.gz", work / folder)
    (work / "sample").symlink_to(REPO / "sample")
    (work / "scrapy.cfg").symlink_to(REPO / "scrapy.cfg")
    (work / ".venv").symlink_to(Path(sys.prefix))
    (root / "shared").mkdir()
    (root / "shared" / "bench").symlink_to(bench_dir())
    (work / "page.html").write_bytes(page("en-anarcat"))
    (work / "seeds.txt").write_text(f"{site}/\n")
    (work / "sites.toml").write_text(f'[site."127.0.0.1"]\nstart = ["{site}/"]\ndepth = 2\n')
    return work


def prepared(block: Block, values: dict[str, str]) -> str:
    text = block.text
    for old, new in block.replacements:
        assert old in text, f"README line {block.line}: {old!r} is not in the block any more"
        text = text.replace(old, new.format(**values))
    return text


def run_servers(script: str, work: Path, environment: dict[str, str]) -> None:
    """Start each command; each must still be running a few seconds later."""
    commands = [c.split("#")[0].strip() for c in script.replace("\\\n", " ").splitlines()]
    processes = []
    try:
        for command in filter(None, commands):
            processes.append(subprocess.Popen(command, shell=True, cwd=work, env=environment,
                                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                              start_new_session=True, text=True))
            time.sleep(SERVER_SECONDS)
        for process in processes:
            assert process.poll() is None, process.stderr.read() if process.stderr else ""
    finally:
        for process in processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=30)


def run_in_project(script: str, work: Path, environment: dict[str, str]) -> None:
    """The lines appended to a new Scrapy project's settings, and ``scrapy list`` there."""
    made = subprocess.run([sys.executable, "-m", "scrapy", "startproject", "myproject"],
                          cwd=work, env=environment, capture_output=True, text=True, check=False)
    assert made.returncode == 0, made.stderr
    settings = work / "myproject" / "myproject" / "settings.py"
    settings.write_text(settings.read_text() + "\n" + script)
    listed = subprocess.run([sys.executable, "-m", "scrapy", "list"], cwd=work / "myproject",
                            env=environment, capture_output=True, text=True, check=False)
    assert listed.returncode == 0, listed.stderr


@pytest.mark.parametrize("block", BLOCKS, ids=[f"line{b.line}-{b.language}" for b in BLOCKS])
def test_the_readme_block_runs_as_printed(block: Block, tmp_path: Path, news_site: NewsSite,
                                          redis_url: str) -> None:
    if "shared/bench" in block.text and not (bench_dir() / "scrapinghub").is_dir():
        pytest.skip("gold sets not found: ../shared/bench is absent on a plain clone "
                    "(set CORPUSBOT_BENCH to run this block)")
    work = workspace(tmp_path, news_site.url)
    values = {"site": news_site.url, "redis": redis_url, "port": str(free_port()),
              "settings": " ".join(f"-s {s}" for s in TEST_SETTINGS), "python": sys.executable,
              "repo": str(REPO)}
    if any("{pip_install}" in new for _, new in block.replacements):
        values["pip_install"] = pip_install()
    script = prepared(block, values)
    environment = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}"
                   f"{os.environ.get('PATH', '')}", "PYTHONPATH": str(REPO)}
    if "servers" in block.modes:
        run_servers(script, work, environment)
        return
    if "scrapy settings" in block.modes:
        run_in_project(script, work, environment)
        return
    name = "block.py" if block.language == "python" else "block.sh"
    (work / name).write_text(script)
    command = [sys.executable, name] if block.language == "python" else [
        "bash", "-e", "-o", "pipefail", name]
    process = subprocess.Popen(command, cwd=work, env=environment, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, errors = process.communicate(timeout=BLOCK_SECONDS)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)  # its workers too
        out, errors = process.communicate()
        pytest.fail(f"README line {block.line} still running after {BLOCK_SECONDS} s:\n"
                    f"{script}\n{errors[-3000:]}")
    assert process.returncode == 0, (f"README line {block.line}:\n{script}\n"
                                     f"{out[-3000:]}\n{errors[-3000:]}")


def test_every_block_is_found() -> None:
    assert len(BLOCKS) >= 15
    assert any("__main__" in block.text for block in BLOCKS if "datatrove" in block.text)
