"""Every table this server process has in memory, and what they share.

The :class:`Hub` loads a table from the database when someone asks for it, puts
back one that was evicted while a client said hello, drops idle ones, resumes at
start-up the tables that need an actor, and closes the tables whose time is up.
It keeps what the tables share: the settings, the store and its group-commit
writer, the think pool, the per-address and per-seat limits (the chat's too),
and the link to the other server processes (:mod:`meio.web.cluster`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from meio.web import metrics as M
from meio.web import think
from meio.web.chat import BURST as CHAT_BURST
from meio.web.chat import WINDOW_S as CHAT_WINDOW_S
from meio.web.limits import Caps, KeyedLimiter
from meio.web.runtime import TableRuntime
from meio.web.settings import Settings
from meio.web.store import Store
from meio.web.writer import Writer

log = logging.getLogger("meio.web")

#: seconds between two passes that close the tables whose time is up
SWEEP_EVERY_S = 60.0


class Hub:
    """Every table this server has in memory, loaded from the database on demand."""

    def __init__(self, settings: Settings, store: Store) -> None:
        self.settings = settings
        self.store = store
        self.tables: dict[str, TableRuntime] = {}
        self.join_limiter = KeyedLimiter(settings.join_rate_per_min / 60, settings.join_burst)
        self.bad_hello_limiter = KeyedLimiter(settings.bad_hello_rate_per_min / 60,
                                              settings.bad_hello_burst)
        #: wrong tokens and codes tried on one table, from any address
        self.bad_hello_table_limiter = KeyedLimiter(settings.bad_hello_table_rate_per_min / 60,
                                                    settings.bad_hello_table_burst)
        #: reconnections served as the events missed, per address (else a snapshot)
        self.resume_limiter = KeyedLimiter(settings.resume_rate_per_min / 60,
                                           settings.resume_burst)
        #: ``/api/mine`` and ``/api/history`` per address
        self.lookup_limiter = KeyedLimiter(settings.lookup_rate_per_min / 60,
                                           settings.lookup_burst)
        #: open WebSockets, in all and per client address
        self.sockets = Caps(settings.max_sockets, settings.max_sockets_per_address)
        #: each seat's chat allowance (keyed "table:seat"): CHAT_BURST messages at once,
        #: then one every CHAT_WINDOW_S / CHAT_BURST seconds
        self.chat_limiter = KeyedLimiter(CHAT_BURST / CHAT_WINDOW_S, CHAT_BURST)
        self._lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()
        self._sweeper: asyncio.Task[None] | None = None
        #: stores the accepted actions of every table, several per transaction
        self.writer = Writer(store)
        #: where bots think and the advisor works, apart from the database's threads
        self.think = think.ThinkPool(settings.think_processes, settings.think_threads,
                                     settings.think_nice, warm=settings.warm_core)
        from meio.web.cluster import Cluster

        #: the other server processes: live fan-out, leases, eviction
        self.cluster = Cluster(self)

    def spawn(self, coro: Any) -> asyncio.Task[None]:
        """Run a background task, logging (never swallowing) its failure."""
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)

        def done(t: asyncio.Task[None]) -> None:
            self._tasks.discard(t)
            if not t.cancelled() and t.exception() is not None:
                log.error("background task failed", exc_info=t.exception())

        task.add_done_callback(done)
        return task

    async def get(self, table_id: str) -> TableRuntime | None:
        async with self._lock:
            rt = self.tables.get(table_id)
            if rt is not None:
                rt.last_used = time.monotonic()
                return rt
            info = await asyncio.to_thread(self.store.table, table_id)
            if info is None:
                return None
            rt = TableRuntime(self, info)
            async with rt.lock:
                await rt.load()
            self.tables[table_id] = rt
            M.TABLES.inc()
        if self.cluster.bus.live:
            # news from the other processes reaches it from now on; what was committed
            # while it loaded is read once more, and who sits there elsewhere is asked
            async with rt.lock:
                await rt.catch_up_locked()
            self.cluster.table_loaded(rt)
        return rt

    async def readmit(self, rt: TableRuntime) -> tuple[TableRuntime, bool]:
        """The runtime in use for ``rt``'s table: ``rt`` itself, put back if it was
        evicted and nothing replaced it (then True: it may have missed news), or the
        one that replaced it."""
        async with self._lock:
            live = self.tables.get(rt.info.id)
            if live is None:
                self.tables[rt.info.id] = rt
                rt.evicted = False
                rt.last_used = time.monotonic()
                M.TABLES.inc()
                self.cluster.table_loaded(rt)
                return rt, True
            return live, False

    async def evict(self, rt: TableRuntime) -> bool:
        """Drop an idle table from memory (it is reloaded when next asked for)."""
        async with self._lock:
            if self.tables.get(rt.info.id) is not rt or rt.busy() or rt.lock.locked():
                return False
            del self.tables[rt.info.id]
            rt.evicted = True
            M.TABLES.dec()
            M.EVICTIONS.inc()
            return True

    async def start(self) -> None:
        """Load every table that needs an actor (bots, a turn timer, a match to start):
        they resume. The others are loaded when someone asks for them."""
        await self.cluster.start()
        for info in await asyncio.to_thread(self.store.tables_to_resume):
            rt = await self.get(info.id)
            if rt is not None:
                await rt.ensure_started()
        self._sweeper = self.spawn(self._sweep())

    async def _sweep(self) -> None:
        """Close the tables whose time is up, now and every ``SWEEP_EVERY_S``."""
        s = self.settings
        while True:
            try:
                closed = await asyncio.to_thread(self.store.close_expired, time.time(),
                                                 s.finished_ttl_s, s.waiting_ttl_s,
                                                 s.stalled_ttl_s)
                for table_id in closed:
                    rt = self.tables.get(table_id)
                    if rt is not None:
                        async with rt.lock:
                            await rt.load()
                if closed:
                    log.info("closed %d tables whose time was up", len(closed))
            except Exception:
                log.exception("closing the expired tables failed; trying again later")
            await asyncio.sleep(SWEEP_EVERY_S)

    async def stop(self) -> None:
        await self.cluster.stop()
        for rt in list(self.tables.values()):
            await rt.close()
        self.think.close()
        M.TABLES.dec(len(self.tables))
        for task in list(self._tasks):
            task.cancel()
        with contextlib.suppress(Exception):
            await self.writer.flush()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
