"""What a page declares itself to be: a product page, by its schema.org or Open Graph markup.

Shops mark a product page up for search engines and link previews: a JSON-LD
script whose ``@type`` is ``Product`` (or ``ProductGroup``, a product in
variants, or ``IndividualProduct``), microdata with ``itemtype`` the
schema.org ``Product``, or ``<meta property="og:type" content="product">``.
The markup is the shop's own statement in a vocabulary every shop platform
writes, so it tells a product page from an article without reading any
site's layout. A category page marks its items up too and counts as well:
its lines repeat the same way.

On wcxb-dev's tuning folds the three signals together mark 65 of 78 product
pages, 21 of 78 collections, 7 of 102 service pages, 5 of 491 articles and
one listing; no documentation or forum page.

A page whose JSON-LD declares it an article (``Article``, ``NewsArticle``,
``BlogPosting`` and their kin) is not a product page, whatever it marks up
besides: a review or a buyer's guide marks up the products it reviews. Of the
pages the signals above mark on wcxb-dev's tuning folds, scrapinghub and
multilingual-dev, 7 declare an article too (two Wired stories, a travel
story, four buyer's guides), and every one is an article: on the tuning folds
the marked articles go from 5 to 1, the other kinds stay as above. ``Review``
is not among those types: a shop's product page carries its customers' reviews.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from lxml import etree

PRODUCT_TYPES = ("Product", "ProductGroup", "IndividualProduct")
_TYPES = "|".join(PRODUCT_TYPES)
# "@type": "Product", "@type": ["Product", ...], "@type": "https://schema.org/Product"
JSON_LD_PRODUCT = re.compile(
    rf'"@type"\s*:\s*(?:\[\s*)?"(?:https?://schema\.org/)?(?:{_TYPES})"')
MICRODATA_PRODUCT = re.compile(rf"schema\.org/(?:{_TYPES})\b")
OG_PRODUCT_TYPES = ("product", "og:product")
"""``og:type`` values of a product ("product", "product.item", "og:product")."""
ARTICLE_TYPES = ("Article", "NewsArticle", "BlogPosting", "ReportageNewsArticle",
                 "AnalysisNewsArticle", "OpinionNewsArticle", "TechArticle")
# "@type": "NewsArticle", "@type": ["WebPage", "Article"], "@type": "https://schema.org/Article"
JSON_LD_ARTICLE = re.compile(
    rf'"@type"\s*:\s*(?:\[[^\]]*?)?"(?:https?://schema\.org/)?(?:{"|".join(ARTICLE_TYPES)})"')


def declares_product(og_types: Iterable[str], scripts: Iterable[etree._Element]) -> bool:
    """Whether an ``og:type`` value (``dom.read_head`` gathers them in its one pass over the
    metas) or a JSON-LD script says the page is a product.

    Read before the scripts are cut (``dom.strip_invisible``)."""
    if any(value.strip().lower().startswith(OG_PRODUCT_TYPES) for value in og_types):
        return True
    return any(_json_ld_declares(script, ("Product",), JSON_LD_PRODUCT) for script in scripts)


def declares_article(scripts: Iterable[etree._Element]) -> bool:
    """Whether a JSON-LD script says the page is an article (``ARTICLE_TYPES``)."""
    return any(_json_ld_declares(script, ("Article", "BlogPosting"), JSON_LD_ARTICLE)
               for script in scripts)


def _json_ld_declares(script: etree._Element, words: tuple[str, ...],
                      pattern: re.Pattern[str]) -> bool:
    """Whether a JSON-LD ``script`` matches ``pattern``, one of whose types ``words`` names."""
    if (script.get("type") or "").strip().lower() != "application/ld+json":
        return False
    text = script.text  # lxml copies the text out at each reading
    # a substring test first: a page's JSON-LD runs to kilobytes without the words
    return bool(text) and any(w in text for w in words) and pattern.search(text) is not None


def has_product_microdata(root: etree._Element) -> bool:
    """Whether an element of the tree is a schema.org ``Product`` by its ``itemtype``."""
    return any(MICRODATA_PRODUCT.search(value) for value in root.xpath("//@itemtype"))
