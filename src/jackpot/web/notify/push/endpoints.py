"""Which push endpoints the server will POST to: https on a public host only.

A push endpoint is a URL a browser hands us and the server later POSTs to, so
without a check anyone could point the push worker at the cloud's metadata service
or a database on the private network. An endpoint must be https, and its host
must resolve to public addresses only (no loopback, private, link-local, shared,
multicast or reserved ones), and not to an IPv6 address that carries an IPv4 one
inside (``EMBEDS_IPV4``: NAT64, 6to4, Teredo, IPv4-compatible and -mapped), which
Python's ``is_global`` calls public: behind a NAT64 gateway ``64:ff9b::a9fe:a9fe``
is the cloud's metadata service. Port 0 is refused too. It is checked when
stored, and again when sent to: the DNS answer may have changed meanwhile, and the
sender's resolver refuses such addresses at connect time too (``PublicResolver``),
so what is connected to is what was checked. ``JACKPOT_PUSH_ALLOW_LOCAL=true`` also lets http://127.0.0.1
and http://localhost through, for tests and demos.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from urllib.parse import urlsplit

from aiohttp.abc import AbstractResolver, ResolveResult
from aiohttp.resolver import DefaultResolver

from jackpot.i18n import N_
from jackpot.web.base.errors import ApiError
from jackpot.web.base.tables.push import MAX_ENDPOINT

LOCAL_NAMES = {"localhost", "127.0.0.1", "::1"}
#: Special-purpose IPv6 ranges whose addresses stand for an IPv4 address, which a
#: gateway on the path may reach on the private network: NAT64 (RFC 6052), local-use
#: NAT64 (RFC 8215), 6to4 (RFC 3056), IPv4-compatible and IPv4-mapped (RFC 4291),
#: IPv4-translated (RFC 6145) and Teredo (RFC 4380). No push service lives there.
EMBEDS_IPV4 = tuple(
    ipaddress.IPv6Network(net)
    for net in (
        "64:ff9b::/96",
        "64:ff9b:1::/48",
        "2002::/16",
        "::/96",
        "::ffff:0:0/96",
        "::ffff:0:0:0/96",
        "2001::/32",
    )
)
#: IPv4 ranges ``is_global`` lets through that no push service lives in: the IETF
#: protocol assignments (RFC 6890: 192.0.0.8, 192.0.0.9, 192.0.0.10 and the rest of
#: the /24 are special-purpose, some of them reached on the local network).
SPECIAL_IPV4 = (ipaddress.IPv4Network("192.0.0.0/24"),)


class EndpointRefused(ApiError):
    """An endpoint the server will not send to: a 422 ``bad_endpoint`` whose message
    (a catalog entry) says why, in the reader's language; ``str()`` is the English."""

    def __init__(self, message: str, **params: object) -> None:
        super().__init__(422, "bad_endpoint", message, **params)


class EndpointUnresolved(EndpointRefused):
    """The host did not resolve (now): refused when a browser registers, but at send
    time a reason to try again later, not to forget the browser (DNS has bad minutes)."""


def _public(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%")[0])
    if isinstance(ip, ipaddress.IPv6Address) and any(ip in net for net in EMBEDS_IPV4):
        return False
    if isinstance(ip, ipaddress.IPv4Address) and any(ip in net for net in SPECIAL_IPV4):
        return False
    return ip.is_global and not ip.is_multicast


def _loopback(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%")[0])
    return ip.is_loopback


def parse(endpoint: str, allow_local: bool) -> tuple[str, int]:
    """The host and port of an acceptable-looking endpoint (before resolving)."""
    if len(endpoint) > MAX_ENDPOINT:
        raise EndpointRefused(
            N_("the push endpoint is longer than %(most)s characters"), most=MAX_ENDPOINT
        )
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError:
        raise EndpointRefused(N_("the push endpoint is not a valid URL")) from None
    host = (parts.hostname or "").lower()
    if not host:
        raise EndpointRefused(N_("the push endpoint has no host"))
    if parts.username is not None or parts.password is not None:
        raise EndpointRefused(N_("the push endpoint must not carry a user name or password"))
    if parts.fragment:
        raise EndpointRefused(N_("the push endpoint must not have a #fragment"))
    if port == 0:
        raise EndpointRefused(N_("the push endpoint's port must not be 0"))
    local_ok = allow_local and host in LOCAL_NAMES
    if parts.scheme != "https" and not (local_ok and parts.scheme == "http"):
        raise EndpointRefused(N_("the push endpoint must be an https:// URL"))
    return host, port or (443 if parts.scheme == "https" else 80)


def _allowed(address: str, host: str, allow_local: bool) -> bool:
    return _public(address) or (allow_local and host in LOCAL_NAMES and _loopback(address))


async def check(endpoint: str, allow_local: bool) -> None:
    """Refuse ``endpoint`` unless every address its host resolves to is allowed."""
    host, port = parse(endpoint, allow_local)
    loop = asyncio.get_running_loop()
    try:
        infos = await asyncio.wait_for(
            loop.getaddrinfo(host, port, type=socket.SOCK_STREAM), timeout=10
        )
    except (OSError, TimeoutError):
        infos = []
    addresses = {str(info[4][0]) for info in infos}
    if not addresses:
        raise EndpointUnresolved(
            N_("the push endpoint's host %(host)s does not resolve"), host=host
        )
    for address in addresses:
        if not _allowed(address, host, allow_local):
            raise EndpointRefused(
                N_("the push endpoint's host %(host)s is not on the public internet (%(address)s)"),
                host=host,
                address=address,
            )


class PublicResolver(AbstractResolver):
    """aiohttp's resolver, keeping only the addresses ``check`` allows: a host
    whose DNS answer changed to a private address since the check gets no
    connection at all."""

    def __init__(self, allow_local: bool) -> None:
        self.allow_local = allow_local
        self.inner = DefaultResolver()

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        found = await self.inner.resolve(host, port, family)
        kept = [r for r in found if _allowed(r["host"], host.lower(), self.allow_local)]
        if not kept:
            raise OSError(f"{host} resolves to no public address")
        return kept

    async def close(self) -> None:
        await self.inner.close()
