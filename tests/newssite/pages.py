"""Routes and pages of the test news site: index pages, feeds, sitemaps, traps."""

from __future__ import annotations

import gzip
import html
from dataclasses import dataclass, field
from datetime import timedelta
from email.utils import format_datetime

from tests.newssite.articles import SECTIONS, Article

PER_PAGE = 2
SITE_NAME = "The Valley Courier"
MISSING = "/news/2024/04/retracted-story.html"
HTML = "text/html; charset=utf-8"


@dataclass(slots=True)
class Response:
    status: int
    body: bytes
    content_type: str = HTML
    headers: dict[str, str] = field(default_factory=dict)
    delay: bool = False


def article_path(article: Article) -> str:
    return f"/news/{article.published:%Y/%m}/{article.slug}.html"


class SitePages:
    """Every page of the site, with each article given one role.

    Roles, by position: 0 fails once with 500, 1 is slow, 2 is reached only
    through a redirect, 3 only through the gzip sitemap, 4 only through the
    Google News sitemap, 5 only through the feed named in ``<head>``, 6 sits
    under the path robots.txt disallows, the last is held back until phase 2;
    the rest are listed on the section and tag pages.
    """

    def __init__(self, articles: list[Article]) -> None:
        if len(articles) < 9:
            raise ValueError(f"the site needs at least 9 articles, got {len(articles)}")
        self.articles = articles
        self.flaky, self.slow, self.redirected = articles[0], articles[1], articles[2]
        self.sitemap_only, self.news_only, self.feed_only = articles[3], articles[4], articles[5]
        self.private, self.held = articles[6], articles[-1]
        self.pool = [articles[0], articles[1], *articles[7:-1]]
        self.by_path = {article_path(a): a for a in articles}
        self.phase = 1

    # -- routing ---------------------------------------------------------

    def route(self, path: str, base: str, count: int) -> Response:
        """The response for ``path``; ``count`` is how often it was asked for."""
        if path in self.by_path:
            return self._article(path, count)
        if path.startswith("/private/"):
            return Response(200, self.private.html)
        if path.startswith("/go/"):
            return self._redirect(path)
        if path.startswith("/calendar/"):
            return Response(200, calendar_page(path))
        if path.startswith("/sitemaps/") or path.startswith("/feeds/") or path == "/robots.txt":
            return self._machine_page(path, base)
        page = self._index_page(path)
        return page if page is not None else Response(404, b"<h1>Not found</h1>")

    def _article(self, path: str, count: int) -> Response:
        article = self.by_path[path]
        if article is self.held and self.phase < 2:
            return Response(404, b"<h1>Not found</h1>")
        if article is self.flaky and count == 1:
            return Response(500, b"<h1>Internal error</h1>")
        return Response(200, article.html, delay=article is self.slow)

    def _redirect(self, path: str) -> Response:
        if path != f"/go/{self.redirected.slug}":
            return Response(404, b"<h1>Not found</h1>")
        target = article_path(self.redirected)
        return Response(301, b"", headers={"Location": target})

    def _machine_page(self, path: str, base: str) -> Response:
        pages = {
            "/robots.txt": (robots_txt(base), "text/plain"),
            "/sitemaps/index.xml": (sitemap_index(base), "application/xml"),
            "/sitemaps/articles.xml.gz": (gzip.compress(self._sitemap(base)), "application/gzip"),
            "/sitemaps/news.xml": (self._news_sitemap(base), "application/xml"),
            "/feeds/main.xml": (self._rss(base), "application/rss+xml"),
            "/feeds/culture.atom": (self._atom(base), "application/atom+xml"),
        }
        if path not in pages:
            return Response(404, b"not found", "text/plain")
        body, ctype = pages[path]
        return Response(200, body, ctype)

    def _index_page(self, path: str) -> Response | None:
        static = {
            "/static/site.css": Response(200, b"body{font-family:serif}", "text/css"),
            "/files/annual-report.pdf": Response(200, b"%PDF-1.4\n%fake\n", "application/pdf"),
        }
        if path in static:
            return static[path]
        if path == "/":
            body = self._home()
        elif path.strip("/") in SECTIONS:
            body = self._section(path.strip("/"))
        elif path.startswith("/tag/local/"):
            body = self._tag(path)
        elif path.startswith("/author/"):
            body = listing_page("Our authors", self.pool[:2], kind=None)
        elif path in ("/about/", "/privacy/", "/contact/"):
            body = info_page(path.strip("/"))
        else:
            return None
        return Response(200, body)

    # -- index pages -----------------------------------------------------

    def _home(self) -> bytes:
        top = [self.flaky, self.slow, *self.pool[2:3]]
        if self.phase >= 2:
            top.insert(0, self.held)
        extra = [
            ("/go/" + self.redirected.slug, "Story moved: read the update"),
            (f"/private/{self.private.slug}.html", "Members only: the full dossier"),
            (MISSING, "A story that was withdrawn"),
            ("/calendar/2024/05/", "Events calendar"),
            ("/tag/local/", "Local news"),
            ("/files/annual-report.pdf", "Annual report (PDF)"),
        ]
        head = '<link rel="alternate" type="application/rss+xml" href="/feeds/main.xml">'
        return listing_page(SITE_NAME, top, kind="WebSite", extra=extra, head=head)

    def _section(self, section: str) -> bytes:
        items = [a for a in self.pool if a.section == section]
        head = ""
        if section == "culture":
            head = '<link rel="alternate" type="application/atom+xml" href="/feeds/culture.atom">'
        return listing_page(section.title(), items, kind="CollectionPage", head=head)

    def _tag(self, path: str) -> bytes:
        page = int(path.rstrip("/").rsplit("/", 1)[-1]) if "/page/" in path else 1
        items = self.pool[(page - 1) * PER_PAGE : page * PER_PAGE]
        extra = []
        if page * PER_PAGE < len(self.pool):
            extra.append((f"/tag/local/page/{page + 1}/", "Older stories"))
        return listing_page("Local", items, kind=None, extra=extra)

    # -- feeds and sitemaps ------------------------------------------------

    def _listed_in_feed(self) -> list[Article]:
        items = [self.feed_only, *self.pool[:2]]
        return [self.held, *items] if self.phase >= 2 else items

    def _rss(self, base: str) -> bytes:
        items = "".join(
            f"<item><title>{html.escape(a.title)}</title><link>{base}{article_path(a)}</link>"
            f"<guid>{base}{article_path(a)}</guid>"
            f"<pubDate>{format_datetime(a.published)}</pubDate></item>"
            for a in self._listed_in_feed()
        )
        return (
            '<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel>'
            f"<title>{SITE_NAME}</title><link>{base}/</link>{items}</channel></rss>"
        ).encode()

    def _atom(self, base: str) -> bytes:
        entries = "".join(
            f'<entry><title>{html.escape(a.title)}</title><link href="{article_path(a)}"/>'
            f"<id>{base}{article_path(a)}</id><updated>{a.published.isoformat()}</updated></entry>"
            for a in self.pool
            if a.section == "culture"
        )
        return (
            '<?xml version="1.0" encoding="utf-8"?>'
            f'<feed xmlns="http://www.w3.org/2005/Atom" xml:base="{base}/">'
            f"<title>Culture</title><id>{base}/culture/</id>{entries}</feed>"
        ).encode()

    def _sitemap(self, base: str) -> bytes:
        urls = []
        for article in [*self.pool, self.sitemap_only, self.private]:
            lastmod = article.published
            if article is self.sitemap_only and self.phase >= 2:
                lastmod += timedelta(days=30)
            loc = f"{base}{article_path(article)}"
            if article is self.private:
                loc = f"{base}/private/{article.slug}.html"
            urls.append(f"<url><loc>{loc}</loc><lastmod>{lastmod.isoformat()}</lastmod></url>")
        return (
            '<?xml version="1.0" encoding="UTF-8"?>'
            '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
            + "".join(urls)
            + "</urlset>"
        ).encode()

    def _news_sitemap(self, base: str) -> bytes:
        entries = "".join(
            f"<url><loc>{base}{article_path(a)}</loc><news:news><news:publication>"
            f"<news:name>{SITE_NAME}</news:name><news:language>en</news:language>"
            f"</news:publication><news:publication_date>{a.published.isoformat()}"
            f"</news:publication_date><news:title>{html.escape(a.title)}</news:title>"
            "</news:news></url>"
            for a in (self.news_only, self.pool[0])
        )
        return (
            '<?xml version="1.0" encoding="UTF-8"?>'
            '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
            'xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">'
            f"{entries}</urlset>"
        ).encode()

    def manifest(self) -> dict[str, object]:
        """What a correct crawl finds, for the tests to compare against."""
        stored = [*self.pool, self.redirected, self.sitemap_only, self.news_only, self.feed_only]
        if self.phase >= 2:
            stored.append(self.held)
        return {
            "articles": sorted(article_path(a) for a in stored),
            "private": f"/private/{self.private.slug}.html",
            "flaky": article_path(self.flaky),
            "slow": article_path(self.slow),
            "redirect": [f"/go/{self.redirected.slug}", article_path(self.redirected)],
            "missing": MISSING,
            "held": article_path(self.held),
            "changed": article_path(self.sitemap_only),
            "index": ["/", *(f"/{s}/" for s in SECTIONS), "/tag/local/"],
        }


