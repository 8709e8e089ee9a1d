"""The item pipelines on their own: a real worker pool, a real corpus, items made by hand."""

from __future__ import annotations

import asyncio
import dataclasses
import gzip
import json
import subprocess
import sys
from concurrent.futures import Future

import pytest
from scrapy.exceptions import DropItem, NotConfigured
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

from corpusbot.crawl.addon import Addon
from corpusbot.crawl.items import PageItem, page_from_item
from corpusbot.crawl.signals import corpus_committed
from corpusbot.document import Document, Rejection
from corpusbot.page import Page
from corpusbot.pipelines.corpus import CorpusPipeline
from corpusbot.pipelines.process import ProcessPipeline, _deliver, _Waiting
from corpusbot.pool import TIMEOUT, WORKER_CRASH, InlinePool
from corpusbot.processor import Processor, ProcessorOptions
from tests.conftest import FIXTURES_DIR, REPO
from tests.test_pool import Deadly

FIXTURES = FIXTURES_DIR / "site" / "articles"
URL = "https://news.example/2024/05/river-port-reopens-after-dredging.html"


def _article() -> bytes:
    return (FIXTURES / "river-port-reopens-after-dredging.html").read_bytes()


def _crawler(tmp_path, **settings):
    return get_crawler(settings_dict={"ADDONS": {Addon: 0}, "CORPUSBOT_OUTPUT_DIR": str(tmp_path),
                                      "CORPUSBOT_PROCESS_WORKERS": 1,
                                      "CORPUSBOT_CONTACT": "tests@corpusbot.invalid", **settings})


def test_the_worker_adds_declared_metadata_to_kept_documents():
    page = Page(url=URL, body=_article(), headers={"Content-Type": "text/html"})
    document = InlinePool(Processor()).submit([page]).result()[0]
    assert isinstance(document, Document)
    assert document.meta["published"] == "2024-05-02T08:15:00Z"
    assert document.meta["authors"] == ["Mara Lindqvist"]
    assert document.meta["site_name"] == "The Valley Courier"


def test_metadata_is_off_only_when_asked_and_never_costs_the_text():
    page = Page(url=URL, body=_article(), headers={"Content-Type": "text/html"})
    without = Processor(ProcessorOptions(overrides={"extract.metadata": False}))
    assert without.process(page).meta is None
    undated = Page(url="https://news.example/about",
                   body=b"<html><body><p>" + b"Words of a page with no date at all. " * 20
                   + b"</p></body></html>")
    document = Processor().process(undated)
    assert isinstance(document, Document) and not (document.meta or {}).get("published")


def test_page_items_dicts_and_other_items():
    item = PageItem(url=URL, body=b"<p>x</p>", warc_file="a.warc.gz", warc_offset=7,
                    warc_record_id="<urn:uuid:1>", fetched_at="2024-06-01T00:00:00Z")
    page = page_from_item(item)
    assert (page.source, page.offset, page.record_id) == ("a.warc.gz", 7, "<urn:uuid:1>")
    assert page_from_item({"url": URL, "html": "<p>é</p>"}).body == "<p>é</p>".encode()
    with pytest.raises(KeyError, match="url"):
        page_from_item({"title": "not a page"})
    assert "bytes" in repr(item) and "<p>" not in repr(item)


def _pipelines(crawler) -> tuple[list[int], ProcessPipeline, CorpusPipeline]:
    """A list that grows at each ``corpus_committed``, and the two pipelines."""
    commits: list[int] = []
    crawler.signals.connect(lambda: commits.append(1), signal=corpus_committed, weak=False)
    return (commits, build_from_crawler(ProcessPipeline, crawler),
            build_from_crawler(CorpusPipeline, crawler))


