"""The compiled build against the pure one, on one compiled install, in alternating processes.

    taskset -c 1 .venv-compiled/bin/python benchmarks/compiled.py --rounds 3 --repeat 3 \\
        --sets scrapinghub --modes default web2text justext boilerpipe --refs trafilatura

Each round runs a fresh process per build: ``pure`` loads the install's own
Python sources (``corpusbot.compiled.use_python_sources``), ``compiled`` its
extension modules; the packages are the same. A process times every
extractor (the modes, and the references of ``extraction.py`` called the same
way) over the set ``--repeat`` times, each call timed alone, and after each
pass one plain loop per extractor with a single clock around all its calls.
Within a pass the extractors take turns page by page (``_timed_pass``): a
page's calls run within milliseconds of each other, so a slow spell of the
machine slows them alike. Timed a whole pass at a time, trafilatura's
fastest calls and ``default``'s fell in different spells: on a noisy machine
(2026-11-29) the compiled build's ratio to trafilatura at the best pass was
2.96x and 2.86x on scrapinghub in two runs, and 3.15x with the turns, within
the same hour.

Two clocks: wall time (``perf_counter``), what a user waits for, and the
process's CPU time (``process_time``), which a busy machine's other
processes do not inflate (they take turns on the core; they still share its
caches). Per build the tables give ms/page and pages/s: best-of (each page's
fastest call over every pass of every round), the median single pass, and the
median plain loop; then the ratio compiled/pure of each and the speed as a
multiple of trafilatura's (best-of). The install must be a compiled one
(README, "Compiled build").

Before any pass is timed, every extractor makes one untimed pass over the
set: what loads on first use (the stop-word lists of the set's languages and
their union, the language profiles' word cache, the tag-path caches) then
costs no timed pass. With a 20-page warm-up it fell on the first timed pass of
whichever mode ran first: on scrapinghub `default`'s first passes took 4.34 ms
a page and its second 3.88-4.01, the plain loops after them 3.76-4.01, while
`web2text`, run after it, paid nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

Page = tuple[bytes, str | None]
Call = Callable[[bytes, str | None], str]
HERE = Path(__file__).resolve().parent
BUILDS = ("pure", "compiled")
CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


def measure(args: argparse.Namespace) -> dict:
    """One build's timings: ``set/extractor`` -> clock -> passes of per-page seconds, loops."""
    from corpusbot import compiled

    if args.worker == "pure":
        compiled.use_python_sources()
    import extraction  # beside this file

    figures: dict = {"build": compiled.describe(), "runs": {}}
    for name in args.sets:
        gold = extraction.load_gold(extraction.resolve_set(name, args.bench), limit=args.limit)
        pages = [(page.html, page.url) for page in gold]
        calls = {ref: extraction.REFERENCES[ref](gold) for ref in args.refs}
        calls |= {f"corpusbot {mode}": extraction.make_corpusbot(mode)(gold)
                  for mode in args.modes}
        for call in calls.values():
            _timed_loop(call, pages)  # warm-up, untimed: see the module's docstring
        runs = {extractor: {"passes": {c: [] for c in CLOCKS}, "loops": {c: [] for c in CLOCKS}}
                for extractor in calls}
        for repeat in range(args.repeat):
            timed = _timed_pass(calls, pages, reverse=repeat % 2 == 1)
            for extractor, call in calls.items():
                for clock, seconds in timed[extractor].items():
                    runs[extractor]["passes"][clock].append(seconds)
                for clock, seconds in _timed_loop(call, pages).items():
                    runs[extractor]["loops"][clock].append(seconds)
        figures["runs"] |= {f"{name}/{extractor}": run for extractor, run in runs.items()}
    return figures


def _timed_pass(calls: dict[str, Call], pages: list[Page],
                reverse: bool = False) -> dict[str, dict[str, list[float]]]:
    """Each extractor's seconds on each page by each clock, the extractors taking turns
    page by page (in reverse order when ``reverse``), so that the calls compared on a
    page run within milliseconds of each other: a slow spell of the machine, seconds
    long, then slows them alike instead of a whole pass of one of them."""
    order = list(reversed(calls)) if reverse else list(calls)
    times = {extractor: {clock: [] for clock in CLOCKS} for extractor in calls}
    for html, url in pages:
        for extractor in order:
            starts = {clock: read() for clock, read in CLOCKS.items()}
            try:
                calls[extractor](html, url)
            except Exception:  # a reference that fails on a page is timed all the same
                pass
            for clock, read in CLOCKS.items():
                times[extractor][clock].append(read() - starts[clock])
    return times


