"""Corpus pipeline figures (issue 3): dedup and languages, speed, workers, memory, index size.

    python benchmarks/corpus.py                              # everything, archives under /tmp
    python benchmarks/corpus.py --sizes 100M 300M --out benchmarks/corpus-results.json
    python benchmarks/corpus.py --skip-memory --repeat 1     # quick

1. Dedup and languages: a WARC of every page of ../shared/bench, each page
   followed by an exact copy and a near copy under other URLs
   (``benchmarks/warc.py copies``); counts the documents kept per page
   group, the copies kept, and checks English and German against the
   language of each page's gold text.
2. Speed: the whole pipeline (read, extract, identify, dedup, write) on
   that archive in one process, against trafilatura's ``extract`` alone on
   the same records in the same run, interleaved segment by segment (see
   ``speed_figures``); then ``-j 2`` against ``-j 1``.
3. MinHash: corpusbot's numpy signatures against datasketch's.
4. Memory: ``corpusbot warc -j 2`` as a subprocess on archives of growing
   size (``benchmarks/warc.py big``), peak resident memory of the main
   process and of the whole process tree, and index bytes per document.
"""

from __future__ import annotations

import argparse
import gzip
import json
import logging
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))

import warc as bench_warc  # noqa: E402 - the archive builders, beside this script

from corpusbot.archive.copies import COPIES_DEFAULT  # noqa: E402
from corpusbot.archive.reader import ArchiveReader  # noqa: E402
from corpusbot.archive.runner import Runner, RunOptions  # noqa: E402
from corpusbot.corpus.sink import Corpus  # noqa: E402
from corpusbot.fingerprints.minhash import MinHasher  # noqa: E402
from corpusbot.fingerprints.url import url_key  # noqa: E402
from corpusbot.language.identify import LanguageIdentifier  # noqa: E402
from corpusbot.page import Page  # noqa: E402
from corpusbot.processor import Processor, ProcessorOptions  # noqa: E402
from corpusbot.text import tokens  # noqa: E402

log = logging.getLogger("benchmarks.corpus")


def build_copies(work: Path) -> tuple[Path, list[bench_warc.BenchPage], dict[str, str]]:
    pages = bench_warc.load_pages()
    texts = bench_warc.main_texts(pages)
    path = work / "bench-copies.warc.gz"
    bench_warc.write_records(path, bench_warc.copies_records(pages, texts))
    return path, pages, texts


