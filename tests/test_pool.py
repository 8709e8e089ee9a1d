"""Where the Processor runs: time limits, and a worker process that dies on a page."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import time

from lxml import etree

from corpusbot.document import Document, Rejection
from corpusbot.page import Page
from corpusbot.pool import (
    FORKSERVER_PRELOAD,
    KILL_GRACE_SECONDS,
    TIMEOUT,
    WATCHDOG_INTERVAL_SECONDS,
    WORKER_CRASH,
    InlinePool,
    WorkerPool,
)
from corpusbot.processor import Processor
from tests.conftest import REPO
from tests.corpus_support import page

# The page: one <div> with 100,000 attributes holds libxml2 for minutes when
# parsed without corpusbot.html.bounds, and no signal reaches Python meanwhile.
ATTRIBUTE_BOMB = (b"<html><body><div " + b" ".join(b"a%d=x" % i for i in range(100_000))
                  + b">x</div></body></html>")


class Deadly(Processor):
    """Kills its process on a page whose URL says so, as a crash in native code would;
    or sticks in libxml2 on a "native" page, as a parse without bounds would."""

    __slots__ = ()

    def process(self, item: Page) -> Document | Rejection:
        if "kill" in item.url:
            os._exit(3)
        if "native" in item.url:
            etree.fromstring(ATTRIBUTE_BOMB, etree.HTMLParser())
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


def test_a_page_stuck_in_libxml2_is_killed_and_rejected_within_its_limit() -> None:
    pool = WorkerPool(Deadly(), jobs=2, timeout=1)
    try:
        started = time.monotonic()
        results = pool.submit(pages("a", "native", "b")).result()
        took = time.monotonic() - started
        after = pool.submit(pages("c")).result()
    finally:
        pool.shutdown()
    kinds = [r.reason if isinstance(r, Rejection) else "doc" for r in results + after]
    assert kinds == ["doc", TIMEOUT, "doc", "doc"]
    # the limit, the watchdog's grace and round, and a new pool's start (unbounded: minutes)
    assert took < 1 + KILL_GRACE_SECONDS + WATCHDOG_INTERVAL_SECONDS + 20


def test_the_inline_path_is_bounded_before_the_parse() -> None:
    bomb = Page(url="https://example.org/bomb", body=ATTRIBUTE_BOMB)
    started = time.monotonic()
    result = InlinePool(Processor(), timeout=60).submit([bomb]).result()[0]
    assert time.monotonic() - started < 20  # unbounded: minutes
    # the attributes are cut; what is left is too little text to keep
    assert isinstance(result, Rejection) and result.reason in ("extract/no-main-text",
                                                               "filter/too-short")


# What a worker imports once the fork server's preload is in: the modules its warm-up page
# loads that the server did not.
WARM_UP_AFTER_PRELOAD = """
import importlib, json, sys
from corpusbot.filters.registry import PRESETS
from corpusbot.pool import FORKSERVER_PRELOAD
from corpusbot.processor import Processor, ProcessorOptions
for name in FORKSERVER_PRELOAD:
    importlib.import_module(name)
before = set(sys.modules)
for preset in PRESETS:
    Processor(ProcessorOptions(preset=preset)).warm_up()
print(json.dumps(sorted(set(sys.modules) - before)))
"""


def test_the_fork_server_preloads_what_the_steps_import_on_their_first_page() -> None:
    # The steps import extraction and the English tokeniser lazily (the main process only
    # builds them); a module missing from the preload is imported again by every worker,
    # and a misspelt one is skipped silently by multiprocessing.
    for name in FORKSERVER_PRELOAD:
        assert importlib.util.find_spec(name) is not None, name
    done = subprocess.run([sys.executable, "-c", WARM_UP_AFTER_PRELOAD], cwd=REPO,
                          capture_output=True, text=True, check=True, timeout=120)
    imported = json.loads(done.stdout.splitlines()[-1])
    # corpusbot.stopwords: the package the stop-word lists are read from, as data
    assert [name for name in imported if name.startswith(("corpusbot.", "htmldate"))
            and name != "corpusbot.stopwords"] == []
