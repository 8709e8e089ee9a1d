"""Every step by name, and the presets: named lists of steps with their settings.

Adding a step is its module plus one line in ``STEPS``; its options then
appear on every route that builds a Processor (``--set step.option=value`` on
the command line, ``CORPUSBOT_PROCESS_SET`` in a crawl, ``overrides`` in
Python, the datatrove adapter), since all of them go through ``build_steps``.
A preset lists its steps in the order they run, each with the options that
differ from the step's own defaults; a user's overrides apply on top.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from corpusbot.extraction.step import ExtractStep
from corpusbot.filters.basic import LanguageStep, LengthStep, NonLettersStep
from corpusbot.filters.c4 import C4
from corpusbot.filters.fineweb import FineWeb
from corpusbot.filters.fingerprints import FingerprintStep
from corpusbot.filters.gopher_quality import GopherQuality
from corpusbot.filters.gopher_repetition import GopherRepetition
from corpusbot.filters.lang_confidence import LangConfidence
from corpusbot.filters.pii import Pii
from corpusbot.filters.urls import Urls
from corpusbot.fingerprints.options import DedupOptions
from corpusbot.steps import Step, parse_option

STEPS: dict[str, type[Step]] = {step.name: step for step in (
    Urls,
    ExtractStep,
    LanguageStep,
    LangConfidence,
    LengthStep,
    NonLettersStep,
    GopherRepetition,
    GopherQuality,
    C4,
    FineWeb,
    Pii,
    FingerprintStep,
)}

PresetSteps = tuple[tuple[str, Mapping[str, Any]], ...]

PRESETS: dict[str, PresetSteps] = {
    # The first release's filters: at least 50 words, at most 30 % non-letters.
    "basic": (("extract", {}), ("language", {}), ("length", {}), ("nonletters", {}),
              ("fingerprints", {})),
    # datatrove's examples/fineweb.py in its order and with its thresholds: URL lists
    # (opt-in), extraction, language probability 0.65, Gopher repetition, Gopher quality,
    # C4 with the terminal-punctuation rule off, FineWeb's own filter.
    "fineweb": (("urls", {}), ("extract", {}), ("language", {}),
                ("lang_confidence", {"min_lang_prob": 0.65}), ("gopher_repetition", {}),
                ("gopher_quality", {}), ("c4", {"filter_no_terminal_punct": False}),
                ("fineweb", {}), ("fingerprints", {})),
    # FineWeb-2's language-independent changes: no paragraph or line-character repetition
    # rules, no short-line rule, duplicated-line characters 0.1, no C4, PII masked (its
    # per-language threshold files are not shipped: set them with --set).
    "fineweb-2": (("urls", {}), ("extract", {}), ("language", {}),
                  ("lang_confidence", {"min_lang_prob": 0.65}),
                  ("gopher_repetition", {"dup_para_frac": 0.0, "dup_line_char_frac": 0.0,
                                         "dup_para_char_frac": 0.0}),
                  ("fineweb", {"short_line_thr": 0.0, "char_duplicates_ratio": 0.1}),
                  ("gopher_quality", {}), ("pii", {"mode": "mask"}), ("fingerprints", {})),
    # Both Gopher rule sets with the paper's values (Rae et al. 2021).
    "gopher": (("extract", {}), ("language", {}), ("gopher_repetition", {}),
               ("gopher_quality", {}), ("fingerprints", {})),
    # C4's rules with the paper's values (Raffel et al. 2020), terminal punctuation on.
    "c4": (("extract", {}), ("language", {}), ("c4", {}), ("fingerprints", {})),
    # Extraction, the language allow-list and dedup only: no quality filter.
    "none": (("extract", {}), ("language", {}), ("fingerprints", {})),
}
PRESET_DEFAULT = "basic"
"""Today's behaviour, until a quality preset is measured better on the gold pages."""
EXTRACT, LAST = "extract", "fingerprints"
"""Every preset extracts (after any step that needs only the URL) and ends by
fingerprinting the final text."""


def build_steps(preset: str, overrides: Mapping[str, Any],
                dedup: DedupOptions) -> list[Step]:
    """The steps of ``preset`` with ``overrides`` (``"step.option" -> value``) applied.

    Raises ValueError in one line for an unknown preset, step or option, a
    step the preset does not run, or a bad value.
    """
    if preset not in PRESETS:
        raise ValueError(f"unknown preset {preset!r}; known: {', '.join(PRESETS)}")
    names = [name for name, _ in PRESETS[preset]]
    grouped = _group(overrides, preset, names)
    return [_make(name, {**settings, **grouped.get(name, {})}, dedup)
            for name, settings in PRESETS[preset]]


def _group(overrides: Mapping[str, Any], preset: str,
           names: list[str]) -> dict[str, dict[str, Any]]:
    grouped: dict[str, dict[str, Any]] = {}
    for key, value in overrides.items():
        step, dot, option = key.partition(".")
        if not dot or not option:
            raise ValueError(f"override {key!r}: write step.option=value "
                             "(e.g. length.min_words=30)")
        if step not in STEPS:
            raise ValueError(f"unknown step {step!r}; known: {', '.join(STEPS)}")
        if step not in names:
            raise ValueError(f"step {step!r} is not in preset {preset!r} "
                             f"(its steps: {', '.join(names)})")
        if step == LAST:
            raise ValueError("set the dedup fingerprints with the dedup options "
                             "(--dedup-levels, --near-threshold), not as a step override")
        try:
            grouped.setdefault(step, {})[option] = parse_option(STEPS[step].Options, option,
                                                                value)
        except ValueError as error:
            raise ValueError(f"step {step}: {error}") from None
    return grouped


def _make(name: str, settings: dict[str, Any], dedup: DedupOptions) -> Step:
    step = STEPS[name]
    if step is FingerprintStep:
        return step(dedup)
    try:
        return step(step.Options(**settings))
    except (TypeError, ValueError) as error:
        raise ValueError(f"step {name}: {error}") from None


def describe_presets() -> str:
    """One line per preset: its name and its steps in order (for ``--help``)."""
    return "; ".join(f"{name}: {' > '.join(step for step, _ in steps)}"
                     for name, steps in PRESETS.items())


SHORTCUTS = {
    "mode": "extract.mode",
    "metadata": "extract.metadata",
    "languages": "language.allowed",
    "min_words": "length.min_words",
    "max_nonletter_ratio": "nonletters.max_ratio",
}
"""The step options that have their own flag (``--mode``, ``--lang``, ``--min-words``...)
and crawl setting (``CORPUSBOT_PROCESS_MODE``...): each is the same override as
``--set <step.option>``. A shortcut left at None keeps the preset's value."""


def overrides_from(shortcuts: Mapping[str, Any],
                   more: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The overrides of the shortcuts given (not None), then ``more`` (``step.option``)."""
    found = {SHORTCUTS[name]: value for name, value in shortcuts.items() if value is not None}
    return {**found, **(more or {})}


def parse_assignments(texts: list[str]) -> dict[str, str]:
    """``["length.min_words=30", ...]`` as overrides; ValueError for a text without ``=``."""
    out = {}
    for text in texts:
        key, equals, value = text.partition("=")
        if not equals:
            raise ValueError(f"--set {text!r}: write step.option=value (e.g. "
                             "length.min_words=30)")
        out[key.strip()] = value.strip()
    return out
