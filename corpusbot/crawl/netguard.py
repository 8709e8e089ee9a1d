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
  address at the check and to a private one at the connection. Scrapy gives
  no such address for HTTP/2 responses, and through a proxy the address is
  the proxy's (``request.meta["proxy"]``), which says nothing of the site:
  then ``CORPUSBOT_NETGUARD_UNSEEN_ADDRESS`` decides. ``resolve`` (the default)
  resolves the host name again, uncached, after the response and refuses it
  when the name now points anywhere private, so a name that turns private
  between the two lookups is caught unless it turns back within the fetch;
  ``refuse`` refuses every such response of a named host (the strict choice,
  which stops HTTP/2 and proxied crawls); ``accept`` trusts the check before
  the request. A host given as an address was checked as such before the
  request and needs no second look;
- schemes other than ``http`` and ``https`` (``file:``, ``ftp:``, ``s3:``) are
  refused: they reach local files and other services.

A refusal raises ``IgnoreRequest``, is counted as ``corpusbot/netguard/refused``
and logged once per host. ``CORPUSBOT_BLOCK_PRIVATE_NETWORKS = False`` (or
``corpusbot crawl --allow-private-networks``) turns the guard off, for crawls
of a local site.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import socket
from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import urlsplit

from scrapy import Request
from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.http import Response
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.threads import deferToThread

from corpusbot.crawl.default_settings import CorpusbotSettings

logger = logging.getLogger(__name__)


class PrivateNetworkRefused(IgnoreRequest):
    """A request refused because its host is on a private network."""


REFUSED = "corpusbot/netguard/refused"
UNSEEN_CHOICES = ("resolve", "refuse", "accept")
ALLOWED_SCHEMES = frozenset({"http", "https"})
Address = ipaddress.IPv4Address | ipaddress.IPv6Address
T = TypeVar("T")


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


async def in_thread(function: Callable[..., T], *args: object) -> T:
    """``function(*args)`` in a thread, awaited: through the running asyncio loop (Scrapy's
    default asyncio reactor, or plain asyncio), else through Twisted's thread pool."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return await maybe_deferred_to_future(deferToThread(function, *args))
    return await loop.run_in_executor(None, function, *args)


class NetGuardMiddleware:
    """The downloader middleware; see the module docstring."""

    def __init__(self, stats: Any, unseen: str = "resolve") -> None:
        if unseen not in UNSEEN_CHOICES:
            raise ValueError(f"CORPUSBOT_NETGUARD_UNSEEN_ADDRESS must be one of "
                             f"{', '.join(UNSEEN_CHOICES)}, got {unseen!r}")
        self.stats, self.unseen = stats, unseen
        self._verdicts: dict[str, str | None] = {}  # host -> why it is refused, or None
        self._logged: set[str] = set()

    @classmethod
    def from_crawler(cls, crawler: Any) -> NetGuardMiddleware:
        if not CorpusbotSettings(crawler.settings).getbool("CORPUSBOT_BLOCK_PRIVATE_NETWORKS"):
            raise NotConfigured("CORPUSBOT_BLOCK_PRIVATE_NETWORKS is off")
        settings = CorpusbotSettings(crawler.settings)
        return cls(crawler.stats, str(settings.get("CORPUSBOT_NETGUARD_UNSEEN_ADDRESS")))

    async def process_request(self, request: Request) -> None:
        parts = urlsplit(request.url)
        host = (parts.hostname or "").lower()
        if parts.scheme not in ALLOWED_SCHEMES:
            self._refuse(host or parts.scheme, f"the {parts.scheme}: scheme", request)
        if host not in self._verdicts:
            self._verdicts[host] = await self._judge(host)
        if self._verdicts[host] is not None:
            self._refuse(host, self._verdicts[host], request)

    async def process_response(self, request: Request, response: Response) -> Response:
        host = (urlsplit(request.url).hostname or "").lower()
        seen = None if request.meta.get("proxy") else getattr(response, "ip_address", None)
        address = literal_address(str(seen or ""))
        if address is not None:
            if not is_public(address):
                self._refuse(host, f"it was reached at {address}", request)
        elif literal_address(host) is None and self.unseen != "accept":
            why = await self._judge_unseen(host)
            if why is not None:
                self._refuse(host, why, request)
        return response

    async def _judge_unseen(self, host: str) -> str | None:
        """Why a response from named ``host`` whose address is unseen is refused, if it is."""
        if self.unseen == "refuse":
            return ("the address it came from is unknown (HTTP/2 or a proxy; "
                    "CORPUSBOT_NETGUARD_UNSEEN_ADDRESS=refuse)")
        addresses = await in_thread(resolve, host)
        private = [a for a in addresses if not is_public(a)]
        return f"it now resolves to {private[0]}, not a public address" if private else None

    async def _judge(self, host: str) -> str | None:
        if not host:
            return "no host"
        address = literal_address(host)
        if address is not None:
            return None if is_public(address) else f"{address} is not a public address"
        addresses = await in_thread(resolve, host)
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
        raise PrivateNetworkRefused(f"private network refused: {request.url}")
