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
and as ``corpusbot/netguard/refused/<why>`` (``scheme``, ``no-host``,
``address``, ``resolves``, ``reached``, ``unseen``, ``resolves-now``), and
logged once per host.

To crawl a site on your own network, name its addresses:
``CORPUSBOT_NETGUARD_ALLOWED_NETWORKS = ["127.0.0.0/8"]`` (``corpusbot crawl
--allow-network 127.0.0.0/8``, repeatable) opens those networks and nothing
else. Link-local and cloud metadata addresses (``169.254.0.0/16``,
``fe80::/10``, ``fd00:ec2::254``, ``100.100.100.200``) stay refused unless a
named network lies inside their range, so ``--allow-network 0.0.0.0/0`` does
not open the metadata service. ``CORPUSBOT_NETGUARD_ENABLED = False``
turns the guard off altogether (``CORPUSBOT_BLOCK_PRIVATE_NETWORKS``, its
former name, still works in this release, with a deprecation warning).
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import socket
import warnings
from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import urlsplit

from scrapy import Request
from scrapy.exceptions import IgnoreRequest, NotConfigured, ScrapyDeprecationWarning
from scrapy.http import Response
from scrapy.settings import BaseSettings
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.threads import deferToThread

from corpusbot.crawl.default_settings import CorpusbotSettings

logger = logging.getLogger(__name__)


class PrivateNetworkRefused(IgnoreRequest):
    """A request refused because its host is on a private network."""


REFUSED = "corpusbot/netguard/refused"
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
SENSITIVE_NETWORKS: tuple[Network, ...] = tuple(ipaddress.ip_network(n) for n in (
    "169.254.0.0/16", "fe80::/10", "fd00:ec2::254/128", "100.100.100.200/32"))
"""Link-local space and the cloud metadata services (AWS, GCP and Azure at
169.254.169.254, AWS over IPv6, Alibaba): opened only by a network named inside them."""
UNSEEN_CHOICES = ("resolve", "refuse", "accept")
ALLOWED_SCHEMES = frozenset({"http", "https"})
SWITCH = "CORPUSBOT_NETGUARD_ENABLED"
FORMER_SWITCH = "CORPUSBOT_BLOCK_PRIVATE_NETWORKS"
"""The switch's name up to 0.1: still read, with a deprecation warning, for one more release."""
Address = ipaddress.IPv4Address | ipaddress.IPv6Address
T = TypeVar("T")
Refusal = tuple[str, str]
"""Why a request is refused: the stat's last part, and the words of the log line."""


def is_public(address: Address) -> bool:
    """Whether ``address`` is a public unicast address (IANA's special-purpose registries:
    ``is_global`` excludes private, loopback, link-local, shared and documentation space;
    multicast, reserved and unspecified addresses are refused on top)."""
    mapped = getattr(address, "ipv4_mapped", None) or getattr(address, "sixtofour", None)
    if mapped is not None and not is_public(mapped):
        return False
    return (address.is_global and not address.is_multicast and not address.is_reserved
            and not address.is_unspecified)


def parse_networks(values: list[str]) -> tuple[Network, ...]:
    """Networks from ``127.0.0.0/8``, ``::1`` or ``10.1.2.3`` (a single address); a value
    that is none raises ``ValueError`` naming it."""
    networks = []
    for value in values:
        try:
            networks.append(ipaddress.ip_network(str(value).strip(), strict=False))
        except ValueError:
            raise ValueError(f"not a network: {value!r} (try 127.0.0.0/8 or ::1)") from None
    return tuple(networks)


def is_opened(address: Address, allowed: tuple[Network, ...]) -> bool:
    """Whether a network in ``allowed`` opens ``address``: any that holds it, except for a
    link-local or metadata address, which only a network inside its range opens."""
    named = [n for n in allowed if n.version == address.version and address in n]
    sensitive = [s for s in SENSITIVE_NETWORKS if s.version == address.version
                 and address in s]
    if sensitive:
        return any(n.subnet_of(s) for n in named for s in sensitive)  # type: ignore[arg-type]
    return bool(named)


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