def robots_txt(base: str) -> bytes:
    return (
        "User-agent: *\nDisallow: /private/\nDisallow: /search\n\n"
        f"Sitemap: {base}/sitemaps/index.xml\n"
    ).encode()


def sitemap_index(base: str) -> bytes:
    maps = "".join(
        f"<sitemap><loc>{base}/sitemaps/{name}</loc></sitemap>"
        for name in ("articles.xml.gz", "news.xml")
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>'
        f'<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{maps}</sitemapindex>'
    ).encode()


def listing_page(
    title: str,
    items: list[Article],
    kind: str | None,
    extra: list[tuple[str, str]] | None = None,
    head: str = "",
) -> bytes:
    """An index page: navigation, teasers linking to articles, footer."""
    teasers = "".join(
        f'<li class="teaser"><a href="{article_path(a)}">{html.escape(a.title)}</a>'
        f"<p>{a.published:%d %B %Y}</p></li>"
        for a in items
    )
    links = "".join(
        f'<li><a href="{href}">{html.escape(text)}</a></li>' for href, text in extra or []
    )
    meta = ""
    if kind:
        meta = (
            '<meta property="og:type" content="website">'
            '<script type="application/ld+json">'
            f'{{"@context":"https://schema.org","@type":"{kind}","name":"{title}"}}</script>'
        )
    main = f"<h1>{html.escape(title)}</h1><ul>{teasers}</ul><ul>{links}</ul>"
    return _page(title, meta + head, main)


