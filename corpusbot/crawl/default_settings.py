"""Defaults of every ``CORPUSBOT_*`` crawl setting, and the politeness defaults.

One flat module, grouped by component prefix, in the manner of Scrapy's
``scrapy/settings/default_settings.py``. The add-on (``corpusbot.crawl.addon``)
applies them at the ``addon`` priority, so a project's ``settings.py``, a
spider's ``custom_settings`` or ``-s NAME=VALUE`` override any of them.
Units are spelled in the name: ``_SECONDS``, ``_BYTES``.
"""

from __future__ import annotations

import copy
import difflib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from scrapy.settings import BaseSettings

from corpusbot.corpus.formats import FORMAT_DEFAULT
from corpusbot.corpus.layout import Layout
from corpusbot.corpus.shards import COMPRESSION_DEFAULT, SHARD_BYTES_DEFAULT
from corpusbot.filters.registry import PRESET_DEFAULT
from corpusbot.fingerprints.minhash import THRESHOLD_DEFAULT
from corpusbot.fingerprints.options import LEVELS, LEVELS_DEFAULT
from corpusbot.pool import TIMEOUT_SECONDS_DEFAULT

# -- Where things go ---------------------------------------------------------

CORPUSBOT_OUTPUT_DIR = "corpus"
"""The corpus (``<lang>/*.jsonl.gz``), its dedup index, the archive and the
crawl state all live under this folder. Default: ``corpus``."""

CORPUSBOT_CONTACT = ""
"""An e-mail address or URL where site owners can reach the crawl's operator;
it goes into the User-Agent and the WARC ``warcinfo`` record. Default: empty
(a warning asks for one)."""

# -- The news spider (corpusbot.spiders.news) ---------------------------------

CORPUSBOT_SPIDER_DEPTH = 4
"""Link hops followed from a start page, sitemap entry or feed entry.
Default: 4 (home → section → page 2 → article, and one more)."""

CORPUSBOT_SPIDER_SITES_FILE = ""
"""A TOML file of per-site options (allowed and denied URL patterns, depth,
feeds, sitemaps, delay, concurrency); see the README. Default: none."""

CORPUSBOT_SPIDER_SITEMAPS_ENABLED = True
"""Read the ``Sitemap:`` lines of each site's robots.txt (``/sitemap.xml``
when there are none) and fetch what they list. Default: on."""

CORPUSBOT_SPIDER_FEEDS_ENABLED = True
"""Follow the RSS and Atom feeds pages announce in ``<head>``. Default: on."""

CORPUSBOT_SPIDER_LINKS_ENABLED = True
"""Follow links within the allowed domains (up to the depth). Default: on."""

CORPUSBOT_SPIDER_SINCE = ""
"""Skip sitemap and feed entries last changed before this ISO 8601 date
(entries without a date are kept). Default: empty, keep all."""

CORPUSBOT_SPIDER_SITEMAP_MAX_BYTES = 50 * 1024 * 1024
"""Largest sitemap accepted, after decompression: the sitemap protocol's own
limit. Default: 50 MiB."""

# -- Processing in worker processes (corpusbot.pipelines.process) -------------

CORPUSBOT_PROCESS_ENABLED = True
"""Run the Processor (extraction, language, filters, dedup features) on each
page item. Default: on."""

CORPUSBOT_PROCESS_WORKERS = 0
"""Worker processes; 0 means one per CPU core but one, at least one. The
reactor keeps a core for fetching. Default: 0."""

CORPUSBOT_PROCESS_START_METHOD = "forkserver"
"""multiprocessing start method of the workers. ``fork`` from a process with
a running reactor and its threads risks deadlocks. Default: forkserver."""

CORPUSBOT_PROCESS_TIMEOUT_SECONDS = TIMEOUT_SECONDS_DEFAULT
"""Time limit per page in a worker; a page still running then is rejected as
``process/timeout``. Default: 60 s (as ``corpusbot warc``)."""

CORPUSBOT_PROCESS_PRESET = PRESET_DEFAULT
"""The processing steps, by preset name (``corpusbot warc --help`` lists them).
Default: basic."""

CORPUSBOT_PROCESS_SET: dict[str, object] = {}
"""Options of the preset's steps, ``{"step.option": value}``, as ``corpusbot
warc --set step.option=value``: e.g. ``{"length.min_words": 30}``. Default:
none, the preset's values."""

