"""Presets: named lists of steps with their option overrides, as plain data.

Each preset is a list of ``(step name, overrides)`` in the order the steps
run; overrides are option values by name (``--set step.option=value`` on top
of them). "extract", "language" (the allow-list), "length", "nonletters" and
"fingerprints" are the core steps; the others are the quality steps of this
package.

- ``basic``: corpusbot's filters before the quality stage (length 50 words,
  at most 30 % non-letters).
- ``fineweb``: datatrove's ``examples/fineweb.py`` in its order and with its
  thresholds: URL lists (opt-in) -> extraction -> language with a minimum
  probability of 0.65 -> Gopher repetition -> Gopher quality -> C4 with the
  no-terminal-punctuation rule off -> FineWeb -> dedup fingerprints.
- ``fineweb-2``: FineWeb-2's language-independent changes (its pipeline
  file): Gopher repetition without the paragraph and line-character rules,
  FineWeb without the short-line rule and with a duplicated-line character
  ratio of 0.1, Gopher quality with each language's stop words, no C4, PII
  masked. Its per-language thresholds (one file per language) are not
  shipped: set them with ``--set``.
- ``gopher``: both Gopher rule sets with the paper's values.
- ``c4``: C4's rules with the paper's values (terminal punctuation on).
- ``none``: no filter at all, extraction and fingerprints only.
"""

from __future__ import annotations

from typing import Any

from corpusbot.quality.c4 import C4 as C4Step
from corpusbot.quality.fineweb import FineWeb
from corpusbot.quality.gopher_quality import GopherQuality
from corpusbot.quality.gopher_repetition import GopherRepetition
from corpusbot.quality.lang_confidence import LangConfidence
from corpusbot.quality.pii import Pii
from corpusbot.quality.urls import Urls

Preset = list[tuple[str, dict[str, Any]]]

BASIC: Preset = [("extract", {}), ("language", {}), ("length", {}), ("nonletters", {}),
                 ("fingerprints", {})]
FINEWEB: Preset = [
    ("urls", {}),
    ("extract", {}),
    ("language", {}),
    ("lang_confidence", {"min_lang_prob": 0.65}),
    ("gopher_repetition", {}),
    ("gopher_quality", {}),
    ("c4", {"filter_no_terminal_punct": False}),
    ("fineweb", {}),
    ("fingerprints", {}),
]
FINEWEB_2: Preset = [
    ("urls", {}),
    ("extract", {}),
    ("language", {}),
    ("lang_confidence", {"min_lang_prob": 0.65}),
    ("gopher_repetition", {"dup_para_frac": 0.0, "dup_line_char_frac": 0.0,
                           "dup_para_char_frac": 0.0}),
    ("fineweb", {"short_line_thr": 0.0, "char_duplicates_ratio": 0.1}),
    ("gopher_quality", {}),
    ("pii", {"mode": "mask"}),
    ("fingerprints", {}),
]
GOPHER: Preset = [("extract", {}), ("language", {}), ("gopher_repetition", {}),
                  ("gopher_quality", {}), ("fingerprints", {})]
C4: Preset = [("extract", {}), ("language", {}), ("c4", {}), ("fingerprints", {})]
NONE: Preset = [("extract", {}), ("language", {}), ("fingerprints", {})]

PRESETS: dict[str, Preset] = {
    "basic": BASIC,
    "fineweb": FINEWEB,
    "fineweb-2": FINEWEB_2,
    "gopher": GOPHER,
    "c4": C4,
    "none": NONE,
}
"""Preset name -> its steps; the lead's registry merges these with its own."""

QUALITY_STEPS = ("urls", "lang_confidence", "gopher_repetition", "gopher_quality", "c4",
                 "fineweb", "pii")
"""The steps of this package, by registered name."""


def step_classes() -> dict[str, type]:
    """Registered name -> class of every step of this package."""

    classes = (Urls, LangConfidence, GopherRepetition, GopherQuality, C4Step, FineWeb, Pii)
    return {cls.name: cls for cls in classes}
