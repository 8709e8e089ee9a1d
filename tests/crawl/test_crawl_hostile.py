"""A crawl of hostile pages (tests/newssite/hostile.py) stays within time, memory and size
limits and finishes: link trap, redirect loop, huge, endless and dripping bodies, wrong and
missing charsets, binary as HTML, gzip bombs, an element with 5,000 attributes, entity bombs
and an external entity in sitemaps and feeds, a sitemap index naming itself."""

from __future__ import annotations

import resource
import time

from tests.newssite import hostile
from tests.newssite.client import NewsSite, crawl_stats, run_crawl

LIMITS = ("DOWNLOAD_TIMEOUT=5", "RETRY_TIMES=0")


def test_a_hostile_site_is_crawled_within_limits(tmp_path):
    out = tmp_path / "out"
    with NewsSite() as site:
        started = time.monotonic()
        result = run_crawl(hostile.start_urls(site.url), out, *LIMITS, timeout=300)
        took = time.monotonic() - started
        hits = site.hits()
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    assert result.returncode in (0, 2), result.stderr[-3000:]
    # Scrapy logs its download errors (timeouts, bodies over the size limit) with their
    # tracebacks; none may come from corpusbot's own code.
    assert "/corpusbot/" not in "".join(line for line in result.stderr.splitlines()
                                        if line.lstrip().startswith("File "))
    assert took < 240
    assert peak_mb < 1000
    archived = sum(p.stat().st_size for p in (out / "archive").glob("*.warc.gz"))
    assert archived < 50 * 1024 * 1024
    stats = crawl_stats(out)
    assert stats["finish_reason"] == "finished"
    # the trap ends at the depth limit, the loop at the redirect limit
    assert sum(n for path, n in hits.items() if "/trap/" in path) <= 16
    assert sum(n for path, n in hits.items() if "/loop/" in path) <= 25
    assert hits[f"{hostile.ROOT}sitemap-index.xml"] <= 2  # naming itself did not loop
    assert stats["corpusbot/html/cut/attributes"] == 1  # counted where the crawl counts
    # the bombs among the sitemaps and feeds: dropped, counted and named in the log
    assert stats["corpusbot/xml/dropped/too-large"] == 1  # sitemap-gzip-bomb
    assert stats["corpusbot/xml/dropped/entities"] == 3  # sitemap-bomb, -xxe, feed-bomb
    for name in ("sitemap-gzip-bomb.xml.gz", "sitemap-bomb.xml", "feed-bomb.xml"):
        assert f"dropped {site.url}{hostile.ROOT}{name}: " in result.stderr
    everything = b"".join(p.read_bytes() for p in out.rglob("*") if p.is_file())
    assert b"root:x:0:0" not in everything  # the external entity was never resolved
