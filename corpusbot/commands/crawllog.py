"""The crawl's log on the command line: the CLI's verbosity, and one line per failed fetch.

Scrapy logs a failed download with the exception's full traceback (twice
when robots.txt failed too), though a refused connection or an unknown
host is the site's state, not a bug: the user needs the URL and the
reason, on one line. Other tracebacks (a bug in a callback) are kept.
"""

from __future__ import annotations

import logging

from scrapy import exceptions
from scrapy.settings import BaseSettings
from scrapy.utils.misc import load_object
from twisted.internet import error as twisted_errors
from twisted.web.client import ResponseFailed

FETCH_ERRORS: tuple[type[BaseException], ...] = (
    exceptions.DownloadConnectionRefusedError, exceptions.CannotResolveHostError,
    exceptions.DownloadTimeoutError, exceptions.DownloadFailedError,
    exceptions.ResponseDataLossError, exceptions.UnsupportedURLSchemeError,
    twisted_errors.ConnectError, twisted_errors.DNSLookupError, twisted_errors.TimeoutError,
    twisted_errors.ConnectionLost, ResponseFailed, OSError,
)
"""Exceptions that say a fetch failed because of the network or the server."""
_REPEATERS = frozenset({"scrapy.core.scraper", "scrapy.downloadermiddlewares.robotstxt"})
# The loggers that report a download failure again after the retry middleware did.


class ScrapyAtLevel(logging.Filter):
    """Hold Scrapy's and Twisted's records to the CLI's level (Scrapy sets its loggers to DEBUG)."""

    def __init__(self, level: int) -> None:
        super().__init__()
        self.level = level

    def filter(self, record: logging.LogRecord) -> bool:
        ours = not record.name.startswith(("scrapy", "twisted", "py.warnings"))
        return ours or record.levelno >= self.level


class OneLineFetchErrors(logging.Filter):
    """A failed fetch as one line with its URL and reason, without the traceback.

    ``retried`` are the exceptions the retry middleware reports itself when
    it gives up ("Gave up retrying <GET url> (failed 3 times): reason"): the
    scraper's and the robots.txt middleware's records of the same failure
    are dropped.
    """

    def __init__(self, retried: tuple[type[BaseException], ...]) -> None:
        super().__init__()
        self.retried = retried

    @classmethod
    def from_settings(cls, settings: BaseSettings) -> OneLineFetchErrors:
        if not settings.getbool("RETRY_ENABLED"):
            return cls(())
        return cls(tuple(load_object(name) for name in settings.getlist("RETRY_EXCEPTIONS")))

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if not record.name.startswith("scrapy") or not isinstance(exc, FETCH_ERRORS):
            return True
        if record.name in _REPEATERS and isinstance(exc, self.retried):
            return False
        message = record.getMessage()
        reason = str(exc) or type(exc).__name__
        record.msg = message if reason in message else f"{message}: {reason}"
        record.args, record.exc_info, record.exc_text = None, None, None
        return True
