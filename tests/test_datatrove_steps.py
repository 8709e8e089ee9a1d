"""corpusbot's steps in a real datatrove pipeline over a WARC file."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

pytest.importorskip("datatrove", reason="datatrove is missing: pip install corpusbot[datatrove]")
pytest.importorskip("magic", reason="datatrove's WarcReader needs python-magic and libmagic1")
pytest.importorskip("cchardet", reason="datatrove's WarcReader needs faust-cchardet")

from datatrove.executor import LocalPipelineExecutor
from datatrove.pipeline.readers import WarcReader
from datatrove.pipeline.writers import JsonlWriter

from corpusbot import extract
from corpusbot.datatrove_steps import (
    CorpusbotExtractor,
    CorpusbotLanguageFilter,
    CorpusbotQualityFilter,
)
from corpusbot.document import Rejection
from corpusbot.page import Page
from corpusbot.processor import Processor, ProcessorOptions
from corpusbot.refilter import refilter
from tests.corpus_support import Rec, page, page_names, write_warc


def run_pipeline(tmp_path: Path, *steps: object) -> dict[str, dict]:
    """The documents a WarcReader -> steps -> JsonlWriter pipeline writes, by URL."""
    (tmp_path / "in").mkdir(parents=True)
    write_warc(tmp_path / "in" / "pages.warc.gz",
               [Rec(f"https://example.org/{name}", page(name)) for name in page_names()])
    LocalPipelineExecutor(pipeline=[WarcReader(str(tmp_path / "in")), *steps,
                                    JsonlWriter(str(tmp_path / "out"))],
                          tasks=1, logging_dir=str(tmp_path / "logs")).run()
    found = {}
    for path in (tmp_path / "out").glob("*.jsonl.gz"):
        for line in gzip.decompress(path.read_bytes()).splitlines():
            record = json.loads(line)
            found[record["metadata"]["url"]] = record
    return found


@pytest.mark.parametrize("mode", ["default", "justext"])
def test_the_extractor_step_gives_what_extract_gives(tmp_path: Path, mode: str) -> None:
    found = run_pipeline(tmp_path, CorpusbotExtractor(mode=mode, timeout=30))
    # datatrove's reader sniffs the type with libmagic, which calls the XHTML page XML
    assert len(found) >= len(page_names()) - 1
    for name in page_names():
        record = found.get(f"https://example.org/{name}")
        if record is None:
            continue
        expected = extract(page(name), mode=mode)
        assert record["text"] == expected.text
        assert record["metadata"]["language"] == expected.language
        assert record["metadata"]["title"] == expected.title


def test_the_language_filter_keeps_the_languages_asked_for(tmp_path: Path) -> None:
    found = run_pipeline(tmp_path, CorpusbotExtractor(timeout=30),
                         CorpusbotLanguageFilter(languages=["de", "fr"]))
    everything = run_pipeline(tmp_path / "all", CorpusbotExtractor(timeout=30))
    expected = {url for url, record in everything.items()
                if record["metadata"]["language"] in {"de", "fr"}}
    assert set(found) == expected and expected and len(everything) > len(expected)
    assert all(r["metadata"]["language"] in {"de", "fr"} for r in found.values())


def test_an_unknown_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown extraction mode"):
        CorpusbotExtractor(mode="fastest")


def test_the_quality_filter_decides_as_the_processor_of_the_same_preset(tmp_path: Path) -> None:
    overrides = {"length.min_words": "300"}
    found = run_pipeline(tmp_path / "q", CorpusbotExtractor(timeout=30),
                         CorpusbotLanguageFilter(),
                         CorpusbotQualityFilter(preset="basic", overrides=overrides))
    everything = run_pipeline(tmp_path / "all", CorpusbotExtractor(timeout=30))
    processor = Processor(ProcessorOptions(preset="basic", overrides=overrides))
    expected = {url for url, record in everything.items()
                if not isinstance(refilter(processor, record, Page(url=url, body=b"")),
                                  Rejection)}
    assert set(found) == expected and 0 < len(expected) < len(everything)


def test_the_quality_filter_refuses_a_bad_override_in_one_line() -> None:
    with pytest.raises(ValueError, match="step length: option min_words: not a int"):
        CorpusbotQualityFilter(preset="basic", overrides={"length.min_words": "many"})
