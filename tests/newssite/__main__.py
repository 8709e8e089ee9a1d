"""A small news site for crawl tests and benchmarks, served on 127.0.0.1.

Run as a subprocess (``python -m tests.newssite [--bench DIR]`` from the repository root): it prints
``READY <base url>`` once listening on a free port. The site has a home
page, section, tag and author pages, articles, a sitemap index named only in
robots.txt (a gzip sitemap and a Google News sitemap), an RSS feed named only
in the home page's ``<head>``, an Atom feed, a path disallowed by robots.txt,
a redirect, a 404, a page that fails with 500 once, a slow page and an
endless calendar. Articles are real pages from ``../shared/bench`` when given,
else the fixture pages under ``tests/fixtures/site``.

Control endpoints for tests: ``/__manifest.json`` (what the crawl should
find), ``/__hits.json`` (requests per path), ``/__arrivals.json`` (when each
page request arrived, server time), ``/__phase/2`` (publish the
held-back article and mark one sitemap entry as changed).
"""

from __future__ import annotations

import argparse
import gzip
import json
import threading
import time
from collections import Counter
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from tests.newssite import hostile
from tests.newssite.articles import Article, load_articles
from tests.newssite.pages import SitePages

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "site"
GATE_TIMEOUT_SECONDS = 120
"""A gated site opens by itself after this long: a test that never opens it fails on its
own assertions, not by hanging."""


class Site:
    """The site's state: its pages, the publication phase and hit counts."""

    def __init__(self, articles: list[Article], slow_seconds: float, latency: float,
                 gated: bool = False) -> None:
        self.pages = SitePages(articles)
        self.slow_seconds, self.latency = slow_seconds, latency
        # Held shut, pages (not robots.txt) wait until a test opens the site (/__open): so
        # that crawlers started one after the other all find the crawl still to do.
        self.gate = threading.Event()
        if not gated:
            self.gate.set()
        self.hits: Counter[str] = Counter()
        self.arrivals: list[tuple[float, str]] = []  # (monotonic time, path) of each page request
        self.lock = threading.Lock()
        self.compressed: dict[bytes, bytes] = {}

    def gzipped(self, body: bytes) -> bytes:
        """The body gzip-encoded, once per distinct body: the benchmark measures the crawler,
        not this server."""
        if body not in self.compressed:
            self.compressed[body] = gzip.compress(body, compresslevel=5)
        return self.compressed[body]

    def hit(self, path: str) -> int:
        with self.lock:
            self.hits[path] += 1
            if not path.startswith("/__"):
                self.arrivals.append((time.monotonic(), path))
            return self.hits[path]


class Handler(BaseHTTPRequestHandler):
    """Routes one request to the site's pages; HTML is gzip-encoded on request."""

    protocol_version = "HTTP/1.1"
    server: _Server

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        site = self.server.site
        count = site.hit(path)
        if path.startswith("/__"):
            self._control(path)
            return
        if path.startswith(hostile.ROOT):
            hostile.serve(path, self._base(), self._stream)
            return
        if path != "/robots.txt":
            site.gate.wait(GATE_TIMEOUT_SECONDS)
        response = site.pages.route(path, self._base(), count)
        time.sleep(site.slow_seconds if response.delay else site.latency)
        self._send(response.status, response.body, response.content_type, response.headers)

    def _control(self, path: str) -> None:
        site = self.server.site
        if path == "/__manifest.json":
            body = site.pages.manifest()
        elif path == "/__hits.json":
            with site.lock:
                body = dict(site.hits)
        elif path == "/__arrivals.json":
            with site.lock:
                body = list(site.arrivals)
        elif path == "/__open":
            site.gate.set()
            body = {"open": True}
        elif path == "/__shut":
            site.gate.clear()
            body = {"open": False}
        elif path.startswith("/__phase/"):
            site.pages.phase = int(path.rsplit("/", 1)[1])
            body = {"phase": site.pages.phase}
        else:
            self._send(404, b"no such control", "text/plain", {})
            return
        self._send(200, json.dumps(body).encode(), "application/json", {})

    def _base(self) -> str:
        return f"http://{self.headers.get('Host', '127.0.0.1')}"

    def _send(self, status: int, body: bytes, ctype: str, headers: dict[str, str]) -> None:
        accepts_gzip = "gzip" in self.headers.get("Accept-Encoding", "")
        if accepts_gzip and ctype.startswith("text/html"):
            body = self.server.site.gzipped(body)
            headers = {**headers, "Content-Encoding": "gzip"}
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def _stream(self, status: int, headers: dict[str, str], chunks: Iterator[bytes]) -> None:
        """Send ``chunks`` as they come, until they end or the client goes away."""
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        if "Content-Length" not in headers and "Connection" not in headers:
            body = b"".join(chunks)
            self.send_header("Content-Length", str(len(body)))
            chunks = iter([body])
        self.end_headers()
        try:
            for chunk in chunks:
                self.wfile.write(chunk)
                self.wfile.flush()
        except OSError:
            pass  # the crawler gave up on this body, as it should
        if "Connection" in headers:
            self.close_connection = True

    def log_message(self, format: str, *args: object) -> None:
        """Stay quiet: the crawl's own stats tell the story."""


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    site: Site


def serve(bench: Path | None, slow_seconds: float, latency: float, copies: int, *,
          port: int = 0, gated: bool = False) -> None:
    """Serve the site until killed, announcing the base URL on stdout."""
    articles = load_articles(bench, FIXTURES, copies)
    server = _Server(("127.0.0.1", port), Handler)
    server.site = Site(articles, slow_seconds, latency, gated)
    print(f"READY http://127.0.0.1:{server.server_address[1]}", flush=True)
    server.serve_forever()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bench", type=Path, help="../shared/bench/scrapinghub, when present")
    parser.add_argument("--slow-seconds", type=float, default=1.0, help="delay of the slow page")
    parser.add_argument("--latency-seconds", type=float, default=0.0,
                        help="delay of every other page, as a remote server's")
    parser.add_argument(
        "--copies", type=int, default=0,
        help="benchmark mode: serve every bench page (0: the small test selection)",
    )
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--gated", action="store_true",
                        help="hold every page but robots.txt until GET /__open")
    args = parser.parse_args()
    serve(args.bench, args.slow_seconds, args.latency_seconds, args.copies, port=args.port,
          gated=args.gated)


if __name__ == "__main__":
    main()
