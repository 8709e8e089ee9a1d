"""What the fineweb preset costs, and corpusbot against datatrove doing the same work.

    python benchmarks/warc.py copies /tmp/bench.warc.gz
    python benchmarks/quality_speed.py /tmp/bench.warc.gz --records 400 \
        -o benchmarks/quality-speed-results.json

On the first ``--records`` records of the WARC, one core, in one run:

- ``corpusbot warc -j 1`` (a subprocess, wall time, the default preset): the
  reference;
- ``corpusbot warc -j 1 --preset fineweb`` (a subprocess, wall time): what is
  set against datatrove; again with ``--process-copies``, every exact copy of a
  page extracted again as datatrove does (the archive of ``warc.py copies``
  holds one for each page);
- the preset's quality steps (every step the ``none`` preset does not run),
  timed in process inside a Processor running the preset, next to that
  Processor's own time for the same pages: the preset's cost as a share of the
  Processor's and of ``corpusbot warc -j 1``'s time;
- the same net of what the preset saves the steps both presets run (language
  and fingerprints, timed in a Processor running the preset and in one running
  ``none``): fingerprints reuse the words the Gopher steps cut, and skip the
  pages the quality steps drop;
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
from corpusbot.filters.registry import PRESETS
from corpusbot.processor import Processor, ProcessorOptions
from corpusbot.steps import Drop, PageState, Step

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


def corpusbot_warc(warc: Path, preset: str | None = None, *options: str) -> float:
    with tempfile.TemporaryDirectory() as out:
        return timed_command([sys.executable, "-m", "corpusbot", "warc", str(warc), "-o", out,
                              "-j", "1", "-q", *(["--preset", preset] if preset else []),
                              *options])


def datatrove_pipeline(warc: Path) -> float:
    with tempfile.TemporaryDirectory() as out:
        return timed_command([sys.executable, "-c", DATATROVE, str(warc.parent), warc.name, out])


class _Timed:
    """A step whose ``apply`` adds its time to a running total."""

    def __init__(self, step: Step) -> None:
        self.step, self.name, self.seconds = step, step.name, 0.0

    def apply(self, state: PageState) -> Drop | None:
        started = time.perf_counter()
        try:
            return self.step.apply(state)
        finally:
            self.seconds += time.perf_counter() - started


def preset_cost(warc: Path, preset: str) -> dict:
    """Seconds in a Processor running ``preset``, and in its quality steps, for the same
    pages; and in the steps but extraction that it shares with ``none``, in it and in a
    Processor running ``none``."""
    plain = {name for name, _ in PRESETS["none"]}
    processing, timed = _timed_run(warc, preset)
    _, timed_none = _timed_run(warc, "none")
    shared = [name for name in timed_none if name != "extract"]
    return {"processor_seconds": processing,
            "steps_seconds": sum(step.seconds for step in timed.values()
                                 if step.name not in plain),
            "by_step": {name: round(step.seconds, 3) for name, step in timed.items()
                        if name not in plain},
            "shared_seconds": sum(timed[name].seconds for name in shared),
            "shared_seconds_none": sum(timed_none[name].seconds for name in shared)}


def _timed_run(warc: Path, preset: str) -> tuple[float, dict[str, _Timed]]:
    """A Processor's seconds over the pages of ``warc``, and each of its steps'."""
    processor = Processor(ProcessorOptions(preset=preset))
    timed = {step.name: _Timed(step) for step in processor.steps}
    processor.steps = list(timed.values())  # type: ignore[arg-type]
    processor.warm_up()
    for step in timed.values():
        step.seconds = 0.0
    processing = 0.0
    for record in ArchiveReader().read(warc):
        if record.page is not None:
            started = time.perf_counter()
            processor.process(record.page)
            processing += time.perf_counter() - started
    return processing, timed


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
        runs = [(corpusbot_warc(warc), corpusbot_warc(warc, args.preset),
                 datatrove_pipeline(warc), preset_cost(warc, args.preset),
                 corpusbot_warc(warc, args.preset, "--process-copies"))
                for _ in range(args.repeat)]
    result = _figures(pages, runs, args.preset)
    print(json.dumps(result, indent=1))
    if args.output:
        args.output.write_text(json.dumps(result, indent=1) + "\n")
    return 0


def _figures(pages: int, runs: list[tuple[float, float, float, dict, float]],
             preset: str) -> dict:
    plain = min(run[0] for run in runs)
    every_copy = min(run[4] for run in runs)
    with_preset = min(run[1] for run in runs)
    datatrove = min(run[2] for run in runs)
    cost = min((run[3] for run in runs), key=lambda c: c["steps_seconds"])
    processor = min(run[3]["processor_seconds"] for run in runs)
    net = min(c["steps_seconds"] + c["shared_seconds"] - c["shared_seconds_none"]
              for c in (run[3] for run in runs))
    return {
        "records": pages, "preset": preset, "uptime": os.getloadavg(),
        "corpusbot_warc_j1_seconds": round(plain, 2),
        "corpusbot_warc_j1_pages_per_s": round(pages / plain, 2),
        "preset_steps_seconds": round(cost["steps_seconds"], 3),
        "preset_steps_by_step": cost["by_step"],
        "processor_seconds": round(processor, 2),
        "preset_cost_of_processor": round(cost["steps_seconds"] / processor, 4),
        "preset_cost_of_warc_j1": round(cost["steps_seconds"] / plain, 4),
        "preset_net_seconds": round(net, 3),
        "preset_net_cost_of_warc_j1": round(net / plain, 4),
        "pages_per_s_lost_with_preset": round(1 - plain / with_preset, 4),
        "corpusbot_with_preset_seconds": round(with_preset, 2),
        "corpusbot_with_preset_pages_per_s": round(pages / with_preset, 2),
        "datatrove_seconds": round(datatrove, 2),
        "datatrove_pages_per_s": round(pages / datatrove, 2),
        "speedup_over_datatrove": round(datatrove / with_preset, 2),
        # every exact copy extracted again (--process-copies), as datatrove does
        "speedup_over_datatrove_copies_processed": round(datatrove / every_copy, 2),
        "single_pass": [{"warc_j1": round(a, 2), "warc_j1_preset": round(b, 2),
                         "datatrove": round(c, 2), "preset_steps": round(d["steps_seconds"], 3),
                         "preset_net": round(d["steps_seconds"] + d["shared_seconds"]
                                             - d["shared_seconds_none"], 3),
                         "speedup": round(c / b, 2),
                         "speedup_copies_processed": round(c / e, 2)}
                        for a, b, c, d, e in runs],
    }


if __name__ == "__main__":
    sys.exit(main())
