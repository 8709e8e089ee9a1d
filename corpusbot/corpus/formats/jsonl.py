"""JSON Lines, one record a line, compressed as a series of gzip members or zstd frames.

Members and frames concatenate into one valid stream, so ending one at each
commit makes every committed prefix of a shard a file any gzip or zstd
reader takes whole, and a part cut back to a commit can be appended to.
"""

from __future__ import annotations

import gzip
import io
import json
import zlib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, BinaryIO, Protocol

from corpusbot.corpus.formats.base import RecordFormat, RecordWriter

GZIP_LEVEL = 6
ZSTD_LEVEL = 3
_SUFFIXES = {"gzip": ".jsonl.gz", "zstd": ".jsonl.zst", "none": ".jsonl"}


class _Compressor(Protocol):
    def compress(self, data: bytes) -> bytes: ...
    def flush(self) -> bytes: ...


class _Identity:
    def compress(self, data: bytes) -> bytes:
        return data

    def flush(self) -> bytes:
        return b""


def check_zstd() -> None:
    """Raise ValueError with the install command when zstandard is missing.

    Checked when the options are made, so that a run without the package
    stops before it writes a shard or a state file.
    """
    try:
        import zstandard  # noqa: F401, PLC0415
    except ImportError:
        raise ValueError("zstd compression needs the zstandard package: "
                         "pip install 'corpusbot[zstd]', or choose gzip") from None


def _compressor(compression: str) -> _Compressor:
    """A fresh compressor whose ``flush`` ends one complete member (gzip) or frame (zstd)."""
    if compression == "gzip":
        return zlib.compressobj(GZIP_LEVEL, zlib.DEFLATED, 31)
    if compression == "zstd":
        import zstandard  # optional dependency: corpusbot[zstd]  # noqa: PLC0415

        return zstandard.ZstdCompressor(level=ZSTD_LEVEL).compressobj()
    return _Identity()


def encode(record: Mapping[str, Any]) -> bytes:
    """One JSONL line: compact, UTF-8 as is."""
    line = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
    return line.encode("utf-8") + b"\n"


class JsonlWriter(RecordWriter):
    """Appends lines through the current member's compressor."""

    __slots__ = ("compression", "compressor", "file", "pending")

    def __init__(self, file: BinaryIO, compression: str) -> None:
        self.file, self.compression = file, compression
        self.compressor = _compressor(compression)
        self.pending = False  # lines since the last member ended

    def write(self, record: Mapping[str, Any]) -> int:
        line = encode(record)
        self.file.write(self.compressor.compress(line))
        self.pending = True
        return len(line)

    def end(self) -> None:
        if self.pending:
            self.file.write(self.compressor.flush())
            self.compressor = _compressor(self.compression)
            self.pending = False


class Jsonl(RecordFormat):
    """JSON Lines, gzip (default), zstd or plain."""

    name = "jsonl"

    def __init__(self, compression: str, fields: Mapping[str, Any]) -> None:
        super().__init__(compression, fields)
        if compression == "zstd":
            check_zstd()

    @property
    def suffix(self) -> str:
        return _SUFFIXES[self.compression]

    def writer(self, file: BinaryIO) -> RecordWriter:
        return JsonlWriter(file, self.compression)

    @classmethod
    def read(cls, path: Path) -> Iterator[dict[str, Any]]:
        with _open_text(path) as lines:
            for line in lines:
                if line.strip():
                    yield json.loads(line)


def _open_text(path: Path) -> io.TextIOBase:
    name = path.name.removesuffix(".part")
    if name.endswith(".gz"):
        return gzip.open(path, "rt", encoding="utf-8")
    if name.endswith(".zst"):
        import zstandard  # noqa: PLC0415

        return io.TextIOWrapper(zstandard.open(path, "rb"), encoding="utf-8")
    return open(path, encoding="utf-8")
