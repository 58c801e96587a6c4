"""Guards on raw connections, below the application: uvicorn's HTTP protocol with a
header timeout and connection caps (``meio serve`` uses it).

uvicorn holds a connection that never finishes its request headers for as long as
the client likes: 2,000 half-sent requests were held for over 70 s, and 1,100 of
them (with 1,024 open files) made every new client get a reset. The protocol of
:func:`guarded_http`

* closes a connection whose request line and headers are not complete within
  ``header_timeout_s`` of its opening (or of the start of its next request);
* refuses (closes at once) a connection over ``max_connections`` open in all
  (WebSockets included), or over ``max_per_address`` HTTP connections still being
  read from one peer address. A peer listed in ``trusted`` (the proxy) is not
  capped per address: behind it the WebSocket caps of :mod:`meio.web.ws`, which see
  the forwarded address, apply.
"""

from __future__ import annotations

import asyncio
import ipaddress
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


def guarded_http(header_timeout_s: float, max_connections: int, max_per_address: int,
                 trusted: str = "") -> type[asyncio.Protocol]:
    """An HTTP protocol class for ``uvicorn.Config(http=...)`` with these guards
    (each call makes a class with its own counts)."""
    exempt = {h.strip() for h in trusted.split(",") if h.strip()}
    by_address: dict[str, int] = {}

    def is_exempt(host: str) -> bool:
        if "*" in exempt or host in exempt:
            return True
        for net in exempt:
            if "/" in net:
                try:
                    if ipaddress.ip_address(host) in ipaddress.ip_network(net, strict=False):
                        return True
                except ValueError:
                    continue
        return False

    class GuardedHttp(HttpToolsProtocol):
        _peer: str | None = None
        _header_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            host = self.client[0] if self.client else None
            if len(self.connections) > max_connections:
                transport.abort()
                return
            if host is not None and not is_exempt(host):
                if by_address.get(host, 0) >= max_per_address:
                    transport.abort()
                    return
                by_address[host] = by_address.get(host, 0) + 1
                self._peer = host
            self._arm()

        def _arm(self) -> None:
            if self._header_timer is None:
                self._header_timer = self.loop.call_later(header_timeout_s, self._too_slow)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _too_slow(self) -> None:
            self._header_timer = None
            if not self.transport.is_closing():
                self.transport.write(b"HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\n"
                                     b"connection: close\r\n\r\n")
                self.transport.close()

        def _forget_peer(self) -> None:
            if self._peer is not None:
                left = by_address.get(self._peer, 1) - 1
                if left <= 0:
                    by_address.pop(self._peer, None)
                else:
                    by_address[self._peer] = left
                self._peer = None

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._arm()

        def on_headers_complete(self) -> None:
            self._disarm()
            super().on_headers_complete()

        def handle_websocket_upgrade(self) -> None:
            # a WebSocket is counted by the application from now on
            self._disarm()
            self._forget_peer()
            super().handle_websocket_upgrade()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            self._forget_peer()
            super().connection_lost(exc)

    return GuardedHttp


def open_files_limit() -> int:
    """The soft limit on this process's open files (a cap on connections must stay
    under it, or accepting fails for everyone)."""
    import resource

    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


def uvicorn_guards(settings: Any) -> dict[str, Any]:
    """The ``uvicorn.Config`` arguments for these guards from the server's settings."""
    import os

    cap = min(settings.max_tcp_connections, max(64, open_files_limit() - 128))
    trusted = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
    return {"http": guarded_http(settings.header_timeout_s, cap,
                                 settings.max_tcp_per_address, trusted)}
