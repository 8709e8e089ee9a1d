"""Redis dedup index figures (issue 10): bytes per document, per paragraph, round trips.

    python benchmarks/redis_memory.py                      # 200,000 documents
    python benchmarks/redis_memory.py --documents 20000 --out results.json

Starts its own ``redis-server`` (no persistence, loopback, a free port) and
feeds synthetic documents straight to the deduplicators: random texts of
150-450 words from a 50,000-word vocabulary in 6-12 paragraphs, with real
URL keys, text hashes, MinHash signatures and paragraph hashes, 5 % of them
exact copies under another URL. What the index stores depends only on these
features, so no HTML needs extracting. Figures:

- bytes per kept document with the default levels (url, exact, near):
  Redis ``used_memory`` after minus before, over the documents kept, with
  ``capacity`` set to the run's size as the README tells users to do;
- bytes per recorded paragraph: the same documents again with the
  paragraph level, the difference over the paragraph keys it added;
- round trips per document (script calls and commits, counted client-side);
- documents per second through ``RedisDeduplicator`` against the SQLite
  ``Deduplicator`` on the same documents in the same run (a ratio);
- the b-bit estimate against the full one on near-copy pairs: mean absolute
  error of each against the exact 5-shingle Jaccard.
"""

from __future__ import annotations

import argparse
import json
import logging
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from corpusbot.dedup.bbit import compact, similarity  # noqa: E402
from corpusbot.dedup.deduplicator import LSH_FP_WEIGHT, Deduplicator  # noqa: E402
from corpusbot.dedup.index import SQLiteIndex  # noqa: E402
from corpusbot.dedup.near import jaccard, optimal_bands  # noqa: E402
from corpusbot.dedup.redis_dedup import RedisDeduplicator, signature_bytes  # noqa: E402
from corpusbot.dedup.redis_index import RedisAddress, RedisIndex  # noqa: E402
from corpusbot.document import Document  # noqa: E402
from corpusbot.fingerprints.minhash import MinHasher  # noqa: E402
from corpusbot.fingerprints.options import DedupOptions  # noqa: E402
from corpusbot.fingerprints.paragraph import paragraph_hash  # noqa: E402
from corpusbot.text import PARAGRAPH_SEPARATOR, hash64, normalise  # noqa: E402
from tests.redis_support import start_redis  # noqa: E402

log = logging.getLogger("redis_memory")
COMMIT_EVERY = 2000  # the archive runner's default commit interval, in pages
COPY_SHARE = 0.05


def documents(count: int, seed: int = 7) -> list[Document]:
    """Synthetic documents with every dedup feature; see the module docstring."""
    rng = np.random.default_rng(seed)
    vocabulary = [f"w{i:x}" for i in range(50_000)]
    hasher, made = MinHasher(), []
    for n in range(count):
        if made and rng.random() < COPY_SHARE:
            source = made[int(rng.integers(0, len(made)))]
            made.append(_as_copy(source, n))
            continue
        paragraphs = [[vocabulary[i] for i in rng.integers(0, 50_000, int(rng.integers(15, 40)))]
                      for _ in range(int(rng.integers(6, 13)))]
        made.append(_document(n, paragraphs, hasher))
    return made


def _document(n: int, paragraphs: list[list[str]], hasher: MinHasher) -> Document:
    words = [w for p in paragraphs for w in p]
    return Document(
        url=f"https://site{n % 997}.example/{n}", text=PARAGRAPH_SEPARATOR.join(
            " ".join(p) for p in paragraphs), title=None, lang="en", lang_prob=1.0,
        n_words=len(words), extractor="default", content_hash=hash64(normalise(words)),
        url_key=hash64(f"https://site{n % 997}.example/{n}"),
        signature=hasher.signature(words).tobytes(),
        paragraphs=tuple(" ".join(p) for p in paragraphs),
        paragraph_hashes=tuple(paragraph_hash(p, 10) for p in paragraphs))


def _as_copy(source: Document, n: int) -> Document:
    from dataclasses import replace

    return replace(source, url=f"https://copy.example/{n}",
                   url_key=hash64(f"https://copy.example/{n}"))


