"""The compiled build against the pure one: ``extraction.py`` run in turn on both, on one install.

    taskset -c 1 .venv-compiled/bin/python benchmarks/compiled.py --rounds 3 \\
        -- --sets scrapinghub --modes default web2text justext boilerpipe \\
           --refs trafilatura --repeat 3

Each round runs ``benchmarks/extraction.py`` (the arguments after ``--``) twice in
fresh processes: once with ``--python-sources`` (the compiled install's own
Python sources: the pure build on the same packages), once compiled. The
builds alternate, so a slow spell of a shared machine falls on both. Per set
and extractor the table gives each build's ms/page and pages/s (best-of: each
page's fastest pass, the best round; pass: the median single pass; loop: the
median plain timed loop), the speed as a multiple of trafilatura's in the
same process, and the ratio compiled/pure of the time a page takes: of the
best-of figures; of the best-of speeds as multiples of trafilatura's (median
over rounds; cancels a change of load between the two processes); of the
single passes (median over rounds; on a busy machine the noisiest).
The install must be a compiled one (README, "Compiled build"); ``--out``
keeps every round's figures.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
BUILDS = ("pure", "compiled")


def run_extraction(build: str, args: list[str], folder: Path, index: int) -> dict:
    """One run of extraction.py on ``build``: its JSON figures."""
    out = folder / f"{build}-{index}.json"
    flags = ["--python-sources"] if build == "pure" else []
    subprocess.run([sys.executable, str(HERE / "extraction.py"), *args, *flags,
                    "--out", str(out)], check=True, stdout=subprocess.DEVNULL)
    figures = json.loads(out.read_text())
    want = "pure Python" if build == "pure" else "compiled by mypyc"
    if not figures["corpusbot_build"].startswith(want):
        sys.exit(f"the {build} run loaded {figures['corpusbot_build']}: is this install "
                 "compiled? (README, 'Compiled build')")
    return figures


def rows(rounds: list[dict[str, dict]]) -> list[list[str]]:
    """The table's rows: one per set and extractor, both builds side by side."""
    keys = [(r["set"], r["extractor"]) for r in rounds[0]["pure"]["results"]
            if r["status"] == "ok"]
    table = []
    for key in keys:
        got = {b: [_entry(one[b], key) for one in rounds] for b in BUILDS}
        pairs = list(zip(got["pure"], got["compiled"], strict=True))
        best_ratio = (max(e["pages_per_s"] for e in got["pure"])
                      / max(e["pages_per_s"] for e in got["compiled"]))
        ratio = statistics.median(p["single_pass_pages_per_s"] / c["single_pass_pages_per_s"]
                                  for p, c in pairs)
        # each build's best-of speed as a multiple of trafilatura's in its own process
        relative = statistics.median((p["speed_vs_trafilatura"] or 0.0)
                                     / (c["speed_vs_trafilatura"] or 1.0) for p, c in pairs)
        cells = [key[0], key[1]]
        for build in BUILDS:
            entries = got[build]
            best = max(e["pages_per_s"] for e in entries)
            single = statistics.median(e["single_pass_pages_per_s"] for e in entries)
            loop = statistics.median(e["loop_pages_per_s"] for e in entries)
            traf = statistics.median(e["speed_vs_trafilatura"] or 0.0 for e in entries)
            cells += [f"{1000 / best:.3f} / {1000 / single:.3f} / {1000 / loop:.3f}",
                      f"{best:.1f} / {single:.1f} / {loop:.1f}", f"{traf:.2f}"]
        table.append([*cells, f"{best_ratio:.3f} / {relative:.3f} / {ratio:.3f}"])
    return table


def _entry(figures: dict, key: tuple[str, str]) -> dict:
    return next(r for r in figures["results"] if (r["set"], r["extractor"]) == key)


def markdown(table: list[list[str]]) -> str:
    head = ["set", "extractor"]
    for build in BUILDS:
        head += [f"{build} ms/page best / pass / loop", f"{build} pages/s best / pass / loop",
                 f"{build} x traf. best"]
    head.append("compiled / pure time: best / best vs traf. / pass")
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    return "\n".join([*lines, *("| " + " | ".join(row) + " |" for row in table)])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="pure+compiled pairs of runs")
    parser.add_argument("--out", type=Path, help="write every round's figures as JSON here")
    parser.add_argument("extraction_args", nargs="*", help="after --: extraction.py's arguments")
    args = parser.parse_args(argv)
    rounds = []
    with tempfile.TemporaryDirectory() as folder:
        for index in range(args.rounds):
            rounds.append({build: run_extraction(build, args.extraction_args, Path(folder), index)
                           for build in BUILDS})
    print(markdown(rows(rounds)))
    print(f"\n{args.rounds} rounds; load average now {os.getloadavg()[0]:.2f}")
    if args.out:
        args.out.write_text(json.dumps(rounds, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
