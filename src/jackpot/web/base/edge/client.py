"""Who is on the other end of a request: its address and scheme, and the Host gate.

X-Forwarded-For / X-Forwarded-Proto are believed only from the proxies named in the
settings.

Every per-address limit (logins, sign-ups, resets, streams, guests) keys on
``client_bucket``: the ``client_address``, or its /64 network for IPv6. If any
peer could name its own address in a header, one client could spread its attempts
over as many "addresses" as it likes, or exhaust another person's allowance; so a
forwarded header counts only when the peer that sent it is a trusted proxy
(``JACKPOT_TRUSTED_PROXIES``, none by default), and then the address is the
right-most one in the chain that is not itself a trusted proxy (the left-most entries
are whatever the client wrote).

The pure-ASGI ``AllowedHosts`` gate is here too: it refuses a request whose Host
header names a site we are not (400), so nothing built from that header (a URL a
framework derives, an Origin comparison) can be steered by a stranger.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable
from typing import Any

from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from jackpot.web.base.env_values import IPNetwork

_ADDRESS = "jackpot.client_address"
_HTTPS = "jackpot.client_https"


def is_trusted_proxy(host: str, proxies: tuple[IPNetwork, ...]) -> bool:
    if not proxies:
        return False
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return False
    return any(ip in net for net in proxies)


def _header(scope: Scope, name: bytes) -> str | None:
    """All values of a header joined by commas (a proxy may add a second line)."""
    values = [v.decode("latin-1") for k, v in scope.get("headers", ()) if k == name]
    return ",".join(values) if values else None


def resolve_client(scope: Scope, proxies: tuple[IPNetwork, ...]) -> tuple[str, bool]:
    client = scope.get("client")
    peer = client[0] if client else "unknown"
    https = scope.get("scheme") in ("https", "wss")
    if not is_trusted_proxy(peer, proxies):
        return peer, https
    forwarded = _header(scope, b"x-forwarded-for")
    address = peer
    if forwarded:
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        # Right to left: each trusted proxy vouches for the hop before it.
        for hop in reversed(hops):
            address = hop
            if not is_trusted_proxy(hop, proxies):
                break
        try:
            address = str(ipaddress.ip_address(address))
        except ValueError:
            address = peer  # garbage from the proxy's client: keep the proxy's word
    proto = _header(scope, b"x-forwarded-proto")
    if proto:
        https = proto.split(",")[-1].strip().lower() == "https"
    return address, https


def _settings_proxies(scope: Scope) -> tuple[IPNetwork, ...]:
    app: Any = scope.get("app")
    settings = getattr(getattr(app, "state", None), "settings", None)
    return getattr(settings, "trusted_proxies", ())


def _resolved(scope: Scope) -> tuple[str, bool]:
    if _ADDRESS not in scope:
        scope[_ADDRESS], scope[_HTTPS] = resolve_client(scope, _settings_proxies(scope))
    return scope[_ADDRESS], scope[_HTTPS]


def client_address(request: HTTPConnection) -> str:
    """The client's IP address as far as we can trust it (remembered per request)."""
    return _resolved(request.scope)[0]


def address_bucket(address: str) -> str:
    """What a per-address limit counts under: an IPv4 address itself, an IPv6 one's
    /64 network. One IPv6 host is commonly given a whole /64, so counting each of its
    addresses apart would hand it billions of allowances."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network((ip, 64), strict=False))
    return str(ip)


def client_bucket(request: HTTPConnection) -> str:
    """The client's ``address_bucket``: the key of every per-address limit."""
    return address_bucket(client_address(request))


def client_https(request: HTTPConnection) -> bool:
    """Did the client reach us over https (directly, or says a trusted proxy)?"""
    return _resolved(request.scope)[1]


#: A Host header as RFC 9110 has it: a name, an IPv4 address or a bracketed IPv6 one,
#: and perhaps a port. Nothing else may follow: not a second Host (joined by a comma),
#: not a space and another name.
HOST = re.compile(r"(?:\[([0-9a-f:.]+)\]|([a-z0-9._-]+))(?::[0-9]{1,5})?")


def host_name(host_header: str) -> str | None:
    """``Example.org:8000`` -> ``example.org``; ``[::1]:8000`` -> ``::1``; None for a
    header that is not one host."""
    found = HOST.fullmatch(host_header.strip().lower())
    if found is None:
        return None
    return found.group(1) or found.group(2)


class AllowedHosts:
    """Refuse (400) a request whose Host header is not one of ``hosts`` ("*": any)."""

    def __init__(self, app: ASGIApp, hosts: Iterable[str]) -> None:
        self.app = app
        self.hosts = frozenset(h.lower() for h in hosts)
        self.any = "*" in self.hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or self.any:
            await self.app(scope, receive, send)
            return
        host = _header(scope, b"host")
        if host is None or host_name(host) in self.hosts:
            # No Host at all (HTTP/1.0): the framework falls back on the address
            # the server listens on, which no client chooses.
            await self.app(scope, receive, send)
            return
        response = JSONResponse(
            {
                "error": {
                    "code": "bad_host",
                    "message": "this server does not answer for that Host; "
                    "use the site's own address",
                }
            },
            status_code=400,
        )
        await response(scope, receive, send)
