"""A crawl writes through the same format seam: Parquet shards, and the rejects output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from corpusbot.corpus.formats import read_records
from tests.crashes import corpus, published, rejects
from tests.newssite.client import NewsSite, crawl_stats, run_crawl

pytest.importorskip("pyarrow", reason="pyarrow is missing: pip install corpusbot[parquet]")


def test_a_parquet_crawl_keeping_its_rejects(tmp_path: Path) -> None:
    out = tmp_path / "out"
    with NewsSite() as site:
        done = run_crawl([f"{site.url}/"], out, "CORPUSBOT_CORPUS_FORMAT=parquet",
                         "CORPUSBOT_CORPUS_KEEP_REJECTS=True",
                         "CORPUSBOT_PROCESS_LANGUAGES=en")  # the French and German ones rejected
    assert done.returncode == 0, done.stderr[-3000:]
    stats = crawl_stats(out)
    documents = corpus(out)
    assert sum(documents.values()) == stats["corpusbot/kept"] > 0
    assert all(shard.suffix == ".parquet" for shard in published(out))
    manifest = json.loads((out / "manifest.json").read_text())
    rejected = {key.removeprefix("corpusbot/rejected/"): count for key, count in stats.items()
                if key.startswith("corpusbot/rejected/")}
    assert rejected and manifest["rejections"] == rejected
    found = rejects(out)
    assert sum(found.values()) == sum(rejected.values()) and set(found.values()) == {1}
    for shard in published(out / "rejects"):
        assert shard.parent.name == shard.name.split("-")[0]  # rejects/<stage>/<stage>-N
        assert all(r["url"].startswith(site.url) and r["source"]["type"] == "archive"
                   for r in read_records(shard))  # the crawl's own WARC file
