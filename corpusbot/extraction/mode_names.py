"""The extraction modes by name, and the check of one, without the algorithms.

Checking a step's options (the main process of ``warc`` and ``crawl``, every
``--help``) needs the names only; ``corpusbot.extraction.modes`` maps them to
the algorithms, whose import costs a fresh process about 0.06 s.
"""

from __future__ import annotations

MODE_DEFAULT = "default"

MODE_NAMES = ("default", "justext", "boilerpipe", "precise", "web2text")
"""The keys of ``corpusbot.extraction.modes.MODES``, in its order."""


def check_mode(mode: str) -> None:
    """Raise ValueError naming the known modes when ``mode`` is not one: the one check of a
    mode, for the API, the Processor's options and the datatrove step."""
    if mode not in MODE_NAMES:
        raise ValueError(f"unknown extraction mode {mode!r}; known: {', '.join(MODE_NAMES)}")
