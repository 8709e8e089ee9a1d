"""Write WARC files from the real pages of ../shared/bench.

    python benchmarks/warc.py sample                     # sample/sample.warc.gz, as bundled
    python benchmarks/warc.py copies /tmp/bench.warc.gz  # every page + an exact and a near copy
    python benchmarks/warc.py big /tmp/big.warc.gz --size 300M   # distinct variants up to SIZE
    python benchmarks/warc.py digests /tmp/bench.warc.gz  # the cost of checking digests

``copies`` is the archive of the issue-3 figures: each page under its own
URL, then the same bytes under a mirror URL (an exact copy), then a near
copy under a third URL: other boilerplate around it (navigation, cookie
notice, footer) and 1 % of the words of its main text changed (at least
one), so the true Jaccard similarity of the 5-word shingles of the texts
stays above about 0.82. ``big`` repeats the pages with every seventh word
of their text changed per repetition, so each record is a distinct page,
until the archive reaches ``--size`` bytes.
Records are reproducible: fixed dates, record IDs derived from the URL.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import random
import re
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from corpusbot.eval.scoring import load_gold

REPO = Path(__file__).resolve().parents[1]
BENCH = REPO.parent / "shared" / "bench"
SETS = ("scrapinghub", "multilingual-dev")
WARC_DATE = "2024-01-15T12:00:00Z"
SAMPLE_PER_LANGUAGE = {"en": 12, "de": 12, "fr": 4, "es": 4, "pl": 3}
SAMPLE_MAX_BYTES = 2_000_000
_WORD = re.compile(r"[^\W\d_]{5,}")
_BODY = re.compile(rb"<body[^>]*>", re.IGNORECASE)
_BODY_END = re.compile(rb"</body\s*>", re.IGNORECASE)
BOILERPLATE_TOP = (
    '<nav class="mirror"><ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li>'
    '<li><a href="/about">About us</a></li><li><a href="/subscribe">Subscribe</a></li></ul></nav>'
    '<div class="cookie-notice">We use cookies to improve your experience. '
    '<button>Accept all</button></div>'
)
BOILERPLATE_BOTTOM = (
    '<footer class="mirror"><p>&copy; 2024 Mirror Media Group. All rights reserved.</p>'
    '<p><a href="/imprint">Imprint</a> | <a href="/privacy">Privacy</a> | '
    '<a href="/contact">Contact</a></p></footer>'
)


@dataclass(slots=True, frozen=True)
class BenchPage:
    """One gold page: where it came from, its HTML, and its gold text (body or snippets)."""

    set_name: str
    key: str
    url: str
    html: bytes
    gold: str


def load_pages(bench: Path = BENCH) -> list[BenchPage]:
    """Every page of both gold sets, in a stable order."""
    pages = []
    for set_name in SETS:
        for gold in load_gold(bench / set_name):
            url = gold.url if gold.url and "://" in gold.url else (
                f"https://{set_name}.bench.invalid/{hashlib.sha1(gold.key.encode()).hexdigest()}")
            text = gold.body or "\n".join(gold.with_)
            pages.append(BenchPage(set_name, gold.key, url, gold.html, text))
    return pages


def mirror_url(url: str, label: str) -> str:
    """The same page on another host, as copies turn up in a crawl (the old host kept in
    the path, so that two pages with the same path on different hosts stay apart)."""
    return f"https://{label}.mirror.example/{url.split('://', 1)[1]}"


def near_copy(html: bytes, main_text: str, rng: random.Random) -> bytes:
    """Other boilerplate around the page, and 1 % of its main-text words (at least one) changed."""
    words = main_text.split()
    candidates = sorted({w for w in _WORD.findall(main_text) if html.count(w.encode()) == 1})
    for word in rng.sample(candidates, min(len(candidates), max(1, len(words) // 100))):
        html = html.replace(word.encode(), word[::-1].encode(), 1)
    html = _BODY.sub(lambda m: m.group(0) + BOILERPLATE_TOP.encode(), html, count=1)
    return _BODY_END.sub(lambda m: BOILERPLATE_BOTTOM.encode() + m.group(0), html, count=1)


def varied(html: bytes, main_text: str, round_: int) -> bytes:
    """The page with every seventh main-text word changed, differently for each round."""
    for i, word in enumerate(dict.fromkeys(_WORD.findall(main_text))):
        if i % 7 == round_ % 7:
            html = html.replace(word.encode(), f"{word}{round_}".encode())
    return html


def write_records(path: Path, records: Iterator[tuple[str, bytes]], extras: bool = False,
                  max_bytes: int | None = None) -> int:
    """Write (url, html) pairs as response records, until ``max_bytes`` of archive if given;
    returns how many were written. ``extras`` adds what any crawl holds besides articles:
    a robots.txt and a 404 page."""
    count = 0
    with open(path, "wb") as handle:
        writer = WARCWriter(handle, gzip=path.name.endswith(".gz"))
        for url, html in records:
            writer.write_record(_response(writer, url, html))
            count += 1
            if max_bytes is not None and handle.tell() >= max_bytes:
                break
        if extras:
            robots = b"User-agent: *\nDisallow: /private/\n"
            writer.write_record(_response(writer, "https://example.org/robots.txt", robots,
                                          "text/plain"))
            missing = b"<html><body><h1>Not Found</h1></body></html>"
            writer.write_record(_response(writer, "https://example.org/gone", missing,
                                          status="404 Not Found"))
    return count


def _response(writer: WARCWriter, url: str, html: bytes, content_type: str = "text/html",
              status: str = "200 OK"):
    http = StatusAndHeaders(status, [("Content-Type", content_type),
                                       ("Content-Length", str(len(html)))], protocol="HTTP/1.1")
    record_id = f"<urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, url)}>"
    return writer.create_warc_record(
        url, "response", payload=io.BytesIO(html), http_headers=http,
        warc_headers_dict={"WARC-Date": WARC_DATE, "WARC-Record-ID": record_id})


def copies_records(pages: list[BenchPage], texts: dict[str, str]) -> Iterator[tuple[str, bytes]]:
    """Each page, its exact copy and its near copy, in that order."""
    rng = random.Random(3)
    for page in pages:
        yield page.url, page.html
        yield mirror_url(page.url, "exact"), page.html
        yield mirror_url(page.url, "near"), near_copy(page.html, texts[page.url], rng)


def big_records(pages: list[BenchPage], texts: dict[str, str]) -> Iterator[tuple[str, bytes]]:
    """Distinct variants of the pages, round after round, without end."""
    round_ = 0
    while True:
        for page in pages:
            html = varied(page.html, texts[page.url], round_)
            yield f"{page.url}{'&' if '?' in page.url else '?'}round={round_}", html
        round_ += 1


def main_texts(pages: list[BenchPage]) -> dict[str, str]:
    """The extracted main text of each page: where near-copy edits must land."""
    from corpusbot import extract

    return {page.url: extract(page.html, url=page.url).text for page in pages}


def sample_pages(pages: list[BenchPage]) -> list[BenchPage]:
    """A few pages per language, smallest first, with main text: the bundled sample."""
    from corpusbot import extract

    chosen, counts = [], dict.fromkeys(SAMPLE_PER_LANGUAGE, 0)
    for page in sorted(pages, key=lambda p: (len(p.html), p.url)):
        found = extract(page.html, url=page.url)
        lang = found.language
        if lang in counts and counts[lang] < SAMPLE_PER_LANGUAGE[lang] and (
                len(found.text.split()) >= 150):
            chosen.append(page)
            counts[lang] += 1
    return chosen


def build_sample(out: Path) -> None:
    pages = sample_pages(load_pages())
    texts = main_texts(pages)
    originals = {p.url for p in pages}
    copies = [r for r in copies_records(pages[:4], texts) if r[0] not in originals]
    records = [(p.url, p.html) for p in pages] + copies  # and copies of four, to drop
    write_records(out, iter(records), extras=True)
    size = out.stat().st_size
    print(f"{out}: {len(records)} records from {len(pages)} pages, {size} bytes")
    for page in pages:
        print(f"  {page.set_name}/{page.key} {page.url}")
    if size > SAMPLE_MAX_BYTES:
        sys.exit(f"{out} is {size} bytes, over the {SAMPLE_MAX_BYTES} budget")


def _read_seconds(archive: Path, check: bool) -> float:
    from corpusbot.archive.reader import ArchiveReader, ReaderOptions

    started = time.perf_counter()
    for _ in ArchiveReader(ReaderOptions(check_digests=check)).read(archive):
        pass
    return time.perf_counter() - started


def _pipeline_seconds(archive: Path) -> float:
    """One pass of the whole archive pipeline over ``archive``, in this process (-j 1)."""
    from corpusbot.archive.runner import Runner, RunOptions
    from corpusbot.corpus.sink import Corpus
    from corpusbot.processor import Processor

    with tempfile.TemporaryDirectory() as out:
        started = time.perf_counter()
        Runner(Processor(), Corpus(Path(out)), RunOptions(jobs=1)).run([archive])
        return time.perf_counter() - started


def digest_cost(archive: Path, rounds: int = 5) -> None:
    """What checking WARC-Block-Digest and WARC-Payload-Digest adds to reading ``archive``
    (best of ``rounds``, the plain and gzipped forms), against one pipeline pass."""
    with tempfile.TemporaryDirectory() as folder:
        plain = Path(folder) / "plain.warc"
        plain.write_bytes(gzip.decompress(archive.read_bytes()) if archive.suffix == ".gz"
                          else archive.read_bytes())
        pipeline = _pipeline_seconds(archive)
        for path in (archive, plain):
            off = min(_read_seconds(path, False) for _ in range(rounds))
            on = min(_read_seconds(path, True) for _ in range(rounds))
            print(f"{path.name}: read {off:.3f} s unchecked, {on:.3f} s checked: "
                  f"+{on - off:.3f} s = {100 * (on - off) / pipeline:.2f} % of the pipeline "
                  f"({pipeline:.1f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["sample", "copies", "big", "digests"])
    parser.add_argument("out", nargs="?", type=Path, default=REPO / "sample" / "sample.warc.gz")
    parser.add_argument("--size", default="300M", help="for big: archive bytes (e.g. 300M)")
    args = parser.parse_args()
    if args.what == "sample":
        build_sample(args.out)
        return
    if args.what == "digests":
        digest_cost(args.out)
        return
    pages = load_pages()
    texts = main_texts(pages)
    if args.what == "copies":
        count = write_records(args.out, copies_records(pages, texts))
    else:
        size = int(float(args.size.rstrip("MmBb")) * 1_000_000)
        count = write_records(args.out, big_records(pages, texts), max_bytes=size)
    print(f"{args.out}: {count} records, {args.out.stat().st_size} bytes")


if __name__ == "__main__":
    main()
