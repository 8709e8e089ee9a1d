"""Boilerplate containers named as such by the page: class, id, or HTML5 tag.

Comment threads, footers, bylines, captions, cookie dialogs and teaser
widgets sit inside elements whose ``class`` or ``id`` says so; a block under
such an element is boilerplate unless an element on the way also names
itself content (``article-footer`` vs ``comment-list``). The names were kept
one by one when they raised F1 on one gold set without lowering it on the
other (``social``, ``subscri``, ``widget``, ``ad``, ``meta``, ``date``, any
``sidebar`` but the whole word, and the tags ``nav`` and ``header`` lowered
it and are out), plus
the names of the usual third-party widgets, which cost nothing where absent.
Customer reviews (``reviews`` and the review widgets' names) are not a
product page's text in WCXB's gold: wcxb-dev 0.835 -> 0.837, product
0.610 -> 0.634, the other sets unchanged; the singular ``review`` names
review articles too (wcxb-dev article -0.003, multilingual-dev -0.003).
The author box of the Simple Author Box plugin (``saboxplugin-wrap``, a name
without "author"): wcxb-dev tuned-on +0.15 pages of F1, held out +0.01 (3 pages
gain), scrapinghub 0.9700 and multilingual-dev 0.9383 unchanged.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection, Sequence, Set

from lxml import etree

from corpusbot.extraction.justext import stopword_density
from corpusbot.html.blocks import Block
from corpusbot.html.dom import SWALLOWED_PAGE
from corpusbot.html.forms import ENTRY_FORM

# The patterns read lower-cased names: a case-sensitive search of one
# lower-cased string is a third of the cost of IGNORECASE.
# "rating" only where a word of the name begins: it is also the tail of other words
# ("operating-hours", "integrating") and of compounds naming a part of an item
# ("minirating": a listing's "4.35 avg rating - 9,993,676 ratings" line). On wcxb-dev (pages
# of F1 gained, tuned-on folds 0-2 / held-out 3-4): +0.20 / +0.00 (a book list 0.74 -> 0.94;
# no held-out page changes), scrapinghub 0.9703 and multilingual-dev 0.9399 unchanged.
# "rating" a whole word (no letter after it either): +0.17 / +0.00. Every name word only
# where a word begins: +0.25 / -0.25 ("globalfooter", "commentsignupbar" and "g-recaptcha"
# are boilerplate compounds); the other words one at a time are in git's log (issue 19).
# "dialog" (not "dialogue": a transcript's turns) names an overlay as "modal" and "popup" do:
# a shop's cart-merge prompt built of divs named "dialog_*" without ARIA's dialog role
# (BOILERPLATE_ROLES). On wcxb-dev (pages of F1 gained, tuned-on 0-2 / held-out 3-4): +0.16 /
# +0.00 (5 tuned-on pages change, none loses: a product 0.83 -> 0.94, a listing 0.73 -> 0.77;
# no held-out page changes), scrapinghub 0.9703 and multilingual-dev 0.9399 unchanged. Also
# measured then: "tooltip" and "popover" -0.71 tuned-on, not taken (a product's help bubbles
# leave, but so do a book list's table named "js-dataTooltip" and a service page's notes).
BOILERPLATE_NAMES = re.compile(
    r"comment|footer|author|caption|modal|popup|newsletter|signup|breadcrumb|consent|cookie"
    r"|gdpr|captcha|disqus|share|related|recommend|promo|outbrain|taboola|(?<![a-z])rating"
    r"|disclaimer|disclosure|copyright|credit|contributor|tags?\b|topics?\b"
    r"|(?:^|[\s_-])bio(?:[\s_-]|$)"
    r"|dialog(?!ue)|reviews|yotpo|jdgm|okendo|bazaarvoice|trustpilot|saboxplugin",
)
CONTENT_NAMES = re.compile(r"article|body|content|entry|main|post|story|text")
# The consent managers' own names for their banners and preference centres (OneTrust's
# "ot-pc-content", iubenda's "iubenda-cs-content", Didomi, Usercentrics, Quantcast's
# "qc-cmp2-container", Sourcepoint's "sp_message_container", consentmanager's "cmpbox",
# Axeptio, the cookieconsent script's "cc-window"): the widgets of these vendors are consent
# notices whatever content name they also carry. "iubenda-cs" is the banner alone: the
# same vendor's embedded privacy policy is a policy page's text.
CONSENT_VENDORS = (r"onetrust|iubenda-cs|didomi|usercentrics|qc-cmp|sp_message|cmpbox|axeptio"
                   r"|cc-window")
# Names that stay boilerplate even beside a content name ("article__byline").
ALWAYS_BOILERPLATE_NAMES = re.compile(r"byline|reading-?time|" + CONSENT_VENDORS)
# Class names that are boilerplate only as a whole word: "sidebar" is, but
# "has-sidebar" and "content-with-sidebar" wrap articles.
BOILERPLATE_CLASS_WORDS = frozenset({"sidebar"})
# HTML5 elements whose content is by definition not the article's running
# text: asides, footers, figures and their captions, machine-readable times,
# navigation. <nav> joined last (mega-menus' sales paragraphs, post navigation,
# login panels), unless it swallowed the page (SWALLOWED_PAGE): wcxb-dev 0.8498 ->
# 0.8510 (tuned-on +1.69 pages, held out +0.10; without the swallowing test 0.8504, a
# landing page inside an open <nav> 0.91 -> 0), multilingual-dev 0.9360 -> 0.9371,
# scrapinghub unchanged.
BOILERPLATE_TAGS = frozenset({"aside", "footer", "figure", "figcaption", "time", "nav"})
# What a <figure> holds that is the text's own: a data table (block editors wrap every
# table in <figure class="wp-block-table">) or a code listing. Measured against the figure
# as boilerplate: wcxb-dev 0.8488 -> 0.8498 (article 0.949 -> 0.950, documentation 0.914 ->
# 0.915; 27 pages change, 22 gain: +0.85 pages on the tuned-on folds, +0.63 held out; 5 lose
# up to 0.01), multilingual-dev 0.9354 -> 0.9360, scrapinghub unchanged; lists in figures
# change nothing. A quotation is one too (HTML's own example of a figure: a <blockquote> and
# its attribution; block editors' pull quotes and testimonials, <figure
# class="wp-block-pullquote">): tuned-on +0.24 pages, held out +0.08 (8 pages change, all
# gain), scrapinghub 0.9699 and multilingual-dev 0.9383 unchanged.
FIGURE_CONTENT_TAGS = ("table", "pre", "blockquote")
# A <nav> or an overlay holding the page's headline or a content landmark is one a missing
# end tag left open, which swallowed the page (as an open <button> does: dom.strip_invisible):
# dom.SWALLOWED_PAGE.
# ARIA's roles of an overlay (a cookie or newsletter modal, a cart drawer, a size chart):
# wcxb-dev 0.8510 -> 0.8530 (tuned-on +3.2 pages, held out +1.5; listings, products and
# forum threads whose chosen region was a modal), scrapinghub and multilingual-dev
# unchanged. The landmark roles (navigation, complementary, contentinfo) as well:
# tuned-on folds -0.17 pages, so not taken.
BOILERPLATE_ROLES = frozenset({"dialog", "alertdialog"})


class ContainerNames:
    """Decides, once per element, whether an element sits in a boilerplate container.

    ``exempt`` elements are never boilerplate by their own name (their
    ancestors' and descendants' names still count): the containers that
    hold most of a page's good text (``default.exempt_holders``).
    """

    def __init__(self, exempt: frozenset[etree._Element] = frozenset()) -> None:
        self._exempt = exempt
        # each element's outermost named container (None: none), found once per element
        self._outermost: dict[etree._Element, etree._Element | None] = {}

    @property
    def exempt(self) -> frozenset[etree._Element]:
        """The elements never boilerplate by their own name."""
        return self._exempt

    def is_boilerplate(self, element: etree._Element) -> bool:
        return self.container_of(element) is not None

    def container_of(self, element: etree._Element) -> etree._Element | None:
        """The outermost ancestor-or-self whose own name marks boilerplate, if any."""
        chain = []
        node: etree._Element | None = element
        outermost = None
        known = self._outermost
        while node is not None and node.tag != "body":
            if node in known:
                outermost = known[node]
                break
            chain.append(node)
            node = node.getparent()
        # from the outermost unseen ancestor inwards: inside a named container, stay in it
        for node in chain[::-1]:  # not reversed(): mypyc 2.x crashes on it over lxml elements
            if outermost is None and self._names_boilerplate(node):
                outermost = node
            known[node] = outermost
        return outermost

    def _names_boilerplate(self, element: etree._Element) -> bool:
        if element in self._exempt:
            return False
        if boilerplate_by_kind(element):
            return True
        names = element_names(element)
        verdict = names_boilerplate(names)  # cached: each class/id string is read once
        if verdict and id_is_own_text(element):
            return names_boilerplate(element.get("class") or "")
        if verdict and captions_a_section(element, names):
            return names_boilerplate(names.lower().replace(CAPTION_NAME, " "))
        return verdict


# Blog engines and documentation generators give each heading an id made of its own
# words ("h-3-integrating-with-a-facebook-profile", "where-do-product-ratings-appear"),
# so the name rules read a heading's subject as the element's role: "integrating" holds
# "rating", "sharing-your-comments-with-students" names comments. Such an id says what
# the heading says, not what the element is; the class still counts. A heading's id of
# SLUG_MIN_WORDS words or more (letters only, at least two each: "h-3" is no word) all in
# the heading's text, which has at most twice as many words, is its own text. On
# wcxb-dev (pages of F1 gained, tuned-on folds 0-2 / held-out 3-4): 4 words +0.04 /
# +0.00 (17 pages change, two lose 0.001); 3 words +0.04 / +0.01 (a heading "Share this
# post" would then be text again); scrapinghub and multilingual-dev unchanged.
SLUG_MIN_WORDS = 4
HEADING_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_SLUG_WORDS = re.compile(r"[^\W\d_]{2,}")


def id_is_own_text(element: etree._Element) -> bool:
    """Whether a heading's ``id`` is its own text made into a slug (``SLUG_MIN_WORDS``)."""
    ident = element.get("id")
    if not ident or element.tag not in HEADING_TAGS:
        return False
    words = _SLUG_WORDS.findall(ident.lower())
    if len(words) < SLUG_MIN_WORDS:
        return False
    text = _SLUG_WORDS.findall("".join(element.itertext()).lower())
    return len(text) <= 2 * len(words) and set(words) <= set(text)


