"""Record formats by name: the one registry that shards, merge, the card and readers use.

    fmt = get_format("parquet")("zstd", RECORD_FIELDS)   # a format bound to its options
    for record in read_records(Path("out/en/en-00001.parquet")):
        ...

Adding a format is one module with a ``RecordFormat`` subclass
(``corpusbot.corpus.formats.base``) and one line in ``_REGISTRY``: its
name, where the class lives (imported on first use, so that pyarrow is
loaded only by a Parquet run), and the file-name endings of its shards.
"""

from __future__ import annotations

from collections.abc import Iterator
from importlib import import_module
from pathlib import Path
from typing import Any

from corpusbot.corpus.formats.base import RecordFormat

_REGISTRY: dict[str, tuple[str, tuple[str, ...]]] = {
    "jsonl": ("corpusbot.corpus.formats.jsonl:Jsonl", (".jsonl.gz", ".jsonl.zst", ".jsonl")),
    "parquet": ("corpusbot.corpus.formats.parquet:Parquet", (".parquet",)),
}
FORMATS = tuple(_REGISTRY)
FORMAT_DEFAULT = "jsonl"


def get_format(name: str) -> type[RecordFormat]:
    """The format class registered as ``name``; ValueError naming the known ones."""
    if name not in _REGISTRY:
        raise ValueError(f"unknown format {name!r}; known: {', '.join(FORMATS)}")
    module, _, attribute = _REGISTRY[name][0].partition(":")
    return getattr(import_module(module), attribute)


def format_of(path: Path) -> type[RecordFormat] | None:
    """The format of a shard, from its file name; None when no format writes such names."""
    name = path.name.removesuffix(".part")
    for format_name, (_, endings) in _REGISTRY.items():
        if name.endswith(endings):
            return get_format(format_name)
    return None


def shard_endings() -> tuple[str, ...]:
    """Every ending a published shard of any format may have."""
    return tuple(ending for _, endings in _REGISTRY.values() for ending in endings)


def read_records(path: Path) -> Iterator[dict[str, Any]]:
    """Every record of one shard, whatever its format (as the JSONL line would decode)."""
    record_format = format_of(Path(path))
    if record_format is None:
        raise ValueError(f"{path} is not a corpus shard (known endings: "
                         f"{', '.join(shard_endings())})")
    return record_format.read(Path(path))
