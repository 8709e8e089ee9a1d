"""Where the Processor runs: time limits, and a worker process that dies on a page."""

from __future__ import annotations

import os
import signal
import time

from corpusbot.document import Document, Rejection
from corpusbot.page import Page
from corpusbot.pool import TIMEOUT, WORKER_CRASH, InlinePool, WorkerPool
from corpusbot.processor import Processor
from tests.corpus_support import page


class Deadly(Processor):
    """Kills its process on a page whose URL says so, as a crash in native code would."""

    __slots__ = ()

    def process(self, item: Page) -> Document | Rejection:
        if "kill" in item.url:
            os._exit(3)
        if "slow" in item.url:
            time.sleep(5)
        if "stuck" in item.url:
            # As a parse stuck in native code: the alarm never reaches Python code.
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
            time.sleep(60)
        return super().process(item)


def pages(*names: str) -> list[Page]:
    return [Page(url=f"https://example.org/{name}", body=page("en-anarcat")) for name in names]


def test_a_page_over_the_time_limit_is_rejected_and_the_next_goes_on() -> None:
    results = InlinePool(Deadly(), timeout=0.3).submit(pages("slow", "fine")).result()
    assert isinstance(results[0], Rejection) and results[0].reason == TIMEOUT
    assert isinstance(results[1], Document)


def test_a_dead_worker_costs_only_its_page() -> None:
    pool = WorkerPool(Deadly(), jobs=2, timeout=60)
    try:
        first = pool.submit(pages("a", "kill", "b"))
        second = pool.submit(pages("c"))
        results = first.result() + second.result()
        after = pool.submit(pages("d")).result()
    finally:
        pool.shutdown()
    kinds = [r.reason if isinstance(r, Rejection) else "doc" for r in results + after]
    assert kinds == ["doc", WORKER_CRASH, "doc", "doc", "doc"]


def test_a_page_stuck_past_its_limit_is_killed_from_outside_and_costs_only_itself() -> None:
    pool = WorkerPool(Deadly(), jobs=2, timeout=0.5, kill_grace=0.5)
    started = time.monotonic()
    try:
        results = pool.submit(pages("a", "stuck", "b")).result(timeout=30)
        after = pool.submit(pages("c")).result(timeout=30)
    finally:
        pool.shutdown()
    kinds = [r.reason if isinstance(r, Rejection) else "doc" for r in results + after]
    assert kinds == ["doc", TIMEOUT, "doc", "doc"]
    assert time.monotonic() - started < 20  # not the page's 60 s