# A caption is a line or two under an image and never holds a heading; an element named
# "caption" that holds a section's or a card's heading (h2-h6) is the text half of a
# media-and-text layout: a product card's "caption" under its thumbnail, a landing page's
# "typography-caption-tile" features. Its other names still count. The page's headline
# (h1) is left out: a banner's title item "caption-bottom" holds it, and the region rules
# weigh a banner as before. On wcxb-dev (tuned-on folds 0-2 / held-out 3-4): 0.8672 ->
# 0.8684 / 0.8690 -> 0.8699 (a collection of cards 0.04 -> 0.99, a product's feature
# tiles 0.71 -> 0.87; one product loses 0.04; held out, collections 0.705 -> 0.718); with
# h1 too the tuned-on folds gain less (0.8682: a portfolio's banner took a form in);
# scrapinghub 0.9697 -> 0.9699, multilingual-dev unchanged.
CAPTION_NAME = "caption"
SECTION_HEADINGS = ("h2", "h3", "h4", "h5", "h6")


def captions_a_section(element: etree._Element, names: str) -> bool:
    """Whether ``element``, named ``names``, is a "caption" holding a section's heading."""
    return CAPTION_NAME in names.lower() and next(element.iter(*SECTION_HEADINGS), None) is not None


def boilerplate_by_kind(element: etree._Element) -> bool:
    """Whether the element's tag or ARIA role makes it boilerplate (its names aside), or
    it sits in a form a reader types into (``corpusbot.html.forms``)."""
    if element.get(ENTRY_FORM) is not None:
        return True
    if element.tag == "nav" or element.get("role") in BOILERPLATE_ROLES:
        return next(element.iter(*SWALLOWED_PAGE), None) is None
    if element.tag == "figure":
        return next(element.iter(*FIGURE_CONTENT_TAGS), None) is None
    return element.tag in BOILERPLATE_TAGS


