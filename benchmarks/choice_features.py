"""The features of ``learned_choice.py``: both selections, and what kind of page it is.

``selection_features``: the composition's and ``web2text``'s selections
against the page and each other. ``difference_features``: the blocks one
chose and the other did not. ``PageKind``: what kind of page it is,
read on the parsed tree before anything is cut (``read_page``'s ``on_tree``),
so the head's declarations and JSON-LD are still there:

- the crawler's article classifier (``corpusbot.crawl.article``): its call
  with the URL (the crawler's own) and its score from the page's signals
  alone (JSON-LD, ``og:type``, running text), each signal as a feature;
- the declared kind beyond articles: ``og:type`` product, JSON-LD product
  or offer, forum or question-and-answer types;
- repeated sibling structures (a listing's items): the most children of one
  parent with the same tag and class, and how many parents repeat a child
  ``REPEAT_MIN`` times or more;
- forms (fields a shop, a search page or a service offers) and prices in
  the blocks' text.

Nothing is keyed on a URL, a site or a page; the URL enters only the
crawler's call, which is a gate, never a feature.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from lxml import etree

from corpusbot.crawl import article
from corpusbot.html.blocks import Block
from corpusbot.html.metadata import jsonld_objects, types_of

REPEAT_MIN = 5
"""A parent with this many children of one tag and class holds a repeated structure."""
PRODUCT_TYPES = frozenset({"Product", "Offer", "AggregateOffer", "ProductGroup"})
FORUM_TYPES = frozenset({"DiscussionForumPosting", "QAPage", "Question", "FAQPage"})
FIELD_TAGS = frozenset({"input", "select", "textarea"})
_PRICE = re.compile(r"[$€£¥₹]\s?\d|\d[\d.,]*\s?(?:€|EUR|USD|GBP|zł|kr)\b")

FEATURE_NAMES = (
    "log_words_kept", "log_words_learned", "log_words_page", "log_blocks_page",
    "kept_share", "learned_share", "kept_also_learned", "learned_also_kept", "log_ratio",
    "kept_link_density", "learned_link_density", "page_link_density",
    "kept_blocks_share", "learned_blocks_share", "heading_share", "short_block_share",
)
SHORT_BLOCK_WORDS = 5
DIFF_NAMES = (
    "log_words_added", "log_words_dropped", "added_link_density", "dropped_link_density",
    "added_short_share", "dropped_short_share", "log_added_block_words",
    "log_dropped_block_words", "added_item_share", "added_cell_share",
)
"""What ``web2text`` adds to the composition's selection and what it drops from it."""
_ITEM = re.compile(r"\b(li|dd|dt)\b")
_CELL = re.compile(r"\b(td|th)\b")

KIND_NAMES = (
    "page_score", "jsonld_article", "jsonld_index", "og_article", "og_website",
    "text_long", "text_short", "log_running_chars", "og_product", "og_other",
    "jsonld_product", "jsonld_forum", "log_max_repeat", "log_repeating_parents",
    "log_fields", "log_forms", "log_prices",
)


@dataclass(slots=True)
class PageKind:
    """The page's kind signals, filled by ``__call__`` on the raw tree."""

    url: str
    crawler_article: bool = True
    page_article: bool = True
    og_type: str | None = None
    signals: list[float] = field(default_factory=list)

    def __call__(self, root: etree._Element) -> None:
        jsonld = _jsonld_points(root)
        og_points, self.og_type = _og(root)
        running = article.running_text_chars(root)
        text_points = (2 if running >= article.TEXT_ARTICLE_CHARS
                       else -1 if running < article.TEXT_INDEX_CHARS else 0)
        score = jsonld[0] + og_points + text_points
        # article.classify's sum, its signals computed once; a page read without its URL (a
        # file, a gold set's page) has no URL signal, not the index shape of an empty path
        url_points = article.url_shape(self.url) if self.url else 0
        self.crawler_article = score + url_points >= article.ARTICLE_SCORE
        self.page_article = score >= article.ARTICLE_SCORE
        max_repeat, repeating, fields, forms = _structure(root)
        self.signals = [
            score, jsonld[0] > 0, jsonld[0] < 0, og_points > 0, og_points < 0,
            text_points > 0, text_points < 0, np.log1p(running),
            self.og_type == "product",
            self.og_type not in (None, "", "article", "website", "product"),
            jsonld[1], jsonld[2], np.log1p(max_repeat), np.log1p(repeating),
            np.log1p(fields), np.log1p(forms),
        ]

    def features(self, blocks: Sequence[Block]) -> np.ndarray:
        """``KIND_NAMES``: the tree's signals and the prices in the blocks' text."""
        signals = self.signals or [0.0] * (len(KIND_NAMES) - 1)
        prices = sum(len(_PRICE.findall(b.text)) for b in blocks)
        return np.array([*map(float, signals), np.log1p(prices)])


