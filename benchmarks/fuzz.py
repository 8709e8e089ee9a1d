"""The long fuzzing run: ``extract()`` and the archive reader on 100,000 edited real inputs each.

The strategies and properties are those of the CI run (``tests/fuzzing.py``):
real pages (the fixtures and ../shared/bench) and small real archives (the
bundled sample, the fixture archive) changed by hypothesis-drawn edits. A
failure (an exception, or an input over ``--budget`` seconds) is shrunk by
hypothesis and printed; the run reports inputs tried, the five slowest, the
cuts made before parsing, and the RSS (current and peak) sampled every 5,000 inputs. Times are CPU
seconds of the fuzzing process (the wall clock beside them), since on a shared
machine the wall clock also counts the other jobs' time.

``--processes N`` splits one run's ``--examples`` over N processes, each
with its own hypothesis seed (``--seed`` plus its index), and adds up their
inputs, failures, slowest inputs and cuts: on a shared two-core machine one
process at ``nice 19`` gets too little CPU to try 100,000 pages in a working
session, and the inputs of separate seeds are as good as one process's.

    python benchmarks/fuzz.py [--examples 100000] [--target extract|reader|both]
                              [--processes 1] [--seed 0]
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from hypothesis import HealthCheck, given, seed, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tests import fuzzing  # noqa: E402


def rss_mb() -> float:
    """The peak resident memory of this process so far."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def current_rss_mb() -> float:
    """The resident memory of this process now (a leak shows here, not only in the peak)."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def sample(tally: fuzzing.Tally, memory: list, name: str) -> None:
    """Every 5,000 inputs: (inputs, current RSS, peak RSS), also shown as progress."""
    if tally.inputs % 5000 == 0:
        memory.append((tally.inputs, round(current_rss_mb()), round(rss_mb())))
        print(f"{name}: {tally.inputs} inputs, RSS {memory[-1][1]} MB (peak "
              f"{memory[-1][2]} MB), slowest {tally.slowest[0][0]:.2f} CPU s",
              file=sys.stderr, flush=True)


ROUND_EXAMPLES = 2000
"""Examples per hypothesis call. Hypothesis keeps what it learnt of every example of
one call until the call ends (a run whose test only builds the inputs grows 7.6 MB per
1,000 examples, where ``extract()`` alone on the same inputs grows none: see the
README), so a long run is a series of calls of 2,000 examples, each with its own seed,
and its memory stays flat."""


def run_extract(examples: int, budget: float, seed_value: int) -> dict:
    pages = fuzzing.seed_pages()
    tally, cuts, memory = fuzzing.Tally(), Counter(), []

    def one_round(count: int, round_seed: int) -> None:
        @seed(round_seed)
        @settings(max_examples=count, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(st.sampled_from(pages), fuzzing.edits())
        def one(page: bytes, changes: list) -> None:
            result = fuzzing.check_extract(fuzzing.apply(page, changes), tally, budget)
            cuts.update(result.cuts)
            sample(tally, memory, "extract")

        one()

    result = _run(one_round, examples, seed_value, tally)
    return {**result, "seeds": len(pages), "cuts": dict(cuts), "rss_mb": memory}


def run_reader(examples: int, budget: float, seed_value: int) -> dict:
    archives = fuzzing.seed_archives()
    tally, memory = fuzzing.Tally(), []
    # the scratch archive is rewritten for every input; the folder goes with the run
    with tempfile.TemporaryDirectory(prefix="corpusbot-fuzz-") as scratch:
        folder = Path(scratch)

        def one_round(count: int, round_seed: int) -> None:
            @seed(round_seed)
            @settings(max_examples=count, deadline=None, database=None,
                      suppress_health_check=list(HealthCheck))
            @given(st.sampled_from(archives), st.booleans(), st.booleans(), fuzzing.edits())
            def one(records: list, gzipped: bool, after: bool, changes: list) -> None:
                data = fuzzing.build_archive(records, gzipped, changes, after)
                path = folder / ("f.warc.gz" if gzipped else "f.warc")
                fuzzing.check_reader(data, path, tally, budget)
                sample(tally, memory, "reader")

            one()

        result = _run(one_round, examples, seed_value, tally)
    return {**result, "seeds": len(archives), "rss_mb": memory}


def _run(one_round, examples: int, seed_value: int, tally: fuzzing.Tally) -> dict:
    """``one_round(count, seed)`` until ``examples`` inputs are tried or one fails."""
    started = time.monotonic()
    failure, rounds = None, 0
    try:
        while tally.inputs < examples:
            before = tally.inputs
            one_round(min(ROUND_EXAMPLES, examples - tally.inputs), seed_value * 10**6 + rounds)
            rounds += 1
            if tally.inputs == before:
                break  # hypothesis found nothing more to try
    except Exception as error:  # the figure: hypothesis re-raises the shrunk failure
        failure = f"{type(error).__name__}: {error}"
    return {"inputs": tally.inputs, "seconds": round(time.monotonic() - started),
            "failure": failure, "slowest_cpu_wall_bytes": [
                (round(cpu, 3), round(wall, 3), size, label)
                for cpu, wall, size, label in tally.slowest],
            "peak_rss_mb": round(rss_mb())}


def in_processes(args: argparse.Namespace) -> dict:
    """One run split over ``args.processes`` processes with seeds ``args.seed + i``,
    their figures added up (each process's own RSS series is kept)."""
    share = -(-args.examples // args.processes)
    children = [subprocess.Popen(
        [sys.executable, __file__, "--target", args.target, "--examples", str(share),
         "--budget", str(args.budget), "--seed", str(args.seed + i)],
        stdout=subprocess.PIPE, text=True) for i in range(args.processes)]
    parts: dict[str, list] = {}
    for child in children:
        for line in child.communicate()[0].splitlines():
            for target, result in json.loads(line).items():
                parts.setdefault(target, []).append(result)
    return {target: combined(results) for target, results in parts.items()}


def combined(results: list[dict]) -> dict:
    """The figures of one run from those of its processes."""
    cuts = Counter()
    for result in results:
        cuts.update(result.get("cuts", {}))
    slowest = sorted((tuple(s) for r in results for s in r["slowest_cpu_wall_bytes"]),
                     reverse=True)[:5]
    return {"inputs": sum(r["inputs"] for r in results),
            "seconds": max(r["seconds"] for r in results),
            "failure": [r["failure"] for r in results if r["failure"]] or None,
            "slowest_cpu_wall_bytes": slowest,
            "peak_rss_mb": max(r["peak_rss_mb"] for r in results),
            "cuts": dict(cuts), "processes": results}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=100_000)
    parser.add_argument("--target", choices=("extract", "reader", "both"), default="both")
    parser.add_argument("--budget", type=float, default=30.0,
                        help="CPU seconds one input may take before it counts as a hang")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    logging.disable(logging.WARNING)  # damage and rejections are the point here
    results = in_processes(args) if args.processes > 1 else {}
    if args.processes == 1 and args.target in ("extract", "both"):
        results["extract"] = run_extract(args.examples, args.budget, args.seed)
        print(json.dumps({"extract": results["extract"]}), flush=True)
    if args.processes == 1 and args.target in ("reader", "both"):
        results["reader"] = run_reader(args.examples, args.budget, args.seed)
        print(json.dumps({"reader": results["reader"]}), flush=True)
    if args.processes > 1:
        print(json.dumps(results), flush=True)
    if args.out:
        args.out.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
