"""Live fan-out between server processes that share one database.

A process that accepts an action commits it, sends it to its own clients, then
publishes it on the bus; every other process hears it within milliseconds and
sends it to its clients. On PostgreSQL the bus is the database's own
``LISTEN``/``NOTIFY`` (no extra component to run); on SQLite, where one process
serves alone, the bus is silent.

Messages are small JSON objects. A process sends them in batches, one
``NOTIFY`` each: ``{"o": origin, "b": [message, ...]}`` (``o`` names the process,
so that it skips its own), each payload kept under PostgreSQL's 8,000-byte limit.
While one batch is on its way, what is published meanwhile waits for the next: a
quiet server sends each message alone at once, a busy one sends many per round
trip, in the order they were published. The bus is a fast path, never the source
of truth: a receiver that sees a gap in the action numbers, or a bus that
reconnects after losing its connection, catches up from the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

log = logging.getLogger("meio.web.bus")

#: the PostgreSQL channel the servers talk on
CHANNEL = "meio"
#: the largest NOTIFY payload sent, in bytes (PostgreSQL refuses 8,000 and more)
MAX_PAYLOAD = 7500

Handler = Callable[[dict[str, Any]], Awaitable[None]]
Resync = Callable[[], Awaitable[None]]


class Bus:
    """The bus of a lone process: publishing goes nowhere."""

    #: whether other processes may be listening (False: skip building messages)
    live = False

    def __init__(self, origin: str) -> None:
        self.origin = origin

    async def start(self, handler: Handler, resync: Resync) -> None:
        """Begin delivering other processes' messages to ``handler``; ``resync`` is
        called after a lost connection is restored (messages may have been missed)."""

    async def publish(self, message: dict[str, Any]) -> None:
        """Send ``message`` to every other process; returns once it is sent."""

    def post(self, message: dict[str, Any]) -> None:
        """Send ``message`` to every other process, without waiting for it to go."""

    async def stop(self) -> None:
        """Stop listening and close the connections."""


class PostgresBus(Bus):
    """``LISTEN``/``NOTIFY`` on the shared PostgreSQL database.

    One connection listens, one publishes (both in autocommit mode, so a ``NOTIFY``
    goes out at once). When the listening connection drops, it is reopened with a
    growing pause, and ``resync`` lets the hub catch up from the database.
    """

    live = True

    def __init__(self, origin: str, dsn: str) -> None:
        super().__init__(origin)
        self.dsn = dsn
        self._pub: Any = None
        #: encoded messages waiting for the next NOTIFY, each with what waits for it
        self._outbox: list[tuple[str, asyncio.Future[None] | None]] = []
        self._sender: asyncio.Task[None] | None = None
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()
        self.received = 0

    async def start(self, handler: Handler, resync: Resync) -> None:
        self._task = asyncio.get_running_loop().create_task(self._listen(handler, resync))
        # wait for the first LISTEN, so nothing published after start() is missed
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._ready.wait(), 10.0)

    async def _connect(self) -> Any:
        import psycopg

        return await psycopg.AsyncConnection.connect(self.dsn, autocommit=True)

    async def _listen(self, handler: Handler, resync: Resync) -> None:
        pause = 0.2
        first = True
        while True:
            conn = None
            try:
                conn = await self._connect()
                await conn.execute(f"LISTEN {CHANNEL}")
                self._ready.set()
                if not first:
                    log.warning("bus reconnected; catching up from the database")
                    await resync()
                first, pause = False, 0.2
                async for note in conn.notifies():
                    await self._deliver(note.payload, handler)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("bus connection lost (%s); retrying in %.1f s", exc, pause)
                first = False
            finally:
                if conn is not None:
                    with contextlib.suppress(Exception):
                        await conn.close()
            await asyncio.sleep(pause)
            pause = min(pause * 2, 5.0)

    async def _deliver(self, payload: str, handler: Handler) -> None:
        for one in decode(payload, self.origin):
            self.received += 1
            try:
                await handler(one)
            except Exception:
                log.exception("bus: handling a message failed")

    async def publish(self, message: dict[str, Any]) -> None:
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue(message, fut)
        await fut

    def post(self, message: dict[str, Any]) -> None:
        self._queue(message, None)

    def _queue(self, message: dict[str, Any], fut: asyncio.Future[None] | None) -> None:
        self._outbox.append((json.dumps(message, separators=(",", ":")), fut))
        if self._sender is None:
            self._sender = asyncio.get_running_loop().create_task(self._send_all())

    async def _send_all(self) -> None:
        try:
            while self._outbox:
                payload, count = next_batch(self.origin, [t for t, _ in self._outbox])
                batch = self._outbox[:count]
                del self._outbox[:count]
                await self._notify(payload)
                for _, fut in batch:
                    if fut is not None and not fut.done():
                        fut.set_result(None)
        finally:
            self._sender = None

    async def _notify(self, payload: str) -> None:
        for attempt in (1, 2):
            try:
                if self._pub is None or self._pub.closed:
                    self._pub = await self._connect()
                await self._pub.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))
                return
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self._pub = None
                if attempt == 2:
                    # the others catch up from the database on their next gap
                    log.warning("bus: publishing failed (%s)", exc)

    async def stop(self) -> None:
        if self._sender is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(self._sender), 5.0)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        if self._pub is not None:
            with contextlib.suppress(Exception):
                await self._pub.close()


def next_batch(origin: str, texts: Sequence[str]) -> tuple[str, int]:
    """The payload of one NOTIFY from ``origin`` carrying the first of ``texts``
    (messages encoded as JSON), and how many it carries: as many as fit under
    :data:`MAX_PAYLOAD` bytes, and at least one.

    >>> next_batch("a", ['{"k":"x"}', '{"k":"y"}'])
    ('{"o":"a","b":[{"k":"x"},{"k":"y"}]}', 2)
    """
    head = f'{{"o":{json.dumps(origin)},"b":['
    size, count = len(head) + 2, 0
    for text in texts:
        if count and size + len(text.encode()) + 1 > MAX_PAYLOAD:
            break
        size += len(text.encode()) + 1
        count += 1
    return head + ",".join(texts[:count]) + "]}", count


def decode(payload: str, origin: str) -> list[dict[str, Any]]:
    """The messages of one NOTIFY payload for process ``origin`` to act on: none of
    its own, each with its sender's name under ``o``; what cannot be read is left
    out (and a payload that is not JSON logged).

    >>> decode('{"o":"b","b":[{"k":"x"},5]}', "a"), decode('{"o":"a","b":[{"k":"x"}]}', "a")
    ([{'k': 'x', 'o': 'b'}], [])
    """
    try:
        message = json.loads(payload)
    except ValueError:
        log.warning("bus: a message that is not JSON was ignored")
        return []
    if not isinstance(message, dict) or message.get("o") == origin:
        return []
    batch = message.get("b")
    out = []
    # a batch, or one message on its own (as older servers sent them)
    for one in batch if isinstance(batch, list) else [message]:
        if isinstance(one, dict):
            one["o"] = message.get("o")
            out.append(one)
    return out


def bus_for(database_url: str, origin: str) -> Bus:
    """The bus that fits a database: PostgreSQL's NOTIFY, else the silent one."""
    if database_url.startswith("postgresql"):
        from sqlalchemy.engine import make_url

        url = make_url(database_url).set(drivername="postgresql")
        return PostgresBus(origin, url.render_as_string(hide_password=False))
    return Bus(origin)
