"""kill -9 at random moments, then the same command again: nothing lost, nothing twice.

For ``corpusbot warc`` (an archive of real-word articles) and ``corpusbot crawl``
(the local news site), this runs the command once uninterrupted (the
reference), then into a second folder: start, ``SIGKILL`` after a random
delay drawn over the reference's duration, start again, ``--kills`` times,
and a last run to the end. Then it compares:

- the corpus: the multiset of (url, content_hash) equals the reference's
  (no document lost, none written twice);
- the dedup index: its exact-text keys are the corpus's content hashes;
- for the crawl, the WARC archive: each article's (200) response is stored once.

A run that ends before its kill moment is not counted as a kill; runs go on
until ``--kills`` kills (at most three times as many runs).

    python benchmarks/crash.py [--kills 20] [--target warc|crawl|both] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.conftest import bench_dir  # noqa: E402
from tests.crashes import archived_responses, corpus, index_agrees, killed_runs  # noqa: E402
from tests.newssite.client import TEST_SETTINGS, NewsSite  # noqa: E402


def timed(command: list[str]) -> float:
    started = time.monotonic()
    subprocess.run(command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=True)
    return time.monotonic() - started


def warc_trial(folder: Path, pages: int, kills: int, rng: random.Random) -> dict:
    from tests.commands.test_cli_warc import many_pages

    archive = many_pages(folder / "many.warc.gz", pages)

    def command(out: Path) -> list[str]:
        return [sys.executable, "-m", "corpusbot", "warc", str(archive), "-o", str(out),
                "-j", "2", "--commit-every", "20", "-q"]

    seconds = timed(command(folder / "reference"))
    moments = killed_runs(command(folder / "killed"), seconds, kills, rng)
    return _compare(folder, seconds, moments)


def crawl_trial(folder: Path, kills: int, rng: random.Random) -> dict:
    bench = bench_dir() / "scrapinghub"
    with NewsSite(bench=bench if bench.is_dir() else None) as site:
        def command(out: Path) -> list[str]:
            settings = [item for s in (*TEST_SETTINGS, "CORPUSBOT_CORPUS_COMMIT_ITEMS=5")
                        for item in ("-s", s)]
            return [sys.executable, "-m", "corpusbot", "crawl", f"{site.url}/", "-o",
                    str(out), "-q", *settings]

        seconds = timed(command(folder / "reference"))
        moments = killed_runs(command(folder / "killed"), seconds, kills, rng)
        articles = {f"{site.url}{path}" for path in site.manifest()["articles"]}
    result = _compare(folder, seconds, moments)
    responses = archived_responses(folder / "killed")
    result["articles_archived_once"] = sum(responses[url] == 1 for url in articles)
    result["articles_archived_twice_or_more"] = sum(responses[url] > 1 for url in articles)
    result["articles_not_archived"] = sum(responses[url] == 0 for url in articles)
    return result


def _compare(folder: Path, seconds: float, moments: list[float]) -> dict:
    reference, killed = corpus(folder / "reference"), corpus(folder / "killed")
    return {"reference_seconds": round(seconds, 1), "kills": len(moments),
            "kill_moments_s": moments, "reference_documents": sum(reference.values()),
            "documents": sum(killed.values()), "same_corpus": reference == killed,
            "lost": sum((reference - killed).values()),
            "twice": sum(n - 1 for n in killed.values() if n > 1),
            "index_agrees": index_agrees(folder / "killed", killed)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--pages", type=int, default=1500, help="articles in the warc trial")
    parser.add_argument("--target", choices=("warc", "crawl", "both"), default="both")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    results = {}
    if args.target in ("warc", "both"):
        with tempfile.TemporaryDirectory() as tmp:
            results["warc"] = warc_trial(Path(tmp), args.pages, args.kills, rng)
        print(json.dumps({"warc": results["warc"]}), flush=True)
    if args.target in ("crawl", "both"):
        with tempfile.TemporaryDirectory() as tmp:
            results["crawl"] = crawl_trial(Path(tmp), args.kills, rng)
        print(json.dumps({"crawl": results["crawl"]}), flush=True)


if __name__ == "__main__":
    main()
