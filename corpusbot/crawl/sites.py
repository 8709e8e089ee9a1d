"""Per-site crawl options, read from a small TOML file.

```toml
[defaults]                      # optional, applies to every site
depth = 4

[site."example.com"]            # the host and its subdomains
start = ["https://example.com/"]
allow = ['/(news|world)/']      # regexes searched in the URL, for links only
deny = ['/video/', '\\?share=']
depth = 3
feeds = ["https://example.com/rss.xml"]
sitemaps = ["https://example.com/news-sitemap.xml"]
links = true                    # follow links at all
delay_seconds = 2.0             # Scrapy DOWNLOAD_SLOTS for this host; the site lease with --redis
concurrency = 1
```
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit


@dataclass(slots=True, frozen=True)
class SiteOptions:
    """How one site is crawled; unset values fall back to the crawl settings."""

    start: tuple[str, ...] = ()
    allow: tuple[str, ...] = ()
    deny: tuple[str, ...] = ()
    depth: int | None = None
    feeds: tuple[str, ...] = ()
    sitemaps: tuple[str, ...] = ()
    links: bool = True
    delay_seconds: float | None = None
    concurrency: int | None = None


@dataclass(slots=True, frozen=True)
class SiteConfig:
    """Options by site, looked up by host (a site covers its subdomains)."""

    sites: dict[str, SiteOptions] = field(default_factory=dict)
    defaults: SiteOptions = SiteOptions()

    def for_url(self, url: str) -> SiteOptions:
        host = (urlsplit(url).hostname or "").lower()
        while host:
            if host in self.sites:
                return self.sites[host]
            host = host.partition(".")[2]
        return self.defaults

    def download_slots(self) -> dict[str, dict[str, float | int]]:
        """The ``DOWNLOAD_SLOTS`` entries of the sites that set a delay or concurrency."""
        slots: dict[str, dict[str, float | int]] = {}
        for host, options in self.sites.items():
            slot: dict[str, float | int] = {}
            if options.delay_seconds is not None:
                # A floor: no random variation below it (jitter for Scrapy 2.19, randomize_delay
                # for earlier releases, which ignore jitter; 2.19 reads jitter first).
                slot.update(delay=options.delay_seconds, jitter=0.0, randomize_delay=False)
            if options.concurrency is not None:
                slot["concurrency"] = options.concurrency
            if slot:
                slots[host] = slot
                slots[f"www.{host}"] = slot
        return slots


def load_site_config(path: str | Path | None) -> SiteConfig:
    """Read the TOML file at ``path``; no path means no per-site options.

    Raises ValueError naming the file and the unknown key on a typo, so a
    misspelt option does not pass silently.
    """
    if not path:
        return SiteConfig()
    with Path(path).open("rb") as handle:
        data = tomllib.load(handle)
    defaults = _options(data.get("defaults", {}), SiteOptions(), path)
    sites = {
        host.lower(): _options(values, defaults, path)
        for host, values in data.get("site", {}).items()
    }
    return SiteConfig(sites, defaults)


def _options(values: dict[str, Any], base: SiteOptions, path: str | Path) -> SiteOptions:
    known = {f.name for f in fields(SiteOptions)}
    unknown = set(values) - known
    if unknown:
        raise ValueError(
            f"{path}: unknown site option(s) {sorted(unknown)}; known: {sorted(known)}"
        )
    cleaned = {k: tuple(v) if isinstance(v, list) else v for k, v in values.items()}
    return replace(base, **cleaned)
