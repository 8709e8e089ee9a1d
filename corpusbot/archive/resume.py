"""After a crash, the responses a crawl already archived, so that a resumed crawl stores each once.

A ``kill -9`` loses the pages in flight: fetched and archived, but neither
processed nor remembered by Scrapy's job state. The resumed crawl fetches
them again, which the corpus needs; the archive does not need them twice.
So when the WARC writer starts, it indexes the response records of every
file written since the last crawl that finished (``FINISHED_MARK``'s time),
by URL and payload digest: after a crawl that finished there are none, after
one that did not there are, whether it left a file open or not (a resumed
run killed before its first new record opened none). A response fetched
again with the same payload is not written again, and its page points at
the record already archived.
"""

from __future__ import annotations

import base64
import hashlib
import logging
from pathlib import Path

from warcio.archiveiterator import ArchiveIterator

logger = logging.getLogger(__name__)

FINISHED_MARK = ".finished"
"""Touched when a crawl closes its archive cleanly."""

# (url, payload digest) -> (file, offset, length, record id, date)
Known = dict[tuple[str, str], tuple[str, int, int, str, str]]


def payload_digest(body: bytes) -> str:
    """The WARC-Payload-Digest warcio writes for ``body``: SHA-1 in base32."""
    return "sha1:" + base64.b32encode(hashlib.sha1(body).digest()).decode("ascii")


def mark_finished(directory: Path) -> None:
    (directory / FINISHED_MARK).touch()


def archived_since_finish(directory: Path) -> Known:
    """The responses of every ``.warc.gz`` in ``directory`` changed since the last finish."""
    mark = directory / FINISHED_MARK
    since = mark.stat().st_mtime if mark.exists() else 0.0
    known: Known = {}
    changed = [path for path in sorted(directory.glob("*.warc.gz")) if path.stat().st_mtime > since]
    for path in changed:
        known.update(_responses(path))
    if changed:  # none after a crawl that finished
        logger.info("%d responses archived by the interrupted crawl are known", len(known))
    return known


def _responses(path: Path) -> Known:
    found: Known = {}
    with path.open("rb") as handle:
        records = ArchiveIterator(handle)
        for record in records:
            if record.rec_type != "response":
                continue
            headers = record.rec_headers
            key = (headers.get_header("WARC-Target-URI"),
                   headers.get_header("WARC-Payload-Digest"))
            found[key] = (str(path), records.get_record_offset(),
                          records.get_record_length(), headers.get_header("WARC-Record-ID"),
                          headers.get_header("WARC-Date"))
    return found