def guard_enabled(settings: BaseSettings) -> bool:
    """Whether the guard is on: ``CORPUSBOT_NETGUARD_ENABLED``, unless its former name
    was set at a higher priority (as ``-s`` over the add-on's default)."""
    former = settings.getpriority(FORMER_SWITCH)
    if former is None:
        return CorpusbotSettings(settings).getbool(SWITCH)
    warnings.warn(f"{FORMER_SWITCH} is deprecated and will go in the next release: "
                  f"use {SWITCH}", ScrapyDeprecationWarning, stacklevel=2)
    current = settings.getpriority(SWITCH)
    if current is not None and current >= former:
        return settings.getbool(SWITCH)
    return settings.getbool(FORMER_SWITCH)


class NetGuardMiddleware:
    """The downloader middleware; see the module docstring."""

    def __init__(self, stats: Any, unseen: str = "resolve",
                 allowed: tuple[Network, ...] = ()) -> None:
        if unseen not in UNSEEN_CHOICES:
            raise ValueError(f"CORPUSBOT_NETGUARD_UNSEEN_ADDRESS must be one of "
                             f"{', '.join(UNSEEN_CHOICES)}, got {unseen!r}")
        self.stats, self.unseen, self.allowed = stats, unseen, allowed
        self._verdicts: dict[str, str | None] = {}  # host -> why it is refused, or None
        self._logged: set[str] = set()

    @classmethod
    def from_crawler(cls, crawler: Any) -> NetGuardMiddleware:
        settings = CorpusbotSettings(crawler.settings)
        if not guard_enabled(crawler.settings):
            raise NotConfigured("CORPUSBOT_NETGUARD_ENABLED is off")
        allowed = parse_networks(settings.getlist("CORPUSBOT_NETGUARD_ALLOWED_NETWORKS"))
        return cls(crawler.stats, str(settings.get("CORPUSBOT_NETGUARD_UNSEEN_ADDRESS")),
                   allowed)

    def _fine(self, address: Address) -> bool:
        return is_public(address) or is_opened(address, self.allowed)

    async def process_request(self, request: Request) -> None:
        parts = urlsplit(request.url)
        host = (parts.hostname or "").lower()
        if parts.scheme not in ALLOWED_SCHEMES:
            self._refuse(host or parts.scheme, ("scheme", f"the {parts.scheme}: scheme"),
                         request)
        if host not in self._verdicts:
            self._verdicts[host] = await self._judge(host)
        if self._verdicts[host] is not None:
            self._refuse(host, self._verdicts[host], request)

    async def process_response(self, request: Request, response: Response) -> Response:
        host = (urlsplit(request.url).hostname or "").lower()
        seen = None if request.meta.get("proxy") else getattr(response, "ip_address", None)
        address = literal_address(str(seen or ""))
        if address is not None:
            if not self._fine(address):
                self._refuse(host, ("reached", f"it was reached at {address}"), request)
        elif literal_address(host) is None and self.unseen != "accept":
            why = await self._judge_unseen(host)
            if why is not None:
                self._refuse(host, why, request)
        return response

    async def _judge_unseen(self, host: str) -> Refusal | None:
        """Why a response from named ``host`` whose address is unseen is refused, if it is."""
        if self.unseen == "refuse":
            return ("unseen", "the address it came from is unknown (HTTP/2 or a proxy; "
                    "CORPUSBOT_NETGUARD_UNSEEN_ADDRESS=refuse)")
        addresses = await in_thread(resolve, host)
        private = [a for a in addresses if not self._fine(a)]
        if private:
            return ("resolves-now", f"it now resolves to {private[0]}, not a public address")
        return None

    async def _judge(self, host: str) -> Refusal | None:
        if not host:
            return ("no-host", "no host")
        address = literal_address(host)
        if address is not None:
            return None if self._fine(address) else ("address",
                                                      f"{address} is not a public address")
        addresses = await in_thread(resolve, host)
        private = [a for a in addresses if not self._fine(a)]
        if private:
            return ("resolves", f"it resolves to {private[0]}, not a public address")
        return None

    def _refuse(self, host: str, refusal: Refusal, request: Request) -> None:
        kind, why = refusal
        self.stats.inc_value(REFUSED)
        self.stats.inc_value(f"{REFUSED}/{kind}")
        if host not in self._logged:
            self._logged.add(host)
            logger.warning("refused %s: %s (pass --allow-network with its network, such as "
                           "127.0.0.0/8, or set CORPUSBOT_NETGUARD_ALLOWED_NETWORKS, to crawl "
                           "it)", host, why)
        raise PrivateNetworkRefused(f"private network refused: {request.url}")
