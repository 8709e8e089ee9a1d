"""Build a deduplicated per-language JSONL corpus from WARC/ARC archives.

INPUT can be files, folders (searched for *.warc, *.warc.gz, *.arc,
*.arc.gz) and globs. Running the same command again resumes where it
stopped; a run over inputs already read adds nothing. Ctrl-C (or SIGTERM) stops at
the next commit. Exit status: 0 done, 1 failed (no readable archive, or OUT
cannot be written), 2 partial (some records or files unreadable, inputs
missing or not archives, or interrupted: run again to continue), 64 a
refused option.
"""

from __future__ import annotations

import argparse
import logging
import math
import re
import sys
import time
from dataclasses import replace
from pathlib import Path

from corpusbot.archive.copies import COPIES_DEFAULT
from corpusbot.archive.progress import ProgressBar, summary
from corpusbot.archive.ranges import RANGE_BYTES_DEFAULT
from corpusbot.archive.reader import STATUSES_DEFAULT, ReaderOptions, find_archives, why_missing
from corpusbot.archive.runner import (
    COMMIT_PAGES_DEFAULT,
    COMMIT_SECONDS_DEFAULT,
    Runner,
    RunOptions,
    RunReport,
    interrupt_stops,
    recipe,
)
from corpusbot.commands.exitcodes import EXIT_FAILED, EXIT_OK, EXIT_PARTIAL, EXIT_USAGE
from corpusbot.commands.inputs import archives_only, warn_if_filtered_out
from corpusbot.commands.output import prepare_output, report_hint
from corpusbot.commands.steps import add_step_options, processor_options
from corpusbot.corpus.formats import FORMAT_DEFAULT, FORMATS
from corpusbot.corpus.shards import COMPRESSION_DEFAULT, COMPRESSIONS, SHARD_BYTES_DEFAULT
from corpusbot.corpus.sink import (
    Corpus,
    CorpusBusyError,
    CorpusMismatchError,
    CorpusOptions,
    recorded_options,
)
from corpusbot.dedup.backends import (
    IndexFactory,
    IndexLostError,
    IndexUnavailableError,
    open_index,
)
from corpusbot.dedup.index import IndexMismatchError
from corpusbot.dedup.redis_calls import RETRY_SECONDS_DEFAULT
from corpusbot.fingerprints.minhash import THRESHOLD_DEFAULT
from corpusbot.fingerprints.options import LEVELS, LEVELS_DEFAULT, DedupOptions
from corpusbot.processor import Processor, ProcessorOptions

log = logging.getLogger(__name__)