def test_pages_go_through_the_pool_into_the_corpus(tmp_path):
    crawler = _crawler(tmp_path, CORPUSBOT_CORPUS_COMMIT_ITEMS=1)
    commits, process, corpus = _pipelines(crawler)

    async def run():
        outcomes = []
        for item in (PageItem(url=URL, body=_article()), PageItem(url=URL, body=_article()),
                     PageItem(url="https://news.example/short.html", body=b"<p>Too short.</p>"),
                     {"title": "not a page"}):
            processed = await process.process_item(item)
            try:
                outcomes.append(await corpus.process_item(processed))
            except DropItem as drop:
                outcomes.append(str(drop).split(":")[0])
        return outcomes

    asyncio.run(process.open_spider())
    try:
        kept, duplicate, short, other = asyncio.run(run())
    finally:
        process.close_spider()
        corpus.close_spider()
    assert isinstance(kept, PageItem) and isinstance(kept.result, Document)
    assert duplicate == "dedup/url"
    assert short.startswith(("extract/", "filter/"))
    assert other == {"title": "not a page"}
    stats = crawler.stats.get_stats()
    assert stats["corpusbot/kept"] == 1 and stats["corpusbot/process/pages"] == 3
    assert stats["corpusbot/rejected/dedup/url"] == 1
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["documents"] == 1 and manifest["options"]["source"] == "crawl"
    assert len(commits) >= 3


def test_an_idle_crawl_commits_what_it_added_and_says_so(tmp_path):
    # So that a process of a shared crawl waiting for the others holds nothing finished
    # unacknowledged (redis_handover acknowledges at each corpus_committed).
    crawler = _crawler(tmp_path, CORPUSBOT_CORPUS_COMMIT_ITEMS=100)
    signalled, process, corpus = _pipelines(crawler)
    asyncio.run(process.open_spider())
    try:
        processed = asyncio.run(process.process_item(PageItem(url=URL, body=_article())))
        asyncio.run(corpus.process_item(processed))
        assert signalled == [] and "corpusbot/commits" not in crawler.stats.get_stats()
        corpus.idle()
        assert signalled == [1] and crawler.stats.get_value("corpusbot/commits") == 1
        corpus.idle()  # nothing added since: no commit, but what finished may be acknowledged
        assert signalled == [1, 1] and crawler.stats.get_value("corpusbot/commits") == 1
    finally:
        process.close_spider()
        corpus.close_spider()


def test_a_corpus_taken_over_before_its_closing_commit_closes_in_one_line(
        tmp_path, redis_url, caplog):
    # A process of a shared crawl taken for dead while it stalled: the others redo its
    # uncommitted pages, so its closing commit is refused, in one line, not a traceback.
    from corpusbot.dedup.redis_index import RedisAddress, RedisIndex

    crawler = _crawler(tmp_path, CORPUSBOT_CORPUS_COMMIT_ITEMS=100,
                       CORPUSBOT_DEDUP_URL=redis_url)
    signalled, process, corpus = _pipelines(crawler)
    asyncio.run(process.open_spider())
    try:
        processed = asyncio.run(process.process_item(PageItem(url=URL, body=_article())))
        asyncio.run(corpus.process_item(processed))
    finally:
        process.close_spider()
    other = RedisIndex.connect(RedisAddress.parse(redis_url), "other", 0, bands=16,
                               signature_bytes=64)
    owner = corpus.sink.submit(lambda: corpus.corpus.index.owner).result()
    assert other.for_owner(owner).abandon() > 0
    corpus.close_spider()
    assert signalled == []
    # the hand-over scheduler, closing after the pipelines, queues again what it holds
    assert crawler.stats.get_value("corpusbot/handover/taken_over") == 1
    refused = [r for r in caplog.records if "took this one for dead" in r.getMessage()]
    assert len(refused) == 1 and refused[0].exc_info is None
    manifest = tmp_path / "manifest.json"
    assert not manifest.exists() or json.loads(manifest.read_text())["documents"] == 0


def test_markup_cuts_are_counted_in_the_crawl_stats_and_the_manifest(tmp_path):
    crawler = _crawler(tmp_path)
    process = build_from_crawler(ProcessPipeline, crawler)
    corpus = build_from_crawler(CorpusPipeline, crawler)
    attributes = b"<div " + b" ".join(b"a%d=x" % i for i in range(5000)) + b">"
    cut = PageItem(url=URL, body=_article().replace(b"<body", attributes + b"<body", 1))
    plain = PageItem(url="https://news.example/other.html", body=_article())

    async def run():
        for item in (cut, plain):
            try:
                await corpus.process_item(await process.process_item(item))
            except DropItem:
                pass

    asyncio.run(process.open_spider())
    try:
        asyncio.run(run())
    finally:
        process.close_spider()
        corpus.close_spider()
    assert cut.result.cuts == ("html/cut/attributes",) and plain.result.cuts == ()
    assert crawler.stats.get_value("corpusbot/html/cut/attributes") == 1
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["html"] == {"cut/attributes": 1}


