"""``corpusbot dedup copies``: each kept document's copy count, from the index, after the runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from corpusbot.cli import main
from tests.archive.test_dask_runner import archives, records


@pytest.mark.parametrize("backend", ["sqlite", "redis"])
def test_every_dropped_copy_is_counted_once_for_the_document_it_copies(
        tmp_path: Path, backend: str, request: pytest.FixtureRequest) -> None:
    inputs = [str(p) for p in archives(tmp_path)]
    url = request.getfixturevalue("redis_url") if backend == "redis" else ""
    out = tmp_path / "out"
    dedup = ["--dedup", url] if url else []
    assert main(["warc", *inputs, "-o", str(out), "-j", "1", "-q", *dedup]) == 0
    assert main(["dedup", "copies", str(out), "-q", *dedup]) == 0
    lines = [json.loads(line) for line in (out / "copies.jsonl").read_text().splitlines()]
    kept = {record["id"]: record["url"] for record in records(out)}
    dropped = json.loads((out / "manifest.json").read_text())["rejections"]
    assert sum(line["copies"] for line in lines) == sum(
        n for reason, n in dropped.items() if reason.startswith("dedup/")) == 5
    assert {kept[line["id"]] for line in lines} == {
        "https://a.example/0", "https://a.example/2", "https://a.example/4",
        "https://a.example/5", "https://b.example/1"}
