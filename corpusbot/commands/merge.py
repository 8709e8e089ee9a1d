"""Merge the manifests of corpus folders into one: the workers of a shared crawl.

``corpusbot merge OUT`` reads ``OUT/*/manifest.json`` (one folder per
``corpusbot crawl --redis`` process, or per task of a Dask run) and writes
``OUT/manifest.json`` with the counts added and every shard listed by its
path under OUT. The folders stay as they are; run it again at any time.
"""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

from corpusbot.commands.exitcodes import EXIT_FAILED, EXIT_OK
from corpusbot.corpus.layout import MANIFEST, Layout
from corpusbot.corpus.merge import write_merged_manifest

log = logging.getLogger(__name__)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("output", metavar="OUT", type=Path,
                        help="the folder holding one corpus per subfolder")
    parser.add_argument("-q", "--quiet", action="store_true", help="no summary")


def run(args: argparse.Namespace) -> int:
    layout = Layout(args.output)
    folders = layout.parts()
    if not folders:
        log.error("no corpus folder with a %s under %s", MANIFEST, args.output)
        return EXIT_FAILED
    manifest = write_merged_manifest(args.output, folders)
    if not args.quiet:
        print(f"{manifest['documents']} documents from {len(folders)} folders: "
              f"{layout.manifest}")
    return EXIT_OK
