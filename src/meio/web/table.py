"""A table in play: the full state of its match lives here, on the server only.

A :class:`LiveTable` holds one table's match rebuilt from its stored events, its
checkpoints and its connections. Every accepted action follows one path
(:meth:`~LiveTable.submit`): check against the sequence number and the rules, commit,
then apply and send each connection the frame of its own view; another process's
actions arrive through :meth:`~LiveTable.apply_remote`. Its collaborators (seating,
the auto-player woken by :meth:`~LiveTable.changed`, advice, chat) use its public
methods under its lock; it reaches the other processes only through its ``Group``.

Just over 500 lines on purpose: everything that may change a match's state or send
its frames is in this one class, under one lock, so that the commit-then-broadcast
path stays the only one.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import Any

from meio.engine import (
    IllegalActionError,
    MatchConfig,
    MeioError,
    Outcome,
    Phase,
    State,
    replay_steps,
)
from meio.engine import actions as A
from meio.engine.wire import config_from_json
from meio.web import frames as F
from meio.web import metrics as M
from meio.web import think
from meio.web.group import Group
from meio.web.services import Connection, Frame, Services
from meio.web.settings import Settings
from meio.web.store import (
    EventInfo,
    MatchInfo,
    NewEvent,
    Store,
    StoreError,
    TableInfo,
    hash_token,
)

log = logging.getLogger("meio.web")

#: a table keeps the state after every this many actions, from which a reconnecting
#: client's missed actions are replayed (keeping every state of a match, as before,
#: made ~4,000 objects a table that the garbage collector scanned again and again)
CHECKPOINT_EVERY = 16

#: seconds a change of the seats online waits, so that a burst of pages coming or
#: going makes one ``table`` frame
PRESENCE_DELAY_S = 0.05


def same_secret(given: str, secret: str) -> bool:
    """Whether ``given`` is ``secret``, compared in constant time (any text may be given).

    >>> same_secret("abc", "abc"), same_secret("ábc", "abc")
    (True, False)
    """
    return secrets.compare_digest(given.encode("utf-8", "surrogatepass"), secret.encode())


def match_result(state: State) -> dict[str, Any]:
    """What is stored with the last action of a match (``meio_matches.result``)."""
    return {
        "winners": list(state.winners),
        "totals": list(state.totals),
        "victories": state.victories,
        "rounds": len(state.rounds),
    }


class LiveTable:
    """One table in memory. All changes happen under :attr:`lock`."""

    def __init__(self, services: Services, info: TableInfo) -> None:
        self.services = services
        self.info = info
        self.lock = asyncio.Lock()
        self.match: MatchInfo | None = None
        self.config: MatchConfig | None = None  # secret: holds the seed
        self.state: State | None = None
        self.events: list[EventInfo] = []
        #: when the seat (or seats, in the split) to act began: the turn timer's start
        self.turn_since = 0.0
        #: the latest checkpoint: a sequence number (a multiple of CHECKPOINT_EVERY)
        #: and the state after it, so a client reconnecting after a short gap costs
        #: what it missed and at most CHECKPOINT_EVERY actions more
        self.checkpoint: tuple[int, State] | None = None
        #: the message ids of this match's accepted actions, by seat: their sequence numbers
        self.accepted: dict[tuple[int, str], int] = {}
        #: the answers to the latest rejected messages (at most ``max_remembered_rejects``)
        self.rejected: OrderedDict[tuple[int, str], Frame] = OrderedDict()
        self.conns: set[Connection] = set()
        #: seats connected to other server processes, by process (from the bus)
        self.remote_online: dict[str, set[int]] = {}
        #: when this table was last asked for (idle tables are evicted)
        self.last_used = time.monotonic()
        #: dropped from the hub (a client saying hello meanwhile puts it back)
        self.evicted = False
        #: called (under the lock) after every change: the auto-player's ``schedule``
        self.on_change: Callable[[], None] = lambda: None
        self._presence_task: asyncio.Task[None] | None = None

    @property
    def store(self) -> Store:
        return self.services.store

    @property
    def settings(self) -> Settings:
        return self.services.settings

    @property
    def group(self) -> Group:
        return self.services.group

    @property
    def seq(self) -> int:
        return len(self.events)

    @property
    def match_id(self) -> str | None:
        return None if self.match is None else self.match.id

    # -- loading -----------------------------------------------------------------------
    async def load(self) -> None:
        """Rebuild the current match from the stored events (caller holds the lock)."""
        info = await asyncio.to_thread(self.store.table, self.info.id)
        if info is None:
            raise StoreError("missing", f"table {self.info.id} is no longer in the database")
        self.info = info
        if info.current_match is None:
            self.match = self.config = self.state = None
            self.events = []
            self.checkpoint = None
            self.accepted, self.rejected = {}, OrderedDict()
            return
        match = await asyncio.to_thread(self.store.match, info.current_match)
        events = await asyncio.to_thread(self.store.events, info.current_match)
        if match is None:
            raise StoreError("missing", f"match {info.current_match} is not in the database")
        self._rebuild(match, events)

    def _rebuild(self, match: MatchInfo, events: list[EventInfo]) -> None:
        config = config_from_json(match.config)
        state = State.new(config)
        since = match.created_at
        accepted: dict[tuple[int, str], int] = {}
        before = (state.phase, state.round_index)
        self.checkpoint = None
        for ev, (state, _) in zip(events, _replay(config, events), strict=True):
            if ev.seq % CHECKPOINT_EVERY == 0:
                self.checkpoint = (ev.seq, state.clone())
            since = _turn_start(before, state, since, ev.created_at)
            before = (state.phase, state.round_index)
            if ev.client_id:
                accepted[(ev.seat, ev.client_id)] = ev.seq
        self.match, self.config, self.state, self.events = match, config, state, list(events)
        self.turn_since = since
        self.accepted = accepted
        self.rejected = OrderedDict()

    # -- facts -------------------------------------------------------------------------
    def deadline(self) -> float | None:
        """When the turn timer of the seat (or seats) to act runs out; None: no timer.

        A rated table always has one (``rated_turn_timer_s`` when it was made without),
        and a seat of it whose last move was the timer's has left: its turns are then
        played after ``away_turn_s`` (a second), until its player acts again. So a player who
        stops forfeits the rest of the match to the bot, and the result is rated."""
        timer = self.info.options.turn_timer_s
        if not timer and self.info.rated:
            timer = self.settings.rated_turn_timer_s
        if not timer or self.state is None or self.state.is_over:
            return None
        timer = float(timer)
        if self.info.rated:
            people = self.seats_to_act("human")
            if people and all(self.away(seat) for seat in people):
                timer = min(timer, self.settings.away_turn_s)
        return self.turn_since + timer

    def away(self, seat: int) -> bool:
        """Whether ``seat``'s last move of this match was made by its turn timer."""
        for ev in reversed(self.events):
            if ev.seat == seat:
                return ev.source == "timeout"
        return False

    def online(self) -> set[int]:
        seats = {c.seat for c in self.conns if c.seat is not None}
        for remote in self.remote_online.values():
            seats |= remote
        return seats

    def local_seats(self) -> list[int]:
        """The seats connected to this process (told to the others on the bus)."""
        return sorted({c.seat for c in self.conns if c.seat is not None})

    def seats_to_act(self, kind: str) -> list[int]:
        """The seats of ``kind`` ("bot" or "human") that may act now."""
        st = self.state
        if st is None or st.is_over:
            return []
        return [s for s in st.seats_to_act() if self.info.seats[s].kind == kind]

    def busy(self) -> bool:
        """Whether a page is connected or news of them is on its way (then the table
        must not be evicted)."""
        return bool(self.conns) or self._presence_task is not None

    def seat_of_token(self, token: str) -> int | None:
        """The seat ``token`` holds here, as far as this process knows (no database
        read: a seat taken on another process a moment ago may not be known yet)."""
        digest = hash_token(token)
        for s in self.info.seats:
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, digest):
                return s.seat
        return None

    def think_share(self, client: str | None = None) -> think.Share:
        """Whose thinking this table's job is in the think pool: ``client``'s (advice:
        the asking address's), else the client that created the table; tables with
        people first."""
        people = any(s.kind == "human" for s in self.info.seats)
        owner = client or self.info.creator or f"table:{self.info.id}"
        return think.Share(owner, self.info.id, think.PEOPLE if people else think.BOTS_ONLY)

    # -- frames ------------------------------------------------------------------------
    def snapshot(self, seat: int | None) -> Frame:
        return F.snapshot(self.match_id, self.seq, self.state, seat, self.deadline())

    def refuse(
        self, msg_id: str, code: str, reason: str, seat: int | None = None,
        why: IllegalActionError | None = None,
    ) -> Frame:
        """A ``reject`` frame for a message that changes nothing (with a snapshot)."""
        return F.reject(msg_id, code, reason, self.snapshot(seat), why)

    def broadcast(self, frame: Frame) -> None:
        """Send one frame (the same for every seat: no view in it) to every page here."""
        for c in self.conns:
            c.send(frame)

    def broadcast_table(self) -> None:
        self.broadcast(F.table(self.info, self.online()))

    def broadcast_snapshots(self) -> None:
        for c in self.conns:
            c.send(self.snapshot(c.seat))

    def changed(self) -> None:
        """After a change (caller holds the lock): the bots and timers look again."""
        self.on_change()

    # -- connections ---------------------------------------------------------------------
    async def attach(
        self, conn: Connection, since_match: str | None, since_seq: int | None,
        address: str = "?", stale: bool = False,
    ) -> None:
        """Add a connection; send it what it missed since ``since``, or a snapshot when
        that is more than ``max_resume_events`` actions or ``address`` has reconnected
        too often lately (the snapshot is one frame, whatever the gap). ``stale``: the
        table was out of the hub a while, and catches up with the database first.
        """
        async with self.lock:
            if stale:  # other processes may have moved on while it was out of the hub
                await self.catch_up_locked()
            online = self.online(), self.local_seats()
            self.conns.add(conn)
            M.CONNECTIONS.inc()
            self.last_used = time.monotonic()
            conn.send(F.welcome(conn.seat, self.info, self.online()))
            if (
                self.match is not None
                and self.state is not None
                and since_match == self.match.id
                and since_seq is not None
                and since_seq <= self.seq
                and (since_seq == self.seq
                     or (self.seq - since_seq <= self.settings.max_resume_events
                         and self.services.resume_limiter.take(address)))
            ):
                for frame in self._frames_since(self.match, since_seq, conn.seat):
                    conn.send(frame)
            else:
                conn.send(self.snapshot(conn.seat))
            self._presence_changed(online)

    async def detach(self, conn: Connection) -> None:
        async with self.lock:
            online = self.online(), self.local_seats()
            if conn in self.conns:
                self.conns.discard(conn)
                M.CONNECTIONS.dec()
            self.last_used = time.monotonic()
            self._presence_changed(online)

    def _presence_changed(self, before: tuple[set[int], list[int]]) -> None:
        """After a connection came or went: the pages here and the other processes
        hear of it only when the seats online (or connected here) changed — a
        spectator changes nothing they are shown — in one ``table`` frame for a burst
        of changes (caller holds the lock)."""
        if (self.online(), self.local_seats()) == before or self._presence_task is not None:
            return
        self._presence_task = self.services.spawn(self._send_presence())

    async def _send_presence(self) -> None:
        await asyncio.sleep(PRESENCE_DELAY_S)
        async with self.lock:
            self._presence_task = None
            self.broadcast_table()
            self.group.presence(self.info.id, self.local_seats())

    def _frames_since(self, match: MatchInfo, since: int, seat: int | None) -> list[Frame]:
        assert self.config is not None
        out: list[Frame] = []
        steps: Iterator[tuple[EventInfo, tuple[State, Outcome]]]
        if self.checkpoint is not None and since >= self.checkpoint[0]:
            # a short gap: from the latest checkpoint
            start, state = self.checkpoint
            events = self.events[start:]
            state = state.clone()
            steps = zip(events, ((state, state.apply(A.parse_action(ev.action), ev.seat))
                                 for ev in events), strict=True)
        else:
            # a long one: the whole match (about half a millisecond, less than building
            # the frames it is replayed for)
            steps = zip(self.events, _replay(self.config, self.events), strict=True)
        for ev, (state, outcome) in steps:
            if ev.seq > since:
                out.append(F.event(match.id, ev.seq, state, outcome, ev.source, seat, None))
        if out:
            out[-1]["deadline"] = self.deadline()
            out[-1]["now"] = time.time()
        return out

    # -- acting ------------------------------------------------------------------------
    async def submit(
        self,
        seat: int | None,
        action_text: str,
        *,
        expected_seq: int,
        client_id: str | None,
        source: str = "human",
        match_id: str | None = None,
    ) -> Frame:
        """Check, store, apply and broadcast one action; returns the answer frame."""
        cid = client_id or ""
        started = time.perf_counter()
        async with self.lock:
            if seat is None:
                return self.refuse(cid, "forbidden", "spectators cannot act")
            if self.match is None or self.state is None:
                return self.refuse(cid, "not_started",
                                   "the match starts when every seat is filled", seat)
            key = (seat, cid)
            if client_id and key in self.accepted:
                return {**F.ack(cid, self.accepted[key]), "duplicate": True}
            if client_id and key in self.rejected:
                return {**self.rejected[key], "duplicate": True}
            answer = await self._submit_locked(self.match, self.state, seat, action_text,
                                               expected_seq, client_id, source, match_id)
            if client_id and answer["type"] == "reject" and self.match is not None:
                self.rejected[key] = answer
                while len(self.rejected) > self.settings.max_remembered_rejects:
                    self.rejected.popitem(last=False)
        accepted = answer["type"] == "ack"
        M.ACTIONS.labels("accepted" if accepted else "rejected", source).inc()
        if accepted:
            M.BROADCAST.labels("local").observe(time.perf_counter() - started)
        return answer

    async def _submit_locked(
        self,
        match: MatchInfo,
        state: State,
        seat: int,
        action_text: str,
        expected_seq: int,
        client_id: str | None,
        source: str,
        match_id: str | None,
    ) -> Frame:
        cid = client_id or ""
        if match_id is not None and match_id != match.id:
            return self.refuse(cid, "stale", "that match is no longer being played", seat)
        if expected_seq != self.seq:
            return self.refuse(
                cid, "stale",
                f"the game has moved on: your action was made at {expected_seq}, "
                f"the table is at {self.seq}", seat,
            )
        try:
            action = A.parse_action(action_text)
            new = state.clone()
            outcome = new.apply(action, seat)
        except IllegalActionError as exc:
            return self.refuse(cid, "illegal", exc.reason, seat, exc)
        except MeioError as exc:
            return self.refuse(cid, "illegal", str(exc), seat)
        seq = self.seq + 1
        now = time.time()
        ev = EventInfo(seq, seat, A.action_text(action), source, client_id, now)
        try:
            began = time.perf_counter()
            # stored (with other tables' actions, in one transaction) before anyone
            # hears of it
            await self.services.writer.append(
                NewEvent(match.id, ev, match_result(new) if new.is_over else None)
            )
            M.DB_COMMIT.observe(time.perf_counter() - began)
        except StoreError:
            # another server wrote this number first: the database decided; what it
            # stored goes to the clients as events
            await self.catch_up_locked()
            return self.refuse(cid, "stale", "another action was accepted first", seat)
        self._accept(ev, new, outcome)
        self.group.event_accepted(self.info.id, match.id, ev)
        self.changed()
        if new.is_over and self.info.rated:
            # once per match (the database keeps it so); a crash before it is made
            # good by the hub's sweep
            self.services.spawn(self._rate(match.id))
        return F.ack(cid, seq)

    async def _rate(self, match_id: str) -> None:
        await asyncio.to_thread(self.services.ratings.rate_match, match_id)

    def _accept(self, ev: EventInfo, new: State, outcome: Outcome) -> None:
        """Make committed action ``ev`` (``new`` is the state after it, ``outcome``
        what it did) part of the match and send each local connection its frame
        (caller holds the lock)."""
        assert self.match is not None and self.state is not None
        old = self.state
        before = (old.phase, old.round_index)
        self.state = new
        self.events.append(ev)
        if ev.seq % CHECKPOINT_EVERY == 0:
            self.checkpoint = (ev.seq, new)  # never changed in place: a new one is made
        if ev.client_id:
            self.accepted[(ev.seat, ev.client_id)] = ev.seq
        self.turn_since = _turn_start(before, new, self.turn_since, ev.created_at)
        # each seat's frame is built from its own view and encoded once, however many
        # of its pages are open; every spectator gets the one spectator frame
        texts = F.event_texts(self.match.id, ev, new, outcome, (c.seat for c in self.conns),
                              self.deadline())
        for c in self.conns:
            c.send(texts[c.seat])

    # -- news from the other server processes ---------------------------------------------
    async def apply_remote(self, match_id: str, ev: EventInfo) -> None:
        """An action another process committed: apply it and tell the local clients."""
        async with self.lock:
            self.last_used = time.monotonic()
            if self.match is None or self.state is None or self.match.id != match_id:
                await self.catch_up_locked()
                return
            if ev.seq <= self.seq:
                return  # known already (this process read it from the database)
            if ev.seq > self.seq + 1:
                await self.catch_up_locked()  # a message was missed: the database has it
                return
            new = self.state.clone()
            outcome = new.apply(A.parse_action(ev.action), ev.seat)
            self._accept(ev, new, outcome)
            self.changed()

    async def catch_up_locked(self) -> None:
        """Bring this table up to the database (caller holds the lock): new actions go
        to the clients as events, a new match or changed seats as snapshots."""
        before = self.match_id
        info = await asyncio.to_thread(self.store.table, self.info.id)
        if info is None:
            return
        if info.current_match != before or self.state is None or self.match is None:
            await self.load()
            if self.match is not None and self.match.id != before:
                self.broadcast(F.new_match(self.match.id, self.match.number))
            self.broadcast_table()
            self.broadcast_snapshots()
            self.changed()
            return
        seats_changed = info.seats != self.info.seats
        self.info = info
        events = await asyncio.to_thread(self.store.events, self.match.id)
        for ev in events[self.seq:]:
            new = self.state.clone()
            outcome = new.apply(A.parse_action(ev.action), ev.seat)
            self._accept(ev, new, outcome)
        if seats_changed:
            self.broadcast_table()
        self.changed()

    def set_remote_online(self, origin: str, seats: list[int]) -> None:
        """Another process says which seats of this table are connected to it."""
        if set(seats) == self.remote_online.get(origin, set()):
            return
        if seats:
            self.remote_online[origin] = set(seats)
        else:
            self.remote_online.pop(origin, None)
        self.broadcast_table()

    def close(self) -> None:
        """Close every connection (the server stops)."""
        for c in list(self.conns):
            c.close()


def _replay(config: MatchConfig, events: list[EventInfo]) -> Iterator[tuple[State, Outcome]]:
    return replay_steps(config, ((ev.seat, A.parse_action(ev.action)) for ev in events))


def _turn_start(before: tuple[Phase, int], state: State, since: float, now: float) -> float:
    # the split is simultaneous: one clock for every seat from the start of the round
    if before == (Phase.SPLIT, state.round_index) and state.phase is Phase.SPLIT:
        return since
    return now
