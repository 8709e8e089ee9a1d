"""Dates as pages, feeds and sitemaps write them, turned into one comparable form.

Sitemaps and JSON-LD use ISO 8601 (often with ``Z`` or a bare date), RSS
uses RFC 2822. Everything becomes an ISO 8601 string in UTC, so that "has
this changed since we stored it?" is a plain string comparison.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

# ISO 8601 with a few common sloppinesses: "2024-05-01 10:00:00", "Z" suffix,
# fractional seconds of any length, a "+0200" offset without colon.
_ISO = re.compile(
    r"^\s*(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?"
    r"\s*(Z|[+-]\d{2}:?\d{2})?)?"
)


def parse_date(text: str | None) -> datetime | None:
    """Parse an ISO 8601 or RFC 2822 date; None when it is neither.

    A date without a time zone is taken as UTC, which is what sitemaps
    without an offset mean in practice.
    """
    if not text:
        return None
    parsed = _parse_iso(text) or _parse_rfc2822(text)
    if parsed is None:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def iso_utc(text: str | None) -> str | None:
    """The date in ``text`` as ``YYYY-MM-DDTHH:MM:SSZ``, or None."""
    parsed = parse_date(text)
    if parsed is None:
        return None
    return parsed.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _parse_iso(text: str) -> datetime | None:
    match = _ISO.match(text)
    if not match:
        return None
    year, month, day, hour, minute, second, zone = match.groups()
    try:
        stamp = datetime(int(year), int(month), int(day), int(hour or 0), int(minute or 0),
                         int(second or 0))
    except ValueError:
        return None
    if zone is None:
        return stamp
    try:
        return datetime.fromisoformat(stamp.isoformat() + _colon_zone(zone))
    except ValueError:  # \d also matches non-ASCII digits (Bengali ones), which no offset has
        return None


def _colon_zone(zone: str) -> str:
    if zone == "Z":
        return "+00:00"
    return zone if ":" in zone else f"{zone[:3]}:{zone[3:]}"


def _parse_rfc2822(text: str) -> datetime | None:
    try:
        return parsedate_to_datetime(text.strip())
    except (TypeError, ValueError, IndexError):
        return None
