"""What each preset drops from real pages: the share of gold pages each rule drops, by page
type on wcxb-dev and by language on multilingual-dev (and on every set, overall).

    python benchmarks/quality_texts.py -o /tmp/quality-texts.jsonl
    python benchmarks/quality_drops.py /tmp/quality-texts.jsonl \
        -o benchmarks/quality-drops-results.json

The gold pages are pages a person judged to have main text worth keeping
(articles, forum threads, product and service pages ...), so a rule that
drops many of them in some page type or language is a finding. Each page
runs through the preset's steps as ``corpusbot filter`` runs them (the first
rule that drops it is counted); pages whose extraction was empty are not in
the texts and not counted.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from corpusbot.filters.registry import PRESETS
from corpusbot.page import Page
from corpusbot.processor import Processor, ProcessorOptions
from corpusbot.refilter import refilter

MIN_GROUP = 5
"""Groups (languages, page types) with fewer pages are pooled as "other"."""


def drops(records: list[dict], preset: str) -> dict[str, Any]:
    """Per group: pages, and the share each reason drops (the first rule that fires)."""
    processor = Processor(ProcessorOptions(preset=preset))
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for record in records:
        page = Page(url=record.get("url") or "https://example.invalid/", body=b"")
        result = refilter(processor, record, page)
        reason = getattr(result, "reason", None)
        for group in _groups(record):
            counts[group]["pages"] += 1
            if reason:
                counts[group][reason] += 1
                counts[group]["dropped"] += 1
    return {group: _shares(c) for group, c in sorted(counts.items())}


def _groups(record: dict) -> list[str]:
    groups = ["all", f"set/{record['set']}"]
    if record["set"] == "wcxb-dev" and record.get("page_type"):
        groups.append(f"wcxb-dev/type/{record['page_type']}")
    if record["set"] == "multilingual-dev":
        groups.append(f"multilingual-dev/lang/{record.get('lang')}")
    return groups


def _shares(counts: Counter[str]) -> dict[str, Any]:
    pages = counts["pages"]
    return {"pages": pages, **{key: round(n / pages, 4) for key, n in counts.most_common()
                               if key != "pages"}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("texts", type=Path, help="a JSONL file from benchmarks/quality_texts.py")
    parser.add_argument("-o", "--output", type=Path)
    parser.add_argument("--presets", default=",".join(PRESETS))
    args = parser.parse_args(argv)
    with args.texts.open(encoding="utf-8") as lines:
        records = [json.loads(line) for line in lines]
    result = {preset: drops(records, preset) for preset in args.presets.split(",")}
    for preset, groups in result.items():
        overall = groups["all"]
        print(f"{preset:10} dropped {overall.get('dropped', 0):.1%} of {overall['pages']} pages")
    if args.output:
        args.output.write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
