"""A page's own markup says it is a product: JSON-LD, microdata or Open Graph."""

from __future__ import annotations

import pytest

from corpusbot.html import dom, kinds


def head_of(markup: str) -> dom.Head:
    root = dom.parse_html(f"<html><head>{markup}</head><body><p>Text.</p></body></html>")
    return dom.read_head(root)


@pytest.mark.parametrize("markup", [
    '<script type="application/ld+json">{"@context": "https://schema.org", '
    '"@type": "Product", "name": "Trail pack"}</script>',
    '<script type="application/ld+json">[{"@type":["ProductGroup","Thing"]}]</script>',
    '<script type="application/ld+json">{"@graph": [{"@type": "BreadcrumbList"}, '
    '{"@type": "http://schema.org/IndividualProduct"}]}</script>',
    '<meta property="og:type" content="product">',
    '<meta property="og:type" content="og:product"><meta property="og:title" content="x">',
    '<meta property="og:type" content="product.item">',
    '<meta property="og:type" content="website"><script type="application/ld+json">'
    '{"@type": "Product"}</script>',
])
def test_a_product_page_says_so_in_its_head(markup: str):
    assert head_of(markup).product


@pytest.mark.parametrize("markup", [
    '<script type="application/ld+json">{"@type": "NewsArticle", "about": "Product"}</script>',
    '<script type="application/ld+json">{"@type": "ProductReview"}</script>',
    '<script>var data = {"@type": "Product"};</script>',
    '<meta property="og:type" content="article">',
    "",
])
def test_an_article_or_a_script_that_is_no_json_ld_is_no_product(markup: str):
    assert not head_of(markup).product


def test_microdata_is_read_from_the_tree():
    root = dom.parse_html('<html><body><div itemscope itemtype="https://schema.org/Product">'
                          '<p itemprop="name">Trail pack</p></div></body></html>')
    assert kinds.has_product_microdata(root)
    article = dom.parse_html('<html><body><div itemscope itemtype="https://schema.org/Article">'
                             "<p>Text.</p></div></body></html>")
    assert not kinds.has_product_microdata(article)


@pytest.mark.parametrize("markup", [
    # a buyer's guide: the story, and each product it reviews
    '<meta property="og:type" content="article"><script type="application/ld+json">'
    '{"@type": "NewsArticle", "headline": "The best packs"}</script>'
    '<script type="application/ld+json">{"@type": "Product", "name": "Trail pack"}</script>',
    '<script type="application/ld+json">{"@graph": [{"@type": ["WebPage", "BlogPosting"]}, '
    '{"@type": "https://schema.org/Product"}]}</script>',
    '<script type="application/ld+json">{"@type": "http://schema.org/TechArticle"}</script>'
    '<meta property="og:type" content="product">',
])
def test_a_page_that_declares_an_article_is_no_product(markup: str):
    head = head_of(markup)
    assert head.article
    assert not head.product


@pytest.mark.parametrize("markup", [
    # a shop's product page carries its customers' reviews, and WordPress shops say "article"
    '<script type="application/ld+json">{"@type": "Product", "review": '
    '[{"@type": "Review", "author": "Ann"}]}</script>',
    '<meta property="og:type" content="article"><script type="application/ld+json">'
    '{"@type": "Product"}</script>',
    '<script type="application/ld+json">{"@type": "Product", "articleBody": "x", '
    '"description": "An \\"Article\\" of clothing"}</script>',
])
def test_reviews_and_an_og_article_leave_a_product_a_product(markup: str):
    head = head_of(markup)
    assert head.product
    assert not head.article