CORPUSBOT_PROCESS_MODE = None
"""Extraction mode (``corpusbot extract --help`` lists them), as
``extract.mode``. Default: the preset's, default."""

CORPUSBOT_PROCESS_LANGUAGES: list[str] = []
"""Languages to keep (ISO 639-1 codes), as ``language.allowed``; empty keeps
every language. Default: all."""

CORPUSBOT_PROCESS_MIN_WORDS = None
"""Fewest words a kept document has, as ``length.min_words``. Default: the
preset's, 50."""

CORPUSBOT_PROCESS_MAX_NONLETTER_RATIO = None
"""Largest share of non-letter characters in a kept text, as
``nonletters.max_ratio``. Default: the preset's, 0.3."""

CORPUSBOT_PROCESS_METADATA = True
"""Read what each page declares about itself (JSON-LD, ``<meta>``: dates,
authors, site name) into the record's ``meta``, as ``corpusbot warc`` does;
as ``extract.metadata``. Default: on."""

# -- Deduplication (the workers' fingerprints and corpusbot.pipelines.corpus) --

CORPUSBOT_DEDUP_LEVELS = [level for level in LEVELS if level in LEVELS_DEFAULT]
"""Dedup levels, of url, exact, near, paragraph. Default: url, exact, near."""

CORPUSBOT_DEDUP_NEAR_THRESHOLD = THRESHOLD_DEFAULT
"""Jaccard similarity from which a document is a near duplicate. Default: 0.8."""

CORPUSBOT_DEDUP_URL = ""
"""The dedup index (``corpusbot.dedup.backends``), to share one between
corpora: an SQLite file (a path or ``sqlite:///PATH``), or a Redis URL
(``redis://host:6379/0``) shared by processes on many machines. Default:
``<CORPUSBOT_OUTPUT_DIR>/dedup.sqlite``; in a shared crawl, the crawl's
``CORPUSBOT_REDIS_URL``."""

CORPUSBOT_DEDUP_PATH = ""
"""The old name of ``CORPUSBOT_DEDUP_URL``: still read, with a deprecation warning."""

# -- A crawl shared by several processes (corpusbot.crawl.redis_frontier) -------

CORPUSBOT_REDIS_URL = ""
"""A Redis URL (``redis://host:6379/0``) switches on the shared crawl: the
scrapy-redis scheduler (one request queue for every process), the compact
request-fingerprint filter, the per-site rate shared by all processes, start
requests queued once, and the dedup index in the same Redis unless
``CORPUSBOT_DEDUP_URL`` names another. ``corpusbot crawl --redis URL`` sets
it. Default: empty, one process."""

CORPUSBOT_REDIS_CRAWL = "corpusbot"
"""Name of the shared crawl: the prefix of its keys (queue, fingerprints, site
leases). Processes with the same name share one crawl. Default: corpusbot."""

CORPUSBOT_REDIS_WORKER = ""
"""This process's name in the shared crawl: the requests it holds are kept
under it, and a process started again under the same name (with the same
folder) takes them back. ``corpusbot crawl --redis`` sets it to the worker
folder's name. Default: empty, the host name and ``CORPUSBOT_OUTPUT_DIR``."""

CORPUSBOT_REDIS_HEARTBEAT_SECONDS = 20.0
"""How long a process counts as alive after its last heartbeat (sent every
third of it); past it, another process queues the requests it held again.
A process stays busy 3/2 of it and 2 s more after its last request
(``redis_frontier.busy_seconds``), so that an idle process takes over a dead
one's requests before it concludes that all work is done. Far above any
pause of the crawl's event loop. Default: 20 s."""

CORPUSBOT_REDIS_URLS_CAPACITY = 10_000_000
"""Requests the fingerprint filter's buckets are sized for (past it they grow
out of Redis's compact encoding: still correct, larger). Default: 10 million."""

# -- The corpus writer (corpusbot.pipelines.corpus) ----------------------------

CORPUSBOT_CORPUS_ENABLED = True
"""Write kept documents to the corpus under ``CORPUSBOT_OUTPUT_DIR``. Default: on."""

CORPUSBOT_CORPUS_FORMAT = FORMAT_DEFAULT
"""Record format of the shards: jsonl or parquet (needs ``corpusbot[parquet]``).
Default: jsonl."""

