"""Load a gold folder of ``../shared/bench`` in any of its three layouts.

- ``scrapinghub``: ``ground-truth.json`` (key -> ``articleBody``, ``url``)
  and ``html/<key>.html.gz``.
- ``multilingual-dev``: ``snippets.json`` (url -> ``file``, ``with``,
  ``without``) and ``html/<file>``.
- ``wcxb``: one ``ground-truth/<id>.json`` per page (``url``,
  ``ground_truth.main_content``, ``title``, ``author``, ``publish_date``,
  the page type at ``_internal.page_type.primary``) and ``html/<id>.html.gz``.

The HTML stays raw bytes, so that decoding is part of what is scored.
"""

from __future__ import annotations

import gzip
import json
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

SCRAPINGHUB = "scrapinghub"
SNIPPETS = "multilingual-dev"
WCXB = "wcxb"
LAYOUT_FILES = {SCRAPINGHUB: "ground-truth.json", SNIPPETS: "snippets.json"}
WCXB_FOLDER = "ground-truth"
PAGE_TYPE_NAMES = {"category": "collection"}
"""WCXB's README: the type ``category`` is the one its tables call ``collection``."""

_LOAD_ERRORS = (OSError, EOFError, zlib.error, KeyError, TypeError, ValueError)


class NotAGoldFolder(ValueError):
    """The folder holds no ``ground-truth.json``, ``snippets.json`` or ``ground-truth/``."""


@dataclass(slots=True, frozen=True)
class GoldMeta:
    """The metadata a WCXB page's gold gives: headline, author, publication date."""

    title: str | None = None
    author: str | None = None
    date: str | None = None


@dataclass(slots=True, frozen=True)
class GoldPage:
    """One annotated page: its HTML bytes and the gold of its layout.

    ``body`` is the full main text (scrapinghub, wcxb); ``with_`` and
    ``without`` are the snippets that must and must not appear (snippets);
    ``page_type`` and ``meta`` come with wcxb pages only.
    """

    key: str
    url: str | None
    html: bytes
    body: str | None = None
    with_: tuple[str, ...] = ()
    without: tuple[str, ...] = ()
    page_type: str | None = None
    meta: GoldMeta | None = None


@dataclass(slots=True)
class GoldSet:
    """The loaded pages of one gold folder, and the pages that failed to load."""

    name: str
    layout: str
    path: Path
    pages: list[GoldPage] = field(default_factory=list)
    errors: dict[str, str] = field(default_factory=dict)

    def __iter__(self) -> Iterator[GoldPage]:
        return iter(self.pages)

    def __len__(self) -> int:
        return len(self.pages)


def detect_layout(path: Path) -> str:
    """Name the layout of a gold folder from the JSON file or folder it holds."""
    for layout, filename in LAYOUT_FILES.items():
        if (path / filename).is_file():
            return layout
    if (path / WCXB_FOLDER).is_dir():
        return WCXB
    expected = " or ".join([*LAYOUT_FILES.values(), WCXB_FOLDER + "/"])
    raise NotAGoldFolder(f"{path} is not a gold folder: it has no {expected}")


def load_gold(path: str | Path, limit: int | None = None) -> GoldSet:
    """Load a gold folder (first ``limit`` pages in file order when given).

    A page whose HTML or annotation is missing or damaged is left out and
    named in ``errors``, so that one bad file does not stop a run.
    """
    path = Path(path)
    layout = detect_layout(path)
    gold_set = GoldSet(name=path.name, layout=layout, path=path)
    entries = _wcxb_entries(path) if layout == WCXB else _json_entries(path, layout)
    load_page = {SCRAPINGHUB: _scrapinghub_page, SNIPPETS: _snippets_page, WCXB: _wcxb_page}
    for key, entry in entries[:limit]:
        try:
            page = load_page[layout](path, key, entry)
        except _LOAD_ERRORS as exc:
            gold_set.errors[key] = f"{type(exc).__name__}: {exc}"
            continue
        gold_set.pages.append(page)
    return gold_set


def _json_entries(path: Path, layout: str) -> list[tuple[str, object]]:
    return list(_read_gold_json(path / LAYOUT_FILES[layout]).items())


def _wcxb_entries(path: Path) -> list[tuple[str, object]]:
    """One entry per annotation file: its id and path (read when the page loads)."""
    return [(file.stem, file) for file in sorted((path / WCXB_FOLDER).glob("*.json"))]


def _read_gold_json(path: Path) -> dict:
    """The gold annotations; an unreadable file makes the whole folder unusable."""
    try:
        gold = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise NotAGoldFolder(f"{path} cannot be read: {exc}") from exc
    if not isinstance(gold, dict):
        raise NotAGoldFolder(f"{path} is not a JSON object keyed by page")
    return gold


def _scrapinghub_page(root: Path, key: str, entry: dict) -> GoldPage:
    html = _read_html(root / "html" / f"{key}.html.gz")
    return GoldPage(key=key, url=entry.get("url"), html=html, body=entry["articleBody"] or "")


def _snippets_page(root: Path, key: str, entry: dict) -> GoldPage:
    # Most keys are page URLs; a few are labels like "hard::site-name.html".
    url = key if key.startswith(("http://", "https://")) else None
    return GoldPage(
        key=key,
        url=url,
        html=_read_html(root / "html" / entry["file"]),
        with_=tuple(s for s in entry.get("with") or () if s),
        without=tuple(s for s in entry.get("without") or () if s),
    )


def _wcxb_page(root: Path, key: str, file: Path) -> GoldPage:
    """A WCXB page; an annotation without ``main_content`` is an empty gold text."""
    entry = json.loads(file.read_text(encoding="utf-8"))
    gold = entry["ground_truth"]
    page_type = ((entry.get("_internal") or {}).get("page_type") or {}).get("primary")
    return GoldPage(
        key=key,
        url=entry.get("url"),
        html=_read_html(root / "html" / f"{key}.html.gz"),
        body=gold.get("main_content") or "",
        with_=tuple(s for s in gold.get("with") or () if s),
        without=tuple(s for s in gold.get("without") or () if s),
        page_type=PAGE_TYPE_NAMES.get(page_type, page_type),
        meta=GoldMeta(gold.get("title"), gold.get("author"), gold.get("publish_date")),
    )


def _read_html(path: Path) -> bytes:
    """The HTML bytes of a gold file, gunzipped when it is gzip, plain otherwise."""
    if not path.exists() and path.suffix == ".gz":
        path = path.with_suffix("")
    data = path.read_bytes()
    return gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data
