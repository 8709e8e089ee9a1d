"""The step protocol: what one named stage of the Processor is, and the page state it reads.

A step is a small class with

- ``name``: its registered name (``gopher_quality``), also the prefix of its
  options on every route (``--set gopher_quality.min_words=30``,
  ``CORPUSBOT_PROCESS_SET = {"gopher_quality.min_words": 30}``);
- ``Options``: a frozen dataclass whose fields are its options, each with
  one default, validated in ``__post_init__`` (a bad value raises
  ValueError with one line naming the option and what it accepts);
- ``reasons``: every reason it may drop a page for, ``filter/<step>/<rule>``;
- ``apply(state)``: one call per page, which drops (returns a ``Drop``),
  edits the text (``state.set_paragraphs`` and ``state.count_edit``), or
  annotates (``state.meta``, ``state.signals``) and returns None;
- ``reads_url``: True when its answer depends on the page's URL (the URL
  block lists); the others answer from the page's bytes alone, which lets an
  archive run reuse a result for an exact copy (``corpusbot.archive.copies``).

Steps hold no per-page state and do no I/O: a Processor (a list of steps)
is pickled to worker processes and must give the same answer everywhere.
The list of registered steps and the presets that name lists of them are in
``corpusbot.filters.registry``; the Processor runs them in order.
"""

from __future__ import annotations

import dataclasses
import types
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, ClassVar, get_type_hints

from corpusbot.page import Page
from corpusbot.text import PARAGRAPH_SEPARATOR, tokens


@dataclass(slots=True, frozen=True)
class NoOptions:
    """The options of a step that has none."""


@dataclass(slots=True, frozen=True)
class Drop:
    """A step's verdict that the page yields no document: the reason, and what it measured."""

    reason: str
    detail: str | None = None


@dataclass(slots=True)
class PageState:
    """What the steps of one page share, filled in as they run.

    The extraction step sets the text (as paragraphs), the title, the
    language and its probability; later steps may replace the paragraphs
    (an edit), add to ``meta`` (written with the record) or ``signals``
    (measurements a later step or the rejects output reads). Words are
    tokenised once per paragraph, on first use, and again only for the
    paragraphs an edit changed.
    """

    page: Page
    paragraphs: list[str] = field(default_factory=list)
    title: str | None = None
    lang: str = "und"
    lang_prob: float = 0.0
    lang_source: str | None = None
    extractor: str = ""
    cuts: tuple[str, ...] = ()
    meta: dict[str, Any] = field(default_factory=dict)
    signals: dict[str, Any] = field(default_factory=dict)
    edits: Counter[str] = field(default_factory=Counter)
    fingerprints: dict[str, Any] = field(default_factory=dict)
    _words: dict[str, list[str]] = field(default_factory=dict, repr=False)

    @property
    def text(self) -> str:
        """The paragraphs joined as ``Document.text`` joins them."""
        return PARAGRAPH_SEPARATOR.join(self.paragraphs)

    def paragraph_words(self) -> list[list[str]]:
        """The word tokens of each paragraph (``corpusbot.text.tokens``), cached."""
        cache = self._words
        out = []
        for paragraph in self.paragraphs:
            words = cache.get(paragraph)
            if words is None:
                words = cache[paragraph] = tokens(paragraph)
            out.append(words)
        return out

    def words(self) -> list[str]:
        """The text's tokens: the paragraphs' concatenated, since none spans a blank line."""
        return [word for part in self.paragraph_words() for word in part]

    def set_paragraphs(self, paragraphs: list[str]) -> None:
        """Replace the text (an edit); cached words of unchanged paragraphs are kept."""
        self.paragraphs = paragraphs

    def count_edit(self, key: str, lines: int, characters: int) -> None:
        """Count an edit under ``edit/<step>/<rule>``: lines removed and characters removed."""
        self.edits[f"{key}/lines"] += lines
        self.edits[f"{key}/chars"] += characters


class Step:
    """Base class of the steps; see the module docstring. Subclasses set the class attributes
    and ``apply``; the base keeps the options and makes the step picklable."""

    name: ClassVar[str] = ""
    Options: ClassVar[type] = NoOptions
    reasons: ClassVar[tuple[str, ...]] = ()
    summary: ClassVar[str] = ""
    """One line for ``corpusbot steps`` and the README's step table."""
    reads_url: ClassVar[bool] = False

    __slots__ = ("options",)

    def __init__(self, options: Any = None) -> None:
        self.options = self.Options() if options is None else options
        if not isinstance(self.options, self.Options):
            raise TypeError(f"step {self.name} takes {self.Options.__name__}, "
                            f"got {type(self.options).__name__}")

    def apply(self, state: PageState) -> Drop | None:
        """Drop the page (a ``Drop``), or edit or annotate ``state`` and return None."""
        raise NotImplementedError

    def __getstate__(self) -> Any:
        return self.options

    def __setstate__(self, options: Any) -> None:
        self.__init__(options)  # type: ignore[misc]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.options!r})"


def option_names(options_class: type) -> list[str]:
    """The option names of an options dataclass, in declaration order."""
    return [f.name for f in dataclasses.fields(options_class)]


def parse_option(options_class: type, name: str, value: Any) -> Any:
    """``value`` (a string from a command line or a setting, or already typed) as the type
    of option ``name``: bool, int, float, str, a frozenset of strings (comma-separated), or a
    mapping of strings to floats (``de=0.8,en=0.7``). Raises ValueError in one line."""
    hints = get_type_hints(options_class)
    if name not in hints:
        known = ", ".join(option_names(options_class)) or "none"
        raise ValueError(f"unknown option {name!r}; known: {known}")
    kind = _without_none(hints[name])
    if value is None or not isinstance(value, str):
        return _typed(kind, value)
    try:
        return _parse_text(kind, value.strip())
    except ValueError:
        raise ValueError(f"option {name}: not a {_kind_name(kind)}: {value!r}") from None


def _without_none(kind: Any) -> Any:
    """``X`` for an optional ``X | None``."""
    arguments = [a for a in getattr(kind, "__args__", ()) if a is not type(None)]
    if isinstance(kind, types.UnionType) and len(arguments) == 1:
        return arguments[0]
    return kind


def _typed(kind: Any, value: Any) -> Any:
    origin = getattr(kind, "__origin__", None)
    if origin is frozenset and isinstance(value, (list, tuple, set, frozenset)):
        return frozenset(value)
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if origin is dict and isinstance(value, dict):
        return {str(k): float(v) for k, v in value.items()}
    return value


def _parse_text(kind: Any, text: str) -> Any:
    origin = getattr(kind, "__origin__", None)
    if kind is bool:
        if text.lower() in ("1", "true", "yes", "on"):
            return True
        if text.lower() in ("0", "false", "no", "off"):
            return False
        raise ValueError(text)
    if kind in (int, float):
        return kind(text)
    if origin is frozenset:
        return frozenset(part.strip() for part in text.split(",") if part.strip())
    if origin is dict:
        pairs = (part.split("=", 1) for part in text.split(",") if part.strip())
        return {key.strip(): float(number) for key, number in pairs}
    return text


def _kind_name(kind: Any) -> str:
    origin = getattr(kind, "__origin__", None)
    if origin is frozenset:
        return "comma-separated list"
    if origin is dict:
        return "list of key=number pairs"
    return getattr(kind, "__name__", str(kind))
