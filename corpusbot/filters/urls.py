"""The user's URL block lists: domains, URLs and banned words, opt-in (no list, no drop).

- ``domain_lists``: files of domains, one per line (``#`` comments); a page
  whose host is a listed domain or under one is dropped.
- ``url_lists``: files of URLs, one per line, scheme optional; a page whose
  URL (scheme, ``www.`` and a trailing slash left out) is listed is dropped.
- ``ut1``: a folder laid out as the Université Toulouse 1 lists that
  datatrove and RedPajama use: ``<category>/domains`` and ``<category>/urls``
  (``blacklists/`` inside it also works); ``ut1_categories`` picks the
  categories, datatrove's ``adult`` by default.
- ``banned_url_words``: words that drop a page when its URL has one as a
  word of its own (split at every non-alphanumeric character).

The reason names the list: ``filter/urls/<file name>`` for a file,
``filter/urls/ut1-<category>`` for a UT1 category,
``filter/urls/banned-word``. The lists are read when the step is made (in
each worker process); the Processor gives the step the page's URL.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from corpusbot.steps import Drop, PageState, Step

NAME = "urls"
BANNED_WORD = f"filter/{NAME}/banned-word"
_URL_WORD = re.compile(r"[^\W_]+")


@dataclass(slots=True, frozen=True)
class UrlsOptions:
    """Which block lists to apply; every one empty by default."""

    domain_lists: frozenset[str] = frozenset()
    url_lists: frozenset[str] = frozenset()
    ut1: str = ""
    ut1_categories: frozenset[str] = frozenset({"adult"})
    banned_url_words: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        for path in (*self.domain_lists, *self.url_lists):
            if not Path(path).is_file():
                raise ValueError(f"{NAME}: block list {path} is not a readable file")
        if self.ut1:
            for category in self.ut1_categories:
                if _ut1_folder(Path(self.ut1), category) is None:
                    raise ValueError(f"{NAME}.ut1: no category folder {category!r} "
                                     f"(with domains or urls) in {self.ut1}")


class Urls(Step):
    """Drops pages whose URL a block list names."""

    name = NAME
    reads_url = True
    Options = UrlsOptions
    reasons = (f"filter/{NAME}/<list>", BANNED_WORD)
    summary = "URL block lists (domains, URLs, UT1 folders) and banned words in the URL"
    __slots__ = ("_domains", "_urls", "_words")

    def __init__(self, options: UrlsOptions | None = None) -> None:
        super().__init__(options)
        o = self.options
        self._domains: dict[str, str] = {}
        self._urls: dict[str, str] = {}
        for path in sorted(o.domain_lists):
            _read_into(self._domains, Path(path), f"filter/{NAME}/{Path(path).name}", _domain)
        for path in sorted(o.url_lists):
            _read_into(self._urls, Path(path), f"filter/{NAME}/{Path(path).name}", url_key)
        for category in sorted(o.ut1_categories) if o.ut1 else ():
            self._read_ut1(Path(o.ut1), category)
        self._words = frozenset(word.lower() for word in o.banned_url_words)

    def _read_ut1(self, root: Path, category: str) -> None:
        folder = _ut1_folder(root, category)
        reason = f"filter/{NAME}/ut1-{category}"
        if folder is not None and (folder / "domains").is_file():
            _read_into(self._domains, folder / "domains", reason, _domain)
        if folder is not None and (folder / "urls").is_file():
            _read_into(self._urls, folder / "urls", reason, url_key)

    def apply(self, state: PageState) -> Drop | None:
        url = state.page.url or ""
        host = _domain(urlsplit(url).hostname or "")
        parts = host.split(".")
        for index in range(len(parts) - 1):
            reason = self._domains.get(".".join(parts[index:]))
            if reason:
                return Drop(reason, host)
        reason = self._urls.get(url_key(url))
        if reason:
            return Drop(reason, url)
        if self._words and not self._words.isdisjoint(_URL_WORD.findall(url.lower())):
            return Drop(BANNED_WORD, url)
        return None


def url_key(url: str) -> str:
    """A URL as the lists compare it: lower-cased host, no scheme, ``www.`` or final slash."""
    url = url.strip()
    if "://" not in url:
        url = "http://" + url
    parts = urlsplit(url)
    path = parts.path.rstrip("/")
    query = f"?{parts.query}" if parts.query else ""
    return f"{_domain(parts.hostname or '')}{path}{query}"


def _domain(host: str) -> str:
    host = host.strip().lower().rstrip(".")
    return host.removeprefix("www.")


def _read_into(table: dict[str, str], path: Path, reason: str, key: object) -> None:
    """Each non-comment line of ``path`` as a key of ``table`` (the first list keeps it)."""
    with path.open(encoding="utf-8", errors="replace") as lines:
        for raw in lines:
            entry = raw.strip()
            if entry and not entry.startswith("#"):
                table.setdefault(key(entry), reason)  # type: ignore[operator]


def _ut1_folder(root: Path, category: str) -> Path | None:
    for folder in (root / category, root / "blacklists" / category):
        if (folder / "domains").is_file() or (folder / "urls").is_file():
            return folder
    return None