def _jsonld_points(root: etree._Element) -> tuple[int, bool, bool]:
    kinds: set[str] = set()
    for obj in jsonld_objects(root):
        kinds |= types_of(obj)
    points = -3 if kinds & article.INDEX_TYPES else 3 if kinds & article.ARTICLE_TYPES else 0
    return points, bool(kinds & PRODUCT_TYPES), bool(kinds & FORUM_TYPES)


def _og(root: etree._Element) -> tuple[int, str | None]:
    kind = next((m.get("content", "").strip().lower() for m in root.iter("meta")
                 if m.get("property") == "og:type"), None)
    return {"article": 2, "website": -1}.get(kind or "", 0), kind


def _structure(root: etree._Element) -> tuple[int, int, int, int]:
    """The largest repeat of one child kind, the parents repeating one, fields and forms."""
    max_repeat = repeating = fields = forms = 0
    for element in root.iter(etree.Element):
        tag = element.tag
        fields += tag in FIELD_TAGS
        forms += tag == "form"
        if len(element):
            most = max(Counter((c.tag, c.get("class")) for c in element).values())
            max_repeat, repeating = max(max_repeat, most), repeating + (most >= REPEAT_MIN)
    return max_repeat, repeating, fields, forms


def selection_features(
    blocks: Sequence[Block], kept: Sequence[Block], learned: Sequence[Block]
) -> np.ndarray:
    """The page features of ``FEATURE_NAMES``: both selections against the page and each other."""
    kept_ids, learned_ids = {id(b) for b in kept}, {id(b) for b in learned}
    page_words = sum(b.words for b in blocks)
    kept_words, learned_words = words(kept), words(learned)
    both = sum(b.chars for b in kept if id(b) in learned_ids)
    n = max(len(blocks), 1)
    return np.array([
        np.log1p(kept_words), np.log1p(learned_words), np.log1p(page_words), np.log1p(n),
        kept_words / max(page_words, 1), learned_words / max(page_words, 1),
        both / max(_chars(kept), 1),
        sum(b.chars for b in learned if id(b) in kept_ids) / max(_chars(learned), 1),
        np.log1p(learned_words) - np.log1p(kept_words),
        _link_density(kept), _link_density(learned), _link_density(blocks),
        len(kept) / n, len(learned) / n,
        sum(b.is_heading for b in blocks) / n,
        sum(b.words < SHORT_BLOCK_WORDS for b in blocks) / n,
    ])


def difference_features(kept: Sequence[Block], learned: Sequence[Block]) -> np.ndarray:
    """``DIFF_NAMES``: the blocks only ``web2text`` chose, and those only the composition chose."""
    kept_ids, learned_ids = {id(b) for b in kept}, {id(b) for b in learned}
    added = [b for b in learned if id(b) not in kept_ids]
    dropped = [b for b in kept if id(b) not in learned_ids]
    return np.array([
        np.log1p(words(added)), np.log1p(words(dropped)),
        _link_density(added), _link_density(dropped),
        _short_share(added), _short_share(dropped),
        np.log1p(words(added) / max(len(added), 1)),
        np.log1p(words(dropped) / max(len(dropped), 1)),
        sum(bool(_ITEM.search(b.dom_path)) for b in added) / max(len(added), 1),
        sum(bool(_CELL.search(b.dom_path)) for b in added) / max(len(added), 1),
    ])


def _short_share(blocks: Sequence[Block]) -> float:
    return sum(b.words < SHORT_BLOCK_WORDS for b in blocks) / max(len(blocks), 1)


def words(blocks: Sequence[Block]) -> int:
    return sum(b.words for b in blocks)


def _chars(blocks: Sequence[Block]) -> int:
    return sum(b.chars for b in blocks)


def _link_density(blocks: Sequence[Block]) -> float:
    return sum(b.link_chars for b in blocks) / max(_chars(blocks), 1)
