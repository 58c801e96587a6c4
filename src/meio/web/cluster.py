"""One server process among several: the bus, the table leases, and idle tables.

:class:`Cluster` is the hub's link to the other ``meio serve`` processes on the
same database. It

* publishes every action this process commits (and every change of seats or
  match, and every chat message) on the :mod:`~meio.web.bus`, and applies what the
  others publish to the tables this process holds in memory;
* decides, with the :mod:`~meio.web.lease` rows, which process moves a table's
  bots and runs its turn timer, through its :class:`~meio.web.upkeep.Upkeep`: a
  background loop renews this process's leases, takes over those whose holder
  died, and drops tables nobody has used for ``evict_after_s`` seconds;
* keeps the others' seats online only while they are heard from: each process
  posts a heartbeat every third of the lease TTL, and a process silent for three
  of them (see :mod:`~meio.web.peers`) is taken for dead, its seats shown offline;
* sends what concerns one table only to where it is wanted: the proxy sends a
  table's connections to one replica (``deploy/Caddyfile``, a hash of the table
  id), so most tables are in memory in one process, and their moves never go on
  the bus. Each process knows which others hold each of its tables (they say so
  with ``who`` when they load one, ``held`` in answer, ``gone`` when they drop it)
  and publishes a table's news only while another holds it, or while the table is
  new here and a process has not yet answered whether it holds it;
* moves a table to where its people are: the lease holder that has no connection
  at a table whose seats are connected to another process hands the lease over,
  and a process drops a table it does not act for that another holds.

The messages are built by the named functions of :mod:`meio.web.replica`, the one
catalogue of what goes on the bus (docs/web.md, "Messages between server
processes", says when each is sent and to whom). Every process on one bus must run
the same version, or the version before it (:mod:`meio.web.bus` translates that
one's form). A version without ``held`` and ``gone`` publishes everything to
everyone, which is still right, only dearer; and while one runs (its heartbeat lacks
``holds``), this version publishes everything too.

A lone process on SQLite runs the same code with a silent bus.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from meio.web import chat
from meio.web import metrics as M
from meio.web import replica as R
from meio.web.bus import Bus, bus_for
from meio.web.hub import Hub
from meio.web.lease import Leases, process_id
from meio.web.peers import MISSED_BEATS, Peers, Word
from meio.web.store import EventInfo
from meio.web.upkeep import Upkeep

log = logging.getLogger("meio.web.cluster")

_BUS_OUT = M.BUS_MESSAGES.labels("out")
_BUS_IN = M.BUS_MESSAGES.labels("in")
_EVENTS_OUT = M.BUS_EVENTS.labels("out")
_EVENTS_IN = M.BUS_EVENTS.labels("in")


class Cluster:
    """This process's part in a group of servers sharing one database: the
    :class:`~meio.web.group.Group` that the app hands to the hub."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.origin = process_id()
        ttl = hub.settings.lease_ttl_s
        self.bus: Bus = bus_for(hub.settings.database_url, self.origin)
        #: the other processes heard from lately (their seats count as online)
        self.peers = Peers(max(0.05, ttl / 3))
        #: the leases, and which tables stay in memory here
        self.upkeep = Upkeep(hub, self.origin, self.peers.period,
                             lambda t: bool(self.holders.get(t)), self._publish)
        #: for each table in memory here, the other processes that hold it too
        self.holders: dict[str, set[str]] = {}
        #: tables loaded here lately: the processes yet to say whether they hold them
        #: (all their news is published meanwhile), and until when they are waited for
        self._awaiting: dict[str, tuple[set[str], float]] = {}
        #: the others whose heartbeat says they answer ``who`` with ``held``/``gone``,
        #: and those not known to (a version before: they are sent everything)
        self._aware: set[str] = set()
        self._unaware: set[str] = set()
        self._loop: asyncio.Task[None] | None = None
        self._beat: asyncio.Task[None] | None = None

    @property
    def live(self) -> bool:
        return self.bus.live

    @property
    def leases(self) -> Leases:
        """The leases this process holds, and what it knows of the others'."""
        return self.upkeep.leases

    @property
    def draining(self) -> bool:
        """Stopping: it hands its tables to the others and acts for none."""
        return self.upkeep.draining

    @draining.setter
    def draining(self, value: bool) -> None:
        self.upkeep.draining = value

    # -- life ------------------------------------------------------------------------
    async def start(self) -> None:
        """Listen to the others and start the lease and eviction loop."""
        await self.bus.start(self.receive, self._resync)
        self._loop = asyncio.get_running_loop().create_task(self.upkeep.run())
        if self.bus.live:
            self._beat = asyncio.get_running_loop().create_task(self._heartbeat())

    async def stop(self) -> None:
        """Hand back every lease at once (so another process takes over without
        waiting for them to run out), tell the others, and stop listening."""
        self.draining = True
        for task in (self._loop, self._beat):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        held = await self.upkeep.drain()
        if self.bus.live:
            for room in list(self.hub.tables.values()):
                if room.table.connected() and self._wanted(room.id):
                    await self._publish(R.online(room.id, []))
            if held:
                await self._publish(R.released(held))
            # the others forget this process now rather than after its heartbeats stop
            await self._publish(R.bye())
        await self.bus.stop()

    # -- what the tables tell us -------------------------------------------------------
    def event_accepted(self, table_id: str, match_id: str, ev: EventInfo) -> None:
        """A committed action: the other processes hear of it."""
        if self._wanted(table_id):
            _EVENTS_OUT.inc()
            self._post(R.event(table_id, match_id, ev))

    def table_changed(self, table_id: str) -> None:
        """Seats were taken or a match began: the others reload the table."""
        if self._wanted(table_id):
            self._post(R.reload(table_id))

    def presence(self, table_id: str, seats: list[int]) -> None:
        """The seats connected here changed: the others show them online."""
        if self._wanted(table_id):
            self._post(R.online(table_id, seats))

    def rematch_asked(self, table_id: str, match_id: str, seat: int) -> None:
        """A seat here asked for a rematch: the others count it too."""
        if self._wanted(table_id):
            self._post(R.rematch(table_id, match_id, seat))

    def table_loaded(self, table_id: str) -> None:
        """A table came into memory here: the others say which of its seats are
        connected to them (their earlier word of it was not kept), and that they hold
        it too."""
        if self.bus.live:
            others = set(self.peers.origins())
            if others:
                self._awaiting[table_id] = (others, time.monotonic() + self.fresh_s)
            self._post(R.who_holds(table_id))

    def table_unloaded(self, table_id: str) -> None:
        """The table left memory here: its news is no longer wanted here."""
        self.holders.pop(table_id, None)
        self._awaiting.pop(table_id, None)
        self.upkeep.forget(table_id)
        if self.bus.live:
            self._post(R.gone(table_id))

    @property
    def fresh_s(self) -> float:
        """Seconds a table new here waits at most for the others to say whether they
        hold it (they answer within milliseconds; a process of an older version never
        does): three heartbeats."""
        return 3 * self.peers.period

    def _wanted(self, table_id: str) -> bool:
        """Whether news of ``table_id`` must go on the bus: another process holds it,
        or has not yet said whether it does, or this one does not hold the table at
        all (a change made on a table not in memory here, which others may hold)."""
        if not self.bus.live:
            return False
        if self.holders.get(table_id) or table_id not in self.hub.tables or self._unaware:
            return True
        waiting = self._awaiting.get(table_id)
        if waiting is None:
            return False
        if waiting[0] and time.monotonic() < waiting[1]:
            return True
        del self._awaiting[table_id]
        return False

    def holds(self, table_id: str) -> bool:
        """Whether this process may move the bots and run the timer of the table."""
        return self.upkeep.holds(table_id)

    def may_act(self, table_id: str) -> bool:
        """Like :meth:`holds`; when the lease looks free, ask for it in the background
        (the table is woken again once it is ours)."""
        return self.upkeep.may_act(table_id)

    def done_with(self, table_id: str) -> None:
        """The match is over: nothing to run, hand the lease back."""
        self.upkeep.done_with(table_id)

    def chat_posted(self, table_id: str, match_id: str, seat: int, kind: str, text: str,
                    at: float) -> None:
        """A stored chat message: the pages connected to the other processes see it."""
        if self._wanted(table_id):
            self._post(R.chat(table_id, match_id, seat, kind, text, at))

    # -- the others' presence ------------------------------------------------------------
    async def _heartbeat(self) -> None:
        period = self.peers.period
        while True:
            # "holds": this process says which tables it holds (who/held/gone)
            self._post(R.beat(period))
            await asyncio.sleep(period)
            try:
                await self.expire_peers()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the heartbeat loop failed; trying again")

    async def expire_peers(self) -> None:
        """One heartbeat period passed: the processes silent too long are forgotten."""
        for origin in self.peers.tick():
            log.warning("no word from process %s for %d heartbeats: its seats are shown "
                        "offline", origin, MISSED_BEATS)
            await self._drop_seats(origin)
            self._drop_holder(origin)
        M.PEERS.set(len(self.peers))

    async def _drop_seats(self, origin: str) -> None:
        # every table shows the seats connected to ``origin`` offline, at once
        for room in list(self.hub.tables.values()):
            if room.table.remote_seats(origin):
                async with room.table.lock:
                    room.table.set_remote_online(origin, [])

    def _drop_holder(self, origin: str) -> None:
        # a process gone (or taken for dead) holds nothing any more, nor is waited for
        self._aware.discard(origin)
        self._unaware.discard(origin)
        for held in self.holders.values():
            held.discard(origin)
        for waiting, _ in self._awaiting.values():
            waiting.discard(origin)

    def _answer_who(self, msg: dict[str, Any]) -> None:
        """Say which seats are connected here, and that the table is held here: at one
        table (``table``), or, asked by name (``to``, or ``"*"``: everyone), at every
        table, after echoing the asker's ``token``."""
        to, table_id, asker = msg.get("to"), msg.get("table"), msg.get("origin")
        if to is not None and to not in (self.origin, "*"):
            return
        if msg.get("token") is not None:
            self._post(R.here(str(asker), msg["token"]))
        if isinstance(table_id, str):
            one = self.hub.tables.get(table_id)
            rooms = [] if one is None else [one]
            if one is None:
                # not here: the asker need not send its news of the table here
                self._post(R.gone(table_id, asker))
        else:
            rooms = list(self.hub.tables.values())
        for room in rooms:
            if isinstance(table_id, str) and isinstance(asker, str):
                # the asker loaded it: its news is wanted there from now on
                self.holders.setdefault(room.id, set()).add(asker)
            self._post(R.held(room.id, asker))
            seats = room.table.local_seats()
            if seats:
                self._post(R.online(room.id, seats))

    # -- the bus -----------------------------------------------------------------------
    async def _publish(self, message: dict[str, Any]) -> None:
        _BUS_OUT.inc()
        await self.bus.publish(message)

    def _post(self, message: dict[str, Any]) -> None:
        # sent with the others published meanwhile, in order, one NOTIFY for many
        _BUS_OUT.inc()
        self.bus.post(message)

    async def receive(self, msg: dict[str, Any]) -> None:
        """Act on one message of another process, as the bus delivers it."""
        _BUS_IN.inc()
        kind, table_id, origin = msg.get("type"), msg.get("table"), str(msg.get("origin"))
        if kind == "event":
            _EVENTS_IN.inc()  # whether or not the table is in memory here
        if kind == "beat" and msg.get("holds") is True:
            self._aware.add(origin)
            self._unaware.discard(origin)
        elif origin not in self._aware:
            self._unaware.add(origin)
        if kind == "bye":
            self.peers.forget(origin)
            M.PEERS.set(len(self.peers))
            await self._drop_seats(origin)
            self._drop_holder(origin)
            return
        period = msg.get("period") if kind == "beat" else None
        word = self.peers.heard(origin, float(period) if isinstance(period, int | float)
                                and 0 < period <= 3600 else None)
        if word is not Word.KNOWN:
            # a process this one had no word of (it started, or it was taken for dead):
            # it says which seats are connected to it; one taken for dead echoes a
            # token first, and none of its seats count until it does
            M.PEERS.set(len(self.peers))
            self._post(R.who_is(origin, self.peers.doubt(origin) if word is Word.BACK
                                else None))
        if kind == "beat":
            return
        if kind == "who":
            self._answer_who(msg)
            return
        if kind == "here":
            if msg.get("to") == self.origin:
                self.peers.confirm(origin, msg.get("token"))
            return
        tables = msg.get("tables")
        if kind == "released" and isinstance(tables, list):
            for t in tables:
                self.leases.others.pop(str(t), None)
                room = self.hub.tables.get(str(t))
                if room is not None and room.auto.needs_actor():
                    self.may_act(room.id)
                elif room is None and not self.draining and not msg.get("handed"):
                    # handed back by a process that stops: its bots resume here or
                    # in another process that loads it (the loser drops its copy)
                    self.hub.spawn(self.upkeep.resume(str(t)))
            return
        if not isinstance(table_id, str):
            return
        room = self.hub.tables.get(table_id)
        if room is None:
            return  # nobody here plays at that table: it is read afresh when needed
        rt = room.table
        if kind in ("held", "gone") and msg.get("to") == self.origin:
            waiting = self._awaiting.get(table_id)
            if waiting is not None:
                waiting[0].discard(origin)  # it answered
        if kind == "gone":
            self.holders.get(table_id, set()).discard(origin)
            return
        if kind == "held":
            self.holders.setdefault(table_id, set()).add(origin)
            if msg.get("to") == self.origin:
                # what the sender committed before it knew this process held the
                # table did not go on the bus: the database has it
                async with rt.lock:
                    await rt.catch_up_locked()
            return
        if kind == "event":
            match_id, ev = R.event_of(msg)
            await rt.apply_remote(match_id, ev)
            M.BROADCAST.labels("bus").observe(max(0.0, time.time() - ev.created_at))
        elif kind == "chat":
            # a message of the match this process shows (a page that connects later,
            # or to a later match, reads the stored chat instead)
            if rt.match_id is not None and rt.match_id == msg.get("match"):
                chat.relay(rt, int(msg["seat"]), str(msg["kind"]), str(msg["text"]),
                           float(msg["at"]))
        elif kind == "rematch":
            await room.seating.rematch_remote(str(msg["match"]), int(msg["seat"]))
        elif kind == "reload":
            async with rt.lock:
                await rt.catch_up_locked()
        elif kind == "online":
            seats = msg.get("seats")
            # a process taken for dead shows no seat on a late word: only once it has
            # answered "who" (what it sends from then on is news)
            if isinstance(seats, list) and self.peers.doubt(origin) is None:
                async with rt.lock:
                    rt.set_remote_online(origin, [int(s) for s in seats])

    async def held_elsewhere(self) -> set[str]:
        """The tables whose lease another process holds now (they run there)."""
        if not self.bus.live:
            return set()
        return await asyncio.to_thread(self.leases.store.held_by_others)

    async def _resync(self) -> None:
        for room in list(self.hub.tables.values()):
            async with room.table.lock:
                await room.table.catch_up_locked()
        # the word of who holds what may have been lost with the connection: say again
        # what is held here, and ask everyone for theirs
        for table_id in list(self.hub.tables):
            self._post(R.held(table_id))
        self._post(R.who_is("*"))
