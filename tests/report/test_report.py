"""The corpus report: what it shows, read in bounded memory from a real corpus folder."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest

pytest.importorskip("matplotlib", reason="the report needs matplotlib: corpusbot[report]")

from corpusbot.cli import main
from corpusbot.corpus.sink import Corpus
from corpusbot.report import write_report
from corpusbot.report.funnel import dedup_rates
from corpusbot.report.records import Shard, read_shard
from corpusbot.report.tally import Tally
from tests.corpus_support import make_doc
from tests.report.support import HOSTILE_TITLE, build_corpus


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_corpus(tmp_path_factory.mktemp("corpus"))


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_page_shows_languages_funnel_dedup_domains_runs(corpus: Path, tmp_path: Path) -> None:
    html = write_report(corpus, tmp_path / "r.html").read_text()
    text = _text(html)
    assert html.count("<svg") >= 6
    for lang, words in (("en", "8 "), ("de", "8 "), ("fr", "8 ")):
        assert f" {lang} {words}" in text
    assert "rejected: filter/too-short 1" in text and "rejected: process/timeout 1" in text
    assert "rejected: dedup/exact 1" in text and "documents kept 24" in text
    assert "site0.example" in text and " done " in text


def test_corpus_text_is_escaped_and_nothing_is_fetched(corpus: Path, tmp_path: Path) -> None:
    html = write_report(corpus, tmp_path / "r.html").read_text()
    assert HOSTILE_TITLE not in html and "&lt;script&gt;" in html
    assert "<script" not in html
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html)


def test_samples_are_seeded_and_bounded(corpus: Path, tmp_path: Path) -> None:
    first = write_report(corpus, tmp_path / "a.html", samples=2, seed=7).read_text()
    again = write_report(corpus, tmp_path / "b.html", samples=2, seed=7).read_text()
    other = write_report(corpus, tmp_path / "c.html", samples=2, seed=8).read_text()
    assert first == again and first != other
    assert first.count('class="doc"') == 6  # two per language


def test_reservoir_keeps_k_and_samples_the_whole_stream() -> None:
    seen = set()
    for seed in range(40):
        tally = Tally(samples_per_language=2, seed=seed)
        for number in range(100):
            tally.add("en", {"url": f"https://a.example/{number}", "text": "x", "n_words": 5})
        assert len(tally.languages["en"].samples) == 2
        seen |= {s["url"] for s in tally.languages["en"].samples}
    assert any(url.endswith(("/97", "/98", "/99")) for url in seen)  # not only the first k
    assert len(seen) > 30


def test_dedup_rates_follow_the_levels_in_order() -> None:
    manifest = {"pages": 100, "options": {"processor": {"dedup": {"levels": ["url", "exact",
                                                                              "near"]}}},
                "rejections": {"dedup/url": 10, "filter/too-short": 20, "dedup/exact": 7,
                               "dedup/near": 3}}
    assert dedup_rates(manifest) == [("url", 100, 10), ("exact", 70, 7), ("near", 63, 3)]


def test_a_shard_being_written_is_read_to_its_committed_length(tmp_path: Path) -> None:
    corpus = Corpus(tmp_path)
    for number in range(3):
        corpus.add(make_doc(number))
    corpus.commit()
    part = next(tmp_path.glob("en/*.part"))
    with open(part, "ab") as handle:  # what a run appends after the last commit
        handle.write(gzip.compress(b'{"url": "https://late.example/"}\n'))
    try:
        html = write_report(tmp_path, tmp_path / "r.html").read_text()
    finally:
        corpus.abort()
    assert "late.example" not in html and "example.org" in html


@pytest.mark.parametrize("compression", ["zstd", "none"])
def test_every_compression_is_read(tmp_path: Path, compression: str) -> None:
    build_corpus(tmp_path, per_language=2, compression=compression)
    shard = next(p for p in tmp_path.glob("en/en-00001.*"))
    assert len(list(read_shard(Shard("en", shard)))) == 2


def test_a_damaged_shard_gives_what_it_could_read(tmp_path: Path, caplog) -> None:
    path = tmp_path / "en-00001.jsonl.gz"
    path.write_bytes(gzip.compress(b'{"url": "a"}\nnot json\n{"url": "b"}\n')[:-12])
    records = list(read_shard(Shard("en", path)))
    assert [r["url"] for r in records] == ["a"] or [r["url"] for r in records] == ["a", "b"]
    assert "not JSON" in caplog.text and "stopped reading" in caplog.text


def test_the_command_writes_into_the_corpus_and_refuses_a_non_corpus(
        corpus: Path, tmp_path: Path, capsys) -> None:
    assert main(["report", str(corpus)]) == 0
    assert capsys.readouterr().out == f"report: {corpus / 'report.html'}\n"
    assert (corpus / "report.html").stat().st_size > 10_000
    assert main(["report", str(tmp_path)]) == 1
    with pytest.raises(SystemExit) as refused:
        main(["report", str(corpus), "--samples", "-1"])
    assert refused.value.code == 64