def element_names(element: etree._Element) -> str:
    """The element's ``class`` and ``id``, joined by a space: what its names say."""
    return f"{element.get('class') or ''} {element.get('id') or ''}"


# A pure function of the string, so caching it cannot change a verdict; a page's elements
# and a site's pages repeat their names, and the four searches were 1.5 % of default.
@functools.lru_cache(maxsize=1 << 14)
def names_boilerplate(names: str) -> bool:
    """Whether an element's ``class`` and ``id`` (joined by a space) name boilerplate."""
    names = names.lower()
    if ALWAYS_BOILERPLATE_NAMES.search(names):
        return True
    if not BOILERPLATE_CLASS_WORDS.isdisjoint(names.split()):
        return True
    return bool(BOILERPLATE_NAMES.search(names)) and not CONTENT_NAMES.search(names)


# The page's <footer> is never the holder of its text, however much prose it has: legal
# footnotes, fine print and disclaimers outweigh a product's or a landing page's own
# paragraphs. wcxb-dev 0.8559 -> 0.8574 (tuned-on +2.24 pages, held out +0.04; nine pages
# change, all gain), multilingual-dev 0.9378 -> 0.9383, scrapinghub unchanged; <aside>
# too: tuned-on +1.24, held out -0.95 (two articles in an <aside> lost whole).
NEVER_HOLDERS = frozenset({"footer"})


