"""The corpus with the shared Redis index: crash safety across processes, ownership."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from corpusbot.corpus.sink import Corpus, CorpusOptions
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

options = CorpusOptions(shard_bytes=2000, dedup={url!r})
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
                          owner=owner, name=name, url=redis_url)
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
