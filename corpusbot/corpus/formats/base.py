"""The record-format seam: what shards, commits, merge and readers ask of a format.

A format is bound to a compression and to the fields of the records it
holds (``corpusbot.document.RECORD_FIELDS`` for documents,
``REJECTION_FIELDS`` for rejects). The shard writer owns the files: it
hands the format an open ``.part`` file to append to, and at each commit
asks the format's writer to ``end`` what it buffered (a gzip member, a
zstd frame), then flushes, syncs and records the file's length in the
commit's transaction. After a crash the part is cut back to that length,
so a format must keep every committed prefix of its part file readable
and appendable. ``complete`` turns a finished part into the published
shard: a rename for JSONL, a conversion for Parquet.
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, BinaryIO

Fields = Mapping[str, Any]
"""A record's fields in order, each with its type: ``str``, ``int``, ``float``, or a
mapping of sub-fields (a nested record), or ``dict`` (an object of open keys)."""


class RecordWriter(ABC):
    """Appends records to one open part file."""

    @abstractmethod
    def write(self, record: Mapping[str, Any]) -> int:
        """Append ``record``; the bytes of its JSON encoding (what shards rotate on)."""

    @abstractmethod
    def end(self) -> None:
        """Write out what is buffered so that the file is a complete, appendable prefix."""


class RecordFormat(ABC):
    """One output format, bound to a compression and a record's fields."""

    name: str = ""
    compressions: tuple[str, ...] = ("gzip", "zstd", "none")

    def __init__(self, compression: str, fields: Fields) -> None:
        if compression not in self.compressions:
            raise ValueError(f"unknown compression {compression!r} for {self.name}; "
                             f"known: {', '.join(self.compressions)}")
        self.compression, self.fields = compression, fields

    @property
    @abstractmethod
    def suffix(self) -> str:
        """The published shard's file-name ending (``.jsonl.gz``, ``.parquet``)."""

    @abstractmethod
    def writer(self, file: BinaryIO) -> RecordWriter:
        """A writer appending to ``file`` (a new part, or one cut back to a commit)."""

    def complete(self, part: Path, final: Path) -> None:
        """Publish the finished ``part`` as ``final``, atomically; run again after a crash."""
        os.replace(part, final)

    @classmethod
    @abstractmethod
    def read(cls, path: Path) -> Iterator[dict[str, Any]]:
        """Every record of a published shard, as the JSONL line would decode."""
