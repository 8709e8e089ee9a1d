"""The public extraction call: HTML in, main text out, never an exception."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(slots=True, frozen=True)
class Extraction:
    """The main text of one page.

    ``text`` joins ``paragraphs`` with blank lines. An empty extraction
    carries the ``reason`` it is empty (``"empty-input"``, ``"not-html"``,
    ``"no-main-text"``, ``"crash"`` …).
    """

    text: str
    paragraphs: tuple[str, ...]
    title: str | None
    language: str | None
    language_probability: float
    mode: str
    encoding: str | None = None
    reason: str | None = None


def extract(
    html: bytes | str,
    *,
    url: str | None = None,
    headers: Mapping[str, str] | None = None,
    lang: str | None = None,
    mode: str = "default",
) -> Extraction:
    """Extract the main text of one page (placeholder until the core lands)."""
    raise NotImplementedError


def extract_text(html: bytes | str, **kwargs: object) -> str:
    """The same call as ``extract``, returning only the text."""
    return extract(html, **kwargs).text  # type: ignore[arg-type]
