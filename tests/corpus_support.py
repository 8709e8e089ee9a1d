"""Build real WARC and ARC files from the pages in tests/fixtures/warc for the corpus tests."""

from __future__ import annotations

import gzip
import io
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

PAGES = Path(__file__).parent / "fixtures" / "warc" / "pages"
ARC_DATE = "20240115120000"


def page(name: str) -> bytes:
    """The HTML of one fixture page, e.g. ``page("en-anarcat")``."""
    return gzip.decompress((PAGES / f"{name}.html.gz").read_bytes())


def page_names() -> list[str]:
    return sorted(p.name.removesuffix(".html.gz") for p in PAGES.glob("*.html.gz"))


@dataclass
class Rec:
    """One record to write: an HTTP response unless ``rec_type`` says otherwise."""

    url: str
    body: bytes
    content_type: str | None = "text/html; charset=utf-8"
    status: str = "200 OK"
    rec_type: str = "response"
    headers: list[tuple[str, str]] = field(default_factory=list)


def chunked(body: bytes, size: int = 1000) -> bytes:
    """``body`` in HTTP/1.1 chunked transfer encoding."""
    parts = [b"%x\r\n%s\r\n" % (len(body[i:i + size]), body[i:i + size])
             for i in range(0, len(body), size)]
    return b"".join(parts) + b"0\r\n\r\n"


def write_warc(path: Path, records: list[Rec], compress: bool | None = None) -> Path:
    """A WARC file (per-record gzip when the name ends in .gz) holding ``records``."""
    compress = path.name.endswith(".gz") if compress is None else compress
    with open(path, "wb") as handle:
        writer = WARCWriter(handle, gzip=compress)
        writer.write_record(writer.create_warcinfo_record(path.name, {"software": "tests"}))
        for rec in records:
            writer.write_record(_warc_record(writer, rec))
    return path


def _warc_record(writer: WARCWriter, rec: Rec):
    if rec.rec_type == "response":
        headers = list(rec.headers)
        if rec.content_type is not None:
            headers.insert(0, ("Content-Type", rec.content_type))
        http = StatusAndHeaders(rec.status, headers, protocol="HTTP/1.1")
        return writer.create_warc_record(rec.url, "response", payload=io.BytesIO(rec.body),
                                         http_headers=http)
    warc_headers = {"Content-Type": rec.content_type} if rec.content_type else {}
    return writer.create_warc_record(rec.url, rec.rec_type, payload=io.BytesIO(rec.body),
                                     warc_content_type=warc_headers.get("Content-Type"))


def write_arc(path: Path, records: list[Rec]) -> Path:
    """An ARC v1 file (per-record gzip when the name ends in .gz); warcio reads but cannot
    write ARC, so the records are laid out here by the format's rules."""
    compress = path.name.endswith(".gz")
    blocks = [_arc_header(path.name)] + [_arc_record(rec) for rec in records]
    with open(path, "wb") as handle:
        for block in blocks:
            handle.write(gzip.compress(block) if compress else block)
    return path


def _arc_header(name: str) -> bytes:
    body = b"1 0 tests\nURL IP-address Archive-date Content-type Archive-length\n\n"
    line = f"filedesc://{name} 0.0.0.0 {ARC_DATE} text/plain {len(body)}\n".encode()
    return line + body + b"\n"


def _arc_record(rec: Rec) -> bytes:
    http = f"HTTP/1.1 {rec.status}\r\n".encode()
    if rec.content_type:
        http += f"Content-Type: {rec.content_type}\r\n".encode()
    http += b"".join(f"{k}: {v}\r\n".encode() for k, v in rec.headers)
    payload = http + b"\r\n" + rec.body
    mime = (rec.content_type or "-").split(";")[0]
    line = f"{rec.url} 192.0.2.1 {ARC_DATE} {mime} {len(payload)}\n".encode()
    return line + payload + b"\n"


def deflate_gzip(body: bytes) -> bytes:
    compressor = zlib.compressobj(6, zlib.DEFLATED, 31)
    return compressor.compress(body) + compressor.flush()


def html_records(prefix: str = "https://example.org/") -> list[Rec]:
    """One response per fixture page, under URLs named after the page."""
    return [Rec(f"{prefix}{name}", page(name)) for name in page_names()]


def make_doc(i: int, lang: str = "en", words: int = 80):
    """A Document with its own random text, fingerprinted as the Processor does."""
    import random

    from corpusbot.document import Document
    from corpusbot.fingerprints.minhash import MinHasher
    from corpusbot.fingerprints.url import url_key
    from corpusbot.text import hash64, normalise, tokens

    rng = random.Random(i)
    text = " ".join(f"w{rng.randrange(1_000_000)}" for _ in range(words))
    found = tokens(text)
    url = f"https://example.org/{lang}/{i}"
    return Document(url=url, text=text, title=f"t{i}", lang=lang, lang_prob=0.99,
                    n_words=len(found), extractor="default",
                    content_hash=hash64(normalise(found)), url_key=url_key(url),
                    source="crawl", signature=MinHasher().signature(found).tobytes())


def read_shards(out_dir: Path) -> list[dict]:
    """Every record of every finished shard, in shard order."""
    import json

    import zstandard

    records = []
    for path in sorted(out_dir.glob("*/*.jsonl*")):
        if path.name.endswith(".part"):
            continue
        data = path.read_bytes()
        if path.suffix == ".gz":
            data = gzip.decompress(data)
        elif path.suffix == ".zst":
            reader = zstandard.ZstdDecompressor().stream_reader(io.BytesIO(data),
                                                                read_across_frames=True)
            data = reader.read()
        records += [json.loads(line) for line in data.splitlines()]
    return records
