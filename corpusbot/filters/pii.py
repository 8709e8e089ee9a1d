"""Personal data masked: e-mail and IP addresses replaced, as FineWeb-2 and HPLT v2 do.

Each e-mail address becomes ``email_replacement`` and each IPv4 or IPv6
address ``ip_replacement``; the replacements are counted as
``edit/pii/<email|ip>/addresses`` and ``.../chars`` (characters replaced).
Fixed replacements rather than FineWeb-2's random ones, so that the output
and the dedup fingerprints depend only on the input. ``mode`` "off" keeps
the text as it is; the step never drops a page.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass

from corpusbot.steps import PageState, Step

NAME = "pii"
MODES = ("mask", "off")
EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]+@(?:[^\W_](?:[\w-]*[^\W_])?\.)+[^\W\d_]{2,}(?![\w-])")
# Candidates; ipaddress decides (an octet above 255 or a version number like 1.2.3.4.5 is none).
IPV4 = re.compile(r"(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?![\w]|\.\d)")
IPV6 = re.compile(r"(?<![\w:])[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}(?![\w:])")
# An IPv6 candidate needs this many non-empty groups: "a::b" in code is no address.
IPV6_MIN_GROUPS = 3


@dataclass(slots=True, frozen=True)
class PiiOptions:
    """What to do with e-mail and IP addresses: mask them by default."""

    mode: str = "mask"
    email_replacement: str = "email@example.com"
    ip_replacement: str = "192.0.2.1"
    """An address of TEST-NET-1 (RFC 5737), which no real host has."""

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"{NAME}.mode must be one of {', '.join(MODES)}, got {self.mode!r}")


class Pii(Step):
    """Replaces e-mail and IP addresses in the text."""

    name = NAME
    Options = PiiOptions
    reasons = ()
    edits = (f"edit/{NAME}/email", f"edit/{NAME}/ip")
    summary = "PII: e-mail and IP addresses masked"

    def apply(self, state: PageState) -> None:
        if self.options.mode == "off":
            return None
        masked = [self._mask(paragraph, state) for paragraph in state.paragraphs]
        if masked != state.paragraphs:
            state.set_paragraphs(masked)
        return None

    def _mask(self, text: str, state: PageState) -> str:
        o = self.options
        text = _replace(EMAIL, text, o.email_replacement, state, "email")
        for pattern in (IPV4, IPV6):
            text = _replace(pattern, text, o.ip_replacement, state, "ip")
        return text


def _is_ip(candidate: str) -> bool:
    if ":" in candidate and sum(1 for group in candidate.split(":") if group) < IPV6_MIN_GROUPS:
        return False
    try:
        ipaddress.ip_address(candidate)
    except ValueError:
        return False
    return True


def _replace(pattern: re.Pattern[str], text: str, replacement: str, state: PageState,
             kind: str) -> str:
    if not pattern.search(text):
        return text

    def substitute(match: re.Match[str]) -> str:
        found = match.group(0)
        if found == replacement or (kind == "ip" and not _is_ip(found)):
            return found
        state.edits[f"edit/{NAME}/{kind}/addresses"] += 1
        state.edits[f"edit/{NAME}/{kind}/chars"] += len(found)
        return replacement

    return pattern.sub(substitute, text)
