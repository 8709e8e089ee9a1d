"""Apply the dedup levels, in input order, to the results of the Processor.

The levels run from cheapest to dearest — URL, exact text, near duplicate,
paragraphs — against a ``DedupIndex``; each drop returns its reason
(``dedup/url``, ``dedup/exact``, ``dedup/near``, ``dedup/paragraph``) and,
where the index knows it, the id of the kept document the page copies
(``Verdict.duplicate_of``; for a paragraph drop, the document most of its
repeated paragraphs came from). Each such drop adds one to that document's
count of copies, kept in the index (FineWeb-2's cluster size, less one).
Deciding here, in one place and one order, is what makes the corpus the
same for the same input whatever the number of worker processes.

URL dedup happens twice over: ``admit`` lets a reader skip a page whose URL
was already processed before spending CPU on it, and ``check`` records the
URL when its result arrives. An admitted URL is "in flight" until then, so
a second page with that URL is refused meanwhile, yet only results that
arrived reach the index: a crash never marks an unprocessed URL as seen.

``Deduplicator`` is also the SQLite backend's ``OpenIndex``: its commit
hooks only store the index's generation with the corpus, since the owner's
one transaction commits or rolls back the index with everything else.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

import numpy as np

from corpusbot.dedup.backends import IndexLostError, Settings, Verdict, lost_message
from corpusbot.dedup.index import DedupIndex
from corpusbot.dedup.near import band_keys, jaccard, optimal_bands
from corpusbot.document import Document, Rejection
from corpusbot.fingerprints.options import DedupOptions
from corpusbot.text import PARAGRAPH_SEPARATOR, hash64, normalise, tokens

URL = "dedup/url"
EXACT = "dedup/exact"
NEAR = "dedup/near"
PARAGRAPH = "dedup/paragraph"
LSH_FP_WEIGHT = 0.05
"""Band layout weighting: candidates are confirmed on the full signature, so a false
candidate costs one lookup while a missed one keeps a duplicate. With 128 slots and
threshold 0.8 this gives 16 bands of 8 rows: 95 % of pairs at J = 0.8 and 99.4 % at
0.85 become candidates, where datasketch's equal weights (9 x 13) find 40 % and 69 %."""
GENERATION = "dedup_generation"
"""The corpus setting holding the generation of the index it committed against."""
_MASK64 = (1 << 64) - 1


class FingerprintMismatchError(ValueError):
    """A document lacks a feature the index's options ask for: the Processor that made it
    was given other ``DedupOptions`` than the index."""


def owner_of(doc: Document) -> int:
    """``doc.id`` as the signed 64-bit integer the index stores."""
    return hash64(f"{doc.url_key}:{doc.content_hash}")


def doc_id(owner: int | None) -> str | None:
    """The ``Document.id`` an index owner stands for; None when unknown (0) or absent."""
    return f"{owner & _MASK64:016x}" if owner else None


def owner_from_id(text: str) -> int:
    """The signed 64-bit owner of a ``Document.id`` (16 hex digits)."""
    value = int(text, 16)
    return value - (1 << 64) if value >> 63 else value


def check_same(fingerprinted: DedupOptions, indexed: DedupOptions) -> None:
    """Refuse, in one line, features made with other options than the index checks them with."""
    if fingerprinted != indexed:
        raise FingerprintMismatchError(
            f"the Processor's dedup options {fingerprinted} differ from the index's {indexed}: "
            "build one DedupOptions and hand the same object to both")


