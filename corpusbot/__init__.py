"""corpusbot: clean, deduplicated, per-language text corpora from the web.

The extraction names load on first use, so that importing a submodule (the
corpus merge, the CLI's parser) does not pay for lxml and the language
detector.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from corpusbot.extraction.core import Extraction, extract, extract_text

_LAZY = {"Extraction": "corpusbot.extraction.core", "extract": "corpusbot.extraction.core",
         "extract_text": "corpusbot.extraction.core"}

__all__ = ["Extraction", "__version__", "extract", "extract_text"]


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'corpusbot' has no attribute {name!r}")
    value = getattr(importlib.import_module(_LAZY[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
