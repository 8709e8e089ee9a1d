"""Scrapy's item log lines, short: a page item is a URL and sizes, not its HTML.

Scrapy logs every scraped item at DEBUG ("Scraped from <200 url>") and
every dropped one, with the item's ``repr``: for a dict item with the raw
page under ``body`` and a ``result`` carrying a MinHash signature, that is
tens of kilobytes a page. ``ShortItems`` logs each long field as its size
instead. The add-on sets it as ``LOG_FORMATTER``; without the add-on the
process pipeline puts it in place of Scrapy's default formatter (never of a
project's own).
"""

from __future__ import annotations

from typing import Any

from itemadapter import ItemAdapter, is_item
from scrapy.logformatter import LogFormatter, LogFormatterResult

FIELD_CHARS = 200
"""A text field longer than this is logged as its length."""
LINE_CHARS = 1000
"""An item whose repr is no longer than this is logged as it is."""


def short(item: Any) -> str:
    """The item in one short line: its repr when short (a PageItem's), else with long text
    and bytes fields as their sizes."""
    text = repr(item)
    if len(text) <= LINE_CHARS or not is_item(item):
        return text
    fields = {name: _field(value) for name, value in ItemAdapter(item).items()}
    return "{" + ", ".join(f"{name!r}: {value}" for name, value in fields.items()) + "}"


def _field(value: Any) -> str:
    if isinstance(value, bytes) and len(value) > FIELD_CHARS:
        return f"<{len(value)} bytes>"
    if isinstance(value, str) and len(value) > FIELD_CHARS:
        return f"<{len(value)} characters>"
    return repr(value)


class ShortItems(LogFormatter):
    """Scrapy's LogFormatter with items shortened by ``short``."""

    def scraped(self, item: Any, *args: Any, **kwargs: Any) -> LogFormatterResult:
        return _shortened(super().scraped(item, *args, **kwargs), item)

    def dropped(self, item: Any, *args: Any, **kwargs: Any) -> LogFormatterResult:
        return _shortened(super().dropped(item, *args, **kwargs), item)

    def item_error(self, item: Any, *args: Any, **kwargs: Any) -> LogFormatterResult:
        return _shortened(super().item_error(item, *args, **kwargs), item)


def _shortened(entry: LogFormatterResult, item: Any) -> LogFormatterResult:
    arguments = entry.get("args")
    if isinstance(arguments, dict) and "item" in arguments:
        entry["args"] = {**arguments, "item": short(item)}
    return entry
