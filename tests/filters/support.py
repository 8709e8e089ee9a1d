"""Page states for the quality steps' tests, and options with every rule switched off."""

from __future__ import annotations

import dataclasses
from typing import Any

from corpusbot.page import Page
from corpusbot.steps import PageState


def state(text: str, lang: str = "en", url: str = "https://example.org/a",
          lang_prob: float = 0.99) -> PageState:
    """The state a quality step sees for ``text`` (paragraphs split at blank lines)."""
    return PageState(page=Page(url=url, body=b""), paragraphs=text.split("\n\n"), lang=lang,
                     lang_prob=lang_prob)


def neutral(options_class: type, **overrides: Any) -> Any:
    """``options_class`` with every numeric threshold 0 and every switch off, then ``overrides``."""
    values: dict[str, Any] = {}
    for f in dataclasses.fields(options_class):
        if f.type in ("int", "float"):
            values[f.name] = 0
        elif f.type == "bool":
            values[f.name] = False
    values.update(overrides)
    return options_class(**values)


def reason(step: Any, text: str, **state_fields: Any) -> str | None:
    """The step's drop reason for ``text``, or None when it keeps it."""
    drop = step.apply(state(text, **state_fields))
    return drop.reason if drop else None