def calendar_page(path: str) -> bytes:
    """A crawler trap: every month links to the next and previous month, forever."""
    parts = [p for p in path.split("/") if p.isdigit()]
    year, month = (int(parts[0]), int(parts[1])) if len(parts) >= 2 else (2024, 5)
    nxt = (year + month // 12, month % 12 + 1)
    prv = (year - (month == 1), (month - 2) % 12 + 1)
    links = "".join(
        f'<li><a href="/calendar/{y}/{m:02d}/">{y}-{m:02d}</a></li>' for y, m in (prv, nxt)
    )
    main = f"<h1>Events</h1><p>No events.</p><ul>{links}</ul>"
    return _page(f"Events {year}-{month:02d}", "", main)


def info_page(name: str) -> bytes:
    text = f"<h1>{name.title()}</h1><p>{SITE_NAME} is an independent regional newspaper.</p>"
    return _page(name.title(), '<meta property="og:type" content="website">', text)


def _page(title: str, head: str, main: str) -> bytes:
    nav = "".join(f'<li><a href="/{s}/">{s.title()}</a></li>' for s in SECTIONS)
    return (
        f"<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>{html.escape(title)} | {SITE_NAME}</title>{head}</head><body>"
        f'<header><a href="/">{SITE_NAME}</a><nav><ul>{nav}</ul></nav></header>'
        f"<main>{main}</main><footer><a href=\"/about/\">About</a> "
        f'<a href="/privacy/">Privacy</a> <a href="/contact/">Contact</a></footer></body></html>'
    ).encode()
