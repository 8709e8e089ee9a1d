"""The corpus sink: shards, rotation, compression, manifest, persistence and crash recovery."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from corpusbot.corpus.checkpoint import InputPosition
from corpusbot.corpus.sink import Corpus, CorpusBusyError, CorpusMismatchError, CorpusOptions
from corpusbot.document import Rejection
from tests.conftest import REPO
from tests.corpus_support import make_doc, read_shards

ROOT = REPO


def fill(corpus: Corpus, numbers: range, lang: str = "en") -> None:
    for i in numbers:
        assert corpus.add(make_doc(i, lang))


def test_documents_go_to_per_language_shards_with_a_manifest(tmp_path: Path) -> None:
    with Corpus(tmp_path) as corpus:
        fill(corpus, range(5), "en")
        fill(corpus, range(5, 8), "de")
        assert not corpus.add(Rejection(url="https://x/", reason="filter/too-short", url_key=1))
        assert corpus.add_verdict(make_doc(0, "en")) == "dedup/url"
        timeout = Rejection(url="https://y/", reason="process/timeout")
        assert corpus.add_verdict(timeout) == "process/timeout"
    assert sorted(p.name for p in tmp_path.glob("*/*")) == ["de-00001.jsonl.gz",
                                                             "en-00001.jsonl.gz"]
    records = read_shards(tmp_path)
    assert [r["url"] for r in records] == [make_doc(i, "de").url for i in range(5, 8)] + [
        make_doc(i, "en").url for i in range(5)]
    assert all(r["schema"] == 1 and r["lang"] in {"en", "de"} for r in records)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["documents"] == 8 and manifest["pages"] == 11
    assert manifest["languages"]["de"]["documents"] == 3
    assert manifest["languages"]["en"]["shards"][0] == {
        "file": "en/en-00001.jsonl.gz", "documents": 5, "complete": True,
        "bytes": (tmp_path / "en/en-00001.jsonl.gz").stat().st_size}
    assert manifest["rejections"] == {"filter/too-short": 1, "dedup/url": 1, "process/timeout": 1}


def test_shards_rotate_by_size(tmp_path: Path) -> None:
    with Corpus(tmp_path, CorpusOptions(shard_bytes=4000)) as corpus:
        for start in range(0, 40, 10):
            fill(corpus, range(start, start + 10))
            corpus.commit()
    shards = sorted(tmp_path.glob("en/*"))
    assert len(shards) > 3
    assert [p.name for p in shards] == [f"en-{n:05d}.jsonl.gz" for n in range(1, len(shards) + 1)]
    assert [r["url"] for r in read_shards(tmp_path)] == [make_doc(i).url for i in range(40)]
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert sum(s["documents"] for s in manifest["languages"]["en"]["shards"]) == 40


@pytest.mark.parametrize(("compression", "suffix"), [("zstd", ".jsonl.zst"), ("none", ".jsonl")])
def test_other_compressions(tmp_path: Path, compression: str, suffix: str) -> None:
    with Corpus(tmp_path, CorpusOptions(compression=compression)) as corpus:
        fill(corpus, range(3))
        corpus.commit()
        fill(corpus, range(3, 6))
    assert [p.name for p in tmp_path.glob("en/*")] == [f"en-00001{suffix}"]
    assert len(read_shards(tmp_path)) == 6


def test_the_index_persists_so_a_second_pass_adds_nothing(tmp_path: Path) -> None:
    with Corpus(tmp_path) as corpus:
        fill(corpus, range(4))
    with Corpus(tmp_path) as corpus:
        assert not any(corpus.add(make_doc(i)) for i in range(4))
        assert corpus.stats["rejected/dedup/url"] == 4
    assert len(read_shards(tmp_path)) == 4


def test_a_shared_index_elsewhere_serves_several_corpora(tmp_path: Path) -> None:
    options = CorpusOptions(dedup=str(tmp_path / "shared.sqlite"))
    with Corpus(tmp_path / "one", options) as corpus:
        fill(corpus, range(3))
    with Corpus(tmp_path / "two", options) as corpus:
        assert not corpus.add(make_doc(1))
        assert corpus.add(make_doc(7))
    assert not (tmp_path / "one" / "dedup.sqlite").exists()


def test_one_writer_per_folder(tmp_path: Path) -> None:
    with Corpus(tmp_path), pytest.raises(CorpusBusyError):
        Corpus(tmp_path)


def test_compression_cannot_change_within_a_corpus(tmp_path: Path) -> None:
    Corpus(tmp_path).close()
    with pytest.raises(CorpusMismatchError, match="--compression gzip"):
        Corpus(tmp_path, CorpusOptions(compression="zstd"))
    Corpus(tmp_path).close()  # the refused attempt left the folder free


def test_an_abort_keeps_exactly_the_last_commit(tmp_path: Path) -> None:
    corpus = Corpus(tmp_path)
    fill(corpus, range(5))
    corpus.advance(InputPosition("in.warc", 500, False))
    corpus.commit()
    fill(corpus, range(5, 9))
    corpus.advance(InputPosition("in.warc", 900, False))
    corpus.abort()  # as if the process had died here
    with Corpus(tmp_path) as again:
        assert again.position("in.warc") == InputPosition("in.warc", 500, False, None)
        assert again.stats["documents"] == 5
        fill(again, range(5, 9))  # re-read after the commit point: nothing is a duplicate
    assert [r["url"] for r in read_shards(tmp_path)] == [make_doc(i).url for i in range(9)]


class _InterruptedClose:
    """The corpus's database connection, whose close is followed by a second Ctrl-C."""

    def __init__(self, connection: object) -> None:
        self._connection = connection

    def __getattr__(self, name: str) -> object:
        return getattr(self._connection, name)

    def close(self) -> None:
        self._connection.close()
        raise KeyboardInterrupt


