"""The counts a corpus keeps, arranged for a reader: the funnel, dedup rates, crawled sites.

All of it comes from ``manifest.json`` (the committed counts of every run)
and, for a crawl, ``crawl-stats.json``; nothing here reads a record.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

DEDUP_LEVELS = ("url", "exact", "near", "paragraph")
"""The order a page meets the dedup levels (``corpusbot.dedup.options.LEVELS``)."""
SITE_COLUMNS = ("fetched", "kept", "refused", "failed")


@dataclass(slots=True, frozen=True)
class Stage:
    """One row of the funnel: a count, and whether it is a step down (a loss)."""

    name: str
    count: int
    loss: bool = False


def funnel(manifest: dict[str, Any], crawls: list[dict[str, Any]]) -> list[Stage]:
    """From what was read or fetched, through every skip and rejection, to what was kept."""
    stages: list[Stage] = []
    archive = manifest.get("archive", {})
    if "records" in archive:
        stages.append(Stage("archive records read", archive["records"]))
        stages += [Stage(f"skipped: {key.removeprefix('skipped/')}", count, True)
                   for key, count in sorted(archive.items()) if key.startswith("skipped/")]
    if crawls:
        stages.append(Stage("pages fetched (crawl)", _sum(crawls, "response_received_count")))
        stages.append(Stage("articles found (crawl)", _sum(crawls, "corpusbot/pages/article")))
    stages.append(Stage("pages processed", manifest.get("pages", 0)))
    rejections = manifest.get("rejections", {})
    # Quality rejections first, then dedup in the order its levels run.
    order = sorted(rejections, key=lambda r: (r.startswith("dedup/"), _level(r), r))
    stages += [Stage(f"rejected: {reason}", rejections[reason], True) for reason in order]
    stages.append(Stage("documents kept", manifest.get("documents", 0)))
    return stages


def dedup_rates(manifest: dict[str, Any]) -> list[tuple[str, int, int]]:
    """Per dedup level that dropped anything or ran: (level, entering, dropped)."""
    rejections = manifest.get("rejections", {})
    dropped = Counter({reason.split("/")[1]: count for reason, count in rejections.items()
                       if reason.startswith("dedup/")})
    quality = sum(c for r, c in rejections.items() if not r.startswith("dedup/"))
    levels = _levels_run(manifest) | set(dropped)
    rows, entering = [], manifest.get("pages", 0)
    for level in DEDUP_LEVELS:
        if level == "exact":  # the URL level runs before processing, the others after it
            entering -= quality
        if level in levels:
            rows.append((level, max(entering, 0), dropped[level]))
        entering -= dropped[level]
    return rows


def sites(crawls: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Per crawled site: pages fetched, articles kept, requests refused, fetches failed."""
    table: dict[str, dict[str, int]] = {}
    for stats in crawls:
        for key, value in stats.items():
            parts = key.split("/")
            if len(parts) == 4 and parts[:2] == ["corpusbot", "domain"] \
                    and parts[3] in SITE_COLUMNS and isinstance(value, int):
                row = table.setdefault(parts[2], dict.fromkeys(SITE_COLUMNS, 0))
                row[parts[3]] += value
    return dict(sorted(table.items(), key=lambda item: (-item[1]["fetched"], item[0])))


def runs(manifest: dict[str, Any]) -> list[dict[str, Any]]:
    """Every run into the corpus (the runs of each part, for a merged manifest)."""
    found = [dict(run, part="") for run in manifest.get("runs", [])]
    for part in manifest.get("parts", []):
        found += [dict(run, part=part.get("folder", "")) for run in part.get("runs", [])]
    return sorted(found, key=lambda run: (str(run.get("started")), run["part"]))


def _levels_run(manifest: dict[str, Any]) -> set[str]:
    """The dedup levels of the last run: the options of its ``fingerprints`` step."""
    processor = manifest.get("options", {}).get("processor") or {}
    for step in processor.get("steps", []) if isinstance(processor, dict) else []:
        if isinstance(step, dict) and step.get("step") == "fingerprints":
            levels = step.get("levels")
            return set(levels) if isinstance(levels, list) else set()
    return set()


def _level(reason: str) -> int:
    level = reason.split("/")[1] if reason.count("/") else ""
    return DEDUP_LEVELS.index(level) if level in DEDUP_LEVELS else -1


def _sum(crawls: list[dict[str, Any]], key: str) -> int:
    return sum(stats.get(key, 0) for stats in crawls if isinstance(stats.get(key, 0), int))
