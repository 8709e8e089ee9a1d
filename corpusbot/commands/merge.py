"""Merge the manifests of corpus folders into one: the workers of a shared crawl.

``corpusbot merge OUT`` reads ``OUT/*/manifest.json`` (one folder per
``corpusbot crawl --redis`` process, or per task of a Dask run) and writes
``OUT/manifest.json`` with the counts added and every shard listed by its
path under OUT. The folders stay as they are; run it again at any time.
``--check`` then reads every committed document of the folders back and
names any held twice (exit 2): folders sharing one dedup index hold none.
"""

from __future__ import annotations

import argparse
import logging
import sqlite3
from pathlib import Path

from tqdm import tqdm

from corpusbot.commands.exitcodes import EXIT_FAILED, EXIT_OK, EXIT_PARTIAL
from corpusbot.corpus.layout import MANIFEST, Layout
from corpusbot.corpus.merge import write_merged_manifest

log = logging.getLogger(__name__)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("output", metavar="OUT", type=Path,
                        help="the folder holding one corpus per subfolder")
    parser.add_argument("--check", action="store_true",
                        help="then read every committed document back and name any held twice "
                        "(exit 2); run it when the runs are done")
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
    return check(args.output, folders, args.quiet) if args.check else EXIT_OK


EXAMPLES = 5
"""Doubled ids named in the error line; the rest are counted."""


def check(root: Path, folders: list[Path], quiet: bool = False) -> int:
    """``--check``: EXIT_OK when no committed document is in the folders twice, else
    EXIT_PARTIAL with one line naming the first ``EXAMPLES`` (their folders relative to
    ``root``); EXIT_FAILED when a folder's state or shards cannot be read."""
    # imported here: the dedup machinery it reads the shards with is no cost of a plain merge
    from corpusbot.corpus.reindex import doubled_documents  # noqa: PLC0415

    with tqdm(total=len(folders), unit="folder", desc="checking", disable=quiet) as bar:
        def one_more(folder: Path, documents: int) -> None:
            bar.set_postfix_str(f"{folder.name}: {documents} documents", refresh=False)
            bar.update()

        try:
            read, doubled = doubled_documents(folders, one_more)
        except (OSError, ValueError, KeyError, sqlite3.Error) as error:
            log.error("cannot check the folders: %s", error)
            return EXIT_FAILED
    if doubled:
        named = "; ".join(f"{doc_id} in {', '.join(f.relative_to(root).as_posix() for f in where)}"
                          for doc_id, where in list(doubled.items())[:EXAMPLES])
        log.error("%d of %d committed documents are held more than once: %s%s", len(doubled),
                  read, named, " ..." if len(doubled) > EXAMPLES else "")
        return EXIT_PARTIAL
    if not quiet:
        print(f"checked: {read} committed documents, none held twice")
    return EXIT_OK
