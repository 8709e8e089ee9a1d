"""Exact copies in an archive: a page whose bytes an earlier page of the run already had.

Archives hold the same response under many URLs: a soft-404 or login page
served at every address of a site, a mirror, a page fetched with and
without tracking parameters. Processing such a copy again yields the same
result as its first occurrence, whose outcome the run already knows:

- the first was kept: the copy's document is the same text, so the sink
  drops it as an exact duplicate (``dedup/exact``) of the first;
- the Processor rejected the first: it rejects the copy for the same reason.

``CopyMemo`` remembers those outcomes for the last ``capacity`` distinct
pages (and ``TEXT_BYTES`` of their text), keyed by what processing reads of a
page: its body and the headers that choose its encoding and language hints.
The runner hands the sink the remembered result under the copy's own
identity (URL, record, offset), so the corpus, the rejects and the stats are
byte for byte those of processing it again (but for ``REUSED``, the count of
copies). It reuses nothing when the outcome could depend on more than the
bytes:

- a step that reads the URL (``Step.reads_url``: the URL block lists) runs
  after one that does not (``Processor.url_steps``); when they run first, as
  in the presets, they are run on the copy's own URL before anything is
  reused, and what they drop is not remembered;
- the first was cut short (a time limit) or crashed;
- the first was dropped by dedup, or kept while the exact level is off or
  paragraph dedup may trim what is kept (the copy itself might be kept,
  with the metadata of another URL).
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import replace
from hashlib import blake2b

from corpusbot.document import Document
from corpusbot.fingerprints.options import DedupOptions
from corpusbot.page import Page
from corpusbot.pool import TIMEOUT, Result
from corpusbot.processor import CRASH
from corpusbot.steps import Step

COPIES_DEFAULT = 512
"""Distinct pages remembered: copies in archives sit near their first occurrence (a site
crawled together); a document is some kilobytes, so memory stays a few megabytes."""
TEXT_BYTES = 16 << 20
"""And at most this many characters of their texts (a document holds its text twice, as
text and paragraphs): a run of very long documents remembers fewer."""
_PROCESSING_HEADERS = ("content-type", "content-language")
_UNSTABLE = (TIMEOUT, CRASH)  # reasons that depend on the moment, not on the bytes
REUSED = "archive/copies-reused"
"""Stat: pages whose result was their earlier exact copy's, not processed again."""


def copy_key(page: Page) -> bytes:
    """What processing reads of ``page`` besides its URL, as a digest."""
    digest = blake2b(page.body, digest_size=16)
    wanted = {name: "" for name in _PROCESSING_HEADERS}
    for name, value in page.headers.items():
        if name.lower() in wanted:
            wanted[name.lower()] = value.strip()
    digest.update("\0".join(wanted.values()).encode("utf-8", "surrogatepass"))
    return digest.digest()


class CopyMemo:
    """The outcomes of the last pages processed, for their exact copies."""

    __slots__ = ("_chars", "_documents", "_results", "_url_reasons", "capacity")

    def __init__(self, dedup: DedupOptions, url_steps: list[Step],
                 capacity: int = COPIES_DEFAULT) -> None:
        self.capacity = capacity
        # a kept document's copy is certainly an exact duplicate only then
        self._documents = dedup.uses("exact") and not dedup.uses("paragraph")
        # what a URL step decided says nothing of a copy under another URL
        self._url_reasons = tuple(f"filter/{step.name}/" for step in url_steps)
        self._results: OrderedDict[bytes, Result] = OrderedDict()
        self._chars = 0

    def __contains__(self, key: bytes) -> bool:
        return key in self._results

    def remember(self, key: bytes, result: Result, kept: bool) -> None:
        """Note the outcome of the page with ``key``: ``kept`` when the sink wrote it."""
        if isinstance(result, Document):
            if not (kept and self._documents):
                return
        elif result.reason.startswith(_UNSTABLE + self._url_reasons):
            return
        if key in self._results:
            self._chars -= _chars(self._results.pop(key))
        self._results[key] = result
        self._chars += _chars(result)
        while self._results and (len(self._results) > self.capacity
                                 or self._chars > TEXT_BYTES):
            self._chars -= _chars(self._results.popitem(last=False)[1])

    def recall(self, key: bytes, page: Page) -> Result | None:
        """The result of ``page`` as the remembered copy's, under ``page``'s identity."""
        found = self._results.get(key)
        if found is None:
            return None
        self._results.move_to_end(key)
        identity = {"url": page.url, "url_key": page.url_key, "source": page.source,
                    "record_id": page.record_id, "offset": page.offset}
        if isinstance(found, Document):
            return replace(found, fetched_at=page.fetched_at, **identity)
        return replace(found, **identity)


def _chars(result: Result) -> int:
    return 2 * len(result.text or "")
