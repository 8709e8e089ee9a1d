"""Write the report of a corpus: one self-contained HTML page with plots.

Reads OUT (its manifest.json, every shard, crawl-stats.json after a crawl)
in one streaming pass and writes OUT/report.html, or the file -o names:
documents and words per language, lengths, language probability, the
funnel from input to kept documents with every rejection reason, dedup
rates per level, top domains, crawled sites, runs, and a few random
documents per language. Needs matplotlib (pip install 'corpusbot[report]').
Exit status: 0 written, 1 not a corpus or not writable, 64 usage error.
"""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

from corpusbot.commands.exitcodes import EXIT_FAILED, EXIT_OK

log = logging.getLogger(__name__)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("output", metavar="OUT", type=Path, help="the corpus folder")
    parser.add_argument("-o", "--file", type=Path,
                        help="where to write the page (default: OUT/report.html)")
    parser.add_argument("--samples", type=_count, default=3, metavar="N",
                        help="random documents shown per language (default: 3)")
    parser.add_argument("--seed", type=int, default=1,
                        help="seed of the random sample (default: 1)")
    parser.add_argument("-q", "--quiet", action="store_true", help="print nothing")


def _count(text: str) -> int:
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"not a count: {text!r} (try 3)")
    return int(text)


def run(args: argparse.Namespace) -> int:
    try:
        import corpusbot.report.charts  # noqa: F401, PLC0415  (matplotlib, or one line)
        from corpusbot.report import write_report  # noqa: PLC0415
        from corpusbot.report.records import CorpusReadError  # noqa: PLC0415
    except ImportError as error:
        log.error("%s", error)
        return EXIT_FAILED
    try:
        target = write_report(args.output, args.file, samples=args.samples, seed=args.seed)
    except (CorpusReadError, OSError) as error:
        log.error("%s", error)
        return EXIT_FAILED
    if not args.quiet:
        print(f"report: {target}")
    return EXIT_OK
