"""Request fingerprints in Redis (issue 10): corpusbot's filter against scrapy-redis's.

    python benchmarks/redis_fingerprints.py                 # 1,000,000 requests
    python benchmarks/redis_fingerprints.py --requests 200000 --out results.json

Starts its own ``redis-server`` and feeds the same requests (distinct URLs
over 1,000 hosts) to scrapy-redis's ``RFPDupeFilter`` (one set of 40-byte
hex strings) and to ``CompactDupeFilter`` (8-byte fingerprints in bucketed
listpack hashes, sized with ``CORPUSBOT_REDIS_URLS_CAPACITY`` = the run's
size), each in an emptied server. Reports Redis ``used_memory`` growth per
request for each, and their ratio.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from scrapy import Request  # noqa: E402
from scrapy_redis.dupefilter import RFPDupeFilter  # noqa: E402

from corpusbot.crawl.redis_frontier import CompactDupeFilter  # noqa: E402
from corpusbot.redis_keys import bucket_count  # noqa: E402
from tests.redis_support import start_redis  # noqa: E402


def bytes_per_request(server: object, dupefilter: RFPDupeFilter, requests: int) -> float:
    server.flushall()  # type: ignore[attr-defined]
    before = server.info("memory")["used_memory"]  # type: ignore[attr-defined]
    for n in range(requests):
        dupefilter.request_seen(Request(f"https://site{n % 1000}.example/news/{n}.html"))
    return (server.info("memory")["used_memory"] - before) / requests  # type: ignore[attr-defined]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=1_000_000)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    import redis

    with tempfile.TemporaryDirectory() as folder:
        process, port = start_redis(Path(folder))
        try:
            server = redis.Redis(port=port)
            plain = bytes_per_request(server, RFPDupeFilter(server, "fp"), args.requests)
            compact_filter = CompactDupeFilter(server, "fp")
            compact_filter.buckets = bucket_count(args.requests)
            compact = bytes_per_request(server, compact_filter, args.requests)
        finally:
            process.terminate()
            process.wait(10)
    figures = {"requests": args.requests, "scrapy_redis_bytes_per_request": round(plain, 1),
               "corpusbot_bytes_per_request": round(compact, 1),
               "ratio": round(plain / compact, 1)}
    print(json.dumps(figures, indent=2))
    if args.out:
        args.out.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
