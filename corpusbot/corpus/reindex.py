"""Passes over committed corpora and their dedup index: rebuild it, read copy counts.

An index that lost what a corpus committed (a Redis restarted without
persistence, a deleted ``dedup.sqlite``) is refused by that corpus: run on,
it would keep every page again. ``rebuild`` is the recovery: for each corpus
folder, in the order given, it reads every committed document back from the
shards (up to each shard's committed length), recomputes its features
(``corpusbot.fingerprints``: URL key, text hash, MinHash signature,
paragraph hashes) with the dedup options the folder's last run recorded,
adds them to the index unchecked, and stores the index's generation in the
folder's state, in one commit per folder. A folder is locked meanwhile, as
a run locks it.

What a rebuild cannot bring back: the URLs of pages that were rejected or
dropped as duplicates (a later run processes such a page again and drops it
again, by its text), copy counts, and the exact signature of a document
that paragraph dedup trimmed (it is recomputed from the trimmed text).

``write_copies`` is how each kept document's copy count (FineWeb-2's
cluster size, less one) reaches the output. The count lives in the index,
which drops the copies, and grows after the document is written: by later
runs, or by other processes and corpora sharing a Redis index. So no value
written with the record could stay true; instead this pass, run when the
runs are done, asks the index and writes ``OUT/copies.jsonl``: one
``{"id": ..., "copies": n}`` line per committed document with a copy, in
shard order (a document without a line has none).

``doubled_documents`` is the check of the guarantee folders sharing an index
give (no document twice): it reads every committed document of the folders
back and names the ids found more than once, with the folders holding them.
A shared crawl keeps that guarantee but for the case its README names (a
process lost for good, or silent over a minute, inside a commit); the check
is how a user knows.
"""

from __future__ import annotations

import gzip
import io
import json
import logging
import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import fields
from pathlib import Path
from typing import Any

import numpy as np

from corpusbot.corpus.checkpoint import Checkpoint
from corpusbot.corpus.formats import FORMAT_DEFAULT, get_format, read_records
from corpusbot.corpus.layout import STATE, TASKS, Layout
from corpusbot.corpus.shards import COMPRESSION_DEFAULT, PART_SUFFIX, ShardState
from corpusbot.corpus.sink import _lock, _open_database
from corpusbot.dedup.backends import IndexHost, OpenIndex, open_index
from corpusbot.document import RECORD_FIELDS, Document
from corpusbot.fingerprints.minhash import MinHasher
from corpusbot.fingerprints.options import DedupOptions
from corpusbot.fingerprints.paragraph import paragraph_hash
from corpusbot.fingerprints.url import url_key
from corpusbot.text import PARAGRAPH_SEPARATOR, hash64, normalise, tokens

logger = logging.getLogger(__name__)

COPIES_FILE = "copies.jsonl"


def corpus_folders(paths: list[Path]) -> list[Path]:
    """The corpus folders at or just under ``paths`` (a crawl's workers, a Dask run's tasks)."""
    found: list[Path] = []
    for path in paths:
        if (path / STATE).is_file():
            found.append(path)
            continue
        found += sorted(p.parent for p in path.glob(f"*/{STATE}"))
        found += sorted(p.parent for p in path.glob(f"{TASKS}/*/{STATE}"))
    return found


def rebuild(folders: list[Path], url: str) -> int:
    """Add every committed document of ``folders`` to the index ``url``; how many."""
    added = 0
    for folder in folders:
        count = _rebuild_one(folder, url)
        logger.info("%s: %d documents added to the dedup index", folder, count)
        added += count
    return added


def _rebuild_one(folder: Path, url: str) -> int:
    with _opened(folder, url) as (connection, checkpoint, index):
        connection.execute("BEGIN IMMEDIATE")
        count = 0
        options = index.options
        minhash = MinHasher(options.num_perm, options.shingle, options.seed)
        for record in committed_records(folder, checkpoint):
            index.add(document_of(record, options, minhash))
            count += 1
        index.prepare()
        connection.execute("COMMIT")
        index.committed()
        return count


def write_copies(folder: Path, url: str) -> int:
    """Write ``folder/copies.jsonl`` from the index ``url``; how many documents have copies."""
    with _opened(folder, url) as (_, checkpoint, index):
        ids = [record["id"] for record in committed_records(folder, checkpoint)]
        counts = index.copies(ids)
    target = folder / COPIES_FILE
    temporary = target.with_name(target.name + ".tmp")
    with temporary.open("w") as file:
        for doc_id in ids:
            if counts.get(doc_id):
                file.write(json.dumps({"id": doc_id, "copies": counts[doc_id]}) + "\n")
    os.replace(temporary, target)
    return len(counts)


@contextmanager
def _opened(folder: Path, url: str) -> Iterator[tuple[sqlite3.Connection, Checkpoint, OpenIndex]]:
    """The folder locked, its state, and the index opened as its owner (nothing checked)."""
    layout = Layout(folder)
    lock = _lock(layout.lock)
    connection = _open_database(layout.state)
    try:
        checkpoint = Checkpoint(connection)
        options = recorded_dedup_options(checkpoint)
        index = open_index(url, options).open(
            IndexHost(folder, connection, checkpoint, layout.dedup), rebuilding=True)
        try:
            yield connection, checkpoint, index
        finally:
            index.close()
    finally:
        connection.close()
        os.close(lock)


