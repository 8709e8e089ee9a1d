"""corpusbot's components in a user's own Scrapy project, without the add-on: a spider of
one's own that yields dict items with the raw page, at Scrapy's default DEBUG log level."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.newssite.client import REPO, NewsSite

SCRIPT = """
import sys
import scrapy
from scrapy.crawler import CrawlerProcess

class Mine(scrapy.Spider):
    name = "mine"
    start_urls = sys.argv[2:]

    def parse(self, response):
        yield {"url": response.url, "body": response.body}

if __name__ == "__main__":
    process = CrawlerProcess({
        "ITEM_PIPELINES": {"corpusbot.pipelines.process.ProcessPipeline": 300,
                           "corpusbot.pipelines.corpus.CorpusPipeline": 800},
        "CORPUSBOT_OUTPUT_DIR": sys.argv[1], "CORPUSBOT_PROCESS_WORKERS": 1,
        "LOG_LEVEL": "DEBUG", "TELNETCONSOLE_ENABLED": False})
    process.crawl(Mine)
    process.start()
"""


def test_scraped_items_are_logged_short(tmp_path: Path) -> None:
    script = tmp_path / "mine.py"
    script.write_text(SCRIPT)
    with NewsSite() as site:
        articles = [f"{site.url}{path}" for path in site.manifest()["articles"][:4]]
        done = subprocess.run([sys.executable, str(script), str(tmp_path / "out"), *articles],
                              cwd=REPO, capture_output=True, text=True, timeout=120,
                              check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    scraped = [line for line in done.stderr.splitlines() if "Scraped from" in line]
    assert len(scraped) == 4, done.stderr[-3000:]
    # the line after each "Scraped from" is the item: sizes, not the page or the signature
    lines = done.stderr.splitlines()
    items = [lines[lines.index(line) + 1] for line in scraped]
    assert all("bytes>" in item and "<Document " in item for item in items), items[0]
    assert max(len(line) for line in lines) < 1000
    assert len(done.stderr) < 20_000, len(done.stderr)
