"""Crawl news sites into a deduplicated per-language corpus and a WARC archive.

Runs the ``news`` spider with this project's Scrapy settings: the corpus
goes to OUT/<lang>/, the archive of every fetched response to OUT/archive/,
the resume state to OUT/job/. Stop with Ctrl-C and run the same command
again to resume; once a crawl has finished, running it again fetches only
new articles (and those whose sitemap or feed says they changed). Any
Scrapy or corpusbot setting can be given with -s NAME=VALUE. Exit status:
0 done, 1 failed (nothing fetched, or OUT cannot be written), 2 partial
(interrupted: run again to continue; or errors in the log), 64 a start
that is not a URL, a missing or malformed --seeds or --sites file, a bad
setting.
"""

from __future__ import annotations

import argparse
import itertools
import json
import logging
import os
import socket
import sys
import tomllib
from datetime import datetime
from pathlib import Path
from typing import Any

from scrapy.crawler import CrawlerProcess
from scrapy.settings import Settings
from scrapy.settings import default_settings as scrapy_defaults

from corpusbot.commands.crawllog import OneLineFetchErrors, ScrapyAtLevel
from corpusbot.commands.exitcodes import EXIT_FAILED, EXIT_OK, EXIT_PARTIAL, EXIT_USAGE
from corpusbot.commands.inputs import warn_if_filtered_out
from corpusbot.commands.output import OutputFolderError, prepare_output, report_hint
from corpusbot.corpus.layout import Layout
from corpusbot.crawl.default_settings import CorpusbotSettings
from corpusbot.crawl.netguard import parse_networks
from corpusbot.crawl.sites import load_site_config
from corpusbot.pipelines.options import check_settings
from corpusbot.spiders.news import seed_urls

log = logging.getLogger(__name__)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("urls", nargs="*", metavar="URL", help="start pages, sitemaps or feeds")
    parser.add_argument("--seeds", type=Path, help="a file of start URLs, one per line")
    parser.add_argument("-o", "--output", required=True, type=Path,
                        help="folder of the corpus, the archive and the crawl state")
    parser.add_argument("--sites", type=Path, help="per-site options (TOML; see the README)")
    parser.add_argument("-s", "--set", dest="settings", action="append", default=[],
                        metavar="NAME=VALUE", help="a Scrapy or corpusbot setting (repeatable)")
    parser.add_argument("--redis", metavar="URL",
                        help="share the crawl through Redis (redis://HOST:PORT/DB): several "
                        "processes, on one machine or many, each writing under OUT/WORKER/")
    parser.add_argument("--worker", metavar="NAME",
                        help="with --redis: this process's folder under OUT "
                        "(default: HOSTNAME-N, the first one no running process holds)")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress or summary")
    parser.add_argument("--allow-network", dest="allowed_networks", action="append",
                        default=[], type=network, metavar="CIDR",
                        help="let the crawl reach this private network, such as 127.0.0.0/8 "
                        "for a local site (repeatable; everything else that is not public "
                        "stays refused, link-local and metadata addresses included)")
    parser.add_argument("--allow-private-networks", action="store_true",
                        help="deprecated: opens every private range, the cloud metadata "
                        "address among them; use --allow-network CIDR")


def run(args: argparse.Namespace) -> int:
    settings = _prepared(args)
    if isinstance(settings, int):
        return settings
    stats, failure = _crawl(settings, args)
    out = CorpusbotSettings(settings).layout().root  # OUT/WORKER in a shared crawl
    _save_stats(stats, out)
    rejected = {key.removeprefix("corpusbot/rejected/"): count for key, count in stats.items()
                if key.startswith("corpusbot/rejected/")}
    warn_if_filtered_out(stats.get("corpusbot/pages/article", 0), stats.get("corpusbot/kept", 0),
                         rejected)
    status = exit_status(stats, failure)
    if stats and not failure and not stats.get("response_received_count"):
        log.error("%s", nothing_fetched(stats))
    if args.redis and not failure and stats.get("finish_reason") == "finished":
        status = EXIT_OK  # a shared crawl's process may find all the work done by the others
    if not args.quiet and stats:
        print(summary(stats, out, partial=status == EXIT_PARTIAL))
        print(report_hint(out))
    return status


