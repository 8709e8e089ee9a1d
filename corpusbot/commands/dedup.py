"""Dedup index maintenance: ``corpusbot dedup rebuild|copies OUT... [--dedup URL]``.

A corpus refuses to run against an index that lost what it committed (a
Redis restarted without persistence, a deleted ``dedup.sqlite``): run on,
it would keep every page again. ``rebuild`` refills the index from the
committed documents of every corpus folder given (a folder, or a folder of
worker or task folders), then those corpora run again as before. Give every
corpus that shares the index. ``copies`` writes each folder's
``copies.jsonl``: how many copies dedup dropped for each kept document, as
the index counts them now (run it when the runs are done). Exit status: 0
done, 1 failed.
"""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

from corpusbot.commands.exitcodes import EXIT_FAILED, EXIT_OK, EXIT_USAGE
from corpusbot.corpus.reindex import COPIES_FILE, corpus_folders, rebuild, write_copies
from corpusbot.corpus.sink import CorpusBusyError
from corpusbot.dedup.backends import open_index
from corpusbot.dedup.index import IndexMismatchError
from corpusbot.fingerprints.options import DedupOptions

log = logging.getLogger(__name__)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", choices=["rebuild", "copies"], metavar="ACTION",
                        help="rebuild: refill the index from the committed corpora; copies: "
                        "write each folder's copies.jsonl")
    parser.add_argument("folders", nargs="+", metavar="OUT", type=Path,
                        help="corpus folders (or folders of worker or task folders)")
    parser.add_argument("--dedup", default="", metavar="PATH|redis://HOST:PORT/DB",
                        help="the index, as given to the runs (default: each folder's own "
                        "dedup.sqlite)")
    parser.add_argument("-q", "--quiet", action="store_true", help="no summary")


def run(args: argparse.Namespace) -> int:
    try:
        open_index(args.dedup, DedupOptions())
    except ValueError as error:
        log.error("%s", error)
        return EXIT_USAGE
    folders = corpus_folders(args.folders)
    if not folders:
        log.error("no corpus folder at %s", " ".join(map(str, args.folders)))
        return EXIT_FAILED
    try:
        if args.action == "rebuild":
            summary = f"{rebuild(folders, args.dedup)} documents of {len(folders)} corpus " \
                "folders added to the dedup index"
        else:
            counted = sum(write_copies(folder, args.dedup) for folder in folders)
            summary = f"{counted} documents with copies, in {COPIES_FILE} of {len(folders)} folders"
    except (CorpusBusyError, IndexMismatchError, OSError) as error:
        log.error("%s", error)
        return EXIT_FAILED
    if not args.quiet:
        print(summary)
    return EXIT_OK
