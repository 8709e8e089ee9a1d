"""Article or index page (corpusbot.crawl.article); what a page declares (html.metadata)."""

from __future__ import annotations

import gzip
import json

import pytest
from scrapy.http import HtmlResponse

from corpusbot.crawl.article import classify, running_text_chars, url_shape
from corpusbot.html.metadata import extract_metadata, jsonld_objects
from tests.conftest import bench_dir, needs_bench

PARAGRAPH = "<p>" + "The council met on Tuesday to discuss the new budget for roads. " * 3 + "</p>"


def _root(html: str, url: str = "https://news.example/"):
    return HtmlResponse(url, body=html.encode(), encoding="utf-8").selector.root


def _page(head: str = "", body: str = "") -> str:
    return f"<html><head>{head}</head><body>{body}</body></html>"


def _ld(kind: str) -> str:
    return f'<script type="application/ld+json">{{"@type": "{kind}"}}</script>'


ARTICLE_URL = "https://news.example/2024/05/01/council-passes-the-road-budget.html"


@pytest.mark.parametrize(("url", "points"), [
    ("https://news.example/", -2),
    ("https://news.example/world/", -2),
    ("https://news.example/tag/elections/page/2/", -2),
    ("https://news.example/calendar/2024/05/", -2),
    ("https://news.example/list?page=3", -2),
    (ARTICLE_URL, 1),
    ("https://news.example/politics/story-123456", 1),
    ("https://news.example/view.php?idx=8576", 1),
    ("https://news.example/2024/05/budget", 1),
    ("https://news.example/about-us", 0),
])
def test_url_shape(url, points):
    assert url_shape(url) == points


def test_jsonld_article_type_makes_an_article():
    kind = classify(_root(_page(_ld("NewsArticle"))), "https://news.example/x")
    assert kind.is_article and "jsonld-article" in kind.reason


def test_jsonld_listing_type_makes_an_index_even_with_article_items():
    head = _ld("CollectionPage") + _ld("NewsArticle")
    kind = classify(_root(_page(head, PARAGRAPH * 10)), ARTICLE_URL)
    assert not kind.is_article and "jsonld-index" in kind.reason


def test_og_type_article_with_an_article_url():
    head = '<meta property="og:type" content="article">'
    assert classify(_root(_page(head)), ARTICLE_URL).is_article


def test_long_running_text_on_an_undeclared_page():
    kind = classify(_root(_page(body=PARAGRAPH * 8)), "https://news.example/x")
    assert kind.is_article and kind.reason == "text-long"


def test_a_home_page_of_teasers_is_an_index():
    teasers = "".join(f'<li><a href="/2024/05/{i}/a-long-story-slug-here.html">'
                      f"{'Headline words ' * 8}</a></li>" for i in range(30))
    head = '<meta property="og:type" content="website">'
    kind = classify(_root(_page(head, f"<ul>{teasers}</ul>")), "https://news.example/")
    assert not kind.is_article
    assert kind.score <= -3


def test_running_text_ignores_link_lists_navigation_and_short_paragraphs():
    links = "<p>" + "<a href='/x'>a link that is long enough to count as text</a> " * 4 + "</p>"
    nav = f"<nav>{PARAGRAPH}</nav>"
    assert running_text_chars(_root(_page(body=links + nav + "<p>short</p>"))) == 0
    assert running_text_chars(_root(_page(body=f"<div>{PARAGRAPH[3:-4]}</div>"))) > 150


@needs_bench
def test_real_articles_of_the_gold_set_are_articles():
    folder = bench_dir() / "scrapinghub"
    truth = json.loads((folder / "ground-truth.json").read_text(encoding="utf-8"))
    missed = []
    for key, entry in truth.items():
        html = gzip.decompress((folder / "html" / f"{key}.html.gz").read_bytes())
        root = HtmlResponse(entry["url"], body=html).selector.root
        if not classify(root, entry["url"]).is_article:
            missed.append(entry["url"])
    assert len(missed) <= 3, missed


ARTICLE = """<html lang="en"><head>
<title>Road budget passes | Example News</title>
<link rel="canonical" href="/2024/05/01/road-budget.html">
<meta property="og:title" content="Road budget passes">
<meta property="og:site_name" content="Example News">
<meta property="article:published_time" content="2024-05-01T08:00:00+02:00">
<meta name="author" content="Meta Author">
<script type="application/ld+json">{"@context": "https://schema.org", "@graph": [
  {"@type": "WebSite", "name": "Example News Site"},
  {"@type": ["NewsArticle"], "headline": "Council passes the road budget",
   "datePublished": "2024-05-01T09:00:00Z", "dateModified": "2024-05-02T09:00:00Z",
   "author": [{"@type": "Person", "name": "Ana  Lima"}, {"@type": "Person", "name": "Bo Chen"},
              "Ana Lima", "https://news.example/staff/9"],
   "publisher": {"@type": "Organization", "name": "Example News Ltd"}}]}</script>
<script type="application/ld+json">{"@type": "Article", broken json</script>
</head><body><p>Text.</p></body></html>"""


def test_metadata_prefers_json_ld_and_fills_gaps_from_meta_tags():
    meta = extract_metadata(_root(ARTICLE, "https://news.example/x?utm=1"),
                            "https://news.example/x?utm=1")
    assert meta.canonical_url == "https://news.example/2024/05/01/road-budget.html"
    assert meta.title == "Council passes the road budget"
    assert meta.published == "2024-05-01T09:00:00Z"
    assert meta.modified == "2024-05-02T09:00:00Z"
    assert meta.authors == ("Ana Lima", "Bo Chen")
    assert meta.site_name == "Example News"


def test_metadata_from_meta_tags_alone():
    head = ('<meta property="og:title" content="T"><meta name="author" content="Jo Doe">'
            '<meta name="pubdate" content="Wed, 01 May 2024 10:00:00 GMT">'
            '<meta property="og:url" content="https://news.example/t">')
    meta = extract_metadata(_root(_page(head)), "https://news.example/t?x=1")
    assert (meta.title, meta.authors, meta.published, meta.canonical_url) == (
        "T", ("Jo Doe",), "2024-05-01T10:00:00Z", "https://news.example/t")
    assert meta.site_name is None


def test_a_page_that_declares_nothing():
    meta = extract_metadata(_root(_page(body="<p>x</p>")), "https://news.example/")
    assert meta.as_dict() == {"canonical_url": None, "title": None, "published": None,
                              "modified": None, "authors": [], "site_name": None}


def test_json_ld_lists_graphs_and_main_entities_are_flattened():
    html = _page(
        '<script type="application/ld+json">[{"@type": "WebPage", "mainEntity": '
        '{"@type": "http://schema.org/BlogPosting"}}, {"no": "type"}]</script>')
    kinds = [obj["@type"] for obj in jsonld_objects(_root(html))]
    assert kinds == ["WebPage", "http://schema.org/BlogPosting"]
    assert classify(_root(html), "https://news.example/x").is_article


def test_an_undeclared_publication_day_is_inferred_from_text_and_url():
    body = "<p>Published on 18 November 2019 by our desk.</p>" + PARAGRAPH
    url = "https://news.example/2019/11/18/council-passes-the-road-budget.html"
    meta = extract_metadata(_root(_page(body=body), url), url)
    assert meta.published == "2019-11-18"
