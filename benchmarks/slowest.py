"""The slowest and largest pages: gold pages and the hostile shapes of issue 11, CPU seconds each.

Measures ``corpusbot.extract`` on every gold page of ../shared/bench (CPU time
of this process, ``time.process_time``, so that a busy shared machine does not
inflate it) and reports the five slowest and the five largest. Then each
hostile shape (one element with 100,000 attributes, a million elements, 10^5
levels of nesting, a text node and an attribute of 11 MB, a 20 MB page of one
gold page repeated) runs in a child process capped at ``--cap`` seconds, with
its CPU seconds, peak RSS, characters kept and cuts. Run it from two trees
(``PYTHONPATH=OTHER_TREE python benchmarks/slowest.py``) to compare before and
after.

    python benchmarks/slowest.py [--cap 120] [--out results.json]
"""

from __future__ import annotations

import argparse
import gzip
import json
import multiprocessing
import resource
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import corpusbot  # noqa: E402
from tests.conftest import bench_dir  # noqa: E402


def gold() -> list[tuple[str, bytes]]:
    pages = []
    for path in sorted(bench_dir().rglob("*.html*")):
        data = path.read_bytes()
        pages.append((path.name, gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data))
    return pages


def hostile(seed: bytes) -> dict[str, bytes]:
    attributes = b" ".join(b"a%d=x" % i for i in range(100_000))
    return {
        "100,000 attributes": b"<html><body><div " + attributes + b">x</div>" + seed,
        "1,000,000 elements": b"<html><body>" + b"<div>x</div>" * 1_000_000,
        "10^5 nesting": b"<html><body><p>intro</p>" + b"<div>" * 100_000 + seed,
        "11 MB text node": seed.replace(b"<body", b"<body><p>" + b"a" * 11_000_000 + b"</p",
                                        1),
        "11 MB attribute": seed.replace(b"<body", b"<body title='" + b"a" * 11_000_000 + b"'",
                                        1),
        "20 MB repeated page": seed * (20_000_000 // len(seed)),
    }


def timed(html: bytes) -> tuple[float, object]:
    started = time.process_time()
    result = corpusbot.extract(html)
    return time.process_time() - started, result


def child(html: bytes, queue: multiprocessing.Queue) -> None:
    seconds, result = timed(html)
    queue.put({"cpu_s": round(seconds, 2), "chars": len(result.text),
               "reason": result.reason, "cuts": list(getattr(result, "cuts", ())),
               "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)})


def capped(html: bytes, cap: float) -> dict:
    queue: multiprocessing.Queue = multiprocessing.Queue()
    process = multiprocessing.get_context("fork").Process(target=child, args=(html, queue))
    process.start()
    process.join(cap)
    if process.is_alive():
        process.kill()
        process.join()
        return {"cpu_s": f"> {cap:.0f} (stopped)"}
    return queue.get()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cap", type=float, default=120.0)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    pages = gold()
    times = [(timed(html)[0], len(html), name) for name, html in pages]
    report = {"code": str(Path(corpusbot.__file__).parents[1]), "gold_pages": len(pages),
              "slowest": [(round(s, 3), n, name) for s, n, name in sorted(times)[-5:]],
              "largest": [(round(s, 3), n, name) for s, n, name in
                          sorted(times, key=lambda t: t[1])[-5:]],
              "hostile": {}}
    seed = min((html for _, html in pages if len(html) > 50_000), key=len)
    for name, html in hostile(seed).items():
        report["hostile"][name] = {"mb": round(len(html) / 1e6, 1), **capped(html, args.cap)}
        print(name, report["hostile"][name], file=sys.stderr, flush=True)
    print(json.dumps(report, indent=1))
    if args.out:
        args.out.write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
