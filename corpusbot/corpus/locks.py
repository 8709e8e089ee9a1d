"""An exclusive, non-blocking lock on a file, so one run at a time owns a folder."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path


def try_lock(path: Path) -> int | None:
    """A file descriptor holding an exclusive lock on ``path``, or None if another holds it.

    Closing the descriptor releases the lock; so does the process ending,
    which is why a crashed run never leaves a folder locked.
    """
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(descriptor)
        return None
    return descriptor
