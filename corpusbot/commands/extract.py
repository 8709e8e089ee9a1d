"""Extract the main text of one HTML page (a file, or - for standard input; gzip is read too).

Prints the text, paragraphs separated by blank lines; with --json, one JSON
object with the text, paragraphs, title, language and the reason an empty
extraction is empty. Exit status: 0 text found, 2 no main text (the reason
is logged), 1 the file could not be read.
"""

from __future__ import annotations

import argparse
import gzip
import json
import logging
import sys
import zlib
from dataclasses import asdict
from pathlib import Path

from corpusbot.commands.exitcodes import EXIT_FAILED, EXIT_OK, EXIT_PARTIAL
from corpusbot.extraction.core import extract
from corpusbot.extraction.mode_names import MODE_DEFAULT
from corpusbot.extraction.modes import MODES

log = logging.getLogger(__name__)

GZIP_MAGIC = b"\x1f\x8b"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="HTML file, or - for standard input")
    parser.add_argument("--mode", choices=list(MODES), default=MODE_DEFAULT, help="extraction mode")
    parser.add_argument("--lang", type=language_code,
                        help="the page's language (ISO 639-1); skips identification")
    parser.add_argument("--url", help="the page's URL, if known")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def language_code(text: str) -> str:
    """``text`` when it is a language code corpusbot knows (as ``warc --lang`` checks)."""
    from corpusbot.language.identify import known_languages  # noqa: PLC0415

    if text not in known_languages():
        raise argparse.ArgumentTypeError(
            f"unknown language code {text!r}: give an ISO 639-1 code such as en, de, zh")
    return text


def read_page(name: str) -> bytes:
    """The bytes of file ``name`` (``-`` for standard input), gunzipped when they are gzip.

    Told by the gzip magic bytes rather than the ``.gz`` name, so that gzip
    on standard input and a misnamed file read the same way.
    """
    data = sys.stdin.buffer.read() if name == "-" else Path(name).read_bytes()
    return gzip.decompress(data) if data.startswith(GZIP_MAGIC) else data


def run(args: argparse.Namespace) -> int:
    try:
        html = read_page(args.file)
    except (OSError, EOFError, zlib.error) as exc:
        log.error("cannot read %s: %s", args.file, exc)
        return EXIT_FAILED
    result = extract(html, url=args.url, lang=args.lang, mode=args.mode)
    if args.json:
        print(json.dumps(asdict(result), ensure_ascii=False))
    elif result.text:
        print(result.text)
    if result.reason:
        log.warning("%s: no main text (%s)", args.file, result.reason)
        return EXIT_PARTIAL
    return EXIT_OK
