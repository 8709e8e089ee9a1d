"""Adding a dedup backend is one module and one line in ``BACKENDS``: shown with a toy one
(an in-memory SQLite index) that every route then takes by its URL, with no other change."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import pytest

from corpusbot.cli import main
from corpusbot.corpus.sink import CorpusOptions
from corpusbot.dedup import backends
from corpusbot.dedup.backends import IndexHost, open_index
from corpusbot.dedup.deduplicator import Deduplicator
from corpusbot.dedup.index import SQLiteIndex
from corpusbot.fingerprints.options import DedupOptions
from tests.archive.test_dask_runner import archives, records


@dataclass(slots=True, frozen=True)
class MemoryBackend:
    """The whole backend module: parse the URL, open the index against a corpus."""

    url: str
    options: DedupOptions
    shared: ClassVar[bool] = False

    @classmethod
    def from_url(cls, url: str, options: DedupOptions) -> MemoryBackend:
        return cls(url, options)

    def open(self, host: IndexHost, *, rebuilding: bool = False) -> Deduplicator:
        connection = sqlite3.connect(":memory:", isolation_level=None)
        return Deduplicator(SQLiteIndex(connection), self.options, host.settings)


def test_a_new_scheme_needs_one_registration_line(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError, match="unknown dedup index"):
        open_index("memory://", DedupOptions())
    monkeypatch.setitem(backends.BACKENDS, "memory", f"{__name__}:MemoryBackend")
    inputs = [str(p) for p in archives(tmp_path)]
    assert main(["warc", *inputs, "-o", str(tmp_path / "out"), "-j", "1", "-q",
                 "--dedup", "memory://"]) == 0
    assert main(["warc", *inputs, "-o", str(tmp_path / "ref"), "-j", "1", "-q"]) == 0
    assert sorted(r["id"] for r in records(tmp_path / "out")) == sorted(
        r["id"] for r in records(tmp_path / "ref"))


def test_dedup_options_given_as_the_index_name_are_refused(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    # str() of the options made a path: an SQLite file named after their repr appeared
    monkeypatch.chdir(tmp_path)
    with pytest.raises(TypeError, match="not DedupOptions"):
        open_index(DedupOptions(), DedupOptions())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not DedupOptions"):
        CorpusOptions(dedup=DedupOptions())  # type: ignore[arg-type]
    assert list(tmp_path.iterdir()) == []
    assert open_index(tmp_path / "index.sqlite", DedupOptions()).url == str(
        tmp_path / "index.sqlite")