def exempt_holders(
    chosen: Sequence[Block], names: ContainerNames, share: float,
    stoplist: Collection[str] = frozenset(),
) -> frozenset[etree._Element]:
    """Boilerplate-named containers that hold most of the candidates' text.

    A forum thread inside ``div#comments``, its posts each in a
    ``div.comment``, an article inside ``div.share_wrapper`` or
    ``aside.blogPost``, a product's sections in ``details.disclosure``: a
    name on the containers of most of the good text is not boilerplate.
    Each removed candidate is charged to its outermost named container;
    the containers of one tag and name that together hold ``share`` of
    all candidate text are exempt from their name. With the page's
    ``stoplist``, only prose is charged (``is_prose``): a footer's list of
    served towns and postcodes outweighed a landing page's own paragraphs.
    """
    total = sum(block.chars for block in chosen)
    held, containers = _held_prose(chosen, names, stoplist)
    return frozenset(c for key, chars in held.items()
                     if chars >= share * total and key[0] not in NEVER_HOLDERS
                     for c in containers[key])


def _held_prose(
    chosen: Sequence[Block], names: ContainerNames, stoplist: Collection[str],
) -> tuple[dict[tuple, int], dict[tuple, list]]:
    """The prose characters of the candidates charged to each (tag, class, id) of their
    outermost named containers, and those containers."""
    held: dict[tuple, int] = {}
    containers: dict[tuple, list] = {}
    for block in chosen:
        if names.is_boilerplate(block.element):
            container = names.container_of(block.element)
            if container is not None:
                key = (container.tag, container.get("class"), container.get("id"))
                if is_prose(block, stoplist):
                    held[key] = held.get(key, 0) + block.chars
                containers.setdefault(key, []).append(container)
    return held, containers