_SIZE = re.compile(r"^(\d+(?:\.\d+)?)\s*([kmg]?)i?b?$", re.IGNORECASE)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("inputs", nargs="+", metavar="INPUT", help="archive files, folders, globs")
    parser.add_argument("-o", "--output", required=True, type=Path, help="corpus folder")
    parser.add_argument("-j", "--jobs", type=int, default=None,
                        help="worker processes (default: all cores)")
    add_step_options(parser)
    parser.add_argument("--status", type=parse_statuses, default=STATUSES_DEFAULT,
                        help="HTTP statuses to keep, comma-separated (default: "
                        f"{','.join(map(str, sorted(STATUSES_DEFAULT)))})")
    parser.add_argument("--dedup", default="", metavar="PATH|redis://HOST:PORT/DB",
                        help="dedup index: an SQLite file (default: OUT/dedup.sqlite), or a "
                        "Redis URL shared by many processes and machines "
                        "(?retry_seconds=S: how long to wait for it when it stops answering, "
                        f"default {RETRY_SECONDS_DEFAULT:.0f})")
    parser.add_argument("--dask", metavar="SCHEDULER|local:N",
                        help="run the files as tasks on a Dask cluster (its scheduler's "
                        "address), or on N local workers; needs --dedup redis://...")
    parser.add_argument("--dask-range-mb", type=parse_megabytes, default=RANGE_BYTES_DEFAULT,
                        metavar="MB", help="with --dask, files larger than this are cut at "
                        "record starts into ranges of about this size, each a task "
                        f"(default: {RANGE_BYTES_DEFAULT >> 20})")
    levels = ",".join(level for level in LEVELS if level in LEVELS_DEFAULT)
    parser.add_argument("--dedup-levels", default=levels,
                        help=f"comma-separated, of {','.join(LEVELS)} (default: {levels})")
    parser.add_argument("--near-threshold", type=float, default=THRESHOLD_DEFAULT,
                        help="Jaccard similarity of a near duplicate "
                        f"(default: {THRESHOLD_DEFAULT})")
    parser.add_argument("--compression", choices=list(COMPRESSIONS),
                        default=COMPRESSION_DEFAULT,
                        help="of the shards; with Parquet, of its columns "
                        f"(default: {COMPRESSION_DEFAULT}; zstd needs corpusbot[zstd])")
    parser.add_argument("--format", choices=list(FORMATS), default=FORMAT_DEFAULT,
                        help="record format of the shards (default: jsonl; parquet needs "
                        "corpusbot[parquet])")
    parser.add_argument("--keep-rejects", action="store_true",
                        help="also write every page not kept, with its reason, to "
                        "OUT/rejects/<stage>/")
    parser.add_argument("--shard-size", type=parse_size, default=SHARD_BYTES_DEFAULT,
                        help=f"JSONL bytes per shard before rotation "
                        f"(default: {SHARD_BYTES_DEFAULT >> 20}M)")
    parser.add_argument("--commit-every", type=int, default=COMMIT_PAGES_DEFAULT, metavar="PAGES",
                        help=f"commit after this many pages, or {COMMIT_SECONDS_DEFAULT:.0f} s "
                        f"(default: {COMMIT_PAGES_DEFAULT})")
    parser.add_argument("--no-digest-check", dest="digest_check", action="store_false",
                        help="do not check the WARC-Block-Digest records carry (or the "
                        "WARC-Payload-Digest of one without; a mismatch is counted as "
                        "archive/damaged/digest)")
    parser.add_argument("--process-copies", action="store_true",
                        help="extract every exact copy of a page again (by default a copy "
                        "under another URL takes the first's outcome; the corpus is the same)")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bar or summary")


def parse_megabytes(text: str) -> int:
    """Bytes from a positive number of MiB, ``256`` or ``0.5``."""
    try:
        megabytes = float(text)
    except ValueError:
        megabytes = 0.0
    if not (math.isfinite(megabytes) and megabytes * (1 << 20) >= 1):
        raise argparse.ArgumentTypeError(f"not a positive size in MB: {text!r} (try 256)")
    return int(megabytes * (1 << 20))


def parse_statuses(text: str) -> frozenset[int]:
    """HTTP status codes from ``200,203``."""
    parts = [part.strip() for part in text.split(",") if part.strip()]
    if not parts or not all(part.isdigit() and 100 <= int(part) <= 599 for part in parts):
        raise argparse.ArgumentTypeError(f"not HTTP status codes: {text!r} (try 200,203)")
    return frozenset(int(part) for part in parts)


def parse_size(text: str) -> int:
    """Bytes from ``256M``, ``1.5G``, ``64k`` or a plain number."""
    match = _SIZE.match(text.strip())
    if not match:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (try 256M)")
    factor = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}[match.group(2).lower()]
    return int(float(match.group(1)) * factor)


def run(args: argparse.Namespace) -> int:
    if not getattr(args, "verbose", 0):
        # warcio warns once per odd record (spaces in a URL...): noise over a whole crawl.
        logging.getLogger("warcio").setLevel(logging.ERROR)
    try:
        processor_options, corpus_options, run_options = _options(args)
    except ValueError as error:
        log.error("%s", error)
        return EXIT_USAGE
    paths, missing = _inputs(args.inputs)
    if not paths:
        return EXIT_FAILED
    started = time.monotonic()
    try:
        prepare_output(args.output)
        report = _build(args, paths, processor_options, corpus_options, run_options)
    except IndexUnavailableError as error:
        log.error("%s", error)
        return EXIT_PARTIAL
    except (CorpusBusyError, CorpusMismatchError, IndexMismatchError, IndexLostError,
            OSError) as error:
        log.error("%s", error)
        return EXIT_FAILED
    warn_if_filtered_out(report.stats["pages"], report.stats["documents"],
                         _rejections(report))
    status = _exit_status(report, bool(missing))
    if not args.quiet:
        # "done" beside exit 2 would contradict it: some inputs were damaged or missing.
        partial = status == EXIT_PARTIAL and report.status == "done"
        shown = replace(report, status="partial") if partial else report
        print(summary(shown, time.monotonic() - started, str(args.output)))
        print(report_hint(args.output))
    return status


