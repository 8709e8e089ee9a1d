"""Parquet shards (``--format parquet``; needs pyarrow: ``pip install 'corpusbot[parquet]'``).

A Parquet file is readable only once its footer is written, and a footer
cannot be appended to after a crash. So an open shard's ``.part`` file is
JSON Lines (uncompressed), committed and cut back exactly as a JSONL
shard's; when the shard is finished and its commit is durable, ``complete``
converts the part into ``<lang>-NNNNN.parquet`` (written to a temporary
name, synced, renamed) and removes the part. A crash during the conversion
leaves the part, and the next open converts it again.

Columns are the record's fields in order (``RECORD_FIELDS``), typed.
Nested fields with a fixed set of keys (``source``) are structs; a field
whose keys vary from page to page (``meta``: dates, authors, ...) is a JSON
string, so that every shard of a corpus has one schema and a reader such as
``datasets`` loads them all as one table. ``read`` gives the records back
as the JSONL line would decode: ``meta`` parsed (absent when null) and a
struct's null members left out.

Row groups hold about ``ROW_GROUP_BYTES`` of records (JSON-encoded) each: a
reader streams a shard one row group at a time, so this bounds its memory,
and a group is large enough for column compression to pay.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, BinaryIO

from corpusbot.corpus.formats.base import Fields, RecordFormat, RecordWriter
from corpusbot.corpus.formats.jsonl import GZIP_LEVEL, ZSTD_LEVEL, JsonlWriter

ROW_GROUP_BYTES = 32 * 1024 * 1024
"""JSON bytes of records per row group (a 256 MiB shard gets eight)."""
READ_BATCH_ROWS = 1024
_JSON_COLUMNS = b"corpusbot.json_columns"
_LEVELS = {"gzip": GZIP_LEVEL, "zstd": ZSTD_LEVEL, "none": None}
"""The levels of the JSONL codecs: pyarrow's default zstd level (1) made shards 12 % larger
than JSONL's gzip on the gold pages (benchmarks/formats.py); at 3 they are 1 % smaller."""
DICTIONARY_COLUMNS = ("lang", "extractor", "reason", "source.type", "source.file")
"""Columns of few distinct values, dictionary-encoded; on the text columns a dictionary only
costs time before pyarrow gives it up (half the conversion time on the gold pages)."""


def _pyarrow() -> Any:
    try:
        import pyarrow  # noqa: PLC0415
        import pyarrow.parquet  # noqa: PLC0415
    except ImportError:
        raise ValueError("Parquet output needs pyarrow: pip install 'corpusbot[parquet]', "
                         "or choose --format jsonl") from None
    return pyarrow


def arrow_schema(fields: Fields) -> Any:
    """The Arrow schema of records with ``fields``; JSON columns named in its metadata."""
    pa = _pyarrow()
    json_columns = [name for name, kind in fields.items() if kind is dict]
    return pa.schema([(name, _arrow_type(pa, kind)) for name, kind in fields.items()],
                     metadata={_JSON_COLUMNS: ",".join(json_columns).encode()})


def _arrow_type(pa: Any, kind: Any) -> Any:
    if isinstance(kind, Mapping):
        return pa.struct([(name, _arrow_type(pa, sub)) for name, sub in kind.items()])
    return {str: pa.string(), int: pa.int64(), float: pa.float64(), bool: pa.bool_(),
            dict: pa.string()}[kind]


class Parquet(RecordFormat):
    """Parquet with gzip, zstd or no column compression."""

    name = "parquet"

    def __init__(self, compression: str, fields: Fields) -> None:
        super().__init__(compression, fields)
        self.schema = arrow_schema(fields)

    @property
    def suffix(self) -> str:
        return ".parquet"

    def writer(self, file: BinaryIO) -> RecordWriter:
        return JsonlWriter(file, "none")

    def complete(self, part: Path, final: Path) -> None:
        if not part.exists():
            return  # converted and removed before a crash
        temporary = final.with_name(final.name + ".tmp")
        self._convert(part, temporary)
        os.replace(temporary, final)
        part.unlink()

    def _convert(self, part: Path, target: Path) -> None:
        pa = _pyarrow()
        json_columns = [name for name, kind in self.fields.items() if kind is dict]
        columns = set(self.schema.names) | {
            f"{field.name}.{sub.name}" for field in self.schema
            if pa.types.is_struct(field.type) for sub in field.type}
        with pa.parquet.ParquetWriter(
                target, self.schema, compression=self.compression,
                compression_level=_LEVELS[self.compression],
                use_dictionary=[c for c in DICTIONARY_COLUMNS if c in columns]) as writer:
            for rows in _row_groups(part):
                for row in rows:
                    for column in json_columns:
                        if row.get(column) is not None:
                            row[column] = json.dumps(row[column], ensure_ascii=False)
                writer.write_table(pa.Table.from_pylist(rows, schema=self.schema),
                                   row_group_size=len(rows))
        with open(target, "rb+") as handle:
            os.fsync(handle.fileno())

    @classmethod
    def read(cls, path: Path) -> Iterator[dict[str, Any]]:
        pa = _pyarrow()
        shard = pa.parquet.ParquetFile(path)
        metadata = shard.schema_arrow.metadata or {}
        json_columns = [c for c in metadata.get(_JSON_COLUMNS, b"").decode().split(",") if c]
        for batch in shard.iter_batches(batch_size=READ_BATCH_ROWS):
            for row in batch.to_pylist():
                yield _as_record(row, json_columns)


def _row_groups(part: Path) -> Iterator[list[dict[str, Any]]]:
    rows: list[dict[str, Any]] = []
    size = 0
    with open(part, encoding="utf-8") as lines:
        for line in lines:
            rows.append(json.loads(line))
            size += len(line)
            if size >= ROW_GROUP_BYTES:
                yield rows
                rows, size = [], 0
    if rows:
        yield rows


def _as_record(row: dict[str, Any], json_columns: list[str]) -> dict[str, Any]:
    for column in json_columns:
        if row.get(column) is None:
            row.pop(column, None)
        else:
            row[column] = json.loads(row[column])
    for name, value in row.items():
        if isinstance(value, dict):
            row[name] = {key: item for key, item in value.items() if item is not None}
    return row
