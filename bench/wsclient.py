"""A small WebSocket client for the load generator (bench/load.py --client light).

The `websockets` library parses every frame in Python through several layers; with
4,000 sockets open (1,000 tables of four people) the generator then took 60% of a
core beside the server's 70%, on a 2-core machine, and could not tell the server's
limit from its own. This client does only what the generator needs, on an asyncio
protocol: the opening handshake, text frames in and out, replies to the server's
pings, the close code, and ``permessage-deflate`` (RFC 7692) on what it receives,
which browsers ask for too, so the server compresses its frames as it would for
them. What it sends is never compressed (a client may choose so per message).

It is a test tool, not a general client: no TLS, no extensions other than deflate.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import os
import struct
import zlib
from collections import deque
from collections.abc import AsyncIterator
from urllib.parse import urlsplit

_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
_TEXT, _BINARY, _CONT, _CLOSE, _PING, _PONG = 0x1, 0x2, 0x0, 0x8, 0x9, 0xA
_TAIL = b"\x00\x00\xff\xff"


class HandshakeError(ConnectionError):
    """The server did not switch to the WebSocket protocol."""


def _mask(payload: bytes) -> bytes:
    key = os.urandom(4)
    n = len(payload)
    if not n:
        return key
    stream = (key * (n // 4 + 1))[:n]
    return key + (int.from_bytes(payload, "big") ^ int.from_bytes(stream, "big")).to_bytes(
        n, "big")


def frame(opcode: int, payload: bytes) -> bytes:
    """A masked, final client frame."""
    n = len(payload)
    if n < 126:
        head = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
    elif n < 1 << 16:
        head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
    else:
        head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
    return head + _mask(payload)


class _Protocol(asyncio.Protocol):
    def __init__(self, key: str) -> None:
        self.key = key
        self.buf = bytearray()
        self.handshake: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self.messages: deque[str] = deque()
        self.waiter: asyncio.Future[None] | None = None
        self.transport: asyncio.Transport | None = None
        self.inflate: zlib._Decompress | None = None
        self.takeover = True
        self.wbits = 15
        self.parts: list[bytes] = []
        self.compressed = False
        self.closed = False
        self.close_code: int | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  # uvloop's is no subclass

    def data_received(self, data: bytes) -> None:
        self.buf += data
        if not self.handshake.done():
            end = self.buf.find(b"\r\n\r\n")
            if end < 0:
                return
            head = bytes(self.buf[:end])
            del self.buf[: end + 4]
            self.handshake.set_result(head)
        self._frames()

    def _frames(self) -> None:
        buf = self.buf
        while len(buf) >= 2:
            b0, b1 = buf[0], buf[1]
            n, at = b1 & 0x7F, 2
            if n == 126:
                if len(buf) < 4:
                    return
                n, at = struct.unpack_from("!H", buf, 2)[0], 4
            elif n == 127:
                if len(buf) < 10:
                    return
                n, at = struct.unpack_from("!Q", buf, 2)[0], 10
            if len(buf) < at + n:
                return
            payload = bytes(buf[at: at + n])
            del buf[: at + n]
            self._frame(b0 & 0x80, b0 & 0x40, b0 & 0x0F, payload)

    def _frame(self, fin: int, rsv1: int, opcode: int, payload: bytes) -> None:
        if opcode == _PING:
            self.send(_PONG, payload)
            return
        if opcode == _PONG:
            return
        if opcode == _CLOSE:
            self.close_code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
            if not self.closed:
                self.send(_CLOSE, payload[:2])
            self._end()
            return
        if opcode in (_TEXT, _BINARY):
            self.parts, self.compressed = [], bool(rsv1)
        self.parts.append(payload)
        if not fin:
            return
        data = b"".join(self.parts)
        self.parts = []
        if self.compressed:
            if self.inflate is None or not self.takeover:
                self.inflate = zlib.decompressobj(-self.wbits)
            data = self.inflate.decompress(data + _TAIL)
        self.messages.append(data.decode())
        self._wake()

    def send(self, opcode: int, payload: bytes) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(frame(opcode, payload))

    def _wake(self) -> None:
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)

    def _end(self) -> None:
        self.closed = True
        if self.transport is not None:
            self.transport.close()
        self._wake()
        if not self.handshake.done():
            self.handshake.set_exception(HandshakeError("the connection closed first"))

    def connection_lost(self, exc: Exception | None) -> None:
        if self.close_code is None:
            self.close_code = 1006
        self._end()


class Socket:
    """An open WebSocket: ``await send(text)``, ``async for text in socket``,
    ``close_code`` once the server closed it."""

    def __init__(self, proto: _Protocol) -> None:
        self._p = proto

    @property
    def close_code(self) -> int | None:
        return self._p.close_code

    async def send(self, text: str) -> None:
        if self._p.closed:
            raise ConnectionError(f"the socket is closed (code {self._p.close_code})")
        self._p.send(_TEXT, text.encode())

    def __aiter__(self) -> AsyncIterator[str]:
        return self._messages()

    async def _messages(self) -> AsyncIterator[str]:
        p = self._p
        while True:
            while p.messages:
                yield p.messages.popleft()
            if p.closed:
                return
            p.waiter = asyncio.get_running_loop().create_future()
            await p.waiter

    async def close(self) -> None:
        p = self._p
        if not p.closed:
            p.send(_CLOSE, struct.pack("!H", 1000))
            p.closed = True
            if p.transport is not None:
                p.transport.close()


class connect:
    """``async with connect("ws://host:port/path") as socket: ...``"""

    def __init__(self, url: str, open_timeout: float = 60) -> None:
        self.url = url
        self.open_timeout = open_timeout
        self.socket: Socket | None = None

    async def __aenter__(self) -> Socket:
        parts = urlsplit(self.url)
        if parts.scheme != "ws":
            raise ValueError(f"only ws:// addresses, not {self.url!r}")
        key = base64.b64encode(os.urandom(16)).decode()
        loop = asyncio.get_running_loop()
        host, port = parts.hostname or "127.0.0.1", parts.port or 80
        _, proto = await asyncio.wait_for(
            loop.create_connection(lambda: _Protocol(key), host, port), self.open_timeout)
        assert proto.transport is not None
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        proto.transport.write(
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n"
            "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n"
            "\r\n".encode())
        head = await asyncio.wait_for(proto.handshake, self.open_timeout)
        lines = head.decode("latin-1").split("\r\n")
        if not lines[0].startswith("HTTP/1.1 101"):
            proto.transport.close()
            raise HandshakeError(f"the server answered {lines[0]!r}")
        headers = {k.strip().lower(): v.strip() for k, _, v in
                   (line.partition(":") for line in lines[1:])}
        accept = base64.b64encode(hashlib.sha1(key.encode() + _GUID).digest()).decode()
        if headers.get("sec-websocket-accept") != accept:
            proto.transport.close()
            raise HandshakeError("the server's Sec-WebSocket-Accept is wrong")
        ext = headers.get("sec-websocket-extensions", "")
        if ext.startswith("permessage-deflate"):
            params = dict(p.strip().partition("=")[::2] for p in ext.split(";")[1:])
            proto.takeover = "server_no_context_takeover" not in params
            proto.wbits = int(params.get("server_max_window_bits") or 15)
        self.socket = Socket(proto)
        return self.socket

    async def __aexit__(self, *exc: object) -> None:
        if self.socket is not None:
            await self.socket.close()
