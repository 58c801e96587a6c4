"""Live fan-out between server processes that share one database.

A process that accepts an action commits it, sends it to its own clients, then
publishes it on the bus; every other process hears it within milliseconds and
sends it to its clients. On PostgreSQL the bus is the database's own
``LISTEN``/``NOTIFY`` (no extra component to run); on SQLite, where one process
serves alone, the bus is silent.

Messages are small JSON objects (:mod:`meio.web.cluster` lists them). A process
sends them in batches, one ``NOTIFY`` each: ``{"origin": name, "batch": [message,
...]}`` (``origin`` names the process, so that it skips its own), each payload kept
under PostgreSQL's 8,000-byte limit. For one version the bus also reads and sends
the form of the version before (one-letter keys, ``{"o", "b"}``, beside this
version's in each payload), so that the old and the new replicas of a rolling
upgrade understand one another (docs/web.md).
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
        #: (this version's form, the version before's or None, who waits for it)
        self._outbox: list[tuple[str, str | None, asyncio.Future[None] | None]] = []
        self._sender: asyncio.Task[None] | None = None
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()
        self.received = 0
        #: whether a payload that could not be read was seen (warned once)
        self.unreadable = False

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
        messages = decode(payload, self.origin)
        if messages is None:
            if not self.unreadable:
                log.warning("bus: a payload that is no message of this server version nor "
                            "of the one before was ignored (is a much older server on "
                            "this database?)")
            self.unreadable = True
            return
        for one in messages:
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
        earlier = to_earlier_form(message)
        self._outbox.append((_dumps(message), None if earlier is None else _dumps(earlier), fut))
        if self._sender is None:
            self._sender = asyncio.get_running_loop().create_task(self._send_all())

    async def _send_all(self) -> None:
        try:
            while self._outbox:
                payload, count = next_batch(self.origin, [(t, e) for t, e, _ in self._outbox])
                batch = self._outbox[:count]
                del self._outbox[:count]
                await self._notify(payload)
                for _, _, fut in batch:
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


def _dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))


def next_batch(origin: str, items: Sequence[tuple[str, str | None]]) -> tuple[str, int]:
    """The payload of one NOTIFY from ``origin`` carrying the first of ``items`` (each
    a message encoded as JSON, and the same in the form of the version before, or
    None), and how many it carries: as many as fit under :data:`MAX_PAYLOAD` bytes,
    and at least one. For one version a payload carries both forms, ``batch`` for
    this version and ``b`` for the one before, so that the replicas of a rolling
    upgrade understand one another whichever runs which.

    >>> next_batch("a", [('{"type":"x"}', '{"k":"x"}'), ('{"type":"y"}', None)])
    ('{"origin":"a","batch":[{"type":"x"},{"type":"y"}],"o":"a","b":[{"k":"x"}]}', 2)
    """
    name = json.dumps(origin)
    size, count = len(f'{{"origin":{name},"batch":[],"o":{name},"b":[]}}'), 0
    for text, earlier in items:
        more = len(text.encode()) + 1 + (0 if earlier is None else len(earlier.encode()) + 1)
        if count and size + more > MAX_PAYLOAD:
            break
        size += more
        count += 1
    chosen = items[:count]
    return (f'{{"origin":{name},"batch":[{",".join(t for t, _ in chosen)}],"o":{name},'
            f'"b":[{",".join(e for _, e in chosen if e is not None)}]}}', count)


#: the messages of the version before this one, whose keys were letters (``p`` a seat
#: in one message and a period in another): their type, and their keys in this
#: version's words. Read and sent for one version, so that the old and the new
#: replicas of a rolling upgrade understand one another (docs/web.md); the next
#: version drops it.
_EARLIER_FORMS: dict[str, tuple[str, dict[str, str]]] = {
    "ev": ("event", {"t": "table", "m": "match", "s": "seq", "p": "seat", "a": "action",
                     "r": "source", "c": "client_id"}),
    "tb": ("reload", {"t": "table"}),
    "on": ("online", {"t": "table"}),
    "hb": ("beat", {"p": "period"}),
    "who": ("who", {"t": "table", "n": "token"}),
    "here": ("here", {"n": "token"}),
    "rm": ("rematch", {"t": "table", "m": "match", "p": "seat"}),
    "chat": ("chat", {"t": "table", "m": "match", "p": "seat", "n": "kind", "x": "text"}),
    "rel": ("released", {"t": "tables"}),
    "bye": ("bye", {}),
}


def from_earlier_form(message: dict[str, Any]) -> dict[str, Any] | None:
    """A message of the version before this one in this version's words (None: not
    one of its messages).

    >>> from_earlier_form({"k": "rm", "t": "T", "m": "M", "p": 2})
    {'type': 'rematch', 'table': 'T', 'match': 'M', 'seat': 2}
    >>> from_earlier_form({"k": "hb", "p": 0.5})
    {'type': 'beat', 'period': 0.5}
    """
    form = _EARLIER_FORMS.get(str(message.get("k")))
    if form is None:
        return None
    kind, keys = form
    out: dict[str, Any] = {"type": kind}
    for key, value in message.items():
        if key not in ("k", "o"):
            out[keys.get(key, key)] = value
    return out


def to_earlier_form(message: dict[str, Any]) -> dict[str, Any] | None:
    """A message in the form of the version before this one (None: it had none).

    >>> to_earlier_form({"type": "event", "table": "T", "seq": 4, "seat": 1, "at": 2.0})
    {'k': 'ev', 't': 'T', 's': 4, 'p': 1, 'at': 2.0}
    """
    kind = message.get("type")
    for old, (new, keys) in _EARLIER_FORMS.items():
        if new == kind:
            back = {word: letter for letter, word in keys.items()}
            return {"k": old, **{back.get(k, k): v for k, v in message.items() if k != "type"}}
    return None


def decode(payload: str, origin: str) -> list[dict[str, Any]] | None:
    """The messages of one NOTIFY payload for process ``origin`` to act on: none of
    its own, each with its sender's name under ``origin``; an item that is no
    message is left out. The earlier version's payloads (``{"o", "b"}``, or one
    message alone) are read too, their messages put in this version's words
    (:func:`from_earlier_form`). None: no payload of either version.

    >>> decode('{"origin":"b","batch":[{"type":"x"},5]}', "a")
    [{'type': 'x', 'origin': 'b'}]
    >>> decode('{"o":"b","b":[{"k":"tb","t":"T"}]}', "a")
    [{'type': 'reload', 'table': 'T', 'origin': 'b'}]
    >>> decode('{"origin":"a","batch":[{"type":"x"}]}', "a"), decode('[1]', "a")
    ([], None)
    """
    try:
        message = json.loads(payload)
    except ValueError:
        return None
    if not isinstance(message, dict):
        return None
    # this version's form first; a payload of the version before has only "o"
    sender, batch = message.get("origin"), message.get("batch")
    earlier = sender is None and isinstance(message.get("o"), str)
    if earlier:
        sender, batch = message["o"], message.get("b")
        if not isinstance(batch, list):
            batch = [message]  # one message alone, as the version before that sent them
    if not isinstance(sender, str) or not isinstance(batch, list):
        return None
    if sender == origin:
        return []
    out = []
    for one in batch:
        if isinstance(one, dict) and earlier:
            one = from_earlier_form(one)
        if isinstance(one, dict):
            one["origin"] = sender
            out.append(one)
    return out


def bus_for(database_url: str, origin: str) -> Bus:
    """The bus that fits a database: PostgreSQL's NOTIFY, else the silent one."""
    if database_url.startswith("postgresql"):
        from sqlalchemy.engine import make_url

        url = make_url(database_url).set(drivername="postgresql")
        return PostgresBus(origin, url.render_as_string(hide_password=False))
    return Bus(origin)
