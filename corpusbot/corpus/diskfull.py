"""A full disk under the corpus, named as such.

A write that finds no space fails in different clothes depending on who
wrote: ``OSError`` ENOSPC from a shard or the manifest, ``sqlite3``'s
"database or disk is full" from the state or the index. Either way nothing
committed is lost (the next run resumes from the last commit), and the
user needs one line that names the cause and the folder.
"""

from __future__ import annotations

import errno
import functools
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

_FULL_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT})
_Method = TypeVar("_Method", bound=Callable[..., Any])


class DiskFullError(OSError):
    """No space left where the corpus is written; its message is ``disk full at OUT``."""


def is_disk_full(error: BaseException) -> bool:
    """Whether ``error`` says the disk (or the user's quota) is full."""
    if isinstance(error, OSError):
        return error.errno in _FULL_ERRNOS
    if isinstance(error, sqlite3.Error):
        return (getattr(error, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL
                or "disk is full" in str(error))
    return False


@contextmanager
def disk_full_named(out_dir: Path) -> Iterator[None]:
    """Turn any disk-full error raised inside into ``DiskFullError("disk full at OUT")``."""
    try:
        yield
    except (OSError, sqlite3.Error) as error:
        if not is_disk_full(error) or isinstance(error, DiskFullError):
            raise
        raise DiskFullError(f"disk full at {out_dir}") from error


def names_disk_full(method: _Method) -> _Method:
    """A method of an object with an ``out_dir`` that runs under ``disk_full_named``."""

    @functools.wraps(method)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        with disk_full_named(getattr(self, "out_dir", None) or Path(str(args[0]))):
            return method(self, *args, **kwargs)

    return wrapper  # type: ignore[return-value]
