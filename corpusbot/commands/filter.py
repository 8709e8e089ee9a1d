"""Run a preset's quality steps over an existing JSONL corpus into a new corpus.

    corpusbot filter OLD -o NEW --preset fineweb --set gopher_quality.min_doc_words=30

OLD is a corpus folder (its ``<lang>/*.jsonl[.gz|.zst]`` shards) or JSONL
files, corpusbot's or any with a ``text`` field (``url``, ``lang``,
``lang_prob``, ``title`` used when present). The output is a corpus like
``corpusbot warc`` writes (shards per language, dedup, manifest), so a
corpus can be refiltered without extracting it again. Presets: basic,
fineweb, fineweb-2, gopher, c4, none.
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import logging
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from corpusbot.commands.exitcodes import EXIT_FAILED, EXIT_OK, EXIT_USAGE
from corpusbot.commands.output import prepare_output
from corpusbot.commands.steps import add_step_options, processor_options
from corpusbot.corpus.sink import Corpus, CorpusBusyError, CorpusMismatchError, CorpusOptions
from corpusbot.dedup.backends import open_index
from corpusbot.document import reject
from corpusbot.filters.lang_confidence import min_lang_prob_overrides
from corpusbot.fingerprints.options import LEVELS, LEVELS_DEFAULT, DedupOptions
from corpusbot.page import Page
from corpusbot.processor import Processor, ProcessorOptions
from corpusbot.refilter import refilter

log = logging.getLogger(__name__)
COMMIT_RECORDS = 1000
BAD_JSON = "input/bad-json"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("inputs", nargs="+", metavar="IN", help="corpus folders or JSONL files")
    parser.add_argument("-o", "--output", required=True, type=Path, help="the new corpus folder")
    add_step_options(parser, extraction=False)
    parser.set_defaults(preset="fineweb")
    parser.add_argument("--min-lang-prob", metavar="P|LANG=P",
                        help="minimum language probability, overall (0.65) or per language "
                        "(de=0.8); both comma-separated; as --set lang_confidence....")
    levels = ",".join(sorted(LEVELS_DEFAULT))
    parser.add_argument("--dedup-levels", default=levels,
                        help=f"comma-separated, of {','.join(LEVELS)} (default: {levels})")
    parser.add_argument("--keep-rejects", action="store_true",
                        help="also write every record not kept, with its reason, to "
                        "OUT/rejects/<stage>/")
    parser.add_argument("-q", "--quiet", action="store_true", help="no summary")


def run(args: argparse.Namespace) -> int:
    try:
        processor = Processor(_options(args))
    except ValueError as error:
        log.error("%s", error)
        return EXIT_USAGE
    files = list(_input_files(args.inputs, args.output))
    if not files:
        log.error("no JSONL input found in %s", ", ".join(args.inputs))
        return EXIT_FAILED
    try:
        prepare_output(args.output)
        described = processor.options.describe()
        corpus = Corpus(args.output, CorpusOptions(keep_rejects=args.keep_rejects),
                        {"source": "records", "processor": described},
                        index=open_index("", processor.options.dedup),
                        recipe={"processor": described})
        stats = _refilter(files, processor, corpus)
    except (CorpusBusyError, CorpusMismatchError, OSError) as error:
        log.error("%s", error)
        return EXIT_FAILED
    if not args.quiet:
        print(_summary(stats, args.output))
    return EXIT_OK


def _options(args: argparse.Namespace) -> ProcessorOptions:
    """The Processor's options as ``corpusbot warc`` builds them, plus --min-lang-prob."""
    if args.min_lang_prob:
        args.overrides += [f"lang_confidence.{option}={_text(value)}" for option, value
                           in min_lang_prob_overrides(args.min_lang_prob).items()]
    levels = frozenset(x.strip() for x in args.dedup_levels.split(",") if x.strip())
    return processor_options(args, DedupOptions(levels=levels))


def _text(value: object) -> str:
    if isinstance(value, dict):
        return ",".join(f"{key}={number}" for key, number in value.items())
    return str(value)


def _input_files(inputs: list[str], output: Path) -> Iterator[Path]:
    """The JSONL files of each input: the file itself, or a folder's shards (not OUT's)."""
    for name in inputs:
        path = Path(name)
        if path.is_dir():
            shards = (p for p in sorted(path.rglob("*.jsonl*")) if not p.name.endswith(".part"))
            yield from (p for p in shards if output.resolve() not in p.resolve().parents)
        elif path.is_file():
            yield path
        else:
            log.error("no such input: %s", name)


def _open(path: Path) -> IO[str]:
    if path.suffix == ".gz":
        return io.TextIOWrapper(gzip.open(path), encoding="utf-8", errors="replace")
    if path.suffix == ".zst":
        import zstandard  # noqa: PLC0415  (optional: corpusbot[zstd])

        raw = zstandard.ZstdDecompressor().stream_reader(path.open("rb"))
        return io.TextIOWrapper(raw, encoding="utf-8", errors="replace")
    return path.open(encoding="utf-8", errors="replace")


def _refilter(files: list[Path], processor: Processor, corpus: Corpus) -> Counter[str]:
    with corpus:
        for path in files:
            with _open(path) as lines:
                for number, line in enumerate(lines, 1):
                    _one(line, number, path, processor, corpus)
                    if number % COMMIT_RECORDS == 0:
                        corpus.commit()
        return corpus.stats


def _one(line: str, number: int, path: Path, processor: Processor, corpus: Corpus) -> None:
    try:
        record = json.loads(line)
    except ValueError:
        record = None
    url = record.get("url") if isinstance(record, dict) else None
    page = Page(url=url if isinstance(url, str) and url else f"file://{path.resolve()}#{number}",
                body=b"", source=str(path), offset=number,
                record_id=record.get("id") if isinstance(record, dict) else None)
    if record is None:
        corpus.add(reject(page, BAD_JSON))
        return
    corpus.add(refilter(processor, record, page))


def _summary(stats: Counter[str], output: Path) -> str:
    rows = [f"records read    {stats['pages']}", f"documents kept  {stats['documents']}"]
    rows += [f"  {key.removeprefix('rejected/')}  {count}" for key, count
             in sorted(stats.items()) if key.startswith("rejected/") and count]
    rows += [f"  {key}  {count}" for key, count in sorted(stats.items())
             if key.startswith("edit/") and count]
    return "\n".join([*rows, f"corpus in {output}"])
