"""The dataset card: ``OUT/README.md`` in the Hugging Face form, read by ``datasets`` itself."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from corpusbot.cli import main
from corpusbot.corpus.card import card_header, data_files, size_category
from tests.conftest import REPO

SAMPLE = REPO / "sample" / "sample.warc.gz"

LOAD = """
import json, sys
from datasets import load_dataset

out, cache = sys.argv[1], sys.argv[2]
rows = {}
for lang in json.loads(sys.argv[3]):
    rows[lang] = list(load_dataset(out, name=lang, split="train", cache_dir=cache)["id"])
print(json.dumps(rows))
"""


def load_with_datasets(out: Path, languages: list[str], cache: Path) -> dict[str, list[str]]:
    """The ids ``datasets.load_dataset(out, name=lang)`` reads, offline, in a fresh process
    (``datasets`` reads its offline switches when imported)."""
    environment = {**os.environ, "HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1",
                   "HF_HOME": str(cache)}
    done = subprocess.run([sys.executable, "-c", LOAD, str(out), str(cache),
                           json.dumps(languages)], env=environment, capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
def test_datasets_loads_each_language_of_a_corpus(tmp_path: Path, fmt: str) -> None:
    pytest.importorskip("datasets", reason="datasets is missing: pip install corpusbot[test]")
    if fmt == "parquet":
        pytest.importorskip("pyarrow", reason="pyarrow is missing: pip install corpusbot[parquet]")
    out = tmp_path / "out"
    # small shards: several per language, every one matched by the card's globs
    assert main(["warc", str(SAMPLE), "-o", str(out), "-q", "-j", "1", "--format", fmt,
                 "--shard-size", "16k"]) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert len(manifest["languages"]["en"]["shards"]) > 1
    from corpusbot.corpus.formats import read_records

    loaded = load_with_datasets(out, ["en", "de"], tmp_path / "cache")
    for lang in ("en", "de"):
        shards = sorted((out / lang).iterdir())
        assert loaded[lang] == [r["id"] for shard in shards for r in read_records(shard)]
        assert len(loaded[lang]) == manifest["languages"][lang]["documents"]


def test_the_card_is_rewritten_at_each_commit(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert main(["warc", str(SAMPLE), "-o", str(out), "-q", "-j", "1", "--lang", "en"]) == 0
    first = (out / "README.md").read_text()
    assert "- en\n" in first and "- de\n" not in first and "n<1K" in first
    assert main(["warc", str(SAMPLE), "-o", str(tmp_path / "out2"), "-q", "-j", "1"]) == 0
    card = (tmp_path / "out2" / "README.md").read_text()
    assert card.startswith("---\nlanguage:\n- de\n- en\n")
    assert '    - "de/de-*.jsonl.gz"' in card
    assert "- extraction modes: default" in card and "threshold: 0.8" in card
    assert "- sources: 1 archive file(s): sample.warc.gz" in card
    assert "dedup/exact: 4" in card
    assert not list(tmp_path.glob("*/README.md.tmp"))


def test_data_files_follow_the_folders_the_shards_are_in() -> None:
    shards = [{"file": "en/en-00001.parquet", "complete": True},
              {"file": "en/en-00002.parquet", "complete": False},
              {"file": "host-1/en/en-00001.jsonl.gz", "complete": True},
              {"file": "host-2/en/en-00001.jsonl.gz", "complete": True},
              {"file": "tasks/ab12/en/en-00003.jsonl.gz", "complete": True}]
    assert data_files("en", shards) == [
        "en/en-*.parquet", "*/en/en-*.jsonl.gz", "tasks/*/en/en-*.jsonl.gz"]
    assert data_files("en", shards[1:2]) == []  # still open: nothing a reader could load


def test_size_categories() -> None:
    assert [size_category(n) for n in (0, 999, 1000, 12_345, 2_000_000_000)] == [
        "n<1K", "n<1K", "1K<n<10K", "10K<n<100K", "n>1B"]


def test_a_language_without_published_shards_has_no_config() -> None:
    header = card_header({"documents": 3, "languages": {
        "en": {"shards": [{"file": "en/en-00001.jsonl.gz", "complete": False}]}}})
    assert "configs:" not in header and "- und" in header
