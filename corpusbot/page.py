"""The unit a source hands to the processing core."""

from __future__ import annotations

from dataclasses import dataclass, field

from corpusbot.fingerprints.url import url_key


@dataclass(slots=True, frozen=True)
class Page:
    """One fetched page, from a crawl or from an archive record.

    ``source`` says where it came from: ``"crawl"``, or the archive file;
    ``record_id`` and ``offset`` locate an archive record within that file.
    """

    url: str
    body: bytes
    headers: dict[str, str] = field(default_factory=dict)
    fetched_at: str | None = None
    source: str = "crawl"
    record_id: str | None = None
    offset: int | None = None
    status: int = 200
    url_key: int = field(init=False, repr=False, compare=False)
    """The URL's dedup key (``corpusbot.fingerprints.url``), computed where the page is made."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "url_key", url_key(self.url))
