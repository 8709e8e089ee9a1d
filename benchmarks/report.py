"""Size of ``corpusbot report``'s page and the time to write it and to open it in chromium.

    python benchmarks/report.py                    # the sample corpus and a 10,000-page one
    python benchmarks/report.py --pages 100000     # larger

The large corpus is written through the real sink (``corpusbot.corpus.sink``):
``--pages`` documents in 6 languages over 800 domains, lengths drawn from a
log-normal law, random words (the report's cost does not depend on what the
words are). The sample corpus is built by ``corpusbot warc sample/sample.warc.gz``.
Opening is timed in chromium: from the start of a page framing the report to
the frame's load event (parsed, laid out, charts decoded), best of three.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from corpusbot.corpus.sink import Corpus, CorpusOptions  # noqa: E402
from corpusbot.dedup.backends import open_index  # noqa: E402
from corpusbot.document import Document, Rejection  # noqa: E402
from corpusbot.fingerprints.options import DedupOptions  # noqa: E402
from corpusbot.fingerprints.url import url_key  # noqa: E402
from corpusbot.report import write_report  # noqa: E402
from corpusbot.text import hash64  # noqa: E402

LANGUAGES = ("en", "de", "fr", "es", "pl", "nl")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1100,3000"]


def synthetic(folder: Path, pages: int) -> Path:
    """``pages`` documents, a tenth of them rejected for one of three reasons."""
    rng = random.Random(1)
    index = open_index("", DedupOptions(levels=frozenset({"url", "exact"})))
    with Corpus(folder, CorpusOptions(), index=index) as corpus:
        for number in range(pages):
            url = f"https://site{rng.randrange(800)}.example/{number}"
            if rng.random() < 0.1:
                reason = rng.choice(["filter/too-short", "filter/nonletter", "dedup/exact"])
                corpus.add(Rejection(url=url, reason=reason))
                continue
            words = max(50, int(rng.lognormvariate(6, 0.9)))
            text = " ".join(f"w{rng.randrange(50_000)}" for _ in range(words))
            corpus.add(Document(url=url, text=text, title=f"page {number}",
                                lang=rng.choice(LANGUAGES), lang_prob=rng.uniform(0.6, 1.0),
                                n_words=words, extractor="default", content_hash=hash64(text),
                                url_key=url_key(url)))
            if number % 2000 == 0:
                corpus.commit()
    return folder


def sample(folder: Path) -> Path:
    subprocess.run([sys.executable, "-m", "corpusbot", "warc", str(REPO / "sample"), "-o",
                    str(folder), "-j", "2", "-q"], check=True)
    return folder


def open_seconds(page: Path, work: Path) -> float:
    """Seconds from the start of a wrapper page to its frame's load event holding ``page``,
    as the browser measures them (chromium logs the console line), best of three."""
    wrapper = work / "open.html"
    wrapper.write_text("<!DOCTYPE html><script>const t0 = performance.now();</script>"
                       f'<iframe src="{page.as_uri()}" style="width:1000px;height:2800px" '
                       "onload=\"console.log('loaded-ms', performance.now() - t0)\"></iframe>")
    best = float("inf")
    for number in range(3):
        done = subprocess.run([shutil.which("chromium"), *FLAGS, "--enable-logging=stderr",
                               "--allow-file-access-from-files",
                               f"--user-data-dir={work}/p{number}",
                               f"--screenshot={work}/shot.png", wrapper.as_uri()],
                              capture_output=True, text=True, check=True)
        found = re.search(r'"loaded-ms (\d+(?:\.\d+)?)"', done.stderr)
        if found is None:
            raise RuntimeError("chromium logged no load time:\n" + done.stderr[-2000:])
        best = min(best, float(found.group(1)) / 1000)
    return best


def measure(name: str, folder: Path, work: Path) -> dict[str, float | int | str]:
    started = time.perf_counter()
    page = write_report(folder, work / f"{name}.html")
    written = time.perf_counter() - started
    return {"corpus": name, "documents": json.loads((folder / "manifest.json").read_text())[
        "documents"], "report_bytes": page.stat().st_size, "write_seconds": round(written, 2),
        "open_seconds": round(open_seconds(page, work), 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=10_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        work = Path(temporary)
        results = [measure("sample", sample(work / "sample"), work)]
        results.append(measure(f"synthetic-{args.pages}",
                               synthetic(work / "big", args.pages), work))
    for result in results:
        print(json.dumps(result))


if __name__ == "__main__":
    main()
