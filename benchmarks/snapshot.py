"""A digest of every mode's full ``extract()`` output on every gold page, to prove a change
left outputs unchanged (or to list the pages where it did not).

    python benchmarks/snapshot.py -o before.json            # on the commit before a change
    python benchmarks/snapshot.py -o after.json --against before.json

Each page's entry is a SHA-256 over the Extraction's fields (text, paragraphs,
title, language, its probability, reason, mode, cuts, encoding).
``--against`` prints every (mode, set, page) whose digest differs and exits 1
when any does. The corpora of ``corpusbot warc`` are compared by their record
files instead (``diff`` of the decompressed shards).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "shared" / "bench"
SETS = ("scrapinghub", "multilingual-dev", "wcxb-dev")


def digest(extraction: object) -> str:
    """One page's output as a short hash over every public field of the Extraction."""
    fields = {name: getattr(extraction, name, None) for name in (
        "text", "paragraphs", "title", "language", "language_probability", "reason", "mode",
        "cuts", "encoding")}
    fields["language_probability"] = round(fields["language_probability"] or 0.0, 6)
    encoded = json.dumps(fields, sort_keys=True, default=repr, ensure_ascii=False)
    return hashlib.sha256(encoded.encode()).hexdigest()[:16]


def snapshot(modes: list[str], sets: list[str]) -> dict[str, str]:
    """``mode/set/page`` -> digest of the page's extraction."""
    from corpusbot import extract
    from corpusbot.eval.goldsets import load_gold

    out: dict[str, str] = {}
    for name in sets:
        gold = load_gold(BENCH / name)
        for page in gold.pages:
            for mode in modes:
                out[f"{mode}/{name}/{page.key}"] = digest(extract(page.html, url=page.url,
                                                                  mode=mode))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", type=Path, required=True)
    parser.add_argument("--against", type=Path, help="an earlier snapshot to compare with")
    parser.add_argument("--modes", default="default,justext,boilerpipe,precise,web2text")
    parser.add_argument("--sets", default=",".join(SETS))
    args = parser.parse_args(argv)
    result = snapshot(args.modes.split(","), args.sets.split(","))
    args.output.write_text(json.dumps(result, indent=0, sort_keys=True))
    print(f"{len(result)} page outputs in {args.output}")
    if args.against is None:
        return 0
    before = json.loads(args.against.read_text())
    changed = sorted(k for k in before.keys() | result.keys() if before.get(k) != result.get(k))
    for key in changed[:50]:
        print("changed:", key)
    print(f"{len(changed)} of {len(before)} outputs differ")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