@pytest.mark.parametrize(("cls", "flag"), [(ProcessPipeline, "CORPUSBOT_PROCESS_ENABLED"),
                                           (CorpusPipeline, "CORPUSBOT_CORPUS_ENABLED")])
def test_off_means_not_configured(tmp_path, cls, flag):
    with pytest.raises(NotConfigured):
        build_from_crawler(cls, _crawler(tmp_path, **{flag: False}))


def _pages(names: list[str]) -> list[PageItem]:
    body = _article()
    # The same article under other URLs: each gives a document of its own URL.
    return [PageItem(url=f"https://news.example/{name}.html", body=body) for name in names]


def _process_all(process: ProcessPipeline, items: list) -> list:
    """Every item through an opened pipeline at once, as the scraper hands them over."""

    async def run():
        return await asyncio.gather(*(process.process_item(item) for item in items))

    asyncio.run(process.open_spider())
    try:
        return asyncio.run(run())
    finally:
        process.close_spider()


def test_pages_that_wait_together_leave_in_one_task_and_keep_their_results(tmp_path):
    process = build_from_crawler(ProcessPipeline, _crawler(tmp_path))
    items = _pages([f"copy-{n}" for n in range(24)])
    done = _process_all(process, items)
    assert [item.result.url for item in done] == [item.url for item in items]
    assert all(isinstance(item.result, Document) for item in done)
    stats = process.stats.get_stats()
    assert stats["corpusbot/process/pages"] == 24
    assert stats["corpusbot/process/tasks"] < 24  # one worker, two tasks in flight: the rest waited


def test_a_dead_worker_costs_only_its_page_and_the_pool_starts_again(tmp_path):
    process = build_from_crawler(ProcessPipeline, _crawler(tmp_path))
    process.processor = Deadly(process.processor.options)
    before, deadly, after = _pages(["a", "b", "c"]), _pages(["kill"]), _pages(["d"])

    async def run():
        first = await asyncio.gather(*(process.process_item(item) for item in before + deadly))
        return first, await process.process_item(after[0])

    asyncio.run(process.open_spider())
    try:
        first, last = asyncio.run(run())
    finally:
        process.close_spider()
    killed = first[-1].result
    assert isinstance(killed, Rejection) and killed.reason == WORKER_CRASH
    # the pages that shared a task with it are retried alone, and come through
    assert all(isinstance(item.result, Document) for item in first[:-1])
    assert isinstance(last.result, Document)  # a fresh pool took the next page


def test_a_page_stuck_in_native_code_is_rejected_on_the_crawl_path_too(tmp_path):
    crawler = _crawler(tmp_path, CORPUSBOT_PROCESS_TIMEOUT_SECONDS=1)
    process = build_from_crawler(ProcessPipeline, crawler)
    process.processor = Deadly(process.processor.options)
    items = _pages(["a", "native", "b"])
    done = _process_all(process, items)
    stuck = done[1].result
    assert isinstance(stuck, Rejection) and stuck.reason == TIMEOUT
    assert all(isinstance(item.result, Document) for item in (done[0], done[2]))


def test_tasks_the_pool_cancels_at_shutdown_cancel_their_pages():
    task = Future()
    task.cancel()
    batch = [_Waiting(page_from_item(item)) for item in _pages(["a", "b"])]
    _deliver(task, batch)
    assert all(waiting.result.cancelled() for waiting in batch)


@pytest.mark.parametrize(("name", "value", "message"), [
    ("CORPUSBOT_PROCESS_MODE", "fast", "unknown extraction mode 'fast'"),
    ("CORPUSBOT_PROCESS_LANGUAGES", ["english"], "unknown language code"),
    ("CORPUSBOT_DEDUP_LEVELS", ["fuzzy"], "unknown dedup level"),
])
def test_a_bad_setting_fails_at_start_with_one_message(tmp_path, name, value, message):
    with pytest.raises(ValueError, match=message):
        build_from_crawler(ProcessPipeline, _crawler(tmp_path, **{name: value}))


def _documents() -> list[Document]:
    processor = Processor()
    pages = [Page(url=f"https://news.example/{path.name}", body=path.read_bytes(),
                  headers={"Content-Type": "text/html"}) for path in sorted(FIXTURES.iterdir())]
    return [doc for doc in map(processor.process, pages) if isinstance(doc, Document)]


