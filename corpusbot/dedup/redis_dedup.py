"""The dedup levels against the shared Redis index, each decision one atomic script.

``RedisDeduplicator`` keeps ``Deduplicator``'s levels, order and reasons;
only where the checks and additions run changes. A URL is claimed
atomically when it is admitted (so that two workers never both process
it), and a document's exact, near and paragraph levels run, with its
additions, in one Lua call (``redis_scripts.DECIDE``): two round trips per
document, plus one when paragraph dedup trimmed it (its new text hash).
Near duplicates are confirmed on b-bit signatures (``bbit``) with the
corrected estimate, not on the full 32-bit slots.

``RedisBackend`` is the factory the dedup seam opens for ``redis://``,
``rediss://`` and ``unix://`` URLs. This corpus folder owns its additions
until their shards commit: the epoch committed last is stored with the
corpus's checkpoint (``prepare``), and opening adopts or releases what an
earlier run of this folder left pending.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from corpusbot.dedup.backends import IndexHost, Settings, Verdict
from corpusbot.dedup.bbit import BITS_DEFAULT, compact
from corpusbot.dedup.deduplicator import (
    EXACT,
    LSH_FP_WEIGHT,
    NEAR,
    PARAGRAPH,
    Deduplicator,
    owner_of,
    with_paragraphs,
)
from corpusbot.dedup.near import optimal_bands
from corpusbot.dedup.redis_index import (
    RedisAddress,
    RedisIndex,
    owner_bytes,
    owner_from_bytes,
)
from corpusbot.document import Document, Rejection
from corpusbot.fingerprints.options import DedupOptions
from corpusbot.redis_keys import SIGNATURES_PER_BLOCK
from corpusbot.text import tokens

logger = logging.getLogger(__name__)
EPOCH = "dedup_epoch"
OWNER = "dedup_owner"

_VERDICTS = {1: EXACT, 2: NEAR, 3: PARAGRAPH}
_TRIMMED = 4


class RedisDeduplicator(Deduplicator):
    """``Deduplicator`` over a ``RedisIndex``; see the module docstring."""

    __slots__ = ("_adopted", "_claims", "bits", "redis")

    def __init__(self, index: RedisIndex, options: DedupOptions, bits: int = BITS_DEFAULT,
                 settings: Settings | None = None) -> None:
        self.redis, self.bits = index, bits
        self._claims: dict[int, bytes] = {}  # in-flight URL key -> its claim's journal item
        self._adopted = b""
        super().__init__(index, options, settings)  # type: ignore[arg-type]

    @property
    def owner(self) -> str:
        """This corpus folder's name in the shared index."""
        return self.redis.owner

    def abandon(self, owner: str) -> int | None:
        """Release everything ``owner`` (another folder, dead for good) journaled; None
        while a commit of it is under way (``RedisIndex.abandon``)."""
        return self.redis.for_owner(owner).abandon()

    def prepare(self) -> None:
        """In the corpus's transaction: the epoch now committed, and the index's generation;
        refused (``IndexHandedOverError``) once another process took over this owner's
        uncommitted pages."""
        self.redis.begin_commit()
        super().prepare()
        if self._settings is not None:
            self._settings.save_setting(EPOCH, str(self.redis.epoch))

    def committed(self) -> None:
        """The corpus's commit is durable: this epoch's additions now count for good."""
        self.redis.committed()

    def release(self) -> None:
        """Abort: take back what was not committed, at once if Redis answers (else the next
        opening of this folder does it: no waiting here)."""
        try:
            self.redis.release(retry=False)
        except ConnectionError as error:
            logger.warning("could not release the uncommitted dedup entries now (%s); "
                           "the next run of this folder releases them", error)

    def close(self) -> None:
        self.redis.close()

    def add(self, doc: Document) -> None:
        """Record ``doc`` as kept without checking it (rebuilding the index from a corpus)."""
        self._fingerprints(doc)
        place, options = self.redis.layout.place, self.options
        args: list[bytes | str | int | float] = [owner_bytes(owner_of(doc))]
        kinds = [("u", doc.url_key)] if options.uses("url") else []
        kinds += [("t", doc.content_hash)] if options.uses("exact") else []
        if options.uses("paragraph"):
            kinds += [("p", h) for h in doc.paragraph_hashes if h]
        for kind, key in kinds:
            args.extend(place(kind, key))
        bands = self._band_keys(doc)
        signature = compact(np.frombuffer(doc.signature, dtype=np.uint32), self.bits) if bands \
            else b""
        args += ["", signature, self.redis.signature_bytes, SIGNATURES_PER_BLOCK]
        for key in bands:
            args.extend(place("b", key))
        self.redis.add(args)

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

    def check(self, result: Document | Rejection, revisit: bool = False) -> Verdict:
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

    def _check_document(self, doc: Document) -> Verdict:
        self._fingerprints(doc)
        url = self.redis.layout.place("u", doc.url_key) if self.options.uses("url") else ("", b"")
        answer = self.redis.decide(self._arguments(doc), self._adopted,
                                   owner_bytes(owner_of(doc)), url)
        self._adopted = b""
        code = int(answer[0])
        if code in _VERDICTS:
            return self._dropped(_VERDICTS[code], owner_from_bytes(answer[1]))
        if code != _TRIMMED:
            return Verdict(document=doc)
        return Verdict(document=self._trimmed(doc, int(answer[1]), [int(i) for i in answer[2:]],
                                              url))

    def _trimmed(self, doc: Document, slot: int, kept: list[int],
                 url: tuple[str, bytes]) -> Document:
        """``doc`` without the paragraphs DECIDE found seen, its entries renamed to its
        new id; its new text hash is known too."""
        trimmed = with_paragraphs(doc, [doc.paragraphs[i] for i in kept],
                                  [doc.paragraph_hashes[i] for i in kept])
        if self.options.uses("exact") and trimmed.content_hash != doc.content_hash:
            self.redis.claim("t", trimmed.content_hash, owner_bytes(owner_of(trimmed)))
        place = self.redis.layout.place
        places = [url] if url[0] else []
        places += [place("t", doc.content_hash)] if self.options.uses("exact") else []
        places += [place("p", h) for h in trimmed.paragraph_hashes if h]
        self.redis.reown(owner_of(doc), owner_of(trimmed), slot, places)
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
        if not self.options.uses("paragraph"):
            return [0]
        args: list[bytes | str | int] = [len(paragraphs)]
        for paragraph, key in zip(paragraphs, doc.paragraph_hashes, strict=True):
            name, field = self.redis.layout.place("p", key) if key else ("", b"")
            args += [name, field, len(tokens(paragraph))]
        return args


