"""The corpus report: one self-contained HTML page with plots, read from a corpus folder.

    from corpusbot.report import write_report
    write_report(Path("out"))          # -> out/report.html

One streaming pass over the shards (``records.read_shard``) fills fixed-size
histograms and a seeded reservoir of sample documents (``tally``); the
manifest and crawl stats give the funnel, dedup rates, sites and runs
(``funnel``); ``page`` lays it all out with matplotlib charts (``charts``).
Memory stays bounded whatever the corpus size.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from corpusbot.report.records import read_crawl_stats, read_manifest, read_shard, shards
from corpusbot.report.tally import Tally

logger = logging.getLogger(__name__)

REPORT_FILE = "report.html"


def write_report(folder: Path, target: Path | None = None, samples: int = 3,
                 seed: int = 1) -> Path:
    """Write the report of the corpus in ``folder`` (default ``folder/report.html``)."""
    from corpusbot.report.page import render  # matplotlib: imported only when drawing  # noqa: PLC0415

    manifest = read_manifest(folder)
    tally = Tally(samples_per_language=samples, seed=seed)
    for shard in shards(folder, manifest):
        for record in read_shard(shard):
            tally.add(shard.lang, record)
    html = render(str(folder), manifest, read_crawl_stats(folder), tally)
    target = target or folder / REPORT_FILE
    temporary = target.with_name(target.name + ".tmp")
    temporary.write_text(html, encoding="utf-8")
    os.replace(temporary, target)
    return target