CORPUSBOT_CORPUS_COMPRESSION = COMPRESSION_DEFAULT
"""Shard compression: gzip, zstd or none (Parquet: of its columns). Default: gzip."""

CORPUSBOT_CORPUS_SHARD_BYTES = SHARD_BYTES_DEFAULT
"""Record bytes (JSON) per shard before a new one starts. Default: 256 MiB."""

CORPUSBOT_CORPUS_KEEP_REJECTS = False
"""Also write every page not kept, with its reason, detail and (where extraction
got that far) its text, to ``<CORPUSBOT_OUTPUT_DIR>/rejects/<stage>/``, committed
with the corpus. Default: off."""

CORPUSBOT_CORPUS_COMMIT_ITEMS = 200
"""Commit the corpus (and the incremental store after it) every this many
documents. Default: 200."""

CORPUSBOT_CORPUS_COMMIT_SECONDS = 30.0
"""…or at least this often while documents arrive. Default: 30 s."""

# -- Network safety (corpusbot.crawl.netguard) ---------------------------------

CORPUSBOT_NETGUARD_ENABLED = True
"""Refuse requests to private, loopback, link-local, multicast, reserved and
metadata addresses (IPv4 and IPv6), by address, after DNS resolution and
after redirects, and non-HTTP schemes; refusals are counted as
``corpusbot/netguard/refused`` and per reason as
``corpusbot/netguard/refused/<why>``. To crawl a site on your own network,
open its network (``CORPUSBOT_NETGUARD_ALLOWED_NETWORKS``, ``corpusbot crawl
--allow-network``) rather than turning this off. Default: on. Its former
name, ``CORPUSBOT_BLOCK_PRIVATE_NETWORKS``, still works in this release, with
a deprecation warning."""

CORPUSBOT_NETGUARD_ALLOWED_NETWORKS: list[str] = []
"""Networks the guard lets through although they are not public, each an
address or ``ADDRESS/BITS`` (``["127.0.0.0/8", "192.168.1.0/24"]``;
``corpusbot crawl --allow-network``): for a crawl of a site on your own
network, open what it needs and nothing else. Link-local and cloud metadata
addresses (169.254.0.0/16, fe80::/10, fd00:ec2::254, 100.100.100.200) stay
refused unless a network named inside their range opens them. Default:
none."""

CORPUSBOT_NETGUARD_UNSEEN_ADDRESS = "resolve"
"""What the guard does with a response whose connection address it cannot see
(HTTP/2 responses carry none; through a proxy it is the proxy's): ``resolve``
the host name again and refuse the response when it now points to a private
address, ``refuse`` every such response of a named host, or ``accept`` it on
the check made before the request. Default: ``resolve``."""

# -- WARC archiving (corpusbot.crawl.warcmiddleware) -------------------------------------

CORPUSBOT_WARC_ENABLED = True
"""Archive every fetched response and its request. Default: on."""

CORPUSBOT_WARC_DIR = ""
"""Where the ``.warc.gz`` files go. Default: ``<CORPUSBOT_OUTPUT_DIR>/archive``."""

CORPUSBOT_WARC_MAX_BYTES = 1_000_000_000
"""Start a new file once the current one passes this size (the customary
1 GB of Heritrix and Common Crawl). Default: 1 GB."""

CORPUSBOT_WARC_PREFIX = "corpusbot"
"""File name prefix: ``<prefix>-<UTC time>-<serial>-<pid>.warc.gz``."""

CORPUSBOT_WARC_GZIP_LEVEL = 6
"""zlib level of each record's gzip member; 9 costs about twice the CPU for
a few per cent. Responses the server sent content-encoded (gzip, br) are
stored at level 0: their bytes compress no further. Default: 6."""

# -- Incremental crawling (corpusbot.crawl.incremental) ------------------------------

CORPUSBOT_INCREMENTAL_ENABLED = True
"""Skip article URLs stored by an earlier run unless a sitemap or feed says
they changed since. Default: on."""

CORPUSBOT_INCREMENTAL_STORE = ""
"""The SQLite file of fetched articles. Default:
``<CORPUSBOT_OUTPUT_DIR>/crawl-seen.sqlite``."""

CORPUSBOT_INCREMENTAL_RESET_JOBDIR = True
"""After a crawl that finished (not one that was interrupted), empty
``JOBDIR`` so that the next run starts from the start pages again and finds
new articles; an interrupted crawl keeps it and resumes. Default: on."""

