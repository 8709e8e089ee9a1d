"""The corpus with the shared Redis index: crash safety across processes, ownership."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from corpusbot.corpus.reindex import doubled_documents
from corpusbot.corpus.sink import Corpus, CorpusOptions
from corpusbot.dedup.backends import IndexHandedOverError
from corpusbot.dedup.redis_index import RedisIndex
from tests.conftest import REPO
from tests.corpus_support import make_doc, read_shards

CRASH = """
import os, sys
from pathlib import Path
sys.path.insert(0, {root!r})
import corpusbot.{module} as target
from corpusbot.corpus.sink import Corpus, CorpusOptions
from tests.corpus_support import make_doc

def die(*args, **kwargs):
    os._exit(9)

options = CorpusOptions(shard_bytes=2000, dedup={url!r}, format={fmt!r})
corpus = Corpus(Path({out!r}), options)
for i in range(10):
    corpus.add(make_doc(i))
corpus.commit()
for i in range(10, 20):
    corpus.add(make_doc(i))
setattr(target.{owner}, {name!r}, die)
corpus.commit()
"""


@pytest.mark.parametrize(("module", "owner", "name", "committed"), [
    ("corpus.checkpoint", "Checkpoint", "add_counts", 10),  # Redis has them, SQLite does not
    ("dedup.redis_index", "RedisIndex", "committed", 20),  # SQLite committed, journal left
    ("corpus.shards", "ShardWriter", "publish", 20),  # both committed, files not renamed
])
def test_a_task_killed_at_a_commit_point_loses_and_doubles_nothing(  # noqa: PLR0917
        tmp_path: Path, redis_url: str, module: str, owner: str, name: str,
        committed: int) -> None:
    script = CRASH.format(root=str(REPO), out=str(tmp_path / "task"), module=module,
                          owner=owner, name=name, url=redis_url, fmt="jsonl")
    assert subprocess.run([sys.executable, "-c", script], check=False).returncode == 9
    options = CorpusOptions(shard_bytes=2000, dedup=redis_url)
    with Corpus(tmp_path / "task", options) as retry:  # the retried task: released or adopted
        assert retry.stats["documents"] == committed
        added = [retry.add(make_doc(i)) for i in range(20)]
    assert added == [False] * committed + [True] * (20 - committed)
    assert [r["url"] for r in read_shards(tmp_path / "task")] == [
        make_doc(i).url for i in range(20)]
    with Corpus(tmp_path / "other", options) as other:  # another worker: all are known now
        assert not any(other.add(make_doc(i, lang="de")) for i in range(20))


def _owner(folder: Path) -> str:
    """The folder's name in the shared index."""
    with sqlite3.connect(folder / "state.sqlite") as db:
        return str(db.execute(
            "SELECT value FROM corpus_meta WHERE key = 'dedup_owner'").fetchone()[0])


@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
def test_a_commit_taken_over_before_it_was_confirmed_is_undone(
        tmp_path: Path, redis_url: str, fmt: str) -> None:
    # Killed between its SQLite commit and Redis hearing of it, then taken for dead: the
    # other process released that epoch and redid its pages, so the folder gives the commit
    # up when it is opened again; kept, both folders would hold those ten documents. Its
    # shards finished in that commit (2,000 bytes rotate every few documents) were never
    # published: they are cut back, not left as published copies.
    import redis

    if fmt == "parquet":
        pytest.importorskip("pyarrow")
    script = CRASH.format(root=str(REPO), out=str(tmp_path / "task"), module="dedup.redis_index",
                          owner="RedisIndex", name="committed", url=redis_url, fmt=fmt)
    assert subprocess.run([sys.executable, "-c", script], check=False).returncode == 9
    options = CorpusOptions(shard_bytes=2000, dedup=redis_url, format=fmt)
    owner = _owner(tmp_path / "task")
    with Corpus(tmp_path / "other", options) as other:
        index = other.index
        assert isinstance(index.redis, RedisIndex)
        redis.Redis.from_url(redis_url).delete(index.redis.keys.committing(owner))  # expired
        assert index.abandon(owner)
        assert all(other.add(make_doc(i)) for i in range(10, 20))  # its pages, redone here
    with Corpus(tmp_path / "task", options) as task:  # the task started again
        assert task.stats["documents"] == 10
        assert not any(task.add(make_doc(i)) for i in range(20))
    assert doubled_documents([tmp_path / "task", tmp_path / "other"]) == (20, {})
    assert _published_urls(tmp_path / "task", fmt) == [make_doc(i).url for i in range(10)]


