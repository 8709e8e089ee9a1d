"""Refuse requests to private, loopback, link-local, multicast, reserved and metadata addresses.

A link on a public page must not make the crawler probe the network it runs
in (``http://10.0.0.1/admin``, the cloud metadata service at
``169.254.169.254``, ``http://localhost:6379/``). The downloader middleware
checks every request before it is sent, redirects included (each redirect
is a new request through the middleware chain):

- a host given as an address (IPv4, IPv6, IPv4-mapped IPv6) is checked as is;
- a host name is resolved (``getaddrinfo``, in a thread, cached per host)
  and refused when any of its addresses is not public, so a public-looking
  name that resolves to 127.0.0.1 is refused too;
- the address the response actually came from (``response.ip_address``) is
  checked again, which closes the window of a name that resolved to a public
  address at the check and to a private one at the connection;
- schemes other than ``http`` and ``https`` (``file:``, ``ftp:``, ``s3:``) are
  refused: they reach local files and other services.

A refusal raises ``IgnoreRequest``, is counted as ``corpusbot/netguard/refused``
and logged once per host. ``CORPUSBOT_BLOCK_PRIVATE_NETWORKS = False`` (or
``corpusbot crawl --allow-private-networks``) turns the guard off, for crawls
of a local site.
"""

from __future__ import annotations

import ipaddress
import logging
import socket
from typing import Any
from urllib.parse import urlsplit

from scrapy import Request
from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.http import Response
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.threads import deferToThread

from corpusbot.crawl.default_settings import CorpusbotSettings

logger = logging.getLogger(__name__)

REFUSED = "corpusbot/netguard/refused"
ALLOWED_SCHEMES = frozenset({"http", "https"})
Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def is_public(address: Address) -> bool:
    """Whether ``address`` is a public unicast address (IANA's special-purpose registries:
    ``is_global`` excludes private, loopback, link-local, shared and documentation space;
    multicast, reserved and unspecified addresses are refused on top)."""
    mapped = getattr(address, "ipv4_mapped", None) or getattr(address, "sixtofour", None)
    if mapped is not None and not is_public(mapped):
        return False
    return (address.is_global and not address.is_multicast and not address.is_reserved
            and not address.is_unspecified)


def literal_address(host: str) -> Address | None:
    """``host`` as an address when it is one (``[::1]`` brackets stripped), else None."""
    try:
        return ipaddress.ip_address(host.strip("[]").split("%", 1)[0])
    except ValueError:
        return None


def resolve(host: str) -> list[Address]:
    """Every address ``host`` resolves to (IPv4 and IPv6); none when it does not resolve."""
    try:
        found = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        return []
    return [ipaddress.ip_address(info[4][0].split("%", 1)[0]) for info in found]


class NetGuardMiddleware:
    """The downloader middleware; see the module docstring."""

    def __init__(self, stats: Any) -> None:
        self.stats = stats
        self._verdicts: dict[str, str | None] = {}  # host -> why it is refused, or None
        self._logged: set[str] = set()

    @classmethod
    def from_crawler(cls, crawler: Any) -> NetGuardMiddleware:
        if not CorpusbotSettings(crawler.settings).getbool("CORPUSBOT_BLOCK_PRIVATE_NETWORKS"):
            raise NotConfigured("CORPUSBOT_BLOCK_PRIVATE_NETWORKS is off")
        return cls(crawler.stats)

    async def process_request(self, request: Request) -> None:
        parts = urlsplit(request.url)
        host = (parts.hostname or "").lower()
        if parts.scheme not in ALLOWED_SCHEMES:
            self._refuse(host or parts.scheme, f"the {parts.scheme}: scheme", request)
        if host not in self._verdicts:
            self._verdicts[host] = await self._judge(host)
        if self._verdicts[host] is not None:
            self._refuse(host, self._verdicts[host], request)

    def process_response(self, request: Request, response: Response) -> Response:
        address = literal_address(str(getattr(response, "ip_address", None) or ""))
        if address is not None and not is_public(address):
            host = urlsplit(request.url).hostname or ""
            self._refuse(host, f"it was reached at {address}", request)
        return response

    async def _judge(self, host: str) -> str | None:
        if not host:
            return "no host"
        address = literal_address(host)
        if address is not None:
            return None if is_public(address) else f"{address} is not a public address"
        addresses = await maybe_deferred_to_future(deferToThread(resolve, host))
        private = [a for a in addresses if not is_public(a)]
        if private:
            return f"it resolves to {private[0]}, not a public address"
        return None

    def _refuse(self, host: str, why: str, request: Request) -> None:
        self.stats.inc_value(REFUSED)
        if host not in self._logged:
            self._logged.add(host)
            logger.warning("refused %s: %s (set CORPUSBOT_BLOCK_PRIVATE_NETWORKS=False or "
                           "pass --allow-private-networks to crawl it)", host, why)
        raise IgnoreRequest(f"private network refused: {request.url}")