def _prepared(args: argparse.Namespace) -> Settings | int:
    """The crawl's settings once every argument is checked and OUT is writable, else the exit
    status: nothing starts, and nothing is written, on a mistake."""
    if not args.urls and not args.seeds and not args.sites:
        log.error("nothing to crawl: give start URLs, --seeds FILE or --sites FILE")
        return EXIT_USAGE
    try:
        seed_urls(args.urls, str(args.seeds) if args.seeds else None)
        load_site_config(args.sites)
        settings = crawl_settings(args)
        check_settings(CorpusbotSettings(settings))
        parse_networks(CorpusbotSettings(settings).getlist("CORPUSBOT_NETGUARD_ALLOWED_NETWORKS"))
    except (ValueError, OSError, tomllib.TOMLDecodeError) as error:
        log.error("%s", _one_line(error, args.sites))
        return EXIT_USAGE
    try:
        prepare_output(args.output)
    except OutputFolderError as error:
        log.error("%s", error)
        return EXIT_FAILED
    return settings


def _one_line(error: Exception, sites: Path | None) -> str:
    """The error as one line, naming the file for those that do not (TOML syntax errors)."""
    if isinstance(error, tomllib.TOMLDecodeError):
        return f"{sites} is not valid TOML: {error}"
    if isinstance(error, OSError) and error.filename:
        return f"cannot read {error.filename}: {error.strerror or error}"
    return str(error)


def network(text: str) -> str:
    """``text`` when it names a network or an address (``127.0.0.0/8``, ``::1``)."""
    try:
        parse_networks([text])
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text.strip()


def crawl_settings(args: argparse.Namespace) -> Settings:
    """This project's settings, the command's defaults, then every ``-s``."""
    settings = Settings()
    settings.setmodule("corpusbot.crawl.project_settings", priority="project")
    output = args.output
    # The command's own defaults: above the add-on's (priority "addon"),
    # below -s (priority "cmdline").
    settings.set("JOBDIR", str(Layout(output).job), priority="project")
    show_bar = not args.quiet and sys.stderr.isatty()
    settings.set("CORPUSBOT_PROGRESS_BAR", show_bar, priority="project")
    if args.quiet:
        # Left out rather than switched off, which Scrapy would log.
        settings.set("EXTENSIONS", {"corpusbot.crawl.progress.CrawlProgress": None},
                     priority="project")
    if args.allowed_networks:
        settings.set("CORPUSBOT_NETGUARD_ALLOWED_NETWORKS", args.allowed_networks,
                     priority="cmdline")
    if args.allow_private_networks:
        log.warning("--allow-private-networks is deprecated and will go in the next release:"
                    " it opens every private range, the cloud metadata address among them;"
                    " name what the crawl needs with --allow-network CIDR (such as"
                    " --allow-network 127.0.0.0/8)")
        settings.set("CORPUSBOT_NETGUARD_ENABLED", False, priority="cmdline")
    if args.sites:
        settings.set("CORPUSBOT_SPIDER_SITES_FILE", str(args.sites), priority="cmdline")
    for assignment in args.settings:
        name, sep, value = assignment.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"-s takes NAME=VALUE, got {assignment!r}")
        settings.set(name.strip(), value, priority="cmdline")
    if getattr(args, "redis", None):
        output = _worker_folder(output, args.worker)
        settings.set("CORPUSBOT_REDIS_URL", args.redis, priority="cmdline")
        settings.set("CORPUSBOT_REDIS_WORKER", output.name, priority="cmdline")
        settings.set("JOBDIR", str(Layout(output).job), priority="project")
    # -o is the one place the output folder is named.
    settings.set("CORPUSBOT_OUTPUT_DIR", str(output), priority="cmdline")
    if not args.quiet and not show_bar:
        logging.getLogger("corpusbot.crawl.progress").setLevel(logging.INFO)
    return settings


def _worker_folder(output: Path, name: str | None) -> Path:
    """This process's folder of a shared crawl: ``--worker``, else the first free HOST-N."""
    from corpusbot.corpus.locks import try_lock  # noqa: PLC0415

    if name:
        return output / name
    host = socket.gethostname()
    for number in itertools.count(1):
        folder = output / f"{host}-{number}"
        folder.mkdir(parents=True, exist_ok=True)
        held = try_lock(Layout(folder).lock)
        if held is not None:
            os.close(held)  # the corpus takes the lock for good when it opens
            return folder
    raise AssertionError("unreachable")


def _crawl(settings: Settings, args: argparse.Namespace) -> tuple[dict[str, Any], str | None]:
    """Run the spider to the end; its stats, and why it failed to start if it did."""
    # corpusbot's CLI has configured logging already: no second root handler
    # (every line twice), and Scrapy's loggers keep the CLI's verbosity.
    quiet = ScrapyAtLevel(logging.getLogger().level)
    fetch_errors = OneLineFetchErrors.from_settings(settings)
    for handler in logging.getLogger().handlers:
        handler.addFilter(quiet)
        handler.addFilter(fetch_errors)
    process = _process(settings)
    crawler = process.create_crawler("news")
    failures: list[str] = []
    deferred = process.crawl(crawler, start_urls=args.urls,
                             seeds=str(args.seeds) if args.seeds else None)
    deferred.addErrback(lambda failure: failures.append(failure.getErrorMessage()))
    process.start()
    stats = crawler.stats.get_stats() if crawler.stats else {}
    failure = failures[0] if failures else None
    if failure:
        log.error("the crawl did not run: %s", failure)
    return stats, failure


