"""Await work done off the reactor thread, whichever reactor Scrapy runs.

CPU work (extraction) goes to a process pool and blocking I/O (WARC files)
to a thread; both hand back a ``concurrent.futures.Future``. Under the
asyncio reactor (Scrapy's default) and without a reactor, a coroutine awaits
asyncio futures; under another Twisted reactor it awaits Deferreds. The
Future's completion callback runs in a worker thread, so the result is
handed to the event loop thread-safely either way.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import Future
from typing import TypeVar

from scrapy.utils.asyncio import is_asyncio_available
from twisted.internet.defer import Deferred

T = TypeVar("T")


async def await_future(future: Future[T]) -> T:
    """Wait for ``future`` without blocking the event loop; return its result or raise."""
    if is_asyncio_available():
        return await asyncio.wrap_future(future)
    return await _as_deferred(future)


def _as_deferred(future: Future[T]) -> Deferred[T]:
    # Imported here: importing the reactor at module level would install
    # Twisted's default reactor before Scrapy installs the configured one.
    from twisted.internet import reactor  # noqa: PLC0415

    deferred: Deferred[T] = Deferred()

    def fire(done: Future[T]) -> None:
        error = done.exception()
        if error is not None:
            reactor.callFromThread(deferred.errback, error)  # type: ignore[attr-defined]
        else:
            reactor.callFromThread(deferred.callback, done.result())  # type: ignore[attr-defined]

    future.add_done_callback(fire)
    return deferred
