"""The WebSocket endpoint: one connection per browser tab, for a seat or a spectator."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from meio.web import chat
from meio.web.protocol import Message, ProtocolError, parse_message
from meio.web.runtime import Connection, Hub, TableRuntime

router = APIRouter()

#: seconds a new connection has to say hello
HELLO_TIMEOUT_S = 15.0


async def _writer(ws: WebSocket, conn: Connection) -> None:
    while True:
        frame = await conn.queue.get()
        if isinstance(frame, int):
            await ws.close(frame)
            return
        await ws.send_text(json.dumps(frame, separators=(",", ":")))


async def _read(ws: WebSocket) -> str:
    msg = await ws.receive()
    if msg["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(msg.get("code", 1000))
    text = msg.get("text")
    if text is None:
        return "\x00binary"
    return str(text)


@router.websocket("/ws/tables/{table_id}")
async def table_socket(ws: WebSocket, table_id: str) -> None:
    """Say hello with a seat token or the spectator code, then act, ask advice, rematch."""
    hub: Hub = ws.app.state.hub
    limit = hub.settings.max_message_bytes
    await ws.accept()
    rt = await hub.get(table_id) if len(table_id) <= 32 else None
    if rt is None:
        await ws.send_json({"type": "error", "code": "not_found", "reason": "no such table"})
        await ws.close(4404)
        return
    try:
        raw = await asyncio.wait_for(_read(ws), HELLO_TIMEOUT_S)
        hello = _parse(raw, limit)
        if hello.type != "hello":
            raise ProtocolError("bad_message", "say 'hello' first, with your seat token")
        seat = await _identify(rt, hello)
    except ProtocolError as exc:
        await ws.send_json({"type": "error", "code": exc.code, "reason": exc.reason})
        await ws.close(1009 if exc.code == "too_large" else 4403 if exc.code in (
            "bad_token", "bad_code") else 4400)
        return
    except (TimeoutError, WebSocketDisconnect):
        with contextlib.suppress(Exception):
            await ws.close(4408)
        return
    conn = Connection(seat)
    writer = asyncio.get_running_loop().create_task(_writer(ws, conn))
    await rt.attach(conn, hello.since_match, hello.since_seq)
    await chat.send_log(rt, conn)
    try:
        while True:
            raw = await _read(ws)
            try:
                msg = _parse(raw, limit)
            except ProtocolError as exc:
                conn.send({"type": "error", "code": exc.code, "reason": exc.reason})
                if exc.code == "too_large":
                    conn.close(1009)
                    break
                continue
            conn.send(await _handle(rt, conn, msg))
    except WebSocketDisconnect:
        pass
    finally:
        await rt.detach(conn)
        if not writer.done():
            # let queued frames (an error before a close) go out, then stop
            conn.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 2.0)
        writer.cancel()


def _parse(raw: str, limit: int) -> Message:
    if raw == "\x00binary":
        raise ProtocolError("bad_message", "send JSON text frames, not binary ones")
    return parse_message(raw, limit)


async def _identify(rt: TableRuntime, hello: Message) -> int | None:
    if hello.token is not None:
        seat = await asyncio.to_thread(rt.store.seat_of_token, rt.info.id, hello.token)
        if seat is None:
            raise ProtocolError("bad_token", "this seat token does not hold a seat at this table")
        return seat
    assert hello.spectate is not None
    if not secrets.compare_digest(hello.spectate, rt.info.spectate_code):
        raise ProtocolError("bad_code", "this spectator link is not valid for this table")
    return None


async def _handle(rt: TableRuntime, conn: Connection, msg: Message) -> dict[str, object]:
    assert msg.id is not None or msg.type in ("ping", "hello")
    if msg.type == "ping":
        return {"type": "pong"}
    if msg.type == "hello":
        return {"type": "error", "code": "bad_message", "reason": "already said hello"}
    if msg.type == "act":
        assert msg.action is not None and msg.seq is not None and msg.id is not None
        return await rt.submit(conn.seat, msg.action, expected_seq=msg.seq, client_id=msg.id)
    if msg.type in ("chat", "react"):
        return await chat.post(rt, conn.seat, msg)
    if msg.type == "advise":
        assert msg.id is not None
        return await rt.advise(msg.id, conn.seat, msg.pack)
    assert msg.id is not None
    return await rt.rematch(msg.id, conn.seat)
