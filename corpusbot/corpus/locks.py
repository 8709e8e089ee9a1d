"""An exclusive, non-blocking lock on a file, so one run at a time owns a folder."""

from __future__ import annotations

import fcntl
import os
import time
from pathlib import Path

LOCK_WAIT_SECONDS = 2.0
"""How long a busy lock is tried again: the forked workers of a run killed a moment
ago inherited its lock and exit within ``corpusbot.pool.OWNER_WATCH_SECONDS`` of it,
so that the same command run again at once finds the folder free."""


def try_lock(path: Path) -> int | None:
    """A file descriptor holding an exclusive lock on ``path``, or None if another holds it.

    Closing the descriptor releases the lock; so does the process ending (and
    its forked workers, which inherit it), which is why a crashed run never
    leaves a folder locked.
    """
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    deadline = time.monotonic() + LOCK_WAIT_SECONDS
    while True:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return descriptor
        except BlockingIOError:
            if time.monotonic() >= deadline:
                os.close(descriptor)
                return None
            time.sleep(0.1)