def test_a_second_ctrl_c_inside_the_release_leaves_abort_nothing_to_do(tmp_path: Path) -> None:
    # The CLI calls abort() on any exception: after a close interrupted once the database
    # was closed, abort() touched the closed connection and ended in a traceback.
    corpus = Corpus(tmp_path)
    fill(corpus, range(3))
    corpus._db = _InterruptedClose(corpus._db)
    lock = corpus._lock
    with pytest.raises(KeyboardInterrupt):
        corpus.close()
    corpus.abort()
    os.close(lock)  # what the interrupt kept the release from closing
    with Corpus(tmp_path) as again:
        assert again.stats["documents"] == 3
    assert [r["url"] for r in read_shards(tmp_path)] == [make_doc(i).url for i in range(3)]


CRASH = """
import os, sys
from pathlib import Path
sys.path.insert(0, {root!r})
import corpusbot.{module} as target
from corpusbot.corpus.sink import Corpus, CorpusOptions
from tests.corpus_support import make_doc

def die(*args, **kwargs):
    os._exit(9)

corpus = Corpus(Path({out!r}), CorpusOptions(shard_bytes=2000))
for i in range(10):
    corpus.add(make_doc(i))
corpus.commit()
for i in range(10, 20):
    corpus.add(make_doc(i))
setattr(target.{owner}, {name!r}, die)
corpus.commit()
"""


@pytest.mark.parametrize(("module", "owner", "name"), [
    ("corpus.shards", "ShardWriter", "publish"),  # after the database commit, before the renames
    ("corpus.checkpoint", "Checkpoint", "add_counts"),  # inside the transaction, before its commit
    ("corpus.shards", "ShardWriter", "flush"),  # before anything of the second commit
])
def test_a_crash_at_a_commit_point_loses_and_doubles_nothing(
        tmp_path: Path, module: str, owner: str, name: str) -> None:
    script = CRASH.format(root=str(ROOT), out=str(tmp_path), module=module, owner=owner,
                          name=name)
    assert subprocess.run([sys.executable, "-c", script], check=False).returncode == 9
    committed = 20 if name == "publish" else 10
    with Corpus(tmp_path, CorpusOptions(shard_bytes=2000)) as corpus:
        assert corpus.stats["documents"] == committed
        added = [corpus.add(make_doc(i)) for i in range(20)]
    assert added == [False] * committed + [True] * (20 - committed)
    assert [r["url"] for r in read_shards(tmp_path)] == [make_doc(i).url for i in range(20)]
    assert not list(tmp_path.glob("*/*.part"))


def test_a_language_that_is_not_a_code_never_names_a_path(tmp_path: Path) -> None:
    out = tmp_path / "out"
    with Corpus(out) as corpus:
        for i, lang in enumerate(["../../evil", "en/../x", "/abs", "x" * 300]):
            corpus.add(make_doc(i, lang))
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.jsonl.gz")) == [
        "out/und/und-00001.jsonl.gz"]
    assert len(read_shards(out)) == 4


def _state(folder: Path) -> dict[str, list[tuple]]:
    import sqlite3

    with sqlite3.connect(folder / "state.sqlite") as db:
        return {table: sorted(db.execute(f"SELECT * FROM {table}"))
                for table in ("corpus_inputs", "corpus_shards", "corpus_reject_shards",
                              "corpus_counts", "corpus_meta")}


def test_the_last_commit_can_be_undone_to_the_state_before_it(tmp_path: Path) -> None:
    # What a folder does when a shared index says another process took its last commit's
    # pages over: every table the commit wrote goes back, rows it added leave.
    import sqlite3

    from corpusbot.corpus.checkpoint import Checkpoint

    # (A shard finished in the commit is published only once the index confirmed it, so an
    # undone commit has published none: tests/corpus/test_corpus_redis.py has that case.)
    options = CorpusOptions(keep_rejects=True)
    with Corpus(tmp_path, options) as corpus:
        for i in range(6):
            corpus.add(make_doc(i))
        corpus.advance(InputPosition("a.warc.gz", 100, False))
        corpus.commit()
        before = _state(tmp_path)
        for i in range(6, 12):
            corpus.add(make_doc(i, lang="de" if i % 2 else "en"))
        corpus.add(Rejection("https://example.org/x", "too-short"))
        corpus.advance(InputPosition("a.warc.gz", 900, True))
        corpus.advance(InputPosition("b.warc.gz", 50, False))
        corpus.commit()
        assert _state(tmp_path) != before
        corpus.abort()
    db = sqlite3.connect(tmp_path / "state.sqlite", isolation_level=None)
    assert Checkpoint(db).undo_last_commit()
    assert _state(tmp_path) == before
    assert not Checkpoint(db).undo_last_commit()  # one commit back at most
    db.close()
    with Corpus(tmp_path, options) as again:  # the shards follow the restored states
        assert again.stats["documents"] == 6
    assert [r["url"] for r in read_shards(tmp_path)] == [make_doc(i).url for i in range(6)]