def signature_bytes(options: DedupOptions, bits: int = BITS_DEFAULT) -> int:
    """Bytes of one compact signature."""
    return -(-options.num_perm * bits // 8)


def _undo_last_commit(host: IndexHost, epoch: int) -> int:
    """Undo the folder's last commit (epoch ``epoch``), lost to another process: the epoch
    its state is back at (``Checkpoint.undo_last_commit``)."""
    if not host.settings.undo_last_commit():
        logger.error("%s: another process took over the pages of its last commit and "
                     "cannot be told apart from them (the folder was written by an older "
                     "version): `corpusbot merge --check` names what is held twice",
                     host.out_dir)
        return epoch
    logger.warning("%s: undid its last commit: another process took its pages over before "
                   "the commit was confirmed, and keeps them", host.out_dir)
    return int(host.settings.setting(EPOCH, "0"))


@dataclass(slots=True, frozen=True)
class RedisBackend:
    """The Redis index's factory: ``redis://host:port/db?capacity=N&prefix=P&retry_seconds=S``."""

    url: str
    options: DedupOptions
    address: RedisAddress
    shared: ClassVar[bool] = True

    @classmethod
    def from_url(cls, url: str, options: DedupOptions) -> RedisBackend:
        return cls(url, options, RedisAddress.parse(url))

    def open(self, host: IndexHost, *, rebuilding: bool = False) -> RedisDeduplicator:
        """Connect as this corpus folder's owner, recover its journals, check the generation."""
        settings = host.settings
        owner = settings.setting(OWNER, uuid.uuid4().hex)
        committed = int(settings.setting(EPOCH, "0"))
        options = self.options
        index = RedisIndex.connect(
            self.address, owner, committed,
            bands=optimal_bands(options.threshold, options.num_perm, LSH_FP_WEIGHT)[0],
            signature_bytes=signature_bytes(options),
            undo=lambda: _undo_last_commit(host, committed))
        try:
            dedup = RedisDeduplicator(index, options, settings=settings)
            if not rebuilding:
                dedup.check_generation(self.url, host.out_dir)
        except BaseException:
            index.close()
            raise
        return dedup