class Deduplicator:
    """Decides, against the index, whether each result is new; see the module docstring."""

    __slots__ = ("_bands", "_generation", "_in_flight", "_settings", "index", "options")

    def __init__(self, index: DedupIndex, options: DedupOptions,
                 settings: Settings | None = None) -> None:
        self.index, self.options, self._settings = index, options, settings
        self._bands = optimal_bands(options.threshold, options.num_perm, LSH_FP_WEIGHT)
        self._in_flight: set[int] = set()
        index.check_parameters({"num_perm": str(options.num_perm),
                                "shingle": str(options.shingle), "seed": str(options.seed),
                                "bands": "{}x{}".format(*self._bands)})
        self._generation = index.generation()

    def admit(self, key: int) -> bool:
        """Whether a page with URL key ``key`` should be processed at all."""
        if not self.options.uses("url"):
            return True
        if key in self._in_flight or self.index.url_owner(key) is not None:
            return False
        self._in_flight.add(key)
        return True

    def check(self, result: Document | Rejection, revisit: bool = False) -> Verdict:
        """The document to keep (maybe trimmed), or the reason it is dropped.

        A Rejection only records its URL as processed (its verdict carries
        its own reason). A ``revisit`` (a page fetched again because it
        changed) passes the URL level: its new text is kept unless the text
        levels find it a copy.
        """
        if isinstance(result, Rejection) and result.reason == URL:
            # refused by ``admit``: the URL belongs to an earlier page
            return self._dropped(URL, self._url_owner(result.url_key))
        if self.options.uses("url") and result.url_key is not None:
            if not self._claim_url(result.url_key) and not revisit:
                if isinstance(result, Rejection):
                    return Verdict(reason=result.reason)
                return self._dropped(URL, self._url_owner(result.url_key))
        if isinstance(result, Rejection):
            return Verdict(reason=result.reason)
        return self._check_document(result)

    def add(self, doc: Document) -> None:
        """Record ``doc`` as kept without checking it (rebuilding an index from a corpus)."""
        self._fingerprints(doc)
        if self.options.uses("url"):
            self.index.add_url(doc.url_key, owner_of(doc))
        self._record(doc, self._band_keys(doc), doc.content_hash)

    def copies(self, ids: Iterable[str]) -> dict[str, int]:
        """How many copies were dropped for each kept document of ``ids`` that has any."""
        owners = {owner_from_id(i): i for i in ids}
        return {owners[o]: n for o, n in self.index.copies(list(owners)).items()}

    def _dropped(self, reason: str, owner: int | None) -> Verdict:
        if owner:
            self.index.add_copy(owner)
        return Verdict(reason=reason, duplicate_of=doc_id(owner))

    def _url_owner(self, key: int | None) -> int | None:
        return None if key is None else self.index.url_owner(key)

    def _claim_url(self, key: int) -> bool:
        if key in self._in_flight:
            self._in_flight.discard(key)
        elif self.index.url_owner(key) is not None:
            return False
        self.index.add_url(key)
        return True

    def _check_document(self, doc: Document) -> Verdict:
        options = self._fingerprints(doc)
        if options.uses("exact"):
            owner = self.index.text_owner(doc.content_hash)
            if owner is not None:
                return self._dropped(EXACT, owner)
        bands = self._band_keys(doc)
        if bands:
            owner = self._near_owner(doc.signature, bands)
            if owner is not None:
                return self._dropped(NEAR, owner)
        kept: Document | int | None = doc
        if options.uses("paragraph"):
            kept = self._trim_paragraphs(doc)
        if not isinstance(kept, Document):
            return self._dropped(PARAGRAPH, kept)
        self._record(kept, bands, doc.content_hash)
        if options.uses("url"):
            self.index.add_url(kept.url_key, owner_of(kept))
        return Verdict(document=kept)

    def _fingerprints(self, doc: Document) -> DedupOptions:
        """The options, once ``doc`` is seen to carry every feature they ask for."""
        options = self.options
        missing = (options.uses("near") and len(doc.signature) != 4 * options.num_perm) or (
            options.uses("paragraph") and len(doc.paragraphs) != len(doc.paragraph_hashes))
        if missing:
            raise FingerprintMismatchError(
                f"{doc.url} was fingerprinted with other dedup options than the index's "
                f"{options}: build one DedupOptions and hand the same object to both")
        return options

    def _band_keys(self, doc: Document) -> list[int]:
        if not self.options.uses("near"):
            return []
        return band_keys(np.frombuffer(doc.signature, dtype=np.uint32), *self._bands)

    def _near_owner(self, signature: bytes, bands: list[int]) -> int | None:
        mine = np.frombuffer(signature, dtype=np.uint32)
        for other, owner in self.index.candidates(bands):
            if jaccard(mine, np.frombuffer(other, dtype=np.uint32)) >= self.options.threshold:
                return owner
        return None

    def _trim_paragraphs(self, doc: Document) -> Document | int:
        """``doc`` without paragraphs seen before; when too little text is left, the owner
        most of the removed paragraphs came from (0 when unknown)."""
        paragraphs = doc.paragraphs
        seen = self.index.seen_paragraphs(h for h in doc.paragraph_hashes if h)
        sources: Counter[int] = Counter(seen.values())
        kept, kept_hashes = [], []
        for paragraph, key in zip(paragraphs, doc.paragraph_hashes, strict=True):
            if key and key in seen:
                continue
            seen[key] = 0  # a paragraph repeated inside the document counts once
            kept.append(paragraph)
            kept_hashes.append(key)
        if len(kept) == len(paragraphs):
            return doc
        trimmed = with_paragraphs(doc, kept, kept_hashes)
        if trimmed.n_words >= self.options.min_words_left:
            return trimmed
        known = [(n, owner) for owner, n in sources.items() if owner]
        return max(known)[1] if known else 0

    def _record(self, doc: Document, bands: list[int], original_hash: int) -> None:
        owner = owner_of(doc)
        if self.options.uses("exact"):
            self.index.add_text(original_hash, owner)
            if doc.content_hash != original_hash:  # trimmed: its new text is known too
                self.index.add_text(doc.content_hash, owner)
        if bands:
            self.index.add_signature(doc.signature, bands, owner)
        if self.options.uses("paragraph"):
            self.index.add_paragraphs((h for h in doc.paragraph_hashes if h), owner)

    def check_generation(self, url: str, out_dir: Path) -> None:
        """Refuse an index that lost what this corpus committed against it."""
        if self._settings is None:
            return
        stored = self._settings.setting(GENERATION, "")
        if stored and stored != self._generation:
            raise IndexLostError(lost_message(url, out_dir))

    def prepare(self) -> None:
        """In the corpus's transaction: the generation its commits are now held by."""
        if self._settings is not None:
            self._settings.save_setting(GENERATION, self._generation)

    def committed(self) -> None:
        """Nothing to do: the index committed in the corpus's own transaction."""

    def release(self) -> None:
        """Nothing to do: the corpus's rollback takes the index's additions back."""

    def close(self) -> None:
        """Nothing to do: the connection is the corpus's."""


def with_paragraphs(doc: Document, kept: list[str], kept_hashes: list[int]) -> Document:
    """``doc`` reduced to the paragraphs ``kept``: its text, word count and hash redone."""
    text = PARAGRAPH_SEPARATOR.join(kept)
    words = tokens(text)
    return replace(doc, text=text, n_words=len(words), content_hash=hash64(normalise(words)),
                   paragraphs=tuple(kept), paragraph_hashes=tuple(kept_hashes))