def doubled_documents(folders: list[Path], read: Callable[[Path, int], None] | None = None,
                      ) -> tuple[int, dict[str, list[Path]]]:
    """How many committed documents ``folders`` hold, and each id held more than once with
    the folders holding its copies (one folder twice when it holds two). ``read`` hears of
    each folder read, with its documents (a progress bar).

    Writes nothing and takes no folder's lock: run it when the runs are done. The ids are
    64-bit hex (``Document.id``), kept as integers: 12 bytes a document with the folder's
    number, about 30 while they are sorted.
    """
    ids, owners = [], []
    for number, folder in enumerate(folders):
        found = np.fromiter((int(r["id"], 16) for r in _records_unlocked(folder)),
                            dtype=np.uint64)
        ids.append(found)
        owners.append(np.full(found.size, number, dtype=np.int32))
        if read is not None:
            read(folder, found.size)
    every = np.concatenate(ids) if ids else np.zeros(0, dtype=np.uint64)
    holder = np.concatenate(owners) if owners else np.zeros(0, dtype=np.int32)
    order = np.argsort(every, kind="stable")
    ranked = every[order]
    doubled: dict[str, list[Path]] = {}
    for i in np.flatnonzero(ranked[1:] == ranked[:-1]):
        copies = doubled.setdefault(f"{int(ranked[i]):016x}", [folders[holder[order[i]]]])
        copies.append(folders[holder[order[i + 1]]])
    return int(every.size), doubled


def _records_unlocked(folder: Path) -> Iterator[dict[str, Any]]:
    # Not _open_database: its autocommit would keep what Checkpoint.setting writes when a key
    # is missing. Here nothing is ever committed (closing rolls it back), and a folder
    # without its state is an error, not a new empty database ("rw" creates none).
    connection = sqlite3.connect(f"{Layout(folder).state.resolve().as_uri()}?mode=rw", uri=True)
    try:
        yield from committed_records(folder, Checkpoint(connection))
    finally:
        connection.close()


def recorded_dedup_options(checkpoint: Checkpoint) -> DedupOptions:
    """The dedup options of the folder's last run (as its manifest records them)."""
    runs = [run for run in checkpoint.runs() if "processor" in run["options"]]
    recorded: dict[str, Any] = runs[-1]["options"]["processor"].get("dedup", {}) if runs else {}
    known = {f.name for f in fields(DedupOptions)}
    values = {key: value for key, value in recorded.items() if key in known}
    if "levels" in values:
        values["levels"] = frozenset(values["levels"])
    return DedupOptions(**values)


def committed_records(folder: Path, checkpoint: Checkpoint) -> Iterator[dict[str, Any]]:
    """Every record of the folder's committed shards, in shard order."""
    compression = checkpoint.setting("compression", COMPRESSION_DEFAULT)
    name = checkpoint.setting("format", FORMAT_DEFAULT)
    suffix = get_format(name)(compression, RECORD_FIELDS).suffix
    for state in checkpoint.shards():
        final = folder / state.name(suffix)
        if final.exists() and name != FORMAT_DEFAULT:  # a published shard of another format
            yield from read_records(final)
            continue
        # JSONL, or the part of another format's open shard: uncompressed JSON lines.
        part_codec = compression if name == FORMAT_DEFAULT else "none"
        for line in _committed_bytes(final, state, part_codec).splitlines():
            if line.strip():
                yield json.loads(line)


def _committed_bytes(final: Path, state: ShardState, compression: str) -> bytes:
    path = final if final.exists() else final.with_name(final.name + PART_SUFFIX)
    with path.open("rb") as file:
        raw = file.read(state.length)
    if compression == "gzip":
        return gzip.decompress(raw)
    if compression == "zstd":
        import zstandard  # noqa: PLC0415

        reader = zstandard.ZstdDecompressor().stream_reader(io.BytesIO(raw),
                                                            read_across_frames=True)
        return bytes(reader.read())
    return raw


def document_of(record: dict[str, Any], options: DedupOptions, minhash: MinHasher) -> Document:
    """A kept document again, with the features the Processor gave it, from its record."""
    text = record["text"]
    paragraphs = tuple(text.split(PARAGRAPH_SEPARATOR))
    per_paragraph = [tokens(p) for p in paragraphs]
    words = [word for part in per_paragraph for word in part]
    signature = minhash.signature(words).tobytes() if options.uses("near") else b""
    hashes = tuple(paragraph_hash(p, options.paragraph_min_words) for p in per_paragraph) \
        if options.uses("paragraph") else ()
    return Document(url=record["url"], text=text, title=record.get("title"),
                    lang=record.get("lang", "und"), lang_prob=record.get("lang_prob", 0.0),
                    n_words=len(words), extractor=record.get("extractor", ""),
                    content_hash=hash64(normalise(words)), url_key=url_key(record["url"]),
                    signature=signature, paragraphs=paragraphs, paragraph_hashes=hashes)