def test_the_sink_thread_adds_and_commits_in_arrival_order_exactly_once(tmp_path):
    crawler = _crawler(tmp_path, CORPUSBOT_CORPUS_COMMIT_ITEMS=3)
    commits = []
    crawler.signals.connect(lambda: commits.append(1), signal=corpus_committed, weak=False)
    corpus = build_from_crawler(CorpusPipeline, crawler)
    documents = _documents()
    # Each article twice, interleaved: the copy under another URL comes later and must
    # be the one found a duplicate, whichever add the thread ran first.
    copies = [dataclasses.replace(doc, url=doc.url + "?copy", url_key=doc.url_key + 1)
              for doc in documents]
    results = [doc for pair in zip(documents, copies, strict=True) for doc in pair][::-1]
    items = [PageItem(url=result.url, body=b"", result=result) for result in results]

    async def run():
        return await asyncio.gather(*(corpus.process_item(item) for item in items),
                                    return_exceptions=True)

    try:
        outcomes = asyncio.run(run())
    finally:
        corpus.close_spider()
    kept = [item.url for item in outcomes if isinstance(item, PageItem)]
    assert len(kept) == len(documents) and all(isinstance(o, (PageItem, DropItem))
                                               for o in outcomes)
    expected = [item.url for item in items if item.url.endswith("?copy")]
    assert kept == expected  # the first of each pair to arrive, in arrival order
    written = _records(tmp_path)  # one shard per language: arrival order within each
    assert sorted(record["url"] for record in written) == sorted(expected)
    for lang in {record["lang"] for record in written}:
        urls = {record["url"] for record in written if record["lang"] == lang}
        assert [r["url"] for r in written if r["lang"] == lang] == [
            url for url in expected if url in urls]
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["documents"] == len(documents)
    assert len(commits) == len(items) // 3 + 1  # every third item, and the close
    assert crawler.stats.get_value("corpusbot/commits") == len(items) // 3


def _records(out) -> list[dict]:
    records = []
    for shard in sorted(out.glob("*/*.jsonl.gz")):
        with gzip.open(shard, "rt", encoding="utf-8") as lines:
            records += [json.loads(line) for line in lines]
    return records


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_the_other_start_methods_open_the_pool_too(tmp_path, method):
    # forkserver (the default) starts its workers off the reactor thread; fork on it
    process = build_from_crawler(
        ProcessPipeline, _crawler(tmp_path, CORPUSBOT_PROCESS_START_METHOD=method))
    asyncio.run(process.open_spider())
    try:
        item = asyncio.run(process.process_item(PageItem(url=URL, body=_article())))
    finally:
        process.close_spider()
    assert isinstance(item.result, Document)


OPENING = """
import asyncio, json, sys, time
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler
from corpusbot.crawl.addon import Addon
from corpusbot.pipelines.process import ProcessPipeline

crawler = get_crawler(settings_dict={"ADDONS": {Addon: 0}, "CORPUSBOT_OUTPUT_DIR": sys.argv[1],
                                     "CORPUSBOT_PROCESS_WORKERS": 1,
                                     "CORPUSBOT_CONTACT": "tests@corpusbot.invalid"})
process = build_from_crawler(ProcessPipeline, crawler)

async def opening():
    ticks, opened = [time.monotonic()], asyncio.Event()

    async def tick():
        while not opened.is_set():
            await asyncio.sleep(0.01)
            ticks.append(time.monotonic())

    ticker = asyncio.create_task(tick())
    await asyncio.sleep(0)
    start = time.monotonic()
    await process.open_spider()
    took = time.monotonic() - start
    opened.set()
    await ticker
    return took, max(b - a for a, b in zip(ticks, ticks[1:]))

took, longest = asyncio.run(opening())
process.close_spider()
print(json.dumps({"took": took, "longest": longest}))
"""


def test_the_event_loop_goes_on_while_the_workers_start(tmp_path):
    # A shared crawl's heartbeat runs on the reactor. The first worker waits for the
    # forkserver to import the pipeline (about 1 s, several on a loaded machine); done on
    # the reactor thread, that silenced the heartbeat, and a process was taken for dead by
    # the others as it opened. A fresh interpreter: its forkserver is not running yet.
    done = subprocess.run([sys.executable, "-c", OPENING, str(tmp_path)], check=False,
                          cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    timing = json.loads(done.stdout.splitlines()[-1])
    assert timing["took"] > 0.2  # the forkserver's import: long enough to tell
    assert timing["longest"] < timing["took"] / 2, timing
