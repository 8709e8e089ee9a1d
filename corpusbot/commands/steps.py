"""The processing steps on the command line: a preset, its overrides, and the shortcut flags.

Every command that runs the Processor (``warc``, ``filter``) adds these
options and builds its ``ProcessorOptions`` here, so that a step's options
reach every command through ``--set step.option=value`` without touching it.
"""

from __future__ import annotations

import argparse

from corpusbot.extraction.mode_names import MODE_NAMES
from corpusbot.filters.registry import (
    PRESET_DEFAULT,
    PRESETS,
    STEPS,
    describe_presets,
    overrides_from,
    parse_assignments,
)
from corpusbot.fingerprints.options import DedupOptions
from corpusbot.processor import ProcessorOptions


def add_step_options(parser: argparse.ArgumentParser, extraction: bool = True) -> None:
    """``--preset``, ``--set`` and the shortcut flags of the most used step options (those of
    the extraction step only where pages are extracted)."""
    parser.add_argument("--preset", choices=list(PRESETS), default=PRESET_DEFAULT,
                        help=f"the processing steps (default: {PRESET_DEFAULT}): "
                        f"{describe_presets()}")
    parser.add_argument("--set", action="append", default=[], metavar="STEP.OPTION=VALUE",
                        dest="overrides", help="change one option of one step of the preset, "
                        f"e.g. length.min_words=30 (repeatable); steps: {', '.join(STEPS)}")
    if extraction:
        parser.add_argument("--mode", choices=list(MODE_NAMES), default=None,
                            help="extraction mode, as --set extract.mode= (default: default)")
    parser.add_argument("--lang", action="append", default=[],
                        help="languages to keep, comma-separated ISO 639-1 codes, as --set "
                        "language.allowed= (default: all)")
    parser.add_argument("--min-words", type=int, default=None,
                        help="fewest words a kept document has, as --set length.min_words= "
                        "(default: the preset's, 50)")
    parser.add_argument("--max-nonletter-ratio", type=float, default=None,
                        help="largest share of non-letter characters in a kept text, as --set "
                        "nonletters.max_ratio= (default: the preset's, 0.3)")
    if extraction:
        parser.add_argument("--no-metadata", dest="metadata", action="store_const",
                            const=False, default=None, help="leave out what pages declare "
                            "about themselves (meta: dates, authors); saves about a sixth of "
                            "the processing")


def processor_options(args: argparse.Namespace, dedup: DedupOptions) -> ProcessorOptions:
    """The ``ProcessorOptions`` the flags describe; ValueError in one line when refused."""
    languages = ",".join(x.strip() for v in args.lang for x in v.split(",") if x.strip())
    shortcuts = {"mode": getattr(args, "mode", None), "metadata": getattr(args, "metadata", None),
                 "languages": languages or None,
                 "min_words": args.min_words, "max_nonletter_ratio": args.max_nonletter_ratio}
    overrides = overrides_from(shortcuts, parse_assignments(args.overrides))
    return ProcessorOptions(preset=args.preset, overrides=overrides, dedup=dedup)