# -- Progress (corpusbot.crawl.progress) -------------------------------------

CORPUSBOT_PROGRESS_ENABLED = True
"""Report pages fetched and articles kept, per domain. Default: on."""

CORPUSBOT_PROGRESS_INTERVAL_SECONDS = 10.0
"""How often a progress line is logged (a terminal bar refreshes each
second). Default: 10 s."""

CORPUSBOT_PROGRESS_BAR = False
"""Draw a live bar on stderr instead of log lines (``corpusbot crawl`` turns
it on when stderr is a terminal). Default: off."""

# -- Politeness: Scrapy settings the add-on sets unless the project does ------

POLITENESS: dict[str, Any] = {
    "ROBOTSTXT_OBEY": True,
    "AUTOTHROTTLE_ENABLED": True,
    "AUTOTHROTTLE_START_DELAY": 1.0,
    "AUTOTHROTTLE_MAX_DELAY": 30.0,
    "AUTOTHROTTLE_TARGET_CONCURRENCY": 1.0,
    "DOWNLOAD_DELAY": 0.5,
    "CONCURRENT_REQUESTS": 32,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 2,
    "RETRY_ENABLED": True,
    "RETRY_TIMES": 2,
    "DOWNLOAD_TIMEOUT": 30,
    "DOWNLOAD_MAXSIZE": 16 * 1024 * 1024,
    "DOWNLOAD_WARNSIZE": 4 * 1024 * 1024,
}
"""Obey robots.txt, adapt the delay to each server (AutoThrottle, never less
than 0.5 s between requests to one site, two at a time), retry twice, give
up after 30 s, and refuse bodies over 16 MiB."""


def user_agent(version: str, contact: str) -> str:
    """The User-Agent: names the project and, when given, how to reach the operator."""
    reach = f"; +{contact}" if contact else ""
    return f"corpusbot/{version} (text corpus crawler{reach})"


class CorpusbotSettings:
    """A crawler's settings, read with this module's default for every ``CORPUSBOT_*``
    setting the project leaves unset.

    The add-on applies the defaults itself; a component enabled without it
    (in ``ITEM_PIPELINES`` and friends) reads through this view, so the
    default of each setting is written once, here, and nothing is copied.
    """

    __slots__ = ("settings",)

    def __init__(self, settings: BaseSettings) -> None:
        self.settings = settings

    def get(self, name: str) -> Any:
        return self.settings.get(name, _default(name))

    def getbool(self, name: str) -> bool:
        return self.settings.getbool(name, _default(name))

    def getint(self, name: str) -> int:
        return self.settings.getint(name, _default(name))

    def getfloat(self, name: str) -> float:
        return self.settings.getfloat(name, _default(name))

    def getlist(self, name: str) -> list[Any]:
        return self.settings.getlist(name, _default(name))

    def getdict(self, name: str) -> dict[Any, Any]:
        return self.settings.getdict(name, _default(name))

    def layout(self) -> Layout:
        """The output folder's paths: the one place the crawl reads ``CORPUSBOT_OUTPUT_DIR``."""
        return Layout(Path(self.get("CORPUSBOT_OUTPUT_DIR")))


def _default(name: str) -> Any:
    value = globals().get(name) if name.startswith("CORPUSBOT_") else None
    return copy.deepcopy(value)


def misspelt(names: Iterable[str]) -> list[str]:
    """A warning for each ``CORPUSBOT_*`` name that is no corpusbot setting, naming the
    closest one (``CORPUSBOT_CONTCT``: did you mean ``CORPUSBOT_CONTACT``?)."""
    known = defaults()
    warnings = []
    for name in sorted(n for n in names if n.startswith("CORPUSBOT_") and n not in known):
        # compared without the prefix they all share, which would make any name close
        close = difflib.get_close_matches(name.removeprefix("CORPUSBOT_"),
                                          [k.removeprefix("CORPUSBOT_") for k in known],
                                          n=1, cutoff=0.75)
        hint = f"; did you mean CORPUSBOT_{close[0]}?" if close else ""
        warnings.append(f"{name} is no corpusbot setting and has no effect{hint}")
    return warnings


def defaults() -> dict[str, Any]:
    """Every ``CORPUSBOT_*`` default of this module, by name."""
    return {
        name: copy.deepcopy(value)
        for name, value in globals().items()
        if name.startswith("CORPUSBOT_")
    }