def _inputs(patterns: list[str]) -> tuple[list[Path], list[str]]:
    """The archives to read, and the inputs missing or left out (each one logged)."""
    paths, missing = find_archives(patterns)
    for pattern in missing:
        log.error("no archive found at %s: %s", pattern, why_missing(pattern))
    paths, refused = archives_only(paths)
    return paths, missing + [str(path) for path in refused]


def _rejections(report: RunReport) -> dict[str, int]:
    return {key.removeprefix("rejected/"): count for key, count in report.stats.items()
            if key.startswith("rejected/")}


def _options(args: argparse.Namespace) -> tuple[ProcessorOptions, CorpusOptions, RunOptions]:
    levels = frozenset(x.strip() for x in args.dedup_levels.split(",") if x.strip())
    dedup = DedupOptions(levels=levels, threshold=args.near_threshold)
    processor = processor_options(args, dedup)
    corpus = CorpusOptions(compression=args.compression, format=args.format,
                           keep_rejects=args.keep_rejects, shard_bytes=args.shard_size,
                           dedup=args.dedup)
    if getattr(args, "dask", None) and not open_index(corpus.dedup, dedup).shared:
        raise ValueError("--dask needs the shared dedup index: --dedup redis://HOST:PORT/DB")
    jobs = {} if args.jobs is None else {"jobs": args.jobs}  # RunOptions owns the default
    run = RunOptions(commit_pages=args.commit_every,
                     reader=ReaderOptions(statuses=args.status, check_digests=args.digest_check),
                     copies=0 if args.process_copies else COPIES_DEFAULT, **jobs)
    return processor, corpus, run


def _build(args: argparse.Namespace, paths: list[Path], processor_options: ProcessorOptions,
           corpus_options: CorpusOptions, run_options: RunOptions) -> RunReport:
    recorded = {"processor": processor_options.describe(),
                "corpus": recorded_options(corpus_options), "jobs": run_options.jobs}
    # One DedupOptions, the Processor's, for both the fingerprints and the index.
    index = open_index(corpus_options.dedup, processor_options.dedup)
    if args.dask:
        return _build_on_dask(args, paths, processor_options, corpus_options, run_options,
                              index=index)
    corpus = Corpus(args.output, corpus_options, run_options=recorded, index=index,
                    recipe=recipe(processor_options, run_options))
    progress = None if args.quiet else ProgressBar()
    runner = Runner(Processor(processor_options), corpus, run_options, progress)
    try:
        with interrupt_stops(runner):
            return runner.run(paths)
    except BaseException:
        corpus.abort()
        raise
    finally:
        if progress:
            progress.close()


def _build_on_dask(args: argparse.Namespace, paths: list[Path],
                   processor_options: ProcessorOptions, corpus_options: CorpusOptions,
                   run_options: RunOptions, *, index: IndexFactory) -> RunReport:
    """The files as tasks on a Dask cluster (``corpusbot.archive.dask_runner``)."""
    from corpusbot.archive.dask_runner import DaskRunner  # optional: corpusbot[dask]  # noqa: PLC0415

    progress = None if args.quiet else ProgressBar()
    runner = DaskRunner(Processor(processor_options), args.output, corpus_options,
                        run_options, index=index, scheduler=args.dask, progress=progress,
                        range_bytes=args.dask_range_mb)
    try:
        return runner.run(paths)
    finally:
        if progress:
            progress.close()


def _exit_status(report: RunReport, missing: bool) -> int:
    if report.stats["archive/files"] == 0 and report.stats["archive/unreadable"]:
        return EXIT_FAILED
    if report.status != "done" or report.damaged or missing:
        if report.status == "interrupted":
            print("interrupted: run the same command again to continue", file=sys.stderr)
        return EXIT_PARTIAL
    return EXIT_OK
