"""Page metadata (title, author, date) against the WCXB gold, beside trafilatura.

WCXB gives each page's ``title``, ``author`` and ``publish_date``. For every
page this reads corpusbot's ``extract().title`` (the headline the
extraction returns), ``corpusbot.html.metadata.extract_metadata`` (title,
authors, published) on the same parse, and trafilatura's
``extract_metadata`` (title, author, date), and counts per field:

- ``gold``: pages whose gold has the field; ``found``: of those, pages where
  the extractor gives a value; ``correct``: where that value matches;
- ``spurious``: pages whose gold has no value but the extractor gives one.

Matching: titles and authors compare case-folded with whitespace and
punctuation runs collapsed (an author matches when one of the extractor's
names equals, contains or is contained in the gold name); dates compare
their first ten characters (``YYYY-MM-DD``).

    python benchmarks/metadata.py                     # ../shared/bench/wcxb-dev
    python benchmarks/metadata.py --set path/to/wcxb --out metadata.json
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import re
import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from corpusbot import extract
from corpusbot.eval.scoring import GoldPage, load_gold
from corpusbot.html.metadata import extract_metadata

log = logging.getLogger("benchmarks.metadata")

REPO = Path(__file__).resolve().parents[1]
BENCH = Path(os.environ.get("CORPUSBOT_BENCH") or REPO.parent / "shared" / "bench")
DEFAULT_SET = BENCH / "wcxb-dev"
FIELDS = ("title", "author", "date")
_NOT_WORD = re.compile(r"[\W_]+")


@dataclass(slots=True)
class Tally:
    """Counts of one extractor on one field."""

    gold: int = 0
    found: int = 0
    correct: int = 0
    spurious: int = 0
    empty_gold: int = 0

    def add(self, gold: str | None, predicted: list[str], match: Callable) -> None:
        if not gold:
            self.empty_gold += 1
            self.spurious += bool(predicted)
            return
        self.gold += 1
        self.found += bool(predicted)
        self.correct += any(match(gold, p) for p in predicted)


@dataclass(slots=True)
class Results:
    """Tallies by extractor, then by field."""

    tallies: dict[str, dict[str, Tally]] = field(default_factory=dict)

    def tally(self, extractor: str, name: str) -> Tally:
        return self.tallies.setdefault(extractor, {}).setdefault(name, Tally())


def normalised(text: str) -> str:
    """Case-folded words joined by single spaces."""
    return " ".join(_NOT_WORD.sub(" ", text).casefold().split())


def same_text(gold: str, predicted: str) -> bool:
    return normalised(gold) == normalised(predicted)


def same_author(gold: str, predicted: str) -> bool:
    gold, predicted = normalised(gold), normalised(predicted)
    return bool(gold and predicted) and (gold in predicted or predicted in gold)


def same_day(gold: str, predicted: str) -> bool:
    return gold.strip()[:10] == predicted.strip()[:10]


MATCHERS = {"title": same_text, "author": same_author, "date": same_day}


def corpusbot_fields(page: GoldPage) -> dict[str, dict[str, list[str]]]:
    """corpusbot's headline and its declared metadata, from one parse."""
    found = []
    result = extract(page.html, url=page.url,
                     on_tree=lambda root: found.append(extract_metadata(root, page.url or "")))
    meta = found[0] if found else None
    return {
        "corpusbot extract().title": {"title": [result.title] if result.title else []},
        "corpusbot metadata": {
            "title": [meta.title] if meta and meta.title else [],
            "author": list(meta.authors) if meta else [],
            "date": [meta.published] if meta and meta.published else [],
        },
    }


def trafilatura_fields(page: GoldPage) -> dict[str, dict[str, list[str]]]:
    import trafilatura

    doc = trafilatura.extract_metadata(page.html, default_url=page.url)
    authors = [a.strip() for a in (doc.author or "").split(";") if a.strip()] if doc else []
    return {"trafilatura extract_metadata": {
        "title": [doc.title] if doc and doc.title else [],
        "author": authors,
        "date": [doc.date] if doc and doc.date else [],
    }}


def measure(pages: list[GoldPage], readers: list[Callable]) -> Results:
    results = Results()
    for page in pages:
        gold = {"title": page.meta.title, "author": page.meta.author, "date": page.meta.date}
        for reader in readers:
            try:
                fields = reader(page)
            except Exception as exc:  # a reference failing on one page counts as nothing found
                log.warning("%s failed on %s: %s", reader.__name__, page.key, exc)
                continue
            for extractor, values in fields.items():
                for name, predicted in values.items():
                    results.tally(extractor, name).add(gold[name], predicted, MATCHERS[name])
    return results


def markdown(results: Results) -> str:
    lines = [
        "| extractor | field | gold pages | found | correct | correct / gold"
        " | spurious / no-gold |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for extractor, fields in results.tallies.items():
        for name in FIELDS:
            t = fields.get(name)
            if t is None:
                continue
            share = t.correct / t.gold if t.gold else 0.0
            lines.append(f"| {extractor} | {name} | {t.gold} | {t.found} | {t.correct} | "
                         f"{share:.3f} | {t.spurious} / {t.empty_gold} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", type=Path, default=DEFAULT_SET, help="a WCXB-layout folder")
    parser.add_argument("--limit", type=int, default=None, help="first N pages only")
    parser.add_argument("--no-trafilatura", action="store_true", help="corpusbot only")
    parser.add_argument("--out", type=Path, default=None, help="write the counts as JSON here")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s", stream=sys.stderr)
    gold_set = load_gold(args.set, limit=args.limit)
    pages = [p for p in gold_set if p.meta is not None]
    if not pages:
        log.error("%s has no page metadata: a WCXB-layout folder is needed", args.set)
        return 1
    readers = [corpusbot_fields] + ([] if args.no_trafilatura else [trafilatura_fields])
    results = measure(pages, readers)
    print(markdown(results))
    if args.out:
        data = {e: {n: asdict(t) for n, t in f.items()} for e, f in results.tallies.items()}
        args.out.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
