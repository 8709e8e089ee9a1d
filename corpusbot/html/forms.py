"""Forms a reader types into: search boxes, sign-ups, contact, quote and comment forms.

Their labels, hints and messages ("Last Name*", "This field is for validation
purposes and should be left unchanged", "We're sorry, we did not find
results") are no page's main text, and many such forms carry no class or id
naming them (``corpusbot.extraction.default.containers`` reads names). The
form element itself is unwrapped with the controls cut (``dom.strip_invisible``),
so its children are marked before that, for the steps that read containers.

A form is one a reader types into when it holds a text field, a text area or
a list to pick from; a form of radio buttons or checkboxes alone is a set of
choices the page explains (a calculator's versions, a poll), and stays text.
Some sites wrap the whole page in one form (ASP.NET's web forms): a form
holding the headline or a content landmark, or most of the page's text, is
that wrapper and is not marked.

On wcxb-dev (pages of F1 gained, tuned-on folds 0-2): +0.78, 24 pages change
and none loses (a quote form under an insurer's article 0.67 -> 1.00, a law
firm's contact form 0.82 -> 0.99, products' notify-me and newsletter forms);
radio buttons and checkboxes counted as entry -0.285 on one page (the
calculator above); without lists to pick from -0.04. Cutting the forms out of
the tree instead of marking them gains more on wcxb-dev but moved a comment
form's page on multilingual-dev to its sidebar (a shorter page changed which
steps run).
"""

from __future__ import annotations

from collections.abc import Iterable

from lxml import etree

ENTRY_FORM = "data-corpusbot-entry-form"
"""The attribute set on each child element of a form a reader types into."""

# <input> types a reader does not type into (choices, buttons, hidden values); any other,
# a missing or unknown type too, is a field to type into.
_CHOICE_TYPES = frozenset({
    "hidden", "submit", "button", "image", "reset", "radio", "checkbox", "file", "color",
    "range",
})
WRAPPER_SHARE = 0.5
"""A form holding this share of the page's text is the page's wrapper, not a form in it."""


def entry_forms(forms: Iterable[etree._Element]) -> list[etree._Element]:
    """The ``forms`` a reader types into; read before the controls are cut."""
    return [form for form in forms if _takes_entry(form)]


def _takes_entry(form: etree._Element) -> bool:
    for control in form.iter("input", "textarea", "select"):
        if control.tag != "input" or (control.get("type") or "").lower() not in _CHOICE_TYPES:
            return True
    return False


def mark(root: etree._Element, forms: list[etree._Element], swallowed: tuple[str, ...]) -> None:
    """Mark the children of ``forms`` (``ENTRY_FORM``), except a form holding one of the
    ``swallowed`` elements (the headline, a content landmark) or ``WRAPPER_SHARE`` of the
    text under ``<body>``; read after the controls are cut."""
    total = None
    for form in forms:
        chars = _chars(form)
        if not chars:
            continue  # a search box: nothing left to mark once its controls are cut
        if next(form.iter(*swallowed), None) is not None:
            continue
        if total is None:
            body = root.find("body")
            total = _chars(root if body is None else body)
        if chars >= WRAPPER_SHARE * total:
            continue
        for child in form:
            if isinstance(child.tag, str):
                child.set(ENTRY_FORM, "")


# XPath's string() joins an element's text in C; itertext() in Python took 0.26 ms a page.
_STRING_LENGTH = etree.XPath("string-length(.)")


def _chars(element: etree._Element) -> float:
    return _STRING_LENGTH(element)  # type: ignore[return-value]