def nothing_fetched(stats: dict[str, Any]) -> str:
    """Why a crawl fetched no page: the fetch failures and refusals, by reason, with counts."""
    prefix = "corpusbot/fetch-failed/"
    causes = [f"{key.removeprefix(prefix)} ({count} requests)"
              for key, count in sorted(stats.items()) if key.startswith(prefix)]
    refused = {"refused by robots.txt": stats.get("robotstxt/forbidden", 0),
               "refused as a private network": stats.get("corpusbot/netguard/refused", 0)}
    causes += [f"{why} ({count} requests)" for why, count in refused.items() if count]
    return "nothing could be fetched: " + ("; ".join(causes) or "no request was made")


def _process(settings: Settings) -> CrawlerProcess:
    """The crawler process without a root log handler of its own: the setting where Scrapy
    has it (2.19 warns on the argument), else the argument (2.15 lacks the setting)."""
    if hasattr(scrapy_defaults, "LOG_INSTALL_ROOT_HANDLER"):
        settings.set("LOG_INSTALL_ROOT_HANDLER", False, priority="cmdline")
        return CrawlerProcess(settings)
    return CrawlerProcess(settings, install_root_handler=False)


def exit_status(stats: dict[str, Any], failure: str | None) -> int:
    """0 done, 1 nothing fetched, 2 interrupted or errors logged."""
    if failure or not stats.get("response_received_count"):
        return EXIT_FAILED
    if stats.get("finish_reason") != "finished":
        print("interrupted: run the same command again to continue", file=sys.stderr)
        return EXIT_PARTIAL
    if stats.get("log_count/ERROR") or stats.get("spider_exceptions/count"):
        return EXIT_PARTIAL
    return EXIT_OK


def summary(stats: dict[str, Any], output: Path, partial: bool = False) -> str:
    """The final table: per domain, then totals; ``partial`` when errors were logged."""
    domains = sorted({key.split("/")[2] for key in stats if key.startswith("corpusbot/domain/")})
    width = max([len(d) for d in domains] + [6])
    columns = ("fetched", "kept", "refused", "failed")
    lines = [f"{'domain':<{width}}" + "".join(f"  {c:>8}" for c in columns)]
    for domain in domains:
        counts = [stats.get(f"corpusbot/domain/{domain}/{c}", 0) for c in columns]
        lines.append(f"{domain:<{width}}" + "".join(f"  {n:>8}" for n in counts))
    rejected = {k.removeprefix("corpusbot/rejected/"): v for k, v in stats.items()
                if k.startswith("corpusbot/rejected/")}
    lines += [
        "",
        f"pages fetched      {stats.get('response_received_count', 0)}",
        f"articles found     {stats.get('corpusbot/pages/article', 0)}",
        f"articles kept      {stats.get('corpusbot/kept', 0)}",
        f"rejected           {sum(rejected.values())}"
        + (f" ({', '.join(f'{k} {v}' for k, v in sorted(rejected.items()))})" if rejected else ""),
        f"skipped, unchanged {stats.get('corpusbot/incremental/skipped', 0)}",
        f"archived           {stats.get('corpusbot/warc/records', 0)} records, "
        f"{size(stats.get('corpusbot/warc/bytes', 0))} in {Layout(output).warc}",
        f"finished           {_finish(stats, partial)} after "
        f"{stats.get('elapsed_time_seconds', 0):.1f} s; corpus in {output}",
    ]
    return "\n".join(lines)


def _finish(stats: dict[str, Any], partial: bool) -> str:
    reason = stats.get("finish_reason", "?")
    # "finished" beside exit status 2 would contradict it
    return "partial (errors in the log)" if partial and reason == "finished" else reason


def size(count: int) -> str:
    """Bytes in kB below a megabyte, else in MB (decimal units, as ``ls -h --si``)."""
    if count < 1e6:
        return f"{count / 1e3:.1f} kB"
    return f"{count / 1e6:.1f} MB"


def _save_stats(stats: dict[str, Any], output: Path) -> None:
    if not stats:
        return
    output.mkdir(parents=True, exist_ok=True)
    plain = {k: v.isoformat() if isinstance(v, datetime) else v for k, v in stats.items()}
    Layout(output).stats.write_text(json.dumps(plain, indent=1, sort_keys=True) + "\n")
