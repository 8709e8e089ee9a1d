"""Reading a corpus folder for the report: its manifest, its crawl stats, its records.

``read_shard`` is the one place that knows how a shard file holds records
(JSONL, plain or gzip or zstd, today); another record format adds its
reader there and the report reads it unchanged. A shard still being
written (``….part``) is read up to the length its manifest says was
committed, so a report taken during a run shows only committed documents.
"""

from __future__ import annotations

import gzip
import io
import json
import logging
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from corpusbot.corpus.formats import read_records
from corpusbot.corpus.layout import MANIFEST, STATS
from corpusbot.corpus.layout import PART_SUFFIX as PART

logger = logging.getLogger(__name__)

MANIFEST_FILE, CRAWL_STATS_FILE, PART_SUFFIX = MANIFEST, STATS, PART


@dataclass(slots=True, frozen=True)
class Shard:
    """One shard of the corpus: its path and the committed bytes of it."""

    lang: str
    path: Path
    length: int | None = None


class CorpusReadError(ValueError):
    """The folder is not a corpus (no readable manifest); the message says what to do."""


def read_manifest(folder: Path) -> dict[str, Any]:
    """The folder's ``manifest.json``, or CorpusReadError naming the problem."""
    path = folder / MANIFEST_FILE
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CorpusReadError(f"{folder} holds no {MANIFEST_FILE}: give the folder a "
                              "corpusbot run wrote to (or run corpusbot merge on it)") from None
    except (OSError, ValueError) as error:
        raise CorpusReadError(f"cannot read {path}: {error}") from None
    if not isinstance(manifest, dict) or "languages" not in manifest:
        raise CorpusReadError(f"{path} is not a corpusbot manifest")
    return manifest


def read_crawl_stats(folder: Path) -> list[dict[str, Any]]:
    """The crawl stats of the folder and of its workers' folders (a shared crawl)."""
    found = []
    for path in [folder / CRAWL_STATS_FILE, *sorted(folder.glob(f"*/{CRAWL_STATS_FILE}"))]:
        try:
            found.append(json.loads(path.read_text(encoding="utf-8")))
        except FileNotFoundError:
            continue
        except (OSError, ValueError) as error:
            logger.warning("skipping %s: %s", path, error)
    return found


def shards(folder: Path, manifest: dict[str, Any]) -> list[Shard]:
    """Every shard the manifest lists, at its final name or as the part being written."""
    found = []
    for lang, entry in manifest["languages"].items():
        for shard in entry.get("shards", []):
            final = folder / shard["file"]
            if final.exists():
                found.append(Shard(lang, final))
            elif final.with_name(final.name + PART_SUFFIX).exists():
                part = final.with_name(final.name + PART_SUFFIX)
                found.append(Shard(lang, part, shard.get("bytes")))
            else:
                logger.warning("shard %s is listed in the manifest but missing", final)
    return found


def read_shard(shard: Shard) -> Iterator[dict[str, Any]]:
    """The records of one shard in order; damage ends the shard with a warning, never a
    traceback (the report counts what it could read)."""
    name = shard.path.name.removesuffix(PART_SUFFIX)
    if not name.endswith(JSONL_ENDINGS):
        yield from _other_format(shard)
        return
    try:
        with open(shard.path, "rb") as raw:
            stream = raw if shard.length is None else io.BufferedReader(_Prefix(raw, shard.length))
            for line in _lines(name, stream):
                record = _record(line)
                if record is not None:
                    yield record
    except (OSError, EOFError, zlib.error) as error:
        logger.warning("stopped reading %s: %s", shard.path, error)


class _Prefix(io.RawIOBase):
    """The first ``length`` bytes of a file, streamed (a part may grow while it is read)."""

    def __init__(self, file: BinaryIO, length: int) -> None:
        self._file, self._left = file, length

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer)[:self._left]
        count = self._file.readinto(view) or 0  # type: ignore[attr-defined]
        self._left -= count
        return count


JSONL_ENDINGS = (".jsonl", ".jsonl.gz", ".jsonl.zst")
"""Shards the report streams itself, a part being written up to its committed length."""


def _other_format(shard: Shard) -> Iterator[dict[str, Any]]:
    """A shard of another record format (Parquet) through the format seam; a part still
    being written is read once it is published."""
    if shard.path.name.endswith(PART_SUFFIX):
        logger.warning("skipping %s until it is published", shard.path)
        return
    try:
        yield from read_records(shard.path)
    except (OSError, ValueError) as error:
        logger.warning("stopped reading %s: %s", shard.path, error)


def _lines(name: str, stream: BinaryIO) -> Iterator[bytes]:
    if name.endswith(".jsonl.gz"):
        yield from gzip.GzipFile(fileobj=stream)
    elif name.endswith(".jsonl.zst"):
        import zstandard  # optional: corpusbot[zstd]  # noqa: PLC0415

        yield from io.BufferedReader(zstandard.ZstdDecompressor().stream_reader(
            stream, read_across_frames=True))
    elif name.endswith(".jsonl"):
        yield from stream
    else:
        logger.warning("skipping %s: not a record format the report reads", name)


def _record(line: bytes) -> dict[str, Any] | None:
    try:
        record = json.loads(line)
    except ValueError:
        logger.warning("skipping a line that is not JSON")
        return None
    return record if isinstance(record, dict) else None
