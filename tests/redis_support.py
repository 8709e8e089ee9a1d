"""A real redis-server for the tests: started once per session on a free loopback port.

Tests that need it take the ``redis_url`` fixture (an empty database each
time). Without the binary (a plain clone; CI installs Debian's
``redis-server``) or the ``redis`` package they are skipped with the reason.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

STARTUP_SECONDS = 10.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_redis(folder: Path, port: int | None = None,
                persist: bool = False) -> tuple[subprocess.Popen[bytes], int]:
    """A redis-server on 127.0.0.1 (on ``port``, or a free one), answering pings: without
    persistence, or with an append-only file synced at every write (``persist``)."""
    import redis

    port = port or free_port()
    durability = ["--appendonly", "yes", "--appendfsync", "always"] if persist else [
        "--appendonly", "no"]
    server = subprocess.Popen(
        ["redis-server", "--save", "", *durability, "--port", str(port),
         "--bind", "127.0.0.1", "--dir", str(folder)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    client = redis.Redis(port=port)
    deadline = time.monotonic() + STARTUP_SECONDS
    while True:
        try:
            client.ping()
            return server, port
        except redis.ConnectionError:
            if time.monotonic() > deadline or server.poll() is not None:
                server.kill()
                raise RuntimeError("redis-server did not start") from None
            time.sleep(0.05)


@pytest.fixture(scope="session")
def redis_port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server not installed (apt-get install redis-server) — "
                    "the Redis backend tests need a real server")
    pytest.importorskip("redis", reason="the redis package is missing: "
                        "pip install corpusbot[redis]")
    server, port = start_redis(tmp_path_factory.mktemp("redis"))
    yield port
    server.terminate()
    server.wait(10)


@pytest.fixture
def redis_url(redis_port: int) -> str:
    """The URL of an emptied database on the session's server."""
    import redis

    redis.Redis(port=redis_port).flushall()
    return f"redis://127.0.0.1:{redis_port}/0"