def build_segments(work: Path, archive: Path, count: int) -> list[Path]:
    """The archive's records cut into ``count`` archives, each page's copies kept together."""
    records = [(r.page.url, r.page.body) for r in ArchiveReader().read(archive) if r.page]
    groups = [records[i:i + 3] for i in range(0, len(records), 3)]
    size = -(-len(groups) // count)
    paths = []
    for n in range(count):
        path = work / f"segment-{n}.warc.gz"
        chunk = [record for group in groups[n * size:(n + 1) * size] for record in group]
        if chunk:
            bench_warc.write_records(path, iter(chunk))
            paths.append(path)
    return paths


def run_pipeline(archive: Path, out: Path, jobs: int, *, precise: bool = False,
                 metadata: bool = True, copies: int = COPIES_DEFAULT,
                 ) -> tuple[float, Counter[str], dict]:
    """Seconds for one whole run into a fresh folder, its stats, and CPU seconds spent
    by this process and by the workers (reaped, so counted as children); unrounded
    with ``precise``; ``metadata`` as ``corpusbot warc --no-metadata`` turns it off;
    ``copies=0`` processes every exact copy again (``corpusbot.archive.copies``)."""
    shutil.rmtree(out, ignore_errors=True)
    self_before = resource.getrusage(resource.RUSAGE_SELF)
    children_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    corpus = Corpus(out)
    processor = Processor(ProcessorOptions(overrides={"extract.metadata": metadata}))
    report = Runner(processor, corpus, RunOptions(jobs=jobs, copies=copies)).run([archive])
    seconds = time.perf_counter() - started
    cpu = {"main": _cpu(resource.getrusage(resource.RUSAGE_SELF), self_before, precise),
           "workers": _cpu(resource.getrusage(resource.RUSAGE_CHILDREN), children_before,
                           precise)}
    return seconds, report.stats, cpu


def _cpu(after: resource.struct_rusage, before: resource.struct_rusage,
         precise: bool = False) -> float:
    seconds = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return seconds if precise else round(seconds, 1)


def read_docs(out: Path) -> list[dict]:
    return [json.loads(line) for path in sorted(out.glob("*/*.jsonl.gz"))
            for line in gzip.open(path)]


def dedup_figures(out: Path, pages: list[bench_warc.BenchPage], texts: dict[str, str]) -> dict:
    """Documents per page group, copies kept, and language against the gold text's.

    A page "has main text" when the Processor alone keeps it (extraction and
    filters); such a page must yield exactly one document from its group.
    """
    from corpusbot.document import Rejection
    from corpusbot.page import Page

    kept = {url_key(doc["url"]): doc for doc in read_docs(out)}
    processor, identifier = Processor(), LanguageIdentifier(seed=0)
    groups, copies_kept, lost, confusion = Counter(), 0, [], Counter()
    without_text: Counter[str] = Counter()
    for page in pages:
        urls = [url_key(page.url), url_key(bench_warc.mirror_url(page.url, "exact")),
                url_key(bench_warc.mirror_url(page.url, "near"))]
        found = [kept[u] for u in urls if u in kept]
        groups[len(found)] += 1
        copies_kept += max(0, len(found) - 1)
        alone = processor.process(Page(url=page.url, body=page.html))
        if isinstance(alone, Rejection):
            without_text[alone.reason] += 1
        elif not found:
            lost.append(page.url)
        gold = identifier.identify(page.gold).code
        for doc in found[:1]:
            if gold in {"en", "de"} or doc["lang"] in {"en", "de"}:
                confusion[(gold, doc["lang"])] += 1
    return {"pages": len(pages), "documents": len(kept),
            "groups_by_documents_kept": dict(sorted(groups.items())),
            "copies_kept": copies_kept, "pages_without_main_text": dict(without_text),
            "pages_with_text_but_no_document": lost,
            "near_copy_jaccard": near_jaccards(pages, texts),
            "language": language_figures(confusion)}


def near_jaccards(pages: list[bench_warc.BenchPage], texts: dict[str, str]) -> dict:
    """True 5-shingle Jaccard between each page's text and its near copy's (as extracted)."""
    from corpusbot import extract

    values = []
    rng = bench_warc.random.Random(3)
    for page in pages:
        near = bench_warc.near_copy(page.html, texts[page.url], rng)
        a, b = _shingles(texts[page.url]), _shingles(extract(near).text)
        if len(a) >= 46:  # the pages that pass the 50-word filter
            values.append(len(a & b) / len(a | b))
    values.sort()
    return {"pairs": len(values), "min": round(values[0], 3),
            "below_0.8": sum(v < 0.8 for v in values),
            "median": round(values[len(values) // 2], 3)}


def _shingles(text: str) -> set[tuple[str, ...]]:
    words = tokens(text)
    return {tuple(words[i:i + 5]) for i in range(max(len(words) - 4, 1))}


def language_figures(confusion: Counter) -> dict:
    result = {}
    for lang in ("en", "de"):
        right = confusion[(lang, lang)]
        said = sum(v for (gold, got), v in confusion.items() if got == lang)
        truly = sum(v for (gold, got), v in confusion.items() if gold == lang)
        result[lang] = {"precision": round(right / said, 4) if said else None,
                        "recall": round(right / truly, 4) if truly else None, "pages": truly}
    result["errors"] = {f"{g}->{d}": v for (g, d), v in confusion.items() if g != d}
    return result


def extractors() -> dict[str, Callable[[Page], object]]:
    """The bare extractors the pipeline is measured against, warmed up."""
    import trafilatura

    from corpusbot import extract

    calls = {
        "trafilatura": lambda p: trafilatura.extract(p.body, url=p.url, include_comments=False),
        "corpusbot_extract": lambda p: extract(p.body, url=p.url, headers=p.headers),
    }
    warm = Page(url="https://example.org/", body=b"<html><body><p>Warm up.</p></body></html>")
    for call in calls.values():
        call(warm)
    return calls


def segment_seconds(segment: Path, work: Path, calls: dict[str, Callable[[Page], object]],
                    ) -> dict[str, float]:
    """CPU seconds of the whole pipeline (-j 1, into a fresh folder), with and without the
    declared metadata (on by default since issue 9; earlier figures were measured without
    it), with every exact copy processed again (as before 2026-11-25), and of each bare
    extractor alone on the segment's pages (held in memory: only the calls count)."""
    seconds = {}
    for name, metadata, copies in (("pipeline", True, COPIES_DEFAULT),
                                   ("pipeline_no_metadata", False, COPIES_DEFAULT),
                                   ("pipeline_copies_processed", True, 0)):
        _, _, used = run_pipeline(segment, work / "segment-out", 1, precise=True,
                                  metadata=metadata, copies=copies)
        seconds[name] = used["main"]
    pages = [r.page for r in ArchiveReader().read(segment) if r.page]
    for name, call in calls.items():
        started = time.process_time()
        for page in pages:
            call(page)
        seconds[name] = time.process_time() - started
    return seconds


def minhash_figures(texts: dict[str, str]) -> dict:
    """Microseconds per document for each way to compute a 128-slot signature."""
    from datasketch import MinHash

    docs = [tokens(t) for t in texts.values() if t]
    hasher = MinHasher()

    def ours() -> None:
        for words in docs:
            hasher.signature(words)

    def batch() -> None:
        for words in docs:
            MinHash(num_perm=128).update_batch(
                [" ".join(words[i:i + 5]).encode() for i in range(max(len(words) - 4, 1))])

    def single() -> None:
        for words in docs:
            m = MinHash(num_perm=128)
            for i in range(max(len(words) - 4, 1)):
                m.update(" ".join(words[i:i + 5]).encode())

    return {name: round(_best_of(fn, 3) / len(docs) * 1e6, 1)
            for name, fn in (("corpusbot_numpy", ours), ("datasketch_update_batch", batch),
                             ("datasketch_update", single))}


def _best_of(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - started)
    return best


def speed_figures(archive: Path, work: Path, repeat: int, segments: int) -> dict:
    """The pipeline against trafilatura in one process; -j 2 against -j 1.

    Shared machines have slow spells of seconds that would fall on one
    contender and not the other. So the archive is cut into ``segments``
    archives; each round runs, segment by segment, the whole pipeline and
    then each bare extractor on that segment's pages; every contender's time
    is the sum over segments of its best round. Then -j 1 and -j 2 runs of
    the whole archive alternate, ``repeat`` times, best kept.
    """
    parts = build_segments(work, archive, segments)
    calls = extractors()
    best: dict[tuple[int, str], float] = {}
    for _ in range(repeat):
        for n, part in enumerate(parts):
            for name, seconds in segment_seconds(part, work, calls).items():
                best[n, name] = min(best.get((n, name), float("inf")), seconds)
    total = Counter()
    for (_, name), seconds in best.items():
        total[name] += seconds
    times: dict[int, list[float]] = {1: [], 2: []}
    cpu: dict[int, list[dict]] = {1: [], 2: []}
    stats: Counter[str] = Counter()
    load = [os.getloadavg()[0]]
    for attempt in range(repeat):
        for jobs in (1, 2):
            seconds, stats, used = run_pipeline(archive, work / f"speed-{jobs}-{attempt}", jobs)
            times[jobs].append(round(seconds, 1))
            cpu[jobs].append(used)
            load.append(os.getloadavg()[0])
    pages = stats["pages"]
    rates = {f"{name}_pages_per_cpu_s": round(pages / seconds, 1)
             for name, seconds in total.items()}
    cpu_j2 = [c["main"] + c["workers"] for c in cpu[2]]
    return {"pages": pages, "segments": len(parts), **rates,
            "pipeline_vs_trafilatura_cpu": round(total["trafilatura"] / total["pipeline"], 2),
            "pipeline_no_metadata_vs_trafilatura_cpu": round(
                total["trafilatura"] / total["pipeline_no_metadata"], 2),
            "pipeline_copies_processed_vs_trafilatura_cpu": round(
                total["trafilatura"] / total["pipeline_copies_processed"], 2),
            "pipeline_vs_extract_alone_cpu": round(
                total["corpusbot_extract"] / total["pipeline"], 2),
            "pipeline_j1_pages_per_s_whole_archive": round(pages / min(times[1]), 1),
            "j1_seconds": times[1], "j2_seconds": times[2],
            "j2_vs_j1_wall": round(min(times[1]) / min(times[2]), 2),
            # What two idle cores would give: all the CPU the -j 2 run spent, on two cores.
            "j2_vs_j1_cpu_bound": round(min(c["main"] for c in cpu[1]) / (min(cpu_j2) / 2), 2),
            "cpu_seconds_j1": cpu[1], "cpu_seconds_j2": cpu[2],
            "load_average_1min": [round(x, 2) for x in load], "cpus": os.cpu_count()}


def memory_figures(work: Path, sizes: list[str], jobs: list[int]) -> list[dict]:
    results = []
    for size in sizes:
        archive = work / f"big-{size}.warc.gz"
        if not archive.exists():
            subprocess.run([sys.executable, str(REPO / "benchmarks" / "warc.py"), "big",
                            str(archive), "--size", size], check=True, stdout=subprocess.DEVNULL)
        for n in jobs:
            results.append(measure_memory(archive, work / f"memory-{size}-j{n}", n))
            log.info("memory %s -j %d: %s", size, n, results[-1])
    return results


def measure_memory(archive: Path, out: Path, jobs: int) -> dict:
    """Peak memory of ``corpusbot warc -j N``, sampled every 0.1 s: the main process's RSS,
    the largest worker's RSS, and the sum of the proportional set sizes of all the
    processes (PSS shares the pages that forked workers hold in common)."""
    shutil.rmtree(out, ignore_errors=True)
    command = [sys.executable, "-m", "corpusbot", "warc", str(archive), "-o", str(out),
               "-j", str(jobs), "-q"]
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=REPO)
    peaks = {"main": 0, "worker": 0, "tree_pss": 0}
    sampler = threading.Thread(target=_sample_rss, args=(process, peaks), daemon=True)
    sampler.start()
    process.wait()
    sampler.join()
    manifest = json.loads((out / "manifest.json").read_text())
    docs = manifest["documents"]
    index_bytes = (out / "dedup.sqlite").stat().st_size
    return {"archive_mb": round(archive.stat().st_size / 1e6, 1), "jobs": jobs,
            "pages": manifest["pages"], "documents": docs,
            "seconds": round(time.perf_counter() - started, 1),
            "peak_rss_main_mb": round(peaks["main"] / 1e6, 1),
            "peak_rss_worker_mb": round(peaks["worker"] / 1e6, 1),
            "peak_pss_total_mb": round(peaks["tree_pss"] / 1e6, 1),
            "index_bytes_per_document": round(index_bytes / max(docs, 1)),
            "state_bytes": (out / "state.sqlite").stat().st_size, "exit": process.returncode}


def _sample_rss(process: subprocess.Popen, peaks: dict[str, int]) -> None:
    while process.poll() is None:
        children = _children(process.pid)
        peaks["main"] = max(peaks["main"], _rss(process.pid))
        peaks["worker"] = max([peaks["worker"], *(_rss(child) for child in children)])
        total = _pss(process.pid) + sum(_pss(child) for child in children)
        peaks["tree_pss"] = max(peaks["tree_pss"], total)
        time.sleep(0.1)


def _pss(pid: int) -> int:
    return _proc_bytes(pid, "smaps_rollup", "Pss:")


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(child) for child in text.split()]


def _rss(pid: int) -> int:
    return _proc_bytes(pid, "status", "VmRSS:")


def _proc_bytes(pid: int, name: str, field: str) -> int:
    """The ``field`` line of ``/proc/PID/NAME`` (kB there) in bytes; 0 once the process is gone."""
    try:
        for line in Path(f"/proc/{pid}/{name}").read_text().splitlines():
            if line.startswith(field):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def lsh_figures(index: Path, sample: int = 2000) -> dict:
    """The SQLite band lookup per document, against rebuilding datasketch's in-memory LSH
    from the stored signatures (what an index that is not queried in place would cost)."""
    import sqlite3

    import numpy as np
    from datasketch import MinHash, MinHashLSH

    from corpusbot.dedup.deduplicator import LSH_FP_WEIGHT
    from corpusbot.dedup.index import SQLiteIndex
    from corpusbot.dedup.near import band_keys, optimal_bands

    connection = sqlite3.connect(index, isolation_level=None)
    rows = connection.execute("SELECT doc, signature FROM dedup_signatures").fetchall()
    signatures = [np.frombuffer(sig, dtype=np.uint32) for _, sig in rows]
    bands = optimal_bands(0.8, 128, LSH_FP_WEIGHT)
    lookups = [band_keys(sig, *bands) for sig in signatures[:sample]]
    sqlite_index = SQLiteIndex(connection)
    started = time.perf_counter()
    for keys in lookups:
        sqlite_index.candidates(keys)
    lookup_us = (time.perf_counter() - started) / len(lookups) * 1e6
    rss_before = _rss(os.getpid())
    started = time.perf_counter()
    lsh = MinHashLSH(threshold=0.8, num_perm=128, weights=(LSH_FP_WEIGHT, 1 - LSH_FP_WEIGHT))
    for (doc, _), sig in zip(rows, signatures, strict=True):
        lsh.insert(doc, MinHash(num_perm=128, hashvalues=sig, scheme="affine32"))
    rebuild = time.perf_counter() - started
    return {"documents": len(rows), "sqlite_lookup_us_per_doc": round(lookup_us, 1),
            "datasketch_rebuild_seconds": round(rebuild, 2),
            "datasketch_rebuild_us_per_doc": round(rebuild / max(len(rows), 1) * 1e6, 1),
            "datasketch_rebuild_rss_mb": round((_rss(os.getpid()) - rss_before) / 1e6, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, help="folder for archives and outputs (default: temp)")
    parser.add_argument("--sizes", nargs="*", default=["75M", "150M", "300M"],
                        help="sizes of the memory archives (.warc.gz files)")
    parser.add_argument("--repeat", type=int, default=2, help="speed runs per -j, best kept")
    parser.add_argument("--segments", type=int, default=8,
                        help="archive pieces for the interleaved speed rounds")
    parser.add_argument("--skip-memory", action="store_true")
    parser.add_argument("--memory-jobs", nargs="*", type=int, default=[1, 2],
                        help="-j values of the memory runs")
    parser.add_argument("--skip-speed", action="store_true")
    parser.add_argument("--out", type=Path, help="write the figures as JSON")
    parser.add_argument("--lsh-index", type=Path, help="only: LSH figures on this dedup.sqlite")
    args = parser.parse_args()
    if args.lsh_index:
        print(json.dumps(lsh_figures(args.lsh_index), indent=2))
        return
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    logging.getLogger("corpusbot").setLevel(logging.ERROR)
    work = args.work or Path(tempfile.mkdtemp(prefix="corpusbot-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    figures: dict = {}
    if not args.skip_speed:
        archive, pages, texts = build_copies(work)
        figures["archive_mb"] = round(archive.stat().st_size / 1e6, 1)
        figures["speed"] = speed_figures(archive, work, args.repeat, args.segments)
        log.info("speed: %s", figures["speed"])
        figures["dedup"] = dedup_figures(work / "speed-1-0", pages, texts)
        log.info("dedup: %s", figures["dedup"])
        figures["minhash_us_per_doc"] = minhash_figures(texts)
    if not args.skip_memory:
        figures["memory"] = memory_figures(work, args.sizes, args.memory_jobs)
        last = f"memory-{args.sizes[-1]}-j{args.memory_jobs[-1]}"
        figures["lsh"] = lsh_figures(work / last / "dedup.sqlite")
    print(json.dumps(figures, indent=2, default=str))
    if args.out:
        args.out.write_text(json.dumps(figures, indent=2, default=str) + "\n")


if __name__ == "__main__":
    main()