# A page of which every candidate sits in named containers, none holding HOLDER_SHARE of
# them, keeps nothing: its own text in "field-seofootercopy" beside a promotion bar and a
# rewards box. When the composition keeps nothing, the containers of the name holding the
# most prose, FALLBACK_MIN_SHARE of the candidates' text at least, are read as text: never
# a footer or an element boilerplate by its tag or ARIA role. Nor a consent notice (a cookie
# banner is prose too, and on a page of links it is all the prose there is): its candidates
# have left before (``outside_consent_notices``). On wcxb-dev
# (tuned-on 0-2 / held-out 3-4): 0.8686 -> 0.8696 / 0.8699 -> 0.8708; exempting every
# holder above 0.2 instead (``exempt_holders``), with no consent test, a catalog's cookie
# banner became its text (0.29 -> 0.01). Scrapinghub and multilingual-dev unchanged.
FALLBACK_MIN_SHARE = 0.2
CONSENT_NAMES = re.compile(r"cookie|consent|gdpr|" + CONSENT_VENDORS)


def in_consent_notice(element: etree._Element, names: ContainerNames) -> bool:
    """Whether ``element`` sits in a consent notice: a named container (``names``, or one
    inside it) whose names speak of cookies or consent (``CONSENT_NAMES``)."""
    container = names.container_of(element)
    if container is None:
        return False
    node: etree._Element | None = element
    while node is not None:
        if CONSENT_NAMES.search(element_names(node).lower()):
            return True
        if node is container:
            return False
        node = node.getparent()
    return False


# A cookie banner or a consent manager's preference centre is never a page's text, and
# its prose must not count when the holders of the text are weighed: beside a forum
# thread whose posts sit in containers named "comment", OneTrust's preference centre
# (4,000 characters of prose) held most of the candidates' text and was exempt as their
# holder, so the page's text was the cookie policy; a shop's GDPR banner outweighed its
# item. Such candidates leave before anything else reads them. On wcxb-dev (pages of F1
# gained, tuned-on folds 0-2): +1.06 (3 pages change, none loses: a forum thread 0.14 ->
# 0.95, a listing whose iubenda banner was kept, a shop's item); only refusing them the
# holder's exemption (the share still counting their text) -0.10: the thread's posts no
# longer held half the text and the page kept nothing. Scrapinghub and multilingual-dev
# unchanged.
def outside_consent_notices(chosen: Sequence[Block], names: ContainerNames) -> list[Block]:
    """The candidates ``chosen`` that sit in no consent notice (``in_consent_notice``)."""
    return [b for b in chosen if not in_consent_notice(b.element, names)]


def largest_holder(
    chosen: Sequence[Block], names: ContainerNames, stoplist: Collection[str] = frozenset(),
) -> frozenset[etree._Element]:
    """The named containers of one name holding the most prose of the candidates
    ``chosen``, which are outside consent notices (``outside_consent_notices``):
    ``FALLBACK_MIN_SHARE`` of their text at least, never a footer, a dialog or a
    ``<nav>``; else none."""
    held, containers = _held_prose(chosen, names, stoplist)
    allowed = {key: chars for key, chars in held.items()
               if key[0] not in NEVER_HOLDERS
               and not any(boilerplate_by_kind(c) for c in containers[key])}
    if not allowed:
        return frozenset()
    key = max(allowed, key=allowed.__getitem__)
    if allowed[key] < FALLBACK_MIN_SHARE * sum(b.chars for b in chosen):
        return frozenset()
    return frozenset(containers[key])


PROSE_MIN_STOPWORDS = 0.05
"""A block reads as prose when one word in twenty is a stop word of the page's language:
lists of names, places, postcodes and product codes have none. Chosen on wcxb-dev's
tuned-on folds (0.05, 0.1, 0.2: 0.05 changes three pages, one gain of 0.9 and two losses
of 0.03; 0.2 loses products and listings); scrapinghub and multilingual-dev unchanged."""


