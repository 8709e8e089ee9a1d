"""CPU seconds of ``Processor.process`` on the first pages of an archive, best of three, to
compare two trees of corpusbot in one run on one core:

    python benchmarks/warc.py copies /tmp/copies.warc.gz
    for tree in /path/to/before /path/to/after; do
        PYTHONPATH=$tree taskset -c 0 python benchmarks/processor_ab.py /tmp/copies.warc.gz
    done

Process CPU time (not wall time), so a busy machine moves it little; the page
list is read before timing, and the Processor warmed up, so only processing is
counted.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from warcio.archiveiterator import ArchiveIterator

from corpusbot.page import Page
from corpusbot.processor import Processor


def pages(path: Path, limit: int) -> list[Page]:
    """The first ``limit`` responses of the archive as Pages."""
    found: list[Page] = []
    with path.open("rb") as file:
        for record in ArchiveIterator(file):
            if record.rec_type == "response":
                found.append(Page(url=record.rec_headers.get_header("WARC-Target-URI"),
                                  body=record.content_stream().read(),
                                  headers={"Content-Type": "text/html"}))
            if len(found) >= limit:
                break
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("archive", type=Path)
    parser.add_argument("--pages", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    work = pages(args.archive, args.pages)
    processor = Processor()
    processor.warm_up()
    times = []
    for _ in range(args.repeat):
        start = time.process_time()
        for page in work:
            processor.process(page)
        times.append(time.process_time() - start)
    print(f"{len(work)} pages: best {min(times):.2f} s CPU, passes "
          f"{', '.join(f'{t:.2f}' for t in times)}")


if __name__ == "__main__":
    main()
