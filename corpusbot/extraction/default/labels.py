"""Label lines: a block that is only an ad slot's label, a loading placeholder or a
control's name is no text.

Publishers must label advertising, so an ad slot inside or beside an article
carries a line of its own ("Advertisement", "Sponsored", "Anzeige",
"Publicité"). The ad itself is a script or an iframe and is cut
(``dom.strip_invisible``); its label is a short block beside the article's
paragraphs, and the recovery inside the region (``default.recover_inside``)
took it as one.

Controls that are no ``<button>`` (a link or a ``<div>`` a script listens to)
leave their names as lines of their own beside each teaser, product card or
post: "Add to wishlist", "Quick view", "Compare", "Read more", "Load more",
"Share", "Sort by"; so does a table of contents' heading, its links gone.
The listing regions (``default.regions``) keep every line of an item, these
too.

A section a script fills in after the page loads holds a placeholder
("Loading content", "Loading...") in the page as served and archived. A
template's section nobody filled in holds filler text ("Lorem ipsum dolor sit
amet, ..."), often hidden until a tab or a slide shows it. Its blocks go
whatever their length (``is_filler``): they are no page's text, and C4's rule
(``corpusbot.filters.c4``) drops every page whose text holds "lorem ipsum", so
one leaked filler block would cost the corpus the whole page around it.

The words are the labels' own in the languages of the stop-word lists most
pages are in, written from usage, not from any page; a label with anything
more ("Sponsored by ...", "Read more about the bridge") is a sentence and
stays.

Measured (wcxb-dev pages of F1 gained, tuned-on folds 0-2): ad labels +0.024,
15 pages change, two listings lose under 0.0005 (a sponsored entry's label,
which their gold keeps); without "sponsored" +0.008; scrapinghub 0.9703 ->
0.9707, multilingual-dev 0.9399 -> 0.9404 (one page loses its leaked
label); held out +0.004. Control names then: shop controls alone ("add to
cart", "quick view", "compare", "choose options") +0.075, 9 pages gain; with
the "read more", "see all" and "load more" links +0.167, 25 pages change (a
documentation page loses under 0.0005). Loading placeholders then +0.034, 5
pages gain. Then, one at a time: "Table of contents" as a line (the list under it
is links, and leaves) +0.015, "Sort by" +0.021, "Share" and "Print" +0.011,
"Filters" +0.011. Filler text then (session 21): +0.117 tuned-on (a product's
unfilled slides, 0.60 -> 0.72), +0.30 held out (an article), scrapinghub 0.9708 and
multilingual-dev 0.9410 unchanged.

A page a script renders in the browser ships its template: where the script did not
run (a crawler, an archive), the slots stay unfilled, ``{{ price.total }}``, and
no reader ever sees them. A block that is only such slots goes (``is_unrendered``),
outside code, where a documentation page quotes them. Session 33: +0.029 tuned-on (two
pages: a forum's 25 error-message slots, a product's price box), scrapinghub and
multilingual-dev unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from corpusbot.html.blocks import Block

_AD_LABELS = (
    r"advertisements?|advertising|advertorial|sponsored|anzeige|werbung|publicité"
    r"|publicidad|publicidade|pubblicità|advertentie|reklama|реклама"
)
# A placeholder a script replaces with content once it loads; a capture keeps the placeholder.
_ELLIPSIS = r"(?:\s*(?:\.\.\.|\u2026))?"
_PLACEHOLDERS = (
    r"|(?:loading(?: content)?|please wait|wird geladen|lädt|chargement(?: en cours)?"
    rf"|cargando|carregando|caricamento|bezig met laden|ładowanie|загрузка){_ELLIPSIS}"
)
_CONTROL_NAMES = (
    # English
    r"|add to (?:wish ?list|cart|bag|basket|favou?rites)|quick (?:view|shop|look|add)"
    r"|compare|(?:choose|select) options|save for later|read more|learn more|shop now"
    r"|see (?:more|all|details)|view (?:all|more|details)|show (?:more|all)|load more"
    r"|share(?: this(?: article| post| page)?)?|print(?: this page)?|sort by:?|filters?"
    r"|table of contents"
    # German
    r"|in den warenkorb|auf die wunschliste|merken|vergleichen|weiterlesen|mehr lesen"
    r"|mehr erfahren|mehr anzeigen|alle anzeigen|jetzt kaufen|teilen|drucken"
    r"|sortieren nach:?|inhaltsverzeichnis"
    # French
    r"|ajouter au panier|aperçu rapide|comparer|lire la suite|en savoir plus|voir plus"
    r"|voir tout|afficher plus|acheter maintenant|partager|imprimer|trier par:?|filtres"
    r"|table des matières|sommaire"
    # Spanish, Portuguese, Italian
    r"|(?:añadir|agregar) al carrito|añadir a la cesta|vista rápida|comparar|leer más"
    r"|seguir leyendo|ver más|ver todo|saber más|comprar ahora|compartir|ordenar por:?"
    r"|filtros|adicionar ao carrinho|leia mais|ler mais|saiba mais|ver mais|ver tudo"
    r"|comprar agora|compartilhar|partilhar"
    r"|aggiungi al carrello|confronta|leggi tutto|leggi di più|scopri di più|vedi tutto"
    r"|mostra di più|acquista ora|condividi|ordina per:?|filtri"
    # Dutch, Polish, Russian
    r"|in winkelwagen|vergelijk|lees meer|meer lezen|bekijk alles|toon meer|nu kopen"
    r"|delen|afdrukken|sorteer op:?|inhoudsopgave"
    r"|dodaj do koszyka|porównaj|czytaj więcej|zobacz więcej|pokaż więcej|kup teraz"
    r"|udostępnij|drukuj|sortuj według:?|filtry|spis treści"
    r"|в корзину|добавить в корзину|сравнить|читать далее|подробнее|показать ещё"
    r"|показать еще|смотреть все|поделиться|сортировать по:?|фильтры|содержание"
)
LABEL = re.compile(_AD_LABELS + _PLACEHOLDERS + _CONTROL_NAMES, re.IGNORECASE)
MAX_LABEL_CHARS = 40
"""Longer than any label with the spaces around it: a longer block is tested no further."""


TEMPLATE_EXPRESSIONS = re.compile(r"\{\{.*?\}\}", re.DOTALL)
"""A template's expression as Mustache, Handlebars, Vue, Angular and Jinja write it."""
CODE_TAGS = frozenset({"pre", "code", "kbd", "samp", "tt"})
_SEPARATORS = " \t\n\r|,;:.-/*()[]"
"""What may stand between a block's expressions: a slot list's spaces and separators."""