def _timed_loop(call: Call, pages: list[Page]) -> dict[str, float]:
    """Seconds of one plain loop over the pages, one clock around all the calls."""
    starts = {clock: read() for clock, read in CLOCKS.items()}
    for html, url in pages:
        try:
            call(html, url)
        except Exception:  # timed, not scored
            continue
    return {clock: read() - starts[clock] for clock, read in CLOCKS.items()}


def run_worker(build: str, argv: list[str]) -> dict:
    done = subprocess.run([sys.executable, __file__, "--worker", build, *argv], check=True,
                          capture_output=True, text=True)
    figures = json.loads(done.stdout)
    if (build == "pure") != (figures["build"] == "pure Python"):
        sys.exit(f"the {build} process loaded {figures['build']}: is this install compiled? "
                 "(README, 'Compiled build')")
    return figures


def summary(rounds: list[dict[str, dict]], clock: str) -> dict[str, dict[str, float]]:
    """``build/key`` -> seconds a page: best, pass and loop, over every round."""
    out: dict[str, dict[str, float]] = {}
    for build in BUILDS:
        for key in rounds[0][build]["runs"]:
            passes = [p for one in rounds for p in one[build]["runs"][key]["passes"][clock]]
            loops = [s for one in rounds for s in one[build]["runs"][key]["loops"][clock]]
            pages = len(passes[0])
            out[f"{build}/{key}"] = {
                "best": sum(min(times) for times in zip(*passes, strict=True)) / pages,
                "pass": statistics.median(sum(p) for p in passes) / pages,
                "loop": statistics.median(loops) / pages,
            }
    return out


def table(rounds: list[dict[str, dict]], clock: str) -> str:
    figures = summary(rounds, clock)
    keys = list(rounds[0]["pure"]["runs"])
    head = ["set/extractor", *(f"{b} ms/page best / pass / loop" for b in BUILDS),
            *(f"{b} pages/s best" for b in BUILDS), "compiled/pure time best / pass / loop",
            *(f"{b} x traf. best" for b in BUILDS)]
    lines = [f"{clock} clock:", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for key in keys:
        pure, comp = figures[f"pure/{key}"], figures[f"compiled/{key}"]
        traf = {b: figures.get(f"{b}/{key.split('/')[0]}/trafilatura") for b in BUILDS}
        cells = [key, *(" / ".join(f"{1000 * f[s]:.3f}" for s in ("best", "pass", "loop"))
                        for f in (pure, comp)),
                 *(f"{1 / f['best']:.1f}" for f in (pure, comp)),
                 " / ".join(f"{comp[s] / pure[s]:.3f}" for s in ("best", "pass", "loop")),
                 *(f"{traf[b]['best'] / f['best']:.2f}" if traf[b] else "-"
                   for b, f in zip(BUILDS, (pure, comp), strict=True))]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    bench = Path(os.environ.get("CORPUSBOT_BENCH") or HERE.parents[1] / "shared" / "bench")
    parser.add_argument("--bench", type=Path, default=bench, help=f"gold sets folder ({bench})")
    parser.add_argument("--sets", nargs="+", default=["scrapinghub"])
    parser.add_argument("--modes", nargs="*", default=["default", "web2text", "justext",
                                                       "boilerpipe"])
    parser.add_argument("--refs", nargs="*", default=["trafilatura"])
    parser.add_argument("--limit", type=int, default=None, help="first N pages of each set")
    parser.add_argument("--repeat", type=int, default=3, help="passes in each process")
    parser.add_argument("--rounds", type=int, default=3, help="pure+compiled process pairs")
    parser.add_argument("--out", type=Path, help="write every round's timings as JSON here")
    parser.add_argument("--worker", choices=BUILDS, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def worker_argv(args: argparse.Namespace) -> list[str]:
    """The arguments a worker process needs."""
    argv = ["--bench", str(args.bench), "--repeat", str(args.repeat), "--sets", *args.sets,
            "--modes", *args.modes, "--refs", *args.refs]
    return argv + (["--limit", str(args.limit)] if args.limit else [])


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.worker:
        print(json.dumps(measure(args)))
        return 0
    rounds = [{build: run_worker(build, worker_argv(args)) for build in BUILDS}
              for _ in range(args.rounds)]
    for clock in CLOCKS:
        print(table(rounds, clock) + "\n")
    print(f"{args.rounds} rounds x {args.repeat} passes; load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.out:
        args.out.write_text(json.dumps(rounds) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
