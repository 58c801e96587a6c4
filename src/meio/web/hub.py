"""Every table this server process has in memory, and what they share.

The :class:`Hub` loads a table from the database when someone asks for it, puts
back one that was evicted while a client said hello, drops idle ones, resumes at
start-up the tables that need an actor, and closes the tables whose time is up.
It keeps what the tables share (:class:`~meio.web.table.Services`): the settings,
the store and its group-commit writer, the think pool, the per-address and
per-seat limits (the chat's too), and the link to the other server processes, a
:class:`~meio.web.group.Group` that the app hands in (:class:`meio.web.cluster.Cluster`).

Each table in memory is a :class:`Room`: the :class:`~meio.web.table.LiveTable`
and its collaborators, the seating, the auto-player and the adviser.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from meio.web import metrics as M
from meio.web import think
from meio.web.advice import Adviser
from meio.web.autoplay import AutoPlayer
from meio.web.chat import BURST as CHAT_BURST
from meio.web.chat import WINDOW_S as CHAT_WINDOW_S
from meio.web.group import Group
from meio.web.limits import Caps, KeyedLimiter
from meio.web.rated import RatingStore
from meio.web.seating import Seating
from meio.web.services import Connection, Services
from meio.web.settings import Settings
from meio.web.store import Store, TableInfo
from meio.web.table import LiveTable
from meio.web.writer import Writer

log = logging.getLogger("meio.web")

#: seconds between two passes that close the tables whose time is up
SWEEP_EVERY_S = 60.0


@dataclass(eq=False, slots=True)
class Room:
    """One table in memory: the live table and the collaborators that work on it."""

    table: LiveTable
    seating: Seating
    auto: AutoPlayer
    adviser: Adviser

    @classmethod
    def open(cls, services: Services, info: TableInfo) -> Room:
        table = LiveTable(services, info)
        return cls(table, Seating(table), AutoPlayer(table), Adviser(table))

    @property
    def id(self) -> str:
        return self.table.info.id

    def busy(self) -> bool:
        """Whether anything runs for this table here (it must not be evicted)."""
        return self.table.busy() or self.auto.busy()

    def close(self) -> None:
        self.auto.close()
        self.table.close()


class Hub:
    """Every table this server has in memory, loaded from the database on demand."""

    def __init__(self, settings: Settings, store: Store,
                 group: Callable[[Hub], Group]) -> None:
        """``group`` makes this process's link to the others, given the hub."""
        self.settings = settings
        self.store = store
        self.tables: dict[str, Room] = {}
        self.join_limiter = KeyedLimiter(settings.join_rate_per_min / 60, settings.join_burst)
        self.bad_hello_limiter = KeyedLimiter(settings.bad_hello_rate_per_min / 60,
                                              settings.bad_hello_burst)
        #: wrong tokens and codes tried on one table, from any address
        self.bad_hello_table_limiter = KeyedLimiter(settings.bad_hello_table_rate_per_min / 60,
                                                    settings.bad_hello_table_burst)
        #: ``/api/mine`` and ``/api/history`` per address
        self.lookup_limiter = KeyedLimiter(settings.lookup_rate_per_min / 60,
                                           settings.lookup_burst)
        #: open WebSockets, in all and per client address
        self.sockets = Caps(settings.max_sockets, settings.max_sockets_per_address)
        self._lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()
        self._sweeper: asyncio.Task[None] | None = None
        #: stores the accepted actions of every table, several per transaction
        self.writer = Writer(store)
        #: where bots think and the advisor works, apart from the database's threads
        self.think = think.ThinkPool(settings.think_processes, settings.think_threads,
                                     settings.think_nice, warm=settings.warm_core)
        #: the other server processes: live fan-out, leases, eviction
        self.group = group(self)
        self.services = Services(
            settings=settings, store=store, writer=self.writer, think=self.think,
            group=self.group, spawn=self.spawn,
            resume_limiter=KeyedLimiter(settings.resume_rate_per_min / 60,
                                        settings.resume_burst),
            # each seat's allowance: CHAT_BURST messages at once, then one every
            # CHAT_WINDOW_S / CHAT_BURST seconds
            chat_limiter=KeyedLimiter(CHAT_BURST / CHAT_WINDOW_S, CHAT_BURST),
            ratings=RatingStore(store.engine),
        )

    def spawn(self, coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Run a background task, logging (never swallowing) its failure."""
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)

        def done(t: asyncio.Task[None]) -> None:
            self._tasks.discard(t)
            if not t.cancelled() and t.exception() is not None:
                log.error("background task failed", exc_info=t.exception())

        task.add_done_callback(done)
        return task

    async def get(self, table_id: str) -> Room | None:
        """The table in memory, loaded from the database if need be (None: no such
        table)."""
        async with self._lock:
            room = self.tables.get(table_id)
            if room is not None:
                room.table.touch()
                return room
            info = await asyncio.to_thread(self.store.table, table_id)
            if info is None:
                return None
            room = Room.open(self.services, info)
            async with room.table.lock:
                await room.table.load()
            self.tables[table_id] = room
            M.TABLES.inc()
        if self.group.live:
            # news from the other processes reaches it from now on; what was committed
            # while it loaded is read once more, and who sits there elsewhere is asked
            async with room.table.lock:
                await room.table.catch_up_locked()
            self.group.table_loaded(table_id)
        return room

    async def reload(self, table_id: str) -> None:
        """Seats of a table changed in the database outside its seating (an account
        deleted): the table here, if in memory, and on the other processes rereads them."""
        room = self.tables.get(table_id)
        if room is not None:
            async with room.table.lock:
                await room.table.catch_up_locked()
        self.group.table_changed(table_id)

    async def attach(
        self, room: Room, conn: Connection, since_match: str | None, since_seq: int | None,
        address: str = "?",
    ) -> Room:
        """Add a connection to ``room``'s table (see :meth:`LiveTable.attach`).

        Returns the room that took the connection: ``room``, or, when it was evicted
        while the client said hello and the table has been loaded afresh since, that
        fresh one.
        """
        live, stale = await self._readmit(room)
        if live is not room:
            return await self.attach(live, conn, since_match, since_seq, address)
        await room.table.attach(conn, since_match, since_seq, address, stale)
        return room

    async def _readmit(self, room: Room) -> tuple[Room, bool]:
        """The room in use for ``room``'s table: ``room`` itself, put back if it was
        evicted and nothing replaced it (then True: it may have missed news), or the
        one that replaced it."""
        async with self._lock:
            live = self.tables.get(room.id)
            if live is None:
                self.tables[room.id] = room
                room.table.touch()
                M.TABLES.inc()
                self.group.table_loaded(room.id)
                return room, True
            return live, False

    async def evict(self, room: Room) -> bool:
        """Drop an idle table from memory (it is reloaded when next asked for)."""
        async with self._lock:
            if self.tables.get(room.id) is not room or room.busy() or room.table.lock.locked():
                return False
            del self.tables[room.id]
            room.table.left_memory()
            M.TABLES.dec()
            M.EVICTIONS.inc()
            self.group.table_unloaded(room.id)
            return True

    async def start(self) -> None:
        """Load every table that needs an actor (bots, a turn timer, a match to start)
        and that no other process acts for: they resume. The others are loaded when
        someone asks for them (or, should their process die, when its lease runs out)."""
        await self.group.start()
        elsewhere = await self.group.held_elsewhere()
        for info in await asyncio.to_thread(self.store.tables_to_resume):
            if info.id in elsewhere:
                continue
            room = await self.get(info.id)
            if room is not None:
                await room.seating.ensure_started()
        self._sweeper = self.spawn(self._sweep())

    async def _sweep(self) -> None:
        """Close the tables whose time is up, and rate the finished matches of rated
        tables that a stop or crash left unrated, now and every ``SWEEP_EVERY_S``."""
        s = self.settings
        while True:
            try:
                ratings = self.services.ratings
                for match_id in await asyncio.to_thread(ratings.pending):
                    await asyncio.to_thread(ratings.rate_match, match_id)
                closed = await asyncio.to_thread(self.store.close_expired, time.time(),
                                                 s.finished_ttl_s, s.waiting_ttl_s,
                                                 s.stalled_ttl_s)
                for table_id in closed:
                    room = self.tables.get(table_id)
                    if room is not None:
                        async with room.table.lock:
                            await room.table.load()
                if closed:
                    log.info("closed %d tables whose time was up", len(closed))
            except Exception:
                log.exception("closing the expired tables failed; trying again later")
            await asyncio.sleep(SWEEP_EVERY_S)

    async def stop(self) -> None:
        await self.group.stop()
        for room in list(self.tables.values()):
            room.close()
        self.think.close()
        M.TABLES.dec(len(self.tables))
        for task in list(self._tasks):
            task.cancel()
        with contextlib.suppress(Exception):
            await self.writer.flush()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
