"""The leases of this process's tables, and which tables stay in its memory.

:class:`Upkeep` is the part of a :class:`~meio.web.cluster.Cluster` that decides,
with the :mod:`~meio.web.lease` rows, which process moves a table's bots and runs its
turn timer, and which tables this process keeps. Its loop (:meth:`Upkeep.run`, every
third of the lease TTL)

* renews this process's leases, and wakes a table whose lease became valid again;
* asks for the lease of a table here that needs an actor, and takes over the tables
  whose holder died (their lease ran out): at once for a table in memory here, a
  period later for one that is not, so that the process its people reconnected to
  takes it first;
* hands the lease of a table whose people are all connected to another process to
  that one (``released`` with ``handed``: it takes it), so that a table's bots run
  where its sockets are;
* drops the tables nobody has used for ``evict_after_s`` seconds, and the spare
  copies of tables another process serves (seen so on two passes in a row).

A lone process on SQLite runs the same loop: it holds every lease.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

from meio.web import metrics as M
from meio.web import replica as R
from meio.web.hub import Hub, Room
from meio.web.lease import Leases, LeaseStore
from meio.web.logs import context

log = logging.getLogger("meio.web.cluster")


class Upkeep:
    """The lease and eviction loop of one process (see the module)."""

    def __init__(self, hub: Hub, origin: str, period: float,
                 shared: Callable[[str], bool],
                 publish: Callable[[R.Message], Awaitable[None]]) -> None:
        """``period``: seconds between two passes; ``shared(table_id)``: whether
        another process holds the table too; ``publish``: sends a message on the bus
        and returns once it is sent."""
        self.hub = hub
        self.origin = origin
        self.period = period
        self.leases = Leases(LeaseStore(hub.store.engine, origin, hub.settings.lease_ttl_s))
        self._shared = shared
        self._publish = publish
        #: stopping: it hands its tables to the others and acts for none
        self.draining = False
        self._acquiring: set[str] = set()
        #: since when a table here has been spare (another process serves it)
        self._spare: dict[str, float] = {}
        #: since when an expired lease of a table not in memory here has been seen
        self._orphans: dict[str, float] = {}

    # -- acting for a table ----------------------------------------------------------------
    def holds(self, table_id: str) -> bool:
        """Whether this process may move the bots and run the timer of the table."""
        return not self.draining and self.leases.holds(table_id)

    def may_act(self, table_id: str) -> bool:
        """Like :meth:`holds`; when the lease looks free, ask for it in the background
        (the table is woken again once it is ours)."""
        if self.holds(table_id):
            return True
        if (not self.draining and self.leases.worth_trying(table_id)
                and not self.elsewhere(table_id)):
            self.try_acquire(table_id)
        return False

    def done_with(self, table_id: str) -> None:
        """The match is over: nothing to run, hand the lease back."""
        if table_id in self.leases.held:
            self.leases.forget(table_id)
            M.LEASES.set(len(self.leases.held))
            self.hub.spawn(asyncio.to_thread(self.leases.store.release, [table_id]))

    def elsewhere(self, table_id: str) -> bool:
        """Whether the table's people are connected to another process and none here:
        that process should act for it, not this one."""
        room = self.hub.tables.get(table_id)
        return (room is not None and not room.table.connected()
                and bool(room.table.remote_seats()))

    # -- the leases ---------------------------------------------------------------------
    def try_acquire(self, table_id: str) -> None:
        """Ask for the table's lease in the background (once at a time per table)."""
        if table_id in self._acquiring:
            return
        self._acquiring.add(table_id)
        self.hub.spawn(self._acquire(table_id))

    async def _acquire(self, table_id: str) -> None:
        try:
            lease = await asyncio.to_thread(self.leases.store.acquire, table_id)
            if self.draining:
                # taken while this process stops: hand it back, or the next process
                # would wait for it to run out (drain() waits for these)
                if lease.holder == self.origin:
                    with contextlib.suppress(Exception):
                        await asyncio.to_thread(self.leases.store.release, [table_id])
                return
            fresh = table_id not in self.leases.held
            if not self.leases.record(lease):
                return
            M.LEASES.set(len(self.leases.held))
            room = self.hub.tables.get(table_id)
            if room is None:
                return  # evicted meanwhile: it is woken when it is loaded again
            async with room.table.lock:
                if fresh:
                    with context(table_id, room.table.match_id):
                        log.info("took the table's lease", extra={"holder": self.origin})
                    # the previous holder may have stored actions we never heard of
                    await room.table.catch_up_locked()
                else:
                    room.auto.schedule()
        finally:
            self._acquiring.discard(table_id)

    async def _renew(self) -> None:
        asked = list(self.leases.held)
        if not asked:
            return
        still, expires = await asyncio.to_thread(self.leases.store.renew, asked)
        for table_id in self.leases.renewed(asked, still, expires):
            with context(table_id):
                log.warning("lost the table's lease; another process acts for it now")
        M.LEASES.set(len(self.leases.held))

    async def _wake(self, room: Room) -> None:
        async with room.table.lock:
            room.auto.schedule()

    async def _adopt_orphans(self) -> None:
        """Tables whose lease ran out (their holder died): load them and act. A table
        in memory here is taken at once; one that is not waits a period longer, so
        that a process its people reconnected to (the proxy's next choice) takes it
        first and the table stays in one process."""
        now = time.monotonic()
        expired = await asyncio.to_thread(self.leases.store.expired)
        self._orphans = {t: self._orphans.get(t, now) for t in expired}
        for table_id in expired:
            if table_id in self.leases.held:
                continue  # ours, only late: the renewal takes care of it
            if (table_id not in self.hub.tables
                    and now - self._orphans[table_id] < 1.5 * self.period):
                continue
            room = await self.hub.get(table_id)
            if room is None:
                continue
            if room.auto.needs_actor():
                self.may_act(table_id)
            elif self.leases.worth_trying(table_id):
                # nothing to run there: clear the stale row by taking and releasing it
                lease = await asyncio.to_thread(self.leases.store.acquire, table_id)
                if lease.holder == self.origin:
                    await asyncio.to_thread(self.leases.store.release, [table_id])

    async def run(self) -> None:
        ttl = self.hub.settings.lease_ttl_s
        period = max(0.05, ttl / 3)
        while True:
            await asyncio.sleep(period)
            try:
                await self._renew()
                await self._hand_over()
                for room in list(self.hub.tables.values()):
                    if not room.auto.needs_actor():
                        continue
                    if not self.holds(room.id):
                        self.may_act(room.id)
                    elif not room.auto.busy():
                        # the lease became valid again (renewed after a slow write)
                        # while nothing ran: wake the table
                        self.hub.spawn(self._wake(room))
                await self._adopt_orphans()
                await self._evict_idle()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the lease loop failed; trying again")

    async def _hand_over(self) -> None:
        """Give the leases of tables whose people are all connected to another
        process to that process (it takes them when it hears ``released``): after a
        change of replicas, the table's bots then run where its sockets are."""
        going = [room.id for room in list(self.hub.tables.values())
                 if self.holds(room.id) and self.elsewhere(room.id)
                 and not room.auto.busy()]
        if not going:
            return
        for table_id in going:
            self.leases.forget(table_id)
        M.LEASES.set(len(self.leases.held))
        await asyncio.to_thread(self.leases.store.release, going)
        for table_id in going:
            with context(table_id):
                log.info("handed the table's lease to the process its people are on")
        await self._publish(R.released(going, handed=True))

    def _spare_now(self, room: Room) -> bool:
        """Whether another process serves the table and this one need not keep it:
        nobody is connected here, this process does not act for it, another holds it,
        and what must run there runs elsewhere (its people are there, or another
        process holds its lease)."""
        t = room.id
        if room.busy() or self.holds(t) or not self._shared(t):
            return False
        return (not room.auto.needs_actor() or self.elsewhere(t)
                or self.leases.others.get(t, 0.0) > time.time())

    async def _evict_idle(self) -> None:
        limit = self.hub.settings.evict_after_s
        now = time.monotonic()
        for room in list(self.hub.tables.values()):
            if self._spare_now(room):
                # a copy another process serves: dropped once seen so on two passes in
                # a row (its news would otherwise keep crossing the bus), however
                # recently that news came
                since = self._spare.setdefault(room.id, now)
                if now - since < 0.9 * self.period:
                    continue
            else:
                self._spare.pop(room.id, None)
                if (room.table.idle_s() < limit or room.busy()
                        or room.auto.needs_actor()):
                    continue
            if await self.hub.evict(room):
                table_id = room.id
                if table_id in self.leases.held:
                    self.leases.forget(table_id)
                    await asyncio.to_thread(self.leases.store.release, [table_id])
                self.leases.forget(table_id)
                M.LEASES.set(len(self.leases.held))

    async def resume(self, table_id: str) -> None:
        room = await self.hub.get(table_id)
        if room is not None and room.auto.needs_actor():
            self.may_act(table_id)
        # else: nothing to run; it is dropped when idle, or as a spare copy

    def forget(self, table_id: str) -> None:
        """The table left memory here."""
        self._spare.pop(table_id, None)

    async def drain(self) -> list[str]:
        """Stop acting and hand back every lease at once (another process takes over
        without waiting for them to run out); returns the tables handed back."""
        self.draining = True
        for _ in range(250):  # the leases being taken now hand themselves back (5 s at most)
            if not self._acquiring:
                break
            await asyncio.sleep(0.02)
        held = list(self.leases.held)
        self.leases.held.clear()
        M.LEASES.set(0)
        if held:
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self.leases.store.release, held)
            log.info("released %d table leases", len(held))
        return held
