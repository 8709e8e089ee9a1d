"""Crawls that run again: incremental re-runs, pause and resume, ``scrapy crawl``, exit codes.

Each test starts its own news site (the site keeps hit counts and a
publication phase) and runs real crawls in subprocesses.
"""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from collections import Counter

import pytest

from corpusbot.crawl.seen import NEW, UNCHANGED
from tests.newssite.client import (
    REPO,
    TEST_SETTINGS,
    NewsSite,
    corpus_records,
    crawl_stats,
    run_crawl,
)


def _crawl_hits(site: NewsSite) -> int:
    return sum(n for path, n in site.hits().items() if not path.startswith("/__"))


def _articles_fetched(hits: dict[str, int]) -> Counter[str]:
    return Counter({path: n for path, n in hits.items() if path.startswith("/news/")})


def test_a_rerun_fetches_only_new_and_changed_articles(tmp_path):
    out = tmp_path / "out"
    with NewsSite() as site:
        first = run_crawl([f"{site.url}/"], out)
        assert first.returncode == 0, first.stderr[-2000:]
        before = _articles_fetched(site.hits())
        site.phase(2)
        second = run_crawl([f"{site.url}/", "-v"], out)
        assert second.returncode == 0, second.stderr[-2000:]
        fetched = _articles_fetched(site.hits()) - before
        manifest = site.manifest()
    # Only the new article, the one whose sitemap lastmod moved on, and the
    # 404 (no article was stored under it, so it may have appeared since).
    assert set(fetched) == {manifest["held"], manifest["changed"], manifest["missing"]}
    stats = crawl_stats(out)
    # pages, not the links to them: every article but the new and the changed one
    assert stats["corpusbot/incremental/skipped"] == len(manifest["articles"]) - 2
    assert f"skipped, unchanged {len(manifest['articles']) - 2}\n" in second.stdout
    assert "skipping pages an earlier run stored" in second.stderr
    assert stats["corpusbot/kept"] == 1
    stored = [r["url"].removeprefix(site.url) for r in corpus_records(out)]
    assert sorted(stored) == manifest["articles"]


def test_an_interrupted_crawl_resumes_where_it_stopped(tmp_path):
    out = tmp_path / "out"
    with NewsSite() as site:
        stopped = run_crawl([f"{site.url}/"], out, "CLOSESPIDER_PAGECOUNT=8",
                            "CONCURRENT_REQUESTS_PER_DOMAIN=1")
        assert stopped.returncode == 2, stopped.stderr[-2000:]
        assert crawl_stats(out)["finish_reason"] == "closespider_pagecount"
        assert (out / "job" / "requests.seen").is_file()
        resumed = run_crawl([f"{site.url}/"], out)
        assert resumed.returncode == 0, resumed.stderr[-2000:]
        hits, manifest = site.hits(), site.manifest()
    stored = Counter(r["url"].removeprefix(site.url) for r in corpus_records(out))
    assert sorted(stored) == manifest["articles"] and set(stored.values()) == {1}
    # Resuming re-fetched nothing the first run had already fetched.
    assert hits["/"] == 1
    assert not (out / "job" / "requests.seen").exists()


def test_a_crawl_killed_mid_write_starts_again_and_loses_nothing(tmp_path):
    """What ``kill -9`` can leave in JOBDIR, made on purpose: the run's open mark, a queue
    file cut inside its header, and the fingerprints of requests whose queue records were
    never written. Resuming that state would fail at the cut file and never fetch the
    fingerprinted pages; the next run discards it and starts from the start pages."""
    from scrapy import Request
    from scrapy.utils.request import fingerprint

    out = tmp_path / "out"
    with NewsSite() as site:
        stopped = run_crawl([f"{site.url}/"], out, "CLOSESPIDER_PAGECOUNT=4",
                            "CONCURRENT_REQUESTS_PER_DOMAIN=1")
        assert stopped.returncode == 2, stopped.stderr[-2000:]
        job = out / "job"
        cut = [path for path in (job / "requests.queue").rglob("*")
               if path.is_file() and path.name != "active.json"]
        assert cut, "the paused crawl left no queue file to cut"
        for path in cut:
            path.write_bytes(path.read_bytes()[:2])
        manifest = site.manifest()
        with open(job / "requests.seen", "a", encoding="ascii") as seen:
            for path in manifest["articles"]:
                seen.write(fingerprint(Request(f"{site.url}{path}")).hex() + "\n")
        (job / "corpusbot-run-open").touch()
        resumed = run_crawl([f"{site.url}/"], out)
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    assert "stopped without closing" in resumed.stderr
    assert crawl_stats(out)["corpusbot/job/unclean-restart"] == 1
    stored = Counter(r["url"].removeprefix(site.url) for r in corpus_records(out))
    assert sorted(stored) == manifest["articles"] and set(stored.values()) == {1}
    assert not (job / "corpusbot-run-open").exists()


