"""The articles the test news site serves: real bench pages, or the committed fixtures."""

from __future__ import annotations

import gzip
import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import urlsplit

SECTIONS = ("world", "business", "culture")
# The small selection used by the tests: long enough articles, pages small
# enough that a crawl stays fast, and no meta refresh that would lead offsite.
BENCH_PICK = 12
BENCH_MIN_BODY_CHARS = 1500
BENCH_MAX_PAGE_BYTES = 160_000
_BASE_TAG = re.compile(rb"<base\s", re.IGNORECASE)
_HEAD_TAG = re.compile(rb"<head(\s[^>]*)?>", re.IGNORECASE)
_REFRESH = re.compile(rb"http-equiv=[\"']?refresh", re.IGNORECASE)


@dataclass(slots=True)
class Article:
    """One article page of the site."""

    slug: str
    section: str
    published: datetime
    title: str
    html: bytes


def load_articles(bench: Path | None, fixtures: Path, copies: int = 0) -> list[Article]:
    """Bench pages when the gold set is present, else the fixture pages."""
    if bench is not None and (bench / "ground-truth.json").is_file():
        articles = _bench_articles(bench, copies)
    else:
        articles = _fixture_articles(fixtures)
    return articles + [_copy(a, n) for n in range(1, copies) for a in articles]


def _copy(article: Article, number: int) -> Article:
    """The same page under another URL (benchmark mode: a larger site)."""
    when = article.published + timedelta(days=number)
    slug = f"{article.slug}-{number}"
    return Article(slug, article.section, when, article.title, article.html)


def _fixture_articles(fixtures: Path) -> list[Article]:
    index = json.loads((fixtures / "articles.json").read_text(encoding="utf-8"))
    return [
        Article(
            slug=entry["slug"],
            section=entry["section"],
            published=datetime.fromisoformat(entry["published"]),
            title=entry["title"],
            html=(fixtures / "articles" / f"{entry['slug']}.html").read_bytes(),
        )
        for entry in index
    ]


def _bench_articles(bench: Path, copies: int) -> list[Article]:
    truth = json.loads((bench / "ground-truth.json").read_text(encoding="utf-8"))
    articles: list[Article] = []
    seen: set[str] = set()
    start = datetime(2024, 5, 1, 8, 0, tzinfo=UTC)
    for key in sorted(truth):
        html = gzip.decompress((bench / "html" / f"{key}.html.gz").read_bytes())
        if not copies and not _fits_test_selection(truth[key], html):
            continue
        slug = _unique_slug(truth[key]["url"], key, seen)
        when = start + timedelta(hours=7 * len(articles))
        section = SECTIONS[len(articles) % len(SECTIONS)]
        title = slug.replace("-", " ").capitalize()
        articles.append(Article(slug, section, when, title, _with_base(html, truth[key]["url"])))
        if not copies and len(articles) == BENCH_PICK:
            break
    return articles


def _fits_test_selection(entry: dict[str, str], html: bytes) -> bool:
    return (
        len(entry["articleBody"]) >= BENCH_MIN_BODY_CHARS
        and len(html) <= BENCH_MAX_PAGE_BYTES
        and not _REFRESH.search(html)
    )


def _unique_slug(url: str, key: str, seen: set[str]) -> str:
    last = [part for part in urlsplit(url).path.split("/") if part]
    words = re.sub(r"[^a-z0-9]+", "-", (last[-1] if last else "").lower()).strip("-")
    slug = words[:60].strip("-") or key[:12]
    if slug in seen or slug.isdigit():
        slug = f"{slug}-{key[:6]}"
    seen.add(slug)
    return slug


def _with_base(html: bytes, original_url: str) -> bytes:
    """Point the page's relative links back at its original site.

    Real article pages link to their own site with relative URLs; served from
    127.0.0.1 those would become hundreds of 404s. A ``<base>`` keeps them
    where they belong: off this site.
    """
    if _BASE_TAG.search(html):
        return html
    base = f'<base href="{original_url}">'.encode()
    head = _HEAD_TAG.search(html)
    if head is None:
        return base + html
    return html[: head.end()] + base + html[head.end() :]
