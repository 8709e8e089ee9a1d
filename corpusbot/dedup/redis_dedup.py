"""The dedup levels against the shared Redis index, each decision one atomic script.

``RedisDeduplicator`` keeps ``Deduplicator``'s levels, order and reasons;
only where the checks and additions run changes. A URL is claimed
atomically when it is admitted (so that two workers never both process
it), and a document's exact, near and paragraph levels run, with its
additions, in one Lua call (``redis_scripts.DECIDE``): two round trips per
document, plus one when paragraph dedup trimmed it (its new text hash).
Near duplicates are confirmed on b-bit signatures (``bbit``) with the
corrected estimate, not on the full 32-bit slots.
"""

from __future__ import annotations

import numpy as np

from corpusbot.dedup.bbit import BITS_DEFAULT, compact
from corpusbot.dedup.deduplicator import EXACT, NEAR, PARAGRAPH, Deduplicator, with_paragraphs
from corpusbot.dedup.redis_index import SIGNATURES_PER_BLOCK, RedisIndex
from corpusbot.document import Document, Rejection
from corpusbot.fingerprints.options import DedupOptions
from corpusbot.text import tokens

_VERDICTS = {1: EXACT, 2: NEAR, 3: PARAGRAPH}
_TRIMMED = 4


class RedisDeduplicator(Deduplicator):
    """``Deduplicator`` over a ``RedisIndex``; see the module docstring."""

    __slots__ = ("_adopted", "_claims", "bits", "redis")

    def __init__(self, index: RedisIndex, options: DedupOptions, bits: int = BITS_DEFAULT) -> None:
        self.redis, self.bits = index, bits
        self._claims: dict[int, bytes] = {}  # in-flight URL key -> its claim's journal item
        self._adopted = b""
        super().__init__(index, options)  # type: ignore[arg-type]

    def admit(self, key: int) -> bool:
        """Whether a page with URL key ``key`` should be processed: claims it in Redis, where
        the claim stays "in flight" until the page's result is checked."""
        if not self.options.uses("url"):
            return True
        if key in self._claims:
            return False
        item = self.redis.claim_in_flight("u", key)
        if item is None:
            return False
        self._claims[key] = item
        return True

    def check(self, result: Document | Rejection, revisit: bool = False) -> Document | str | None:
        """As ``Deduplicator.check``; the page's in-flight URL claim joins the open epoch."""
        self._adopted = b""
        verdict = super().check(result, revisit)
        if self._adopted:  # not taken by a DECIDE call: a rejection, or a URL verdict
            self.redis.adopt(self._adopted)
            self._adopted = b""
        return verdict

    def _claim_url(self, key: int) -> bool:
        item = self._claims.pop(key, None)
        if item is not None:
            self._adopted = item
            return True
        return self.redis.claim("u", key)

    def _check_document(self, doc: Document) -> Document | str:
        answer = self.redis.decide(self._arguments(doc), self._adopted)
        self._adopted = b""
        code, kept = answer[0], answer[1:]
        if code in _VERDICTS:
            return _VERDICTS[code]
        if code != _TRIMMED:
            return doc
        trimmed = with_paragraphs(doc, [doc.paragraphs[i] for i in kept],
                                  [doc.paragraph_hashes[i] for i in kept])
        if self.options.uses("exact") and trimmed.content_hash != doc.content_hash:
            self.redis.claim("t", trimmed.content_hash)  # its new text is known too
        return trimmed

    def _arguments(self, doc: Document) -> list[bytes | str | int | float]:
        place, options = self.redis.layout.place, self.options
        text = place("t", doc.content_hash) if options.uses("exact") else ("", b"")
        bands = self._band_keys(doc)
        args: list[bytes | str | int | float] = [*text, len(bands)]
        for key in bands:
            args.extend(place("b", key))
        signature = np.frombuffer(doc.signature, dtype=np.uint32) if bands else None
        args += [b"" if signature is None else compact(signature, self.bits), options.threshold,
                 self.bits, options.num_perm, self.redis.signature_bytes, SIGNATURES_PER_BLOCK]
        args += self._paragraph_arguments(doc)
        args.append(options.min_words_left)
        return args

    def _paragraph_arguments(self, doc: Document) -> list[bytes | str | int]:
        paragraphs = doc.paragraphs
        if not self.options.uses("paragraph") or len(paragraphs) != len(doc.paragraph_hashes):
            return [0]
        args: list[bytes | str | int] = [len(paragraphs)]
        for paragraph, key in zip(paragraphs, doc.paragraph_hashes, strict=True):
            name, field = self.redis.layout.place("p", key) if key else ("", b"")
            args += [name, field, len(tokens(paragraph))]
        return args


def signature_bytes(options: DedupOptions, bits: int = BITS_DEFAULT) -> int:
    """Bytes of one compact signature."""
    return -(-options.num_perm * bits // 8)
