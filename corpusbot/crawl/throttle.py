"""AutoThrottle that keeps each site's own delay as a floor.

Scrapy's AutoThrottle moves a downloader slot's delay towards the server's
latency, bounded below by ``DOWNLOAD_DELAY`` only: a site whose
``delay_seconds`` (the sites file, ``DOWNLOAD_SLOTS``) is 2 s was fetched
every 0.5-1 s once its server answered quickly. A user's per-site
politeness is a floor, never a hint: this subclass lets AutoThrottle raise
a site's delay when the server slows down, and never lowers it below the
delay the site was given. The add-on puts it in AutoThrottle's place.
"""

from __future__ import annotations

from typing import Any

from scrapy import Request, Spider
from scrapy.extensions.throttle import AutoThrottle
from scrapy.http import Response


class SiteFloorThrottle(AutoThrottle):
    """AutoThrottle, never below a slot's ``DOWNLOAD_SLOTS`` delay."""

    def _response_downloaded(self, response: Response, request: Request,
                             spider: Spider | None = None) -> None:
        super()._response_downloaded(response, request, spider)
        key: Any = request.meta.get("download_slot")
        slot = self.crawler.engine.downloader.slots.get(key) if key is not None else None
        floor = self.crawler.settings.getdict("DOWNLOAD_SLOTS").get(key, {}).get("delay")
        if slot is not None and floor is not None:
            slot.delay = max(slot.delay, float(floor))