def run_redis(docs: list[Document], url: str, options: DedupOptions) -> dict[str, float]:
    """Feed ``docs`` through a RedisDeduplicator; memory, round trips and speed."""
    index = RedisIndex.connect(
        RedisAddress.parse(f"{url}?capacity={len(docs)}"), "bench", 0,
        bands=optimal_bands(options.threshold, options.num_perm, LSH_FP_WEIGHT)[0],
        signature_bytes=signature_bytes(options))
    dedup = RedisDeduplicator(index, options)
    before, kept, started = index.memory(), 0, time.perf_counter()
    for n, doc in enumerate(docs, 1):
        if dedup.admit(doc.url_key):
            kept += dedup.check(doc).kept
        if n % COMMIT_EVERY == 0:
            index.committed()
    index.committed()
    seconds = time.perf_counter() - started
    return {"kept": kept, "bytes": index.memory() - before, "round_trips": index.round_trips,
            "seconds": seconds}


def run_sqlite(docs: list[Document], options: DedupOptions) -> float:
    """Seconds for the SQLite Deduplicator (in memory, committed as often) on ``docs``."""
    connection = sqlite3.connect(":memory:", isolation_level=None)
    dedup = Deduplicator(SQLiteIndex(connection), options)
    started = time.perf_counter()
    connection.execute("BEGIN")
    for n, doc in enumerate(docs, 1):
        if dedup.admit(doc.url_key):
            dedup.check(doc)
        if n % COMMIT_EVERY == 0:
            connection.execute("COMMIT")
            connection.execute("BEGIN")
    connection.execute("COMMIT")
    return time.perf_counter() - started


def estimate_errors(pairs: int = 400, seed: int = 11) -> dict[str, float]:
    """Mean absolute error of the full and the 4-bit estimates against exact Jaccard."""
    rng, hasher = np.random.default_rng(seed), MinHasher()
    full, four = [], []
    for _ in range(pairs):
        words = [f"w{i}" for i in rng.integers(0, 10**6, 400)]
        other = list(words)
        for i in rng.choice(len(words), int(rng.integers(5, 40)), replace=False):
            other[i] = f"x{i}"
        truth = _shingle_jaccard(words, other)
        a, b = hasher.signature(words), hasher.signature(other)
        full.append(abs(jaccard(a, b) - truth))
        four.append(abs(similarity(compact(a), compact(b), 4, len(a)) - truth))
    return {"mae_full": float(np.mean(full)), "mae_4bit": float(np.mean(four))}


def _shingle_jaccard(a: list[str], b: list[str]) -> float:
    first = {tuple(a[i:i + 5]) for i in range(len(a) - 4)}
    second = {tuple(b[i:i + 5]) for i in range(len(b) - 4)}
    return len(first & second) / len(first | second)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=200_000)
    parser.add_argument("--paragraph-documents", type=int, default=50_000,
                        help="documents of the paragraph-level pass (default: 50,000)")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    import redis

    log.info("making %d documents", args.documents)
    docs = documents(args.documents)
    with tempfile.TemporaryDirectory() as folder:
        server, port = start_redis(Path(folder))
        try:
            url = f"redis://127.0.0.1:{port}/0"
            client = redis.Redis(port=port)
            default = run_redis(docs, url, DedupOptions())
            server_usec = sum(stat["usec"] for name, stat in client.info("commandstats").items()
                              if name.startswith("cmdstat_evalsha"))
            subset = docs[:args.paragraph_documents]
            client.flushall()
            base = run_redis(subset, url, DedupOptions())
            client.flushall()
            levels = frozenset({"url", "exact", "near", "paragraph"})
            paragraph = run_redis(subset, url, DedupOptions(levels=levels))
            paragraph_keys = sum(client.hlen(k) for k in client.scan_iter(match="cb:p:*"))
        finally:
            server.terminate()
            server.wait(10)
    sqlite_seconds = run_sqlite(docs, DedupOptions())
    figures = {
        "documents": args.documents, "kept": default["kept"],
        "bytes_per_document": round(default["bytes"] / default["kept"], 1),
        "paragraph_keys": paragraph_keys,
        "bytes_per_paragraph": round((paragraph["bytes"] - base["bytes"]) / paragraph_keys, 1),
        "paragraphs_per_document": round(paragraph_keys / len(subset), 2),
        "redis_server_usec_per_document": round(server_usec / args.documents, 1),
        "round_trips_per_document": round(default["round_trips"] / args.documents, 2),
        "redis_docs_per_second": round(args.documents / default["seconds"]),
        "sqlite_docs_per_second": round(args.documents / sqlite_seconds),
        "redis_vs_sqlite_speed": round(sqlite_seconds / default["seconds"], 2),
        **{k: round(v, 4) for k, v in estimate_errors().items()},
    }
    print(json.dumps(figures, indent=2))
    if args.out:
        args.out.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
