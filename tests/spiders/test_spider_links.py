"""Which links of a page the crawl follows (``corpusbot.crawl.links.LinkFinder``)."""

from __future__ import annotations

from scrapy.http import HtmlResponse

from corpusbot.crawl.links import LinkFinder

PAGE = """<html><head>{base}</head><body>
<a href="/world/">World</a>
<a href="2024/05/story-one.html#comments">Story</a>
<a href="https://www.news.example/2024/05/story-two.html">Two</a>
<a href="//cdn.news.example/2024/05/story-three.html">Three</a>
<a href="https://news.example:8080/ported.html">Port</a>
<a href="https://elsewhere.example/x.html">Away</a>
<a href="https://news.example.evil.example/x.html">Lookalike</a>
<a href="/files/report.PDF">PDF</a><a href="/img/photo.jpg">Photo</a>
<a href="mailto:desk@news.example">Mail</a><a href="javascript:void(0)">JS</a>
<a href="#top">Top</a><a href="">Empty</a><a href="/world/">World again</a>
<map><area href="/map-area.html"></map>
</body></html>"""


def _links(finder: LinkFinder, base: str = "") -> list[str]:
    body = PAGE.format(base=base).encode()
    page = HtmlResponse("https://news.example/section/", body=body, encoding="utf-8")
    return finder.links(page)


def test_links_on_the_domains_resolved_and_once():
    assert _links(LinkFinder(["news.example"])) == [
        "https://news.example/world/",
        "https://news.example/section/2024/05/story-one.html",
        "https://www.news.example/2024/05/story-two.html",
        "https://cdn.news.example/2024/05/story-three.html",
        "https://news.example:8080/ported.html",
        "https://news.example/map-area.html",
    ]


def test_a_base_on_another_site_takes_relative_links_with_it():
    links = _links(LinkFinder(["news.example"]), '<base href="https://elsewhere.example/a/">')
    assert links == ["https://www.news.example/2024/05/story-two.html",
                     "https://cdn.news.example/2024/05/story-three.html",
                     "https://news.example:8080/ported.html"]


def test_allow_and_deny_patterns_search_the_absolute_url():
    finder = LinkFinder(["news.example"], allow=[r"/2024/"], deny=[r"story-two", r"cdn\."])
    assert _links(finder) == ["https://news.example/section/2024/05/story-one.html"]


def test_hosts_match_whole_labels():
    finder = LinkFinder(["news.example"])
    assert finder.on_domains("news.example") and finder.on_domains("WWW.News.Example.")
    assert not finder.on_domains("badnews.example")
    assert not finder.on_domains("news.example.evil.example")
