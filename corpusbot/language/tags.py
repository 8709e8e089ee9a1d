"""Language tags: BCP 47-ish tags as pages and servers declare them, reduced to the
ISO 639 codes that the detector's profiles and the stop-word lists use."""

from __future__ import annotations

import re
from collections.abc import Iterable

# Deprecated or macro-language tags -> the code langdetect and the stop lists use.
ALIASES = {"iw": "he", "in": "id", "ji": "yi", "jw": "jv", "mo": "ro", "fil": "tl"}
# Codes that name no language (BCP 47 / ISO 639 special values).
NOT_LANGUAGES = frozenset({"und", "mul", "zxx", "mis", "xx"})
_PRIMARY_RE = re.compile(r"[a-z]{2,3}")

def normalize_tag(tag: str | None) -> str | None:
    """The language code of a BCP 47-ish tag ("de-DE", "zh_CN", "iw"), or None if it names none.

    Only the primary subtag is kept: regions and scripts do not change which
    detector profile or stop list applies.
    """
    if not tag:
        return None
    primary = tag.strip().lower().replace("_", "-").split("-", 1)[0]
    if not _PRIMARY_RE.fullmatch(primary) or primary in NOT_LANGUAGES:
        return None
    return ALIASES.get(primary, primary)


def parse_hints(hints: Iterable[str | None]) -> list[str]:
    """Valid codes named by hints, first seen first; a hint may list several ("en, fr")."""
    codes: list[str] = []
    for hint in hints:
        for part in (hint or "").split(","):
            code = normalize_tag(part.split(";", 1)[0])
            if code and code not in codes:
                codes.append(code)
    return codes