def _published_urls(folder: Path, fmt: str) -> list[str]:
    """The URLs of every record in the folder's published shard files, in shard order."""
    if fmt == "jsonl":
        return [r["url"] for r in read_shards(folder)]
    import pyarrow.parquet as pq

    return [url for path in sorted(folder.glob("*/*.parquet"))
            for url in pq.read_table(path, columns=["url"]).column("url").to_pylist()]


def test_a_commit_landing_after_a_takeover_is_refused_and_undone(
        tmp_path: Path, redis_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Silent inside its commit past the minute the others wait: taken over, then its
    # SQLite commit lands. Redis refuses to confirm it, and the folder undoes it.
    import redis

    options = CorpusOptions(dedup=redis_url)
    task, other = Corpus(tmp_path / "task", options), Corpus(tmp_path / "other", options)
    for i in range(5):
        task.add(make_doc(i))
    task.commit()
    for i in range(5, 10):
        task.add(make_doc(i))
    owner, confirm = _owner(tmp_path / "task"), RedisIndex.committed

    def taken_over_first(index: RedisIndex) -> None:
        if index.owner == owner:
            redis.Redis.from_url(redis_url).delete(index.keys.committing(owner))
            assert other.index.abandon(owner)
        confirm(index)

    monkeypatch.setattr(RedisIndex, "committed", taken_over_first)
    with pytest.raises(IndexHandedOverError, match="took this one for dead"):
        task.commit()
    task.abort()
    monkeypatch.undo()
    assert all(other.add(make_doc(i)) for i in range(5, 10))
    other.close()
    with Corpus(tmp_path / "task", options) as again:
        assert again.stats["documents"] == 5
    assert doubled_documents([tmp_path / "task", tmp_path / "other"]) == (10, {})


def test_two_folders_sharing_redis_keep_each_text_once(tmp_path: Path, redis_url: str) -> None:
    options = CorpusOptions(dedup=redis_url)
    first, second = Corpus(tmp_path / "a", options), Corpus(tmp_path / "b", options)
    kept = [(first if i % 2 else second).add(make_doc(i % 7)) for i in range(14)]
    first.close()
    second.close()
    assert sum(kept) == 7
    urls = [r["url"] for r in read_shards(tmp_path / "a") + read_shards(tmp_path / "b")]
    assert sorted(urls) == sorted(make_doc(i).url for i in range(7))


def test_an_abort_releases_what_was_not_committed(tmp_path: Path, redis_url: str) -> None:
    options = CorpusOptions(dedup=redis_url)
    corpus = Corpus(tmp_path / "a", options)
    corpus.add(make_doc(1))
    corpus.commit()
    corpus.add(make_doc(2))
    corpus.abort()
    with Corpus(tmp_path / "b", options) as other:
        assert [other.add(make_doc(i)) for i in (1, 2)] == [False, True]


def test_an_unreachable_server_is_a_clear_error(tmp_path: Path) -> None:
    from tests.redis_support import free_port

    pytest.importorskip("redis")
    with pytest.raises(ConnectionError, match="cannot reach the Redis dedup index"):
        Corpus(tmp_path, CorpusOptions(dedup=f"redis://127.0.0.1:{free_port()}/0"))
    Corpus(tmp_path).close()  # the folder was released
