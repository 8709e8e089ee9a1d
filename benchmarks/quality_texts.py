"""The texts the quality benchmarks judge: corpusbot's extraction (default mode) of every gold
page of ../shared/bench and of every HTML record of the sample WARC, one JSON line each.

    python benchmarks/quality_texts.py -o /tmp/quality-texts.jsonl

Each line: ``set``, ``key``, ``url``, ``page_type`` (wcxb-dev), ``lang``, ``lang_prob``,
``text``; pages with no text are left out. Cached in a file because extraction of the
1,969 gold pages takes about a minute, and every comparison reads the same texts.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT.parent / "shared" / "bench"
SETS = ("scrapinghub", "multilingual-dev", "wcxb-dev")
SAMPLE = ROOT / "sample" / "sample.warc.gz"


def gold_texts(sets: tuple[str, ...] = SETS) -> Iterator[dict]:
    """One record per gold page with a non-empty extraction."""
    from corpusbot import extract
    from corpusbot.eval.goldsets import load_gold

    for name in sets:
        for page in load_gold(BENCH / name).pages:
            result = extract(page.html, url=page.url)
            if result.text:
                yield {"set": name, "key": page.key, "url": page.url,
                       "page_type": page.page_type, "lang": result.language,
                       "lang_prob": result.language_probability, "text": result.text}


def sample_texts(path: Path = SAMPLE) -> Iterator[dict]:
    """One record per HTML page of the sample WARC with a non-empty extraction."""
    from corpusbot import extract
    from corpusbot.archive.reader import ArchiveReader

    for record in ArchiveReader().read(path):
        page = record.page
        if page is None:
            continue
        result = extract(page.body, url=page.url, headers=page.headers)
        if result.text:
            yield {"set": "sample", "key": f"{record.start}", "url": page.url,
                   "page_type": None, "lang": result.language,
                   "lang_prob": result.language_probability, "text": result.text}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", type=Path, required=True)
    args = parser.parse_args(argv)
    count = 0
    with args.output.open("w", encoding="utf-8") as out:
        for record in (*gold_texts(), *sample_texts()):
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
            count += 1
    print(f"{count} texts in {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
