"""The WebSocket endpoint: one connection per browser tab, for a seat or a spectator.

Every message a client sends is answered (``ack``, ``reject``, ``advice``, ``pong``
or an ``error`` with a ``code``), and nothing a client sends closes its socket
except a message over the size limit. Split advice runs in its own task, so a
slow hint never holds up the seat's moves.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from meio.web import chat
from meio.web import frames as F
from meio.web.advice import BUSY
from meio.web.auth import origin_allowed
from meio.web.hub import Hub, Room
from meio.web.limits import Bucket
from meio.web.protocol import (
    Act,
    Advise,
    Chat,
    Hello,
    Message,
    Ping,
    ProtocolError,
    Rematch,
    Report,
    parse_message,
)
from meio.web.refusal import ServerError
from meio.web.services import Connection
from meio.web.table import LiveTable, same_secret
from meio.web.think import client_of

router = APIRouter()
log = logging.getLogger("meio.web")

#: seconds a new connection has to say hello
HELLO_TIMEOUT_S = 15.0
#: the close code of a refused hello, by the error's code (any other: 4400)
CLOSE_CODES = {"too_large": 1009, "bad_token": 4403, "bad_code": 4403, "rate_limited": 4429,
               "too_many_connections": 4429, "invalid_text": 1007}


def error_frame(exc: ServerError) -> dict[str, Any]:
    """The ``error`` frame of a server error on the WebSocket (the HTTP side's answer
    is the app's handler): its code and its English reason, which the page translates
    by the code."""
    return F.error(exc.code, exc.detail)


async def _writer(ws: WebSocket, conn: Connection) -> None:
    while True:
        frame = await conn.queue.get()
        if isinstance(frame, int):
            await ws.close(frame)
            return
        await ws.send_text(frame if isinstance(frame, str) else F.encode(frame))


async def _read(ws: WebSocket) -> str:
    msg = await ws.receive()
    if msg["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(msg.get("code", 1000))
    text = msg.get("text")
    if text is None:
        return "\x00binary"
    return str(text)


def client_address(ws: WebSocket) -> str:
    """The address rate limits are kept for."""
    return ws.client.host if ws.client is not None else "?"


@router.websocket("/ws/tables/{table_id}")
async def table_socket(ws: WebSocket, table_id: str) -> None:
    """Say hello with a seat token or the spectator code, then act, ask advice, rematch."""
    hub: Hub = ws.app.state.hub
    if not origin_allowed(ws, hub.settings.allowed_origins, hub.settings.public_origin):
        # refused before the handshake completes: the browser sees HTTP 403
        await ws.close(4403)
        return
    await ws.accept()
    address = client_address(ws)
    if not hub.sockets.open(address):
        await ws.send_json(F.error("too_many_connections", "too many connections from your "
                                  "address or to this server: close some pages"))
        await ws.close(4429)
        return
    try:
        await _serve(ws, hub, table_id, address)
    finally:
        hub.sockets.close(address)


async def _serve(ws: WebSocket, hub: Hub, table_id: str, address: str) -> None:
    settings = hub.settings
    limit = settings.max_message_bytes
    room = await hub.get(table_id) if len(table_id) <= 32 else None
    if room is None or room.table.info.closed:
        await ws.send_json(F.error("not_found", "no such table" if room is None else
                                   "this table has closed; its matches are in the history"))
        await ws.close(4404)
        return
    try:
        raw = await asyncio.wait_for(_read(ws), HELLO_TIMEOUT_S)
        hello = _parse(raw, limit)
        if not isinstance(hello, Hello):
            raise ProtocolError("bad_message", "say 'hello' first, with your seat token")
        seat = await _identify(hub, room.table, hello, address)
        if seat is None and room.table.spectators() >= settings.max_sockets_per_table:
            raise ProtocolError("too_many_connections", "this table has as many spectators "
                                                        "as it can take")
    except ProtocolError as exc:
        await ws.send_json(error_frame(exc))
        await ws.close(CLOSE_CODES.get(exc.code, 4400))
        return
    except (TimeoutError, WebSocketDisconnect):
        with contextlib.suppress(Exception):
            await ws.close(4408)
        return
    conn = Connection(seat)
    writer = asyncio.get_running_loop().create_task(_writer(ws, conn))
    room = await hub.attach(room, conn, hello.since_match, hello.since_seq, address)
    session = _Session(room, conn, Bucket(settings.message_rate, settings.message_burst),
                       address)
    await chat.send_log(room.table, conn)
    try:
        while True:
            raw = await _read(ws)
            if not await session.receive(raw, limit):
                break
    except WebSocketDisconnect:
        pass
    finally:
        session.stop()
        await room.table.detach(conn)
        if not writer.done():
            # let queued frames (an error before a close) go out, then stop
            conn.close()
            await asyncio.wait({writer}, timeout=2.0)
        writer.cancel()
        if writer.done() and not writer.cancelled():
            # a socket closed under the writer: nothing to tell. Not awaited, so that
            # its traceback does not take in this frame (a cycle through ``writer``
            # that kept the whole table alive until the collector's next full pass)
            writer.exception()


class _Session:
    """What one connection has in flight: its rate limit and its advice task."""

    def __init__(self, room: Room, conn: Connection, bucket: Bucket, address: str) -> None:
        self.room = room
        self.conn = conn
        self.bucket = bucket
        #: the client this connection's advice is charged to in the think pool
        self.client = client_of(address)
        self.advice: asyncio.Task[None] | None = None

    async def receive(self, raw: str, limit: int) -> bool:
        """Answer one message; False when the connection is to be closed."""
        conn = self.conn
        if not self.bucket.take():
            conn.send(F.error("rate_limited", "you are sending messages too fast: this one "
                                             "was dropped, slow down"))
            return True
        try:
            msg = _parse(raw, limit)
        except ProtocolError as exc:
            conn.send(error_frame(exc))
            if exc.code == "too_large":
                conn.close(1009)
                return False
            return True
        try:
            answer = await self.handle(msg)
        except ServerError as exc:
            # refused on purpose by whoever handled it: the client's error frame
            answer = error_frame(exc)
        except Exception:
            # a bug of ours, not the client's: say so, keep the socket, keep the details
            log.exception("table %s: a message could not be handled", self.room.id)
            answer = F.error("internal", "the server failed on this message; try again")
        if answer is not None:
            conn.send(answer)
        return True

    async def handle(self, msg: Message) -> dict[str, Any] | None:
        room, conn = self.room, self.conn
        if isinstance(msg, Ping):
            return F.pong()
        if isinstance(msg, Hello):
            return F.error("bad_message", "already said hello")
        if isinstance(msg, Act):
            return await room.table.submit(conn.seat, msg.action, expected_seq=msg.seq,
                                           client_id=msg.id)
        if isinstance(msg, Advise):
            if self.advice is not None and not self.advice.done():
                return room.table.refuse(msg.id, "busy", BUSY, conn.seat)
            self.advice = asyncio.get_running_loop().create_task(self._advise(msg))
            return None
        if isinstance(msg, Rematch):
            return await room.seating.rematch(msg.id, conn.seat)
        if isinstance(msg, Chat):
            return await chat.post(room.table, conn.seat, msg)
        if isinstance(msg, Report):
            return await chat.report(room.table, conn.seat, msg)
        raise TypeError(f"unhandled message {msg!r}")

    async def _advise(self, msg: Advise) -> None:
        try:
            answer = await self.room.adviser.advise(msg.id, self.conn.seat, msg.pack,
                                                    self.client)
        except Exception:
            log.exception("table %s: advice failed", self.room.id)
            answer = F.advice_failed(msg.id)
        self.conn.send(answer)

    def stop(self) -> None:
        if self.advice is not None:
            self.advice.cancel()


def _parse(raw: str, limit: int) -> Message:
    if raw == "\x00binary":
        raise ProtocolError("bad_message", "send JSON text frames, not binary ones")
    return parse_message(raw, limit)


async def _identify(hub: Hub, rt: LiveTable, hello: Hello, address: str) -> int | None:
    """The seat of a hello's token (None: a spectator with the right code).

    A right token or code always gets in. Wrong ones are counted for the address
    that sent them and for the table they were tried on; once either count is spent,
    wrong ones are refused (``rate_limited``) without a database read until the
    count refills (a wrong one refused then does not count).
    """
    if hello.token is not None:
        seat = rt.seat_of_token(hello.token)
        if seat is not None:
            return seat
        _not_locked(hub, rt, address)
        # a seat taken on another process a moment ago: the database knows
        seat = await asyncio.to_thread(rt.store.seat_of_token, rt.info.id, hello.token)
        if seat is None:
            _count_bad(hub, rt, address)
            raise ProtocolError("bad_token", "this seat token does not hold a seat at this table")
        return seat
    if hello.spectate is not None and same_secret(hello.spectate, rt.info.spectate_code):
        return None
    _not_locked(hub, rt, address)
    _count_bad(hub, rt, address)
    raise ProtocolError("bad_code", "this spectator link is not valid for this table")


def _not_locked(hub: Hub, rt: LiveTable, address: str) -> None:
    if not hub.bad_hello_limiter.peek(address):
        raise ProtocolError("rate_limited", "too many wrong seat tokens or spectator codes "
                                            "from your address: wait a minute")
    if not hub.bad_hello_table_limiter.peek(rt.info.id):
        raise ProtocolError("rate_limited", "too many wrong seat tokens or spectator codes "
                                            "were tried on this table: wait a minute")


def _count_bad(hub: Hub, rt: LiveTable, address: str) -> None:
    hub.bad_hello_limiter.take(address)
    hub.bad_hello_table_limiter.take(rt.info.id)
