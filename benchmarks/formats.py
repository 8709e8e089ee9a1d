"""Parquet against JSONL on the same corpus: bytes on disk, write and read speed (issue 22).

    python benchmarks/formats.py                          # every gold page, best of 5
    python benchmarks/formats.py --repeat 1 --out /tmp/formats.json

The documents come from every page of the three sets of ../shared/bench, processed once
(``Processor``, default mode, metadata on): real texts, titles and
``meta`` of many languages, each once (repeating texts would let a
compressor's window find them again and flatter the sizes). Each format
then writes the same documents through the corpus sink (``Corpus.add``
with dedup off, a commit every 500 documents, the close that finishes and
publishes the shards), so the write figure is the sink's own cost:
encoding, compression, commits and, for Parquet, the conversion of finished shards. Read speed is
``corpusbot.corpus.formats.read_records`` over every shard (records as the
JSONL line decodes, what ``corpusbot report`` and ``merge`` use), and for
Parquet also pyarrow reading the columns alone (what a columnar reader
does). Each figure is the best of ``--repeat`` runs, with the first run
beside it; the machine's load is recorded.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))

import warc as bench_warc  # noqa: E402 - the gold pages, beside this script

from corpusbot.corpus.formats import read_records  # noqa: E402
from corpusbot.corpus.sink import Corpus, CorpusOptions  # noqa: E402
from corpusbot.dedup.backends import open_index  # noqa: E402
from corpusbot.document import Document  # noqa: E402
from corpusbot.fingerprints.options import DedupOptions  # noqa: E402
from corpusbot.page import Page  # noqa: E402
from corpusbot.processor import Processor, ProcessorOptions  # noqa: E402

FORMATS = [("jsonl", "gzip"), ("jsonl", "zstd"), ("parquet", "zstd"), ("parquet", "gzip")]
COMMIT_DOCUMENTS = 500
SETS = ("scrapinghub", "multilingual-dev", "wcxb-dev")


def documents() -> list[Document]:
    """The document of every gold page (all three sets) the Processor keeps."""
    processor = Processor(ProcessorOptions(dedup=DedupOptions(levels=frozenset())))
    kept = []
    for set_name in SETS:
        for gold in bench_warc.load_gold(bench_warc.BENCH / set_name):
            url = gold.url if gold.url and "://" in gold.url else (
                f"https://{set_name}.bench.invalid/{gold.key}")
            result = processor.process(Page(url=url, body=gold.html, source="bench.warc.gz",
                                            record_id=f"<urn:{set_name}:{gold.key}>", offset=0))
            if isinstance(result, Document):
                kept.append(result)
    return kept


def write(docs: list[Document], out: Path, fmt: str, compression: str) -> float:
    """Seconds to write ``docs`` into a new corpus at ``out``."""
    shutil.rmtree(out, ignore_errors=True)
    options = CorpusOptions(format=fmt, compression=compression)
    index = open_index("", DedupOptions(levels=frozenset()))
    started = time.perf_counter()
    with Corpus(out, options, index=index) as corpus:
        for number, doc in enumerate(docs, 1):
            corpus.add(doc)
            if number % COMMIT_DOCUMENTS == 0:
                corpus.commit()
    return time.perf_counter() - started


def shards(out: Path) -> list[Path]:
    return sorted(p for p in out.glob("*/*") if p.is_file() and not p.name.endswith(".part"))


def read(out: Path) -> tuple[float, int]:
    started = time.perf_counter()
    rows = sum(1 for shard in shards(out) for _ in read_records(shard))
    return time.perf_counter() - started, rows


def read_columns(out: Path) -> float:
    import pyarrow.parquet as pq

    started = time.perf_counter()
    for shard in shards(out):
        pq.read_table(shard)
    return time.perf_counter() - started


def measure(docs: list[Document], work: Path, repeat: int) -> list[dict[str, object]]:
    """Every format's figures; the formats take turns within each repetition, so that a
    change in the machine's load falls on all of them alike."""
    writes: dict[tuple[str, str], list[float]] = {key: [] for key in FORMATS}
    reads: dict[tuple[str, str], list[float]] = {key: [] for key in FORMATS}
    columns: dict[tuple[str, str], list[float]] = {key: [] for key in FORMATS}
    for _ in range(repeat):
        for fmt, compression in FORMATS:
            out = work / f"{fmt}-{compression}"
            writes[fmt, compression].append(write(docs, out, fmt, compression))
            seconds, rows = read(out)
            assert rows == len(docs), f"{fmt} lost or doubled records"
            reads[fmt, compression].append(seconds)
            if fmt == "parquet":
                columns[fmt, compression].append(read_columns(out))
    return [_figures(len(docs), work / f"{fmt}-{compression}", (fmt, compression),
                     {"write": writes[fmt, compression], "read": reads[fmt, compression],
                      "columns": columns[fmt, compression]})
            for fmt, compression in FORMATS]


def _figures(count: int, out: Path, key: tuple[str, str],
             seconds: dict[str, list[float]]) -> dict[str, object]:
    fmt, compression = key
    writes, reads, columns = seconds["write"], seconds["read"], seconds["columns"]
    figures: dict[str, object] = {
        "format": fmt, "compression": compression,
        "bytes": sum(p.stat().st_size for p in shards(out)),
        "write_docs_per_s": round(count / min(writes)),
        "write_docs_per_s_first": round(count / writes[0]),
        "read_records_per_s": round(count / min(reads)),
        "read_records_per_s_first": round(count / reads[0]),
    }
    if columns:
        figures["read_columns_rows_per_s"] = round(count / min(columns))
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "formats-results.json")
    args = parser.parse_args()
    docs = documents()
    work = Path(tempfile.mkdtemp(prefix="corpusbot-formats-"))
    try:
        results = measure(docs, work, args.repeat)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    reference = results[0]
    for row in results:
        row["bytes_vs_jsonl_gzip"] = round(row["bytes"] / reference["bytes"], 3)
        row["write_vs_jsonl_gzip"] = round(row["write_docs_per_s"]
                                           / reference["write_docs_per_s"], 3)
        row["read_vs_jsonl_gzip"] = round(row["read_records_per_s"]
                                          / reference["read_records_per_s"], 3)
    report = {"documents": len(docs), "text_bytes": sum(len(d.text.encode()) for d in docs),
              "repeat": args.repeat, "load_average": os.getloadavg(), "results": results}
    args.out.write_text(json.dumps(report, indent=1) + "\n")
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