FILLER = re.compile(r"lorem\s+ipsum\s+dolor", re.IGNORECASE)
"""The opening of the filler text every template and design tool inserts."""


def without_labels(kept: Sequence[Block]) -> list[Block]:
    """``kept`` without the blocks that are only a label (``LABEL``), filler text or a
    template's unfilled expressions (``is_unrendered``)."""
    return [b for b in kept
            if not is_label(b.text) and not is_filler(b.text) and not is_unrendered(b)]


def is_unrendered(block: Block) -> bool:
    """Whether the block is only a template's expressions, outside code.

    Pages a script renders in the browser (Vue, Angular, Handlebars) ship their
    templates' slots as ``{{ price.total }}`` or ``{{ errors[3].message }}``;
    a capture keeps the slot, never the value. A documentation page quoting
    such an expression sets it as code (``<pre>``, ``<code>``), which stays.
    """
    text = block.text
    if "{{" not in text or TEMPLATE_EXPRESSIONS.sub("", text).strip(_SEPARATORS):
        return False
    return not any(e.tag in CODE_TAGS for e in (block.element, *block.element.iterancestors()))


def is_filler(text: str) -> bool:
    """Whether ``text`` is a template's filler ("Lorem ipsum dolor sit amet, ...")."""
    return FILLER.search(text) is not None


def is_label(text: str) -> bool:
    """Whether ``text`` is one label and nothing else (case and space aside)."""
    return len(text) <= MAX_LABEL_CHARS and LABEL.fullmatch(text.strip()) is not None
