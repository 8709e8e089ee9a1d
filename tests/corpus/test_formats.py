"""The record-format seam: the registry, the fields a typed format declares, merge over
folders of either format, and the layout every module asks for its paths."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from corpusbot.cli import main
from corpusbot.corpus.formats import FORMATS, format_of, get_format, read_records
from corpusbot.corpus.layout import Layout
from corpusbot.corpus.sink import Corpus, CorpusOptions
from corpusbot.document import RECORD_FIELDS, REJECTION_FIELDS, SOURCE_FIELDS, Rejection
from tests.conftest import REPO
from tests.corpus_support import make_doc

SAMPLE = REPO / "sample" / "sample.warc.gz"


def test_formats_are_chosen_by_name() -> None:
    assert FORMATS == ("jsonl", "parquet")
    with pytest.raises(ValueError, match="unknown format 'csv'; known: jsonl, parquet"):
        CorpusOptions(format="csv")
    with pytest.raises(ValueError, match="unknown compression 'lz4' for jsonl"):
        CorpusOptions(compression="lz4")
    assert format_of(Path("en/en-00001.jsonl.zst")) is get_format("jsonl")
    assert format_of(Path("en/en-00001.parquet")) is get_format("parquet")
    with pytest.raises(ValueError, match="not a corpus shard"):
        read_records(Path("notes.txt"))


def test_the_declared_fields_are_the_written_ones() -> None:
    record = make_doc(1).to_record()
    record["meta"] = {"published": "2024-01-01"}
    assert list(record) == [name for name in RECORD_FIELDS if name in record]
    assert set(record) == set(RECORD_FIELDS)
    assert set(rejection_source := Rejection("u", "r", source="a.warc").to_record()["source"]) \
        == set(SOURCE_FIELDS), rejection_source
    rejection = Rejection(url="https://a.example/", reason="dedup/exact", source="a.warc",
                          record_id="<urn:x>", offset=7, text="words", duplicate_of="00ff")
    assert list(rejection.to_record()) == list(REJECTION_FIELDS)
    assert rejection.stage == "dedup"


@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
def test_shards_rotate_and_read_back_in_either_format(tmp_path: Path, fmt: str) -> None:
    if fmt == "parquet":
        pytest.importorskip("pyarrow", reason="pyarrow is missing: pip install corpusbot[parquet]")
    options = CorpusOptions(format=fmt, shard_bytes=3000)
    with Corpus(tmp_path, options) as corpus:
        for i in range(12):
            corpus.add(make_doc(i))
            if i % 5 == 4:
                corpus.commit()
    shards = sorted((tmp_path / "en").iterdir())
    assert len(shards) > 2 and not [p for p in shards if p.name.endswith((".part", ".tmp"))]
    urls = [r["url"] for shard in shards for r in read_records(shard)]
    assert urls == [make_doc(i).url for i in range(12)]


def test_merge_lists_and_cards_the_shards_of_parquet_folders(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow", reason="pyarrow is missing: pip install corpusbot[parquet]")
    for worker, lang in (("w1", "en"), ("w2", "de")):
        assert main(["warc", str(SAMPLE), "-o", str(tmp_path / worker), "-q", "-j", "1",
                     "--format", "parquet", "--lang", lang, "--keep-rejects"]) == 0
    assert main(["merge", str(tmp_path), "-q"]) == 0
    merged = json.loads((tmp_path / "manifest.json").read_text())
    assert merged["format"] == "parquet" and merged["documents"] == 24
    files = [s["file"] for entry in merged["languages"].values() for s in entry["shards"]]
    assert files == ["w2/de/de-00001.parquet", "w1/en/en-00001.parquet"]
    assert sum(1 for f in files for _ in read_records(tmp_path / f)) == 24
    rejected = [s["file"] for shards in merged["rejects"].values() for s in shards]
    assert "w1/rejects/filter/filter-00001.parquet" in rejected
    assert sum(1 for f in rejected for _ in read_records(tmp_path / f)) == sum(
        merged["rejections"].values())
    card = (tmp_path / "README.md").read_text()
    assert '    - "*/en/en-*.parquet"' in card and '    - "*/de/de-*.parquet"' in card


def test_the_layout_names_every_path(tmp_path: Path) -> None:
    layout = Layout(tmp_path)
    assert [p.relative_to(tmp_path).as_posix() for p in (
        layout.state, layout.dedup, layout.manifest, layout.card, layout.rejects, layout.warc,
        layout.tasks, layout.job, layout.crawl_seen, layout.stats)] == [
        "state.sqlite", "dedup.sqlite", "manifest.json", "README.md", "rejects", "archive",
        "tasks", "job", "crawl-seen.sqlite", "crawl-stats.json"]


def test_no_module_spells_the_layout_names_itself() -> None:
    names = ('"state.sqlite"', '"dedup.sqlite"', '"manifest.json"', '"crawl-stats.json"',
             '"crawl-seen.sqlite"', '"README.md"', '"tasks"', '"rejects/')
    spelt = [f"{path.relative_to(REPO)}: {name}"
             for folder in ("corpusbot", "pipelines", "spiders")
             for path in (REPO / folder).rglob("*.py") if path.name != "layout.py"
             for name in names if name in path.read_text()]
    assert spelt == []
    readers = [path.relative_to(REPO).as_posix()
               for folder in ("corpusbot", "pipelines", "spiders")
               for path in (REPO / folder).rglob("*.py")
               if 'get("CORPUSBOT_OUTPUT_DIR")' in path.read_text()]
    assert readers == ["corpusbot/crawl/default_settings.py"]


def test_merge_check_names_the_documents_two_folders_hold(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture,
) -> None:
    # Two runs with their own dedup index each keep the sample's documents: every one twice.
    for worker in ("w1", "w2"):
        assert main(["warc", str(SAMPLE), "-o", str(tmp_path / "both" / worker), "-q",
                     "-j", "1"]) == 0
    assert main(["merge", str(tmp_path / "both"), "-q", "--check"]) == 2
    line = caplog.messages[-1]
    kept = json.loads((tmp_path / "both" / "manifest.json").read_text())["documents"] // 2
    assert f"{kept} of {2 * kept} committed documents are held more than once" in line
    assert line.count(" in w1, w2") == 5 and line.endswith(" ...")
    # split by language, the same runs hold each document once
    for worker, lang in (("w1", "en"), ("w2", "de")):
        assert main(["warc", str(SAMPLE), "-o", str(tmp_path / "split" / worker), "-q",
                     "-j", "1", "--lang", lang]) == 0
    assert main(["merge", str(tmp_path / "split"), "--check"]) == 0
    assert "committed documents, none held twice" in capsys.readouterr().out


def test_merge_check_of_a_damaged_folder_is_one_line(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    assert main(["warc", str(SAMPLE), "-o", str(tmp_path / "w1"), "-q", "-j", "1"]) == 0
    for shard in (tmp_path / "w1").glob("*/*.jsonl.gz"):
        shard.unlink()
    assert main(["merge", str(tmp_path), "-q", "--check"]) == 1
    assert caplog.messages[-1].startswith("cannot check the folders: ")
    assert "No such file" in caplog.messages[-1]
    (tmp_path / "w1" / "state.sqlite").unlink()
    assert main(["merge", str(tmp_path), "-q", "--check"]) == 1
    assert "unable to open database file" in caplog.messages[-1]
    assert not (tmp_path / "w1" / "state.sqlite").exists()