def test_a_second_crawl_into_the_same_folder_is_refused(tmp_path):
    out = tmp_path / "out"
    # Slow enough that the first crawl still runs when the second has started,
    # however long a loaded machine takes to start a process; one request at a
    # time, so that Ctrl-C waits for one response only.
    with NewsSite(latency=1.5) as site:
        command = [sys.executable, "-m", "corpusbot", "crawl", f"{site.url}/", "-o", str(out)]
        for setting in (*TEST_SETTINGS, "CONCURRENT_REQUESTS=1",
                        "CONCURRENT_REQUESTS_PER_DOMAIN=1"):
            command += ["-s", setting]
        first = subprocess.Popen(command, cwd=REPO, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE, text=True)
        try:
            # Wait until the first crawl is well under way (Scrapy handles
            # Ctrl-C from the moment its reactor runs).
            deadline = time.monotonic() + 90
            # (the site counts its own /__hits.json requests too: not the crawl's)
            while _crawl_hits(site) < 2 and time.monotonic() < deadline:
                time.sleep(0.2)
            second = run_crawl([f"{site.url}/"], out)
        finally:
            first.send_signal(signal.SIGINT)
            _, errors = first.communicate(timeout=60)
    assert second.returncode == 1 and "another crawl is writing" in second.stderr
    assert first.returncode == 2, errors[-5000:]
    assert "recovered" not in errors
    assert list((out / "archive").glob("*.warc.gz")) and not list(out.glob("archive/*.open"))


def test_scrapy_crawl_news_from_the_repository_root(tmp_path):
    out = tmp_path / "out"
    with NewsSite() as site:
        command = [sys.executable, "-m", "scrapy", "crawl", "news", "-a",
                   f"start_urls={site.url}/", "-s", f"CORPUSBOT_OUTPUT_DIR={out}",
                   "-s", "LOG_LEVEL=INFO"]
        for setting in TEST_SETTINGS:
            command += ["-s", setting]
        result = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=120,
                                check=False)
        manifest = site.manifest()
    assert result.returncode == 0, result.stderr[-2000:]
    stored = sorted(r["url"].removeprefix(site.url) for r in corpus_records(out))
    assert stored == manifest["articles"]
    assert list((out / "archive").glob("*.warc.gz"))


def test_seeds_file_and_usage_errors(tmp_path):
    out = tmp_path / "out"
    usage = subprocess.run([sys.executable, "-m", "corpusbot", "crawl", "-o", str(out)],
                           cwd=REPO, capture_output=True, text=True, timeout=60, check=False)
    assert usage.returncode == 64
    not_a_url = subprocess.run([sys.executable, "-m", "corpusbot", "crawl", "/", "-o", str(out)],
                               cwd=REPO, capture_output=True, text=True, timeout=60, check=False)
    assert not_a_url.returncode == 64 and "not a URL" in not_a_url.stderr
    seeds = tmp_path / "seeds.txt"
    seeds.write_text(f"# nothing listens here\nhttp://127.0.0.1:{_free_port()}/\n")
    failed = run_crawl(["--seeds", str(seeds)], out, "RETRY_TIMES=0",
                       "CORPUSBOT_SPIDER_SITEMAPS_ENABLED=False", "ROBOTSTXT_OBEY=False")
    assert failed.returncode == 1, failed.stderr[-2000:]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_kill_9_of_a_crawl_twice_loses_doubles_and_archives_twice_nothing(tmp_path):
    import random

    from tests.crashes import archived_responses, corpus, index_agrees, killed_runs

    out = tmp_path / "out"
    with NewsSite() as site:
        command = [sys.executable, "-m", "corpusbot", "crawl", f"{site.url}/", "-o", str(out),
                   "-q"]
        for setting in (*TEST_SETTINGS, "CORPUSBOT_CORPUS_COMMIT_ITEMS=2"):
            command += ["-s", setting]
        killed_runs(command, 8.0, 2, random.Random(4))
        manifest = site.manifest()
    documents = corpus(out)
    assert sorted(url.removeprefix(site.url) for url, _ in documents.elements()) == (
        manifest["articles"])
    assert index_agrees(out, documents)
    responses = archived_responses(out)
    assert {responses[f"{site.url}{path}"] for path in manifest["articles"]} == {1}


@pytest.mark.parametrize(("with_corpus", "after"), [(True, NEW), (False, UNCHANGED)])
def test_marks_the_corpus_did_not_commit_are_not_kept(tmp_path, with_corpus, after):
    # A crawl whose corpus stopped (an index error, a process taken over) closes with marks
    # of pages it never committed: kept, the next run would skip those pages for good. A
    # crawl without the corpus has no other commit than the one at its close.
    from scrapy.utils.test import get_crawler

    from corpusbot.crawl.incremental import IncrementalMiddleware
    from corpusbot.crawl.seen import SeenStore

    url = "https://news.example/2024/05/a.html"
    middleware = IncrementalMiddleware(get_crawler(), SeenStore(tmp_path / "seen.sqlite"),
                                       reset_jobdir=False, with_corpus=with_corpus)
    middleware.item_dropped({"url": url, "result": "not added, the corpus stopped"},
                            exception=Exception())
    middleware.spider_closed("taken-over")
    assert SeenStore(tmp_path / "seen.sqlite").status(url, None) == after
