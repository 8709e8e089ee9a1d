"""Extraction as the Processor's first step: the page's main text, title and language.

With ``metadata`` on, the page's declared metadata (``corpusbot.html.metadata``:
dates, authors, ...) is read from the extraction's own parse into the record's
``meta``. A page with no main text is dropped for the extraction's reason
(``extract/not-html``, ``extract/no-main-text``, ...).

The extraction is imported on the first page, not with this module: the main process of
``warc`` and ``crawl`` only builds the step to check its options (0.2 s of each start saved;
the workers' fork server preloads it, ``corpusbot.pool``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from corpusbot.extraction.mode_names import MODE_DEFAULT, check_mode
from corpusbot.steps import Drop, PageState, Step

UNKNOWN_LANGUAGE = "und"
"""ISO 639-2 "undetermined": the language of a text the detector could not place."""
MOJIBAKE_EDIT = "edit/extract/mojibake"
"""The edit counted for the mojibake the extraction undid: paragraphs and title repaired
(``/lines``), characters removed (``/chars``)."""


@dataclass(slots=True, frozen=True)
class ExtractOptions:
    """``mode``: the extraction mode; ``metadata``: read the page's declared metadata."""

    mode: str = MODE_DEFAULT
    metadata: bool = True

    def __post_init__(self) -> None:
        check_mode(self.mode)


class ExtractStep(Step):
    """Decode, parse and extract the page; identify its language."""

    name = "extract"
    Options = ExtractOptions
    reasons = ("extract/empty-input", "extract/not-html", "extract/unparseable",
               "extract/no-main-text", "extract/crash")
    summary = "the main text, title and language of the page (mode: see `corpusbot extract`)"

    def apply(self, state: PageState) -> Drop | None:
        from corpusbot.extraction.core import extract  # noqa: PLC0415  (see the docstring)

        page = state.page
        extraction = extract(page.body, url=page.url, headers=page.headers,
                             mode=self.options.mode, on_tree=self._reader(state))
        state.cuts = extraction.cuts
        state.extractor = extraction.mode
        if not extraction.text:
            return Drop(f"extract/{extraction.reason or 'empty'}")
        state.paragraphs = list(extraction.paragraphs)
        state.title = extraction.title
        state.lang = extraction.language or UNKNOWN_LANGUAGE
        state.lang_prob = extraction.language_probability
        state.lang_source = extraction.language_source
        if extraction.repaired_lines:
            state.count_edit(MOJIBAKE_EDIT, extraction.repaired_lines, extraction.repaired_chars)
        return None

    def _reader(self, state: PageState) -> Callable[[Any], None] | None:
        if not self.options.metadata:
            return None
        from corpusbot.html.metadata import extract_metadata  # noqa: PLC0415

        url = state.page.url
        return lambda root: state.meta.update(extract_metadata(root, url).declared())