def is_prose(block: Block, stoplist: Collection[str]) -> bool:
    """Whether ``block`` reads as running text of the page's language (True without a list)."""
    return not stoplist or stopword_density(block, stoplist) >= PROSE_MIN_STOPWORDS


FREE_MAX_SHARE = 0.02
"""Nested holders are sought when the candidates in no named container hold at most this
share of the candidates' text: a headline above a share bar whose buttons a parser left
open, which took the article in. On wcxb-dev's tuned-on folds 0.02 gains one article
(0 -> 0.99); 0.05 and 0.1 also lose a product (0.46 -> 0.08) whose specification box
outweighed its few free lines; held out nothing changes at 0.02."""
MAX_EXEMPT_ROUNDS = 8
"""Named containers nest (a thread's replies in ``ol.comments`` inside ``ol.comments``,
an article in a popup wrapper a parser left open); each round exempts one level."""


def names_exempting_holders(
    chosen: Sequence[Block], share: float, agreed: Set[int] = frozenset(),
    min_text_chars: int = 0, stoplist: Collection[str] = frozenset(),
    *, names: ContainerNames | None = None,
) -> ContainerNames:
    """The page's container names, with the holders of most candidate text exempt
    (of its prose, with the page's ``stoplist``: ``exempt_holders``).

    When even then every candidate sits in a named container and the
    candidates both algorithms chose (``agreed``, ids) hold an article's worth
    of text (``min_text_chars``), the holders are nested: the named
    containers inside the exempt ones that now hold ``share`` of that text are
    exempt too, level by level, until a candidate is free. The same holds
    when the free candidates are a headline's worth (``FREE_MAX_SHARE``), but
    then only containers boilerplate by their names are exempt, never by
    their tag or ARIA role: a wrapper left open is a ``div`` with a name,
    while a dialog or a ``<nav>`` holding the text beside a free headline is
    one the page opened (without that condition: wcxb-dev tuned-on +0.26
    pages instead of +0.99, a listing whose modal held the candidates 0.99 ->
    0.06; held out -0.73). Exempting inner
    levels whenever they qualify cost every set (scrapinghub 0.9695 -> 0.966,
    wcxb-dev 0.8428 -> 0.839): inside an exempt wrapper most named containers
    are the widgets they say they are. ``names``: the page's names with nothing exempt,
    if already read.
    """
    names = names or ContainerNames()
    exempt = exempt_holders(chosen, names, share, stoplist)
    if not exempt:
        return names
    names = ContainerNames(exempt)
    if not agreed:
        return names
    free = _free_chars(chosen, names)
    if free > FREE_MAX_SHARE * sum(b.chars for b in chosen):
        return names
    # the text is read only here: most pages exempt nothing or free a candidate at once
    text = [b for b in chosen if id(b) in agreed]
    if sum(b.chars for b in text) < min_text_chars:
        return names
    for _ in range(MAX_EXEMPT_ROUNDS):
        found = exempt_holders(text, names, share, stoplist)
        if free:  # beside a free headline, only a wrapper left open by its name
            found = frozenset(c for c in found if not boilerplate_by_kind(c))
        if found <= exempt:
            break
        exempt |= found
        names = ContainerNames(exempt)
        if _free_chars(chosen, names) > free:
            break
    return names


def _free_chars(chosen: Sequence[Block], names: ContainerNames) -> int:
    """The characters of the candidates in no boilerplate container."""
    return sum(b.chars for b in chosen if not names.is_boilerplate(b.element))


PAGE_FRAME_TAGS = frozenset({"nav", "header", "footer", "aside"})
"""HTML5's sectioning of the page around its content."""


def in_page_frame(element: etree._Element) -> bool:
    """Whether ``element`` sits in the page's navigation, header, footer or an aside."""
    return any(a.tag in PAGE_FRAME_TAGS for a in element.iterancestors())
