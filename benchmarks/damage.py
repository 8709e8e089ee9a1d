"""Records recovered from damaged archives, against the intact archive, per kind of damage.

Each damaged copy is made from a real archive (``sample/sample.warc.gz``, its
uncompressed form, and one built from the fixture pages) by
``tests/archive/damage.py``: cut at random points, bytes flipped, a record
overwritten, Content-Length lying, bombs (a chunked gzip payload among them)
and broken encodings among good records, garbage, a whole-file gzip bomb, and
in uncompressed archives letters of page text changed (only the digests tell)
and a 10 MB header line; and an ARC file whose URL holds spaces. Each is read by
``ArchiveReader`` in a child process (so that its peak memory is its own)
and scored: pages whose record the damage did not touch (``intact``), how
many came out with their exact body (``recovered``), how many problems were
reported, how many pages came out altered, whether an exception escaped,
seconds and peak RSS.

    python benchmarks/damage.py [--seed 1] [--bomb-gib 10] [--out results.json]
"""

from __future__ import annotations

import argparse
import gzip
import json
import multiprocessing
import random
import resource
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from corpusbot.archive.reader import DAMAGED, DAMAGED_DIGEST, ArchiveReader  # noqa: E402
from tests.archive import damage  # noqa: E402
from tests.corpus_support import html_records, write_warc  # noqa: E402


def sources(folder: Path) -> list[damage.Layout]:
    sample = REPO / "sample" / "sample.warc.gz"
    plain = folder / "sample.warc"
    plain.write_bytes(gzip.decompress(sample.read_bytes()))
    fixture = write_warc(folder / "fixture.warc.gz", html_records())
    return [damage.layout(sample), damage.layout(plain), damage.layout(fixture)]


def cases(source: damage.Layout, rng: random.Random, bomb: int) -> list[damage.Damaged]:
    size = len(source.data)
    made = [damage.truncated(source, size // 2)]
    made += [damage.truncated(source, rng.randrange(1, size)) for _ in range(20)]
    made += [damage.flipped(source, n, rng) for n in (1, 10, 100) for _ in range(5)]
    made += [damage.broken_member(source, rng.randrange(len(source.pages))) for _ in range(5)]
    middle = len(source.pages) // 2
    made += [damage.content_length(source, middle, value)
             for value in ("99999999", "100", "1" + "0" * 30, "-5", "abc")]
    made += damage.hostile_records(source, bomb)
    if not source.gzipped:  # where no gzip CRC guards the bytes, the digests must
        made += [damage.text_flipped(source, 3, rng) for _ in range(3)]
        made.append(damage.long_header_line(source, middle))
    return made


def score(case: damage.Damaged, folder: Path, queue: multiprocessing.Queue) -> None:
    """Read one damaged file; put what came out on ``queue``."""
    path = folder / f"case{case.suffix}"
    path.write_bytes(case.data)
    started = time.monotonic()
    try:
        records = list(ArchiveReader().read(path))
        error = None
    except Exception as exc:  # the figure: any exception escaping is counted
        records, error = [], f"{type(exc).__name__}: {exc}"
    seconds = time.monotonic() - started
    bodies = {r.page.url: r.page.body for r in records if r.page is not None}
    queue.put({"problems": sum(r.skipped in (DAMAGED, DAMAGED_DIGEST) for r in records),
               "error": error,
               "bodies": bodies, "seconds": seconds,
               "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024})


def run_case(case: damage.Damaged, folder: Path, source: damage.Layout) -> dict:
    queue: multiprocessing.Queue = multiprocessing.Queue()
    child = multiprocessing.get_context("fork").Process(target=score,
                                                        args=(case, folder, queue))
    child.start()
    outcome = queue.get(timeout=600)
    child.join()
    expected = {url: body for url, body, *_ in source.pages if url in set(case.intact)}
    got = outcome.pop("bodies")
    outcome["intact"] = len(expected)
    outcome["recovered"] = sum(got.get(url) == body for url, body in expected.items())
    # pages that came out with other bytes than the intact archive holds: altered text kept
    original = {url: body for url, body, *_ in source.pages}
    outcome["altered"] = sum(url in original and body != original[url]
                             for url, body in got.items())
    return outcome


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bomb-gib", type=float, default=10.0,
                        help="inflated size of the whole-file bomb")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    table: dict[str, dict] = defaultdict(lambda: defaultdict(float))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        everything = [(source, case) for source in sources(folder)
                      for case in cases(source, rng, 1 << 30)]
        everything += [(damage.Layout(b"", True, ()), damage.garbage(1 << 20, rng)),
                       (damage.Layout(b"", True, ()),
                        damage.whole_file_bomb(int(args.bomb_gib * (1 << 30))))]
        arc, url = damage.arc_space_in_url(everything[0][0].pages[0][1])
        everything.append((damage.Layout(arc.data, False, ((url, everything[0][0].pages[0][1],
                                                             0, len(arc.data)),)), arc))
        for source, case in everything:
            outcome = run_case(case, folder, source)
            row = table[f"{case.kind} ({case.suffix})"]
            row["cases"] += 1
            for key in ("intact", "recovered", "problems", "altered"):
                row[key] += outcome[key]
            row["errors"] += outcome["error"] is not None
            row["max_seconds"] = max(row["max_seconds"], outcome["seconds"])
            row["max_rss_mb"] = max(row["max_rss_mb"], outcome["rss_mb"])
            row["compressed_mb"] = max(row["compressed_mb"], len(case.data) / 1e6)
    print(f"{'damage':34} {'cases':>5} {'intact':>7} {'recovered':>9} {'problems':>8} "
          f"{'altered':>7} {'errors':>6} {'max s':>6} {'max RSS MB':>10}")
    for kind, row in table.items():
        print(f"{kind:34} {row['cases']:5.0f} {row['intact']:7.0f} {row['recovered']:9.0f} "
              f"{row['problems']:8.0f} {row['altered']:7.0f} {row['errors']:6.0f} "
              f"{row['max_seconds']:6.2f} "
              f"{row['max_rss_mb']:10.0f}")
    if args.out:
        args.out.write_text(json.dumps(table, indent=1))


if __name__ == "__main__":
    main()
