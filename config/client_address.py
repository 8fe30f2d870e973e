"""The client's address behind trusted proxies: ASGI middleware for HTTP and WebSocket alike.

A proxy in front of daphne makes every client arrive from the proxy's address, so allauth's per-address limits
would lock out everyone at once. X-Forwarded-For is believed only from a peer in SVARA_TRUSTED_PROXIES (addresses
or networks): walking the header from the right, past the trusted proxies, the first other address is the client.
From any other peer the header is ignored, so a client cannot choose its own address.

(daphne's own `--proxy-headers` is not used: it takes the header's leftmost address from any peer, which is exactly
the address a client writes itself.)
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def networks(text: str) -> tuple[Network, ...]:
    """`"10.0.0.0/8, 127.0.0.1"` as networks; a bad entry is an error at start-up, not a silent hole."""
    found = []
    for part in text.split(","):
        if part.strip():
            try:
                found.append(ipaddress.ip_network(part.strip(), strict=False))
            except ValueError as error:
                raise ValueError(f"SVARA_TRUSTED_PROXIES: {part.strip()!r} is not an address or network") from error
    return tuple(found)


def _address(text: str):
    try:
        return ipaddress.ip_address(text.strip())
    except ValueError:
        return None


def _trusted(address, trusted: Iterable[Network]) -> bool:
    return address is not None and any(address in network for network in trusted)


def client_address(peer: str, forwarded_for: str | None, trusted: tuple[Network, ...]) -> str:
    """The client's address: the peer's, unless the peer is a trusted proxy that says whom it forwards for."""
    if not trusted or not forwarded_for or not _trusted(_address(peer), trusted):
        return peer
    for hop in reversed(forwarded_for.split(",")):
        address = _address(hop)
        if address is None:
            break  # a garbled header: the last proxy's own peer is all that is known
        if not _trusted(address, trusted):
            return str(address)
        peer = str(address)
    return peer


class TrustedProxies:
    def __init__(self, app, trusted: tuple[Network, ...]):
        self.app, self.trusted = app, trusted

    async def __call__(self, scope, receive, send):
        if self.trusted and scope["type"] in ("http", "websocket") and scope.get("client"):
            forwarded = b",".join(value for name, value in scope.get("headers", ()) if name == b"x-forwarded-for")
            host, port = scope["client"]
            address = client_address(host, forwarded.decode("latin-1") or None, self.trusted)
            if address != host:
                scope = {**scope, "client": (address, 0)}
        return await self.app(scope, receive, send)
