"""The ``corpusbot`` command line: parse the arguments and dispatch to a subcommand.

Each subcommand lives in ``corpusbot.commands.<name>`` with two functions:
``configure(parser)`` declares its arguments and ``run(args) -> int`` does the
work and returns the exit status.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import signal
import sys
from collections.abc import Sequence

from corpusbot import __version__, compiled
from corpusbot.commands.exitcodes import EXIT_FAILED, EXIT_PARTIAL, EXIT_USAGE

COMMANDS: dict[str, str] = {
    "extract": "extract the main text of one HTML page",
    "eval": "score extraction on a gold folder of ../shared/bench",
    "warc": "build a corpus from WARC/ARC archives",
    "crawl": "crawl news sites into a corpus and a WARC archive",
    "report": "write an HTML report (plots, samples) of a corpus",
    "merge": "merge the manifests of a shared crawl's or a Dask run's folders",
    "dedup": "rebuild a dedup index from the committed corpora",
    "filter": "run a quality preset over an existing JSONL corpus into a new corpus",
}


class _Parser(argparse.ArgumentParser):
    # argparse exits 2 on usage errors, which would read as "partial success".
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser, with the arguments of ``command`` only.

    Only the invoked subcommand's module is imported, so that ``extract``
    does not pay for importing Scrapy.
    """
    parser = _Parser(
        prog="corpusbot",
        description="Clean, deduplicated, per-language text corpora from news crawls and "
        "web archives. Exit status: 0 done, 1 failed, 2 partial, 64 usage error.",
    )
    parser.add_argument("--version", action="version",
                        version=f"corpusbot {__version__} ({compiled.describe()})")
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more log output")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name, summary in COMMANDS.items():
        if name != command:
            sub.add_parser(name, help=summary, add_help=False)
            continue
        module = importlib.import_module(f"corpusbot.commands.{name}")
        configured = sub.add_parser(name, help=summary, description=module.__doc__)
        # -v after the command too (`corpusbot crawl URL -v`), as users type it
        configured.add_argument("-v", "--verbose", action="count", default=argparse.SUPPRESS,
                                help="more log output")
        module.configure(configured)
        configured.set_defaults(run=module.run)
    return parser


def _command_in(argv: Sequence[str]) -> str | None:
    return next((a for a in argv if a in COMMANDS), None)


def main(argv: Sequence[str] | None = None) -> int:
    own_process = argv is None
    argv = list(sys.argv[1:] if argv is None else argv)
    args = build_parser(_command_in(argv)).parse_args(argv)
    level = logging.WARNING - 10 * min(args.verbose, 2)
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        return args.run(args)
    except KeyboardInterrupt:
        # a second Ctrl-C: the run stops without committing; the last commit stays
        logging.getLogger(__name__).error(
            "aborted: what was committed stays; run the same command again to continue")
        return EXIT_PARTIAL
    except BrokenPipeError:
        # the reader left (`corpusbot extract … | head`): no traceback, and none at exit
        # when Python flushes stdout into the closed pipe
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_FAILED
    finally:
        if own_process:
            # A second Ctrl-C that lands after the run committed and returned must not turn
            # its exit status into a death by signal: the process has nothing left to stop.
            signal.signal(signal.SIGINT, signal.SIG_IGN)


if __name__ == "__main__":
    sys.exit(main())
