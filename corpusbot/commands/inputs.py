"""What the commands tell the user about their inputs and about a run that kept nothing.

An input that is not an archive at all (a README renamed ``.warc``, an
HTML page; ``corpusbot.archive.sniff`` tells) is named in a warning and left
out, rather than counted among damaged records where nobody would look. A run
that keeps nothing says the reason that refused most pages: a filter and the
option that sets it, or duplicates, which are no mistake when a run reads again
what an earlier one kept.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path

from corpusbot.archive.sniff import not_an_archive

log = logging.getLogger(__name__)

FILTER_OPTIONS = {
    "filter/language": "--lang (CORPUSBOT_PROCESS_LANGUAGES)",
    "filter/too-short": "--min-words (CORPUSBOT_PROCESS_MIN_WORDS)",
    "filter/non-letters": "--max-nonletter-ratio (CORPUSBOT_PROCESS_MAX_NONLETTER_RATIO)",
}
"""The option that sets each filter, named when that filter kept nothing."""


def archives_only(paths: list[Path]) -> tuple[list[Path], list[Path]]:
    """``paths`` split into archives and the others, each other named in a warning."""
    kept, refused = [], []
    for path in paths:
        try:
            reason = not_an_archive(path)
        except OSError as error:
            reason = f"it cannot be read: {error.strerror or error}"
        if reason:
            log.warning("%s is not an archive (%s): skipped", path, reason)
            refused.append(path)
        else:
            kept.append(path)
    return kept, refused


def warn_if_filtered_out(pages: int, kept: int, rejected: Mapping[str, int]) -> None:
    """A warning naming the reason that refused the most pages, when no page was kept: a
    filter with the option that sets it, or duplicates, which a rerun over pages an
    earlier run kept rightly finds."""
    refused = {reason: count for reason, count in rejected.items() if count}
    if kept or not pages or not refused:
        return
    reason, count = max(refused.items(), key=lambda item: item[1])
    others = ", ".join(f"{r} {n}" for r, n in sorted(refused.items(), key=lambda i: -i[1])
                       if r != reason)
    rest = f" (the others: {others})" if others else ""
    if reason.startswith("dedup/"):
        log.warning("no page kept: %s refused %d of %d pages%s: they duplicate pages the "
                    "corpus or its dedup index already holds, as when a run reads again what "
                    "an earlier run kept; that is no mistake", reason, count, pages, rest)
        return
    option = FILTER_OPTIONS.get(reason, "the filter options")
    log.warning("no page kept: %s refused %d of %d pages%s; check %s", reason, count, pages,
                rest, option)
