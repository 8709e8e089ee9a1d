"""What the fineweb preset costs, and corpusbot against datatrove doing the same work.

    python benchmarks/warc.py copies /tmp/bench.warc.gz
    python benchmarks/quality_speed.py /tmp/bench.warc.gz --records 400 \
        -o benchmarks/quality-speed-results.json

On the first ``--records`` records of the WARC, one core, in one run:

- ``corpusbot warc -j 1`` (a subprocess, wall time): the reference;
- the fineweb preset's quality steps over every document it keeps, timed in
  process, next to the Processor's own time for the same pages: the preset's
  cost as a share of the Processor's (and of the whole command's) time;
- datatrove 0.10 doing the same work (a subprocess, wall time): WarcReader ->
  Trafilatura -> Gopher repetition -> Gopher quality -> C4 (no terminal
  punctuation rule) -> FineWeb -> JsonlWriter, one task, one worker. Its
  LanguageFilter is left out: its fastText model is downloaded at run time,
  which this machine cannot; leaving it out makes datatrove faster, so the
  ratio is a lower bound.

Best of ``--repeat`` runs for each; ``uptime`` is recorded beside the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from warcio.archiveiterator import ArchiveIterator
from warcio.warcwriter import WARCWriter

from corpusbot.archive.reader import ArchiveReader
from corpusbot.document import Document
from corpusbot.filters.registry import PRESETS
from corpusbot.processor import Processor
from corpusbot.refilter import build_steps
from corpusbot.steps import PageState, Step

DATATROVE = """
import sys
from datatrove.executor import LocalPipelineExecutor
from datatrove.pipeline.extractors import Trafilatura
from datatrove.pipeline.filters import (C4QualityFilter, FineWebQualityFilter,
    GopherQualityFilter, GopherRepetitionFilter)
from datatrove.pipeline.readers import WarcReader
from datatrove.pipeline.writers import JsonlWriter
folder, name, out = sys.argv[1:4]
if __name__ == "__main__":
    LocalPipelineExecutor(pipeline=[
        WarcReader(folder, glob_pattern=name),
        Trafilatura(favour_precision=True),
        GopherRepetitionFilter(), GopherQualityFilter(),
        C4QualityFilter(filter_no_terminal_punct=False), FineWebQualityFilter(),
        JsonlWriter(out),
    ], tasks=1, workers=1, logging_dir=out + "/logs").run()
"""


def first_records(source: Path, count: int, target: Path) -> int:
    """Copy the first ``count`` response records of ``source`` to ``target``."""
    written = 0
    with source.open("rb") as stream, target.open("wb") as out:
        writer = WARCWriter(out, gzip=True)
        for record in ArchiveIterator(stream):
            if record.rec_type != "response":
                continue
            writer.write_record(record)
            written += 1
            if written == count:
                break
    return written


def timed_command(arguments: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(arguments, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def corpusbot_warc(warc: Path) -> float:
    with tempfile.TemporaryDirectory() as out:
        return timed_command([sys.executable, "-m", "corpusbot", "warc", str(warc), "-o", out,
                              "-j", "1", "-q"])


def datatrove_pipeline(warc: Path) -> float:
    with tempfile.TemporaryDirectory() as out:
        return timed_command([sys.executable, "-c", DATATROVE, str(warc.parent), warc.name, out])


def preset_cost(warc: Path, preset: str) -> dict[str, float]:
    """Seconds in the Processor and in the preset's quality steps, for the same pages."""
    steps = [s for s in build_steps(preset, {}) if isinstance(s, Step)]
    processor, processing, filtering, documents = Processor(), 0.0, 0.0, 0
    processor.warm_up()
    for record in ArchiveReader().read(warc):
        if record.page is None:
            continue
        started = time.perf_counter()
        result = processor.process(record.page)
        processing += time.perf_counter() - started
        if not isinstance(result, Document):
            continue
        documents += 1
        started = time.perf_counter()
        _run_steps(steps, result, record.page)
        filtering += time.perf_counter() - started
    return {"processor_seconds": processing, "steps_seconds": filtering, "documents": documents}


def _run_steps(steps: list[Step], doc: Document, page: object) -> None:
    state = PageState(page=page, paragraphs=list(doc.paragraphs), lang=doc.lang,  # type: ignore[arg-type]
                      lang_prob=doc.lang_prob)
    for step in steps:
        if step.apply(state):
            return


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("warc", type=Path)
    parser.add_argument("--records", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--preset", default="fineweb", choices=list(PRESETS))
    parser.add_argument("-o", "--output", type=Path)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        warc = Path(folder) / "speed.warc.gz"
        pages = first_records(args.warc, args.records, warc)
        runs = [(corpusbot_warc(warc), datatrove_pipeline(warc), preset_cost(warc, args.preset))
                for _ in range(args.repeat)]
    result = _figures(pages, runs, args.preset)
    print(json.dumps(result, indent=1))
    if args.output:
        args.output.write_text(json.dumps(result, indent=1) + "\n")
    return 0


def _figures(pages: int, runs: list[tuple[float, float, dict]], preset: str) -> dict:
    corpusbot = min(run[0] for run in runs)
    datatrove = min(run[1] for run in runs)
    cost = min((run[2] for run in runs), key=lambda c: c["steps_seconds"])
    processor = min(run[2]["processor_seconds"] for run in runs)
    with_preset = corpusbot + cost["steps_seconds"]
    return {
        "records": pages, "preset": preset, "uptime": os.getloadavg(),
        "corpusbot_warc_j1_seconds": round(corpusbot, 2),
        "corpusbot_warc_j1_pages_per_s": round(pages / corpusbot, 2),
        "preset_steps_seconds": round(cost["steps_seconds"], 3),
        "processor_seconds": round(processor, 2),
        "preset_cost_of_processor": round(cost["steps_seconds"] / processor, 4),
        "preset_cost_of_warc_j1": round(cost["steps_seconds"] / corpusbot, 4),
        "corpusbot_with_preset_pages_per_s": round(pages / with_preset, 2),
        "datatrove_seconds": round(datatrove, 2),
        "datatrove_pages_per_s": round(pages / datatrove, 2),
        "speedup_over_datatrove": round(datatrove / with_preset, 2),
        "single_pass": [[round(a, 2), round(b, 2), round(c["steps_seconds"], 3)]
                        for a, b, c in runs],
    }


if __name__ == "__main__":
    sys.exit(main())
