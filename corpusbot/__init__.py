"""corpusbot: clean, deduplicated, per-language text corpora from the web."""

__version__ = "0.1.0"

from corpusbot.extraction.core import Extraction, extract, extract_text

__all__ = ["Extraction", "__version__", "extract", "extract_text"]
