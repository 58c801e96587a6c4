"""A table in play: the full state of its match lives here, on the server only.

A :class:`LiveTable` holds one table's match rebuilt from its stored events, its
checkpoints and its connections. Every accepted action follows one path
(:meth:`~LiveTable.submit`): check against the sequence number and the rules, commit,
then apply and send each connection the frame of its own view; another process's
actions arrive through :meth:`~LiveTable.apply_remote`. It reaches the other
processes only through its ``Group``.

Its collaborators (the seating, the auto-player, the adviser, the chat, the hub, the
cluster) hold it and use a small interface, under its :attr:`~LiveTable.lock`
(docs/architecture.md, "The table's interface"):

* the **events** it emits: :meth:`~LiveTable.subscribe` a listener, told after every
  change of the match or the seats (the auto-player's bots and timer look again);
  :meth:`~LiveTable.unsubscribe` it;
* the **queries** it answers, from frozen values: ``info``, ``match``, ``seq``,
  :meth:`~LiveTable.in_play`, :meth:`~LiveTable.match_over`,
  :meth:`~LiveTable.seats_to_act`, :meth:`~LiveTable.deadline`,
  :meth:`~LiveTable.view` (a seat's own view: the only road to the cards),
  :meth:`~LiveTable.turn_of` (what a bot decides from), who is online here or
  elsewhere, and whether it is idle or busy;
* the **commands** it takes: submit, attach and detach, load and catch up, apply a
  remote action, refuse, broadcast, and what the other processes say of its seats.

Its state (the match's ``State``, its events, checkpoints, connections) is its own:
no collaborator reads or sets it.

Over 500 lines on purpose: everything that may change a match's state or send
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
from dataclasses import dataclass
from typing import Any

from meio.engine import (
    IllegalActionError,
    MatchConfig,
    MeioError,
    Outcome,
    Phase,
    State,
    View,
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


@dataclass(frozen=True, slots=True)
class SeatTurn:
    """What a bot deciding for one seat is given (:meth:`LiveTable.turn_of`)."""

    #: the sequence number the decision is made at
    seq: int
    #: the seat's own view, the only cards it may know
    view: View
    #: the match's deal seed (secret: it stays on the server) and how many actions
    #: the seat has made in the match, from which its bot is seeded
    match_seed: int
    turn: int


class LiveTable:
    """One table in memory. All changes happen under :attr:`lock`; its collaborators
    use its queries, commands and events (see the module), never its state."""

    def __init__(self, services: Services, info: TableInfo) -> None:
        self.services = services
        #: every change of the table happens under this lock (its collaborators take it
        #: too, to read and act in one step)
        self.lock = asyncio.Lock()
        self._info = info
        self._match: MatchInfo | None = None
        self._config: MatchConfig | None = None  # secret: holds the seed
        self._state: State | None = None
        self._events: list[EventInfo] = []
        #: when the seat (or seats, in the split) to act began: the turn timer's start
        self._turn_since = 0.0
        #: the latest checkpoint: a sequence number (a multiple of CHECKPOINT_EVERY)
        #: and the state after it, so a client reconnecting after a short gap costs
        #: what it missed and at most CHECKPOINT_EVERY actions more
        self._checkpoint: tuple[int, State] | None = None
        #: the message ids of this match's accepted actions, by seat: their sequence numbers
        self._accepted: dict[tuple[int, str], int] = {}
        #: the answers to the latest rejected messages (at most ``max_remembered_rejects``)
        self._rejected: OrderedDict[tuple[int, str], Frame] = OrderedDict()
        self._conns: set[Connection] = set()
        #: seats connected to other server processes, by process (from the bus)
        self._remote_online: dict[str, set[int]] = {}
        #: when this table was last asked for (idle tables are evicted)
        self._last_used = time.monotonic()
        #: told (under the lock) after every change: the auto-player
        self._listeners: list[Callable[[], None]] = []
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

    # -- what it answers: facts of the table and its match --------------------------------
    @property
    def info(self) -> TableInfo:
        """The table as last read from the database: its options and seats."""
        return self._info

    @property
    def match(self) -> MatchInfo | None:
        """The match being played or just over (None: none started yet)."""
        return self._match

    @property
    def seq(self) -> int:
        """How many actions of the current match were accepted."""
        return len(self._events)

    @property
    def match_id(self) -> str | None:
        return None if self._match is None else self._match.id

    def in_play(self) -> bool:
        """Whether a match is being played (started, and not over)."""
        return self._state is not None and not self._state.is_over

    def match_over(self) -> bool:
        """Whether the current match is over (a rematch may start)."""
        return self._match is not None and self._state is not None and self._state.is_over

    def view(self, seat: int | None) -> View | None:
        """What ``seat`` (None: a spectator) may know of the current match (None: no
        match): the only road from a collaborator to the cards."""
        st = self._state
        if st is None:
            return None
        return st.view(seat) if seat is not None else st.spectator_view()

    def turn_of(self, seat: int) -> SeatTurn | None:
        """What a bot deciding for ``seat`` now is given (None: no match)."""
        if self._state is None or self._config is None:
            return None
        turn = sum(1 for ev in self._events if ev.seat == seat)
        return SeatTurn(self.seq, self._state.view(seat), self._config.seed, turn)

    # -- loading -----------------------------------------------------------------------
    async def load(self) -> None:
        """Rebuild the current match from the stored events (caller holds the lock)."""
        info = await asyncio.to_thread(self.store.table, self._info.id)
        if info is None:
            raise StoreError("missing", f"table {self._info.id} is no longer in the database")
        self._info = info
        if info.current_match is None:
            self._match = self._config = self._state = None
            self._events = []
            self._checkpoint = None
            self._accepted, self._rejected = {}, OrderedDict()
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
        self._checkpoint = None
        for ev, (state, _) in zip(events, _replay(config, events), strict=True):
            if ev.seq % CHECKPOINT_EVERY == 0:
                self._checkpoint = (ev.seq, state.clone())
            since = _turn_start(before, state, since, ev.created_at)
            before = (state.phase, state.round_index)
            if ev.client_id:
                accepted[(ev.seat, ev.client_id)] = ev.seq
        self._match, self._config, self._state, self._events = match, config, state, list(events)
        self._turn_since = since
        self._accepted = accepted
        self._rejected = OrderedDict()

    # -- facts -------------------------------------------------------------------------
    def deadline(self) -> float | None:
        """When the turn timer of the seat (or seats) to act runs out; None: no timer.

        A rated table always has one (``rated_turn_timer_s`` when it was made without),
        and a seat of it whose last move was the timer's has left: its turns are then
        played after ``away_turn_s`` (a second), until its player acts again. So a player who
        stops forfeits the rest of the match to the bot, and the result is rated."""
        timer = self._info.options.turn_timer_s
        if not timer and self._info.rated:
            timer = self.settings.rated_turn_timer_s
        if not timer or self._state is None or self._state.is_over:
            return None
        timer = float(timer)
        if self._info.rated:
            people = self.seats_to_act("human")
            if people and all(self.away(seat) for seat in people):
                timer = min(timer, self.settings.away_turn_s)
        return self._turn_since + timer

    def away(self, seat: int) -> bool:
        """Whether ``seat``'s last move of this match was made by its turn timer."""
        for ev in reversed(self._events):
            if ev.seat == seat:
                return ev.source == "timeout"
        return False

    def online(self) -> set[int]:
        """The seats connected, to this process or to another."""
        seats = {c.seat for c in self._conns if c.seat is not None}
        for remote in self._remote_online.values():
            seats |= remote
        return seats

    def local_seats(self) -> list[int]:
        """The seats connected to this process (told to the others on the bus)."""
        return sorted({c.seat for c in self._conns if c.seat is not None})

    def remote_seats(self, origin: str | None = None) -> set[int]:
        """The seats connected to the other processes (or to process ``origin``)."""
        if origin is not None:
            return set(self._remote_online.get(origin, ()))
        return set().union(*self._remote_online.values())

    def connected(self) -> bool:
        """Whether any page (a seat's or a spectator's) is connected here."""
        return bool(self._conns)

    def spectators(self) -> int:
        """How many spectators' pages are connected here."""
        return sum(1 for c in self._conns if c.seat is None)

    def seats_to_act(self, kind: str | None = None) -> list[int]:
        """The seats (of ``kind``, "bot" or "human", when given) that may act now."""
        st = self._state
        if st is None or st.is_over:
            return []
        return [s for s in st.seats_to_act()
                if kind is None or self._info.seats[s].kind == kind]

    def busy(self) -> bool:
        """Whether a page is connected or news of them is on its way (then the table
        must not be evicted)."""
        return bool(self._conns) or self._presence_task is not None

    def idle_s(self) -> float:
        """Seconds since the table was last asked for (an idle one leaves memory)."""
        return time.monotonic() - self._last_used

    def seat_of_token(self, token: str) -> int | None:
        """The seat ``token`` holds here, as far as this process knows (no database
        read: a seat taken on another process a moment ago may not be known yet)."""
        digest = hash_token(token)
        for s in self._info.seats:
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, digest):
                return s.seat
        return None

    def think_share(self, client: str | None = None) -> think.Share:
        """Whose thinking this table's job is in the think pool: ``client``'s (advice:
        the asking address's), else the client that created the table; tables with
        people first."""
        people = any(s.kind == "human" for s in self._info.seats)
        owner = client or self._info.creator or f"table:{self._info.id}"
        return think.Share(owner, self._info.id, think.PEOPLE if people else think.BOTS_ONLY)

    # -- frames ------------------------------------------------------------------------
    def snapshot(self, seat: int | None) -> Frame:
        return F.snapshot(self.match_id, self.seq, self._state, seat, self.deadline())

    def refuse(
        self, msg_id: str, code: str, reason: str, seat: int | None = None,
        why: IllegalActionError | None = None,
    ) -> Frame:
        """A ``reject`` frame for a message that changes nothing (with a snapshot)."""
        return F.reject(msg_id, code, reason, self.snapshot(seat), why)

    def broadcast(self, frame: Frame) -> None:
        """Send one frame (the same for every seat: no view in it) to every page here."""
        for c in self._conns:
            c.send(frame)

    def broadcast_table(self) -> None:
        self.broadcast(F.table(self._info, self.online()))

    def broadcast_snapshots(self) -> None:
        for c in self._conns:
            c.send(self.snapshot(c.seat))

    # -- the events it emits ----------------------------------------------------------------
    def subscribe(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` after every change of the match or the seats, under the
        lock (the auto-player: its bots and timer look again)."""
        self._listeners.append(listener)

    def unsubscribe(self, listener: Callable[[], None]) -> None:
        """Stop calling ``listener`` (no error if it was not subscribed)."""
        if listener in self._listeners:
            self._listeners.remove(listener)

    def changed(self) -> None:
        """After a change (caller holds the lock): every listener hears of it."""
        for listener in list(self._listeners):
            listener()

    def touch(self) -> None:
        """Someone asked for the table: it is not idle."""
        self._last_used = time.monotonic()

    def left_memory(self) -> None:
        """The table was dropped from the hub: what the other processes said of its
        seats is forgotten (they say it again when it is loaded afresh)."""
        self._remote_online.clear()

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
            self._conns.add(conn)
            M.CONNECTIONS.inc()
            self._last_used = time.monotonic()
            conn.send(F.welcome(conn.seat, self._info, self.online()))
            if (
                self._match is not None
                and self._state is not None
                and since_match == self._match.id
                and since_seq is not None
                and since_seq <= self.seq
                and (since_seq == self.seq
                     or (self.seq - since_seq <= self.settings.max_resume_events
                         and self.services.resume_limiter.take(address)))
            ):
                for frame in self._frames_since(self._match, since_seq, conn.seat):
                    conn.send(frame)
            else:
                conn.send(self.snapshot(conn.seat))
            self._presence_changed(online)

    async def detach(self, conn: Connection) -> None:
        async with self.lock:
            online = self.online(), self.local_seats()
            if conn in self._conns:
                self._conns.discard(conn)
                M.CONNECTIONS.dec()
            self._last_used = time.monotonic()
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
            self.group.presence(self._info.id, self.local_seats())

    def _frames_since(self, match: MatchInfo, since: int, seat: int | None) -> list[Frame]:
        assert self._config is not None
        out: list[Frame] = []
        steps: Iterator[tuple[EventInfo, tuple[State, Outcome]]]
        if self._checkpoint is not None and since >= self._checkpoint[0]:
            # a short gap: from the latest checkpoint
            start, state = self._checkpoint
            events = self._events[start:]
            state = state.clone()
            steps = zip(events, ((state, state.apply(A.parse_action(ev.action), ev.seat))
                                 for ev in events), strict=True)
        else:
            # a long one: the whole match (about half a millisecond, less than building
            # the frames it is replayed for)
            steps = zip(self._events, _replay(self._config, self._events), strict=True)
        for ev, (state, outcome) in steps:
            if ev.seq > since:
                # the last one carries the turn timer and the server's clock
                last = ev.seq == self.seq
                out.append(F.event(match.id, ev.seq, state, outcome, ev.source, seat,
                                   self.deadline() if last else None,
                                   time.time() if last else None))
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
            if self._match is None or self._state is None:
                return self.refuse(cid, "not_started",
                                   "the match starts when every seat is filled", seat)
            key = (seat, cid)
            if client_id and key in self._accepted:
                return F.duplicate(F.ack(cid, self._accepted[key]))
            if client_id and key in self._rejected:
                return F.duplicate(self._rejected[key])
            answer = await self._submit_locked(self._match, self._state, seat, action_text,
                                               expected_seq, client_id, source, match_id)
            if client_id and answer["type"] == "reject" and self._match is not None:
                self._rejected[key] = answer
                while len(self._rejected) > self.settings.max_remembered_rejects:
                    self._rejected.popitem(last=False)
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
        self.group.event_accepted(self._info.id, match.id, ev)
        self.changed()
        if new.is_over and self._info.rated:
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
        assert self._match is not None and self._state is not None
        old = self._state
        before = (old.phase, old.round_index)
        self._state = new
        self._events.append(ev)
        if ev.seq % CHECKPOINT_EVERY == 0:
            self._checkpoint = (ev.seq, new)  # never changed in place: a new one is made
        if ev.client_id:
            self._accepted[(ev.seat, ev.client_id)] = ev.seq
        self._turn_since = _turn_start(before, new, self._turn_since, ev.created_at)
        # each seat's frame is built from its own view and encoded once, however many
        # of its pages are open; every spectator gets the one spectator frame
        texts = F.event_texts(self._match.id, ev, new, outcome, (c.seat for c in self._conns),
                              self.deadline())
        for c in self._conns:
            c.send(texts[c.seat])

    # -- news from the other server processes ---------------------------------------------
    async def apply_remote(self, match_id: str, ev: EventInfo) -> None:
        """An action another process committed: apply it and tell the local clients."""
        async with self.lock:
            self._last_used = time.monotonic()
            if self._match is None or self._state is None or self._match.id != match_id:
                await self.catch_up_locked()
                return
            if ev.seq <= self.seq:
                return  # known already (this process read it from the database)
            if ev.seq > self.seq + 1:
                await self.catch_up_locked()  # a message was missed: the database has it
                return
            new = self._state.clone()
            outcome = new.apply(A.parse_action(ev.action), ev.seat)
            self._accept(ev, new, outcome)
            self.changed()

    async def catch_up_locked(self) -> None:
        """Bring this table up to the database (caller holds the lock): new actions go
        to the clients as events, a new match or changed seats as snapshots."""
        before = self.match_id
        info = await asyncio.to_thread(self.store.table, self._info.id)
        if info is None:
            return
        if info.current_match != before or self._state is None or self._match is None:
            await self.load()
            if self._match is not None and self._match.id != before:
                self.broadcast(F.new_match(self._match.id, self._match.number))
            self.broadcast_table()
            self.broadcast_snapshots()
            self.changed()
            return
        seats_changed = info.seats != self._info.seats
        self._info = info
        events = await asyncio.to_thread(self.store.events, self._match.id)
        for ev in events[self.seq:]:
            new = self._state.clone()
            outcome = new.apply(A.parse_action(ev.action), ev.seat)
            self._accept(ev, new, outcome)
        if seats_changed:
            self.broadcast_table()
        self.changed()

    def set_remote_online(self, origin: str, seats: list[int]) -> None:
        """Another process says which seats of this table are connected to it."""
        if set(seats) == self._remote_online.get(origin, set()):
            return
        if seats:
            self._remote_online[origin] = set(seats)
        else:
            self._remote_online.pop(origin, None)
        self.broadcast_table()

    def close(self) -> None:
        """Close every connection (the server stops)."""
        for c in list(self._conns):
            c.close()


def _replay(config: MatchConfig, events: list[EventInfo]) -> Iterator[tuple[State, Outcome]]:
    return replay_steps(config, ((ev.seat, A.parse_action(ev.action)) for ev in events))


def _turn_start(before: tuple[Phase, int], state: State, since: float, now: float) -> float:
    # the split is simultaneous: one clock for every seat from the start of the round
    if before == (Phase.SPLIT, state.round_index) and state.phase is Phase.SPLIT:
        return since
    return now
