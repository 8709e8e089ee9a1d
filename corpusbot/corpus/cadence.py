"""When a driver commits the corpus: after so many pages or so many seconds, whichever
comes first. Both drivers (the archive runner, the crawl's corpus pipeline) use it, so
that a crash loses at most that much work on either path."""

from __future__ import annotations

import time


class CommitCadence:
    """Counts pages added since the last commit and says when the next one is due."""

    __slots__ = ("every_pages", "every_seconds", "pages", "since")

    def __init__(self, every_pages: int, every_seconds: float) -> None:
        self.every_pages, self.every_seconds = every_pages, every_seconds
        self.pages = 0
        self.since = time.monotonic()

    def add(self, pages: int = 1) -> None:
        self.pages += pages

    def due(self) -> bool:
        """Whether to commit now: enough pages, or pages waiting since long enough."""
        late = time.monotonic() - self.since >= self.every_seconds
        return self.pages >= self.every_pages or (late and self.pages > 0)

    def committed(self) -> None:
        self.pages = 0
        self.since = time.monotonic()
