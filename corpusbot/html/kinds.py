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


def declares_product(og_types: Iterable[str], scripts: Iterable[etree._Element]) -> bool:
    """Whether an ``og:type`` value (``dom.read_head`` gathers them in its one pass over the
    metas) or a JSON-LD script says the page is a product.

    Read before the scripts are cut (``dom.strip_invisible``)."""
    if any(value.strip().lower().startswith(OG_PRODUCT_TYPES) for value in og_types):
        return True
    return any(_json_ld_product(script) for script in scripts)


def _json_ld_product(script: etree._Element) -> bool:
    if (script.get("type") or "").strip().lower() != "application/ld+json":
        return False
    text = script.text  # lxml copies the text out at each reading
    # a substring test first: a news page's JSON-LD runs to kilobytes without the word
    return bool(text) and "Product" in text and JSON_LD_PRODUCT.search(text) is not None


def has_product_microdata(root: etree._Element) -> bool:
    """Whether an element of the tree is a schema.org ``Product`` by its ``itemtype``."""
    return any(MICRODATA_PRODUCT.search(value) for value in root.xpath("//@itemtype"))
