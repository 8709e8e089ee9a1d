"""Hostile pages for the crawl tests, under ``/hostile/`` on the news site.

Each is one way a site can hurt a crawler: an endless link trap, a redirect
loop, a 1 GB and a never-ending body, a body that drips a byte at a time,
wrong and missing charsets, binary served as HTML, a gzip bomb body, an article
whose one element has too many attributes for libxml2 (cut before the parse), XML
entity bombs and an external entity in a sitemap and a feed, a gzip bomb
sitemap and a sitemap index that names itself.
"""

from __future__ import annotations

import random
import time
import zlib
from collections.abc import Callable, Iterator

ROOT = "/hostile/"
LINKS = ("trap/1", "loop/a", "huge", "endless", "drip", "charset-wrong", "charset-missing",
         "binary", "gzip-bomb", "attributes")
MACHINE = ("sitemap-index.xml", "sitemap-bomb.xml", "sitemap-xxe.xml", "sitemap-gzip-bomb.xml.gz",
           "feed-bomb.xml")
Sender = Callable[[int, dict[str, str], Iterator[bytes]], None]

_LAUGHS = "".join(f'<!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">' for i in range(1, 10))
ENTITY_BOMB = f'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY lol0 "lol">{_LAUGHS}]>'


def start_urls(base: str) -> list[str]:
    """The hostile home page, and the sitemaps and feed given as start URLs."""
    return [f"{base}{ROOT}"] + [f"{base}{ROOT}{name}" for name in MACHINE]


def zero_bomb(inflated: int) -> bytes:
    """gzip of ``inflated`` zero bytes, made quickly from one flushed block repeated."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
    head = compressor.compress(bytes(1 << 20)) + compressor.flush(zlib.Z_FULL_FLUSH)
    block = compressor.compress(bytes(1 << 20)) + compressor.flush(zlib.Z_FULL_FLUSH)
    return head + block * ((inflated >> 20) - 1)


def serve(path: str, base: str, send: Sender) -> None:
    """Answer one request under ``/hostile/`` through ``send(status, headers, chunks)``."""
    name = path.removeprefix(ROOT)
    html = {"Content-Type": "text/html; charset=utf-8"}
    xml = {"Content-Type": "application/xml"}
    if name == "":
        links = "".join(f'<li><a href="{ROOT}{link}">{link}</a></li>' for link in LINKS)
        send(200, html, iter([f"<html><body><ul>{links}</ul></body></html>".encode()]))
    elif name.startswith("trap/"):
        n = int(name.split("/")[1] or 0) if name.split("/")[1].isdigit() else 0
        body = f'<html><body><a href="{ROOT}trap/{n + 1}">next</a> ' \
               f'<a href="{ROOT}trap/{n + 2}">skip</a></body></html>'
        send(200, html, iter([body.encode()]))
    elif name.startswith("loop/"):
        target = "b" if name.endswith("a") else "a"
        send(302, {"Location": f"{base}{ROOT}loop/{target}"}, iter([b""]))
    elif name == "huge":
        send(200, {**html, "Content-Length": str(1 << 30)}, _forever(b"<p>huge</p>" * 6000))
    elif name == "endless":
        send(200, {**html, "Connection": "close"}, _forever(b"<p>endless</p>" * 5000))
    elif name == "drip":
        send(200, {**html, "Connection": "close"}, _drip())
    elif name in ("charset-wrong", "charset-missing"):
        text = ("<html><body><p>" + "Съешь же ещё этих мягких французских булок. " * 40
                + "</p></body></html>")
        headers = html if name == "charset-wrong" else {"Content-Type": "text/html"}
        send(200, headers, iter([text.encode("cp1251")]))
    elif name == "binary":
        send(200, html, iter([random.Random(7).randbytes(300_000)]))
    elif name == "gzip-bomb":
        send(200, {**html, "Content-Encoding": "gzip"}, iter([zero_bomb(1 << 30)]))
    elif name == "attributes":
        div = "<div " + " ".join(f"a{i}=x" for i in range(5000)) + ">"
        text = "<p>" + "A paragraph that a reader would keep for the corpus. " * 30 + "</p>"
        send(200, html, iter([f"<html><body>{div}{text * 5}</div></body></html>".encode()]))
    else:
        _machine(name, base, xml, send)


def _machine(name: str, base: str, xml: dict[str, str], send: Sender) -> None:
    ns = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
    if name == "sitemap-index.xml":
        entries = "".join(f"<sitemap><loc>{base}{ROOT}{m}</loc></sitemap>" for m in MACHINE)
        body = f'<?xml version="1.0"?><sitemapindex {ns}>{entries}</sitemapindex>'
    elif name == "sitemap-bomb.xml":
        body = ENTITY_BOMB + f"<urlset {ns}><url><loc>{base}/&lol9;</loc></url></urlset>"
    elif name == "sitemap-xxe.xml":
        body = ('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'
                f"<urlset {ns}><url><loc>{base}/&xxe;</loc></url></urlset>")
    elif name == "sitemap-gzip-bomb.xml.gz":
        send(200, {"Content-Type": "application/x-gzip"}, iter([zero_bomb(1 << 30)]))
        return
    elif name == "feed-bomb.xml":
        body = (ENTITY_BOMB + '<rss version="2.0"><channel><title>&lol9;</title><item>'
                f"<link>{base}/&lol9;</link></item></channel></rss>")
    else:
        send(404, {"Content-Type": "text/plain"}, iter([b"not found"]))
        return
    send(200, xml, iter([body.encode()]))


def _forever(chunk: bytes) -> Iterator[bytes]:
    while True:
        yield chunk


def _drip() -> Iterator[bytes]:
    yield b"<html><body><p>"
    while True:
        time.sleep(0.5)
        yield b"d"
