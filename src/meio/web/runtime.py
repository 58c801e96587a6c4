"""Tables in play: the full state of each match lives here, on the server only.

A :class:`TableRuntime` holds one table's match state rebuilt from its stored
events, the connected clients, and the tasks that move its bots and enforce its
turn timer. Every accepted action follows one path (:meth:`TableRuntime.submit`):
check against the current sequence number and the rules, commit to the database,
then apply and broadcast to each connection a frame built from its own view.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from meio.bots.levels import level_name
from meio.engine import (
    IllegalActionError,
    MatchConfig,
    MeioError,
    Outcome,
    Phase,
    State,
    TableOptions,
    View,
    replay_steps,
)
from meio.engine import actions as A
from meio.engine import cards as C
from meio.engine.wire import config_from_json, config_json
from meio.web import metrics as M
from meio.web import protocol as P
from meio.web import think
from meio.web.limits import Caps, KeyedLimiter
from meio.web.settings import Settings
from meio.web.store import (
    EventInfo,
    MatchInfo,
    NewEvent,
    SeatInfo,
    Store,
    StoreError,
    TableInfo,
    hash_token,
)
from meio.web.writer import Writer

log = logging.getLogger("meio.web")

Frame = dict[str, Any]

#: bots whose choice takes microseconds: they run on the event loop, not in a thread
INLINE_BOTS = frozenset({"random"})

#: a table keeps the state after every this many actions, from which a reconnecting
#: client's missed actions are replayed (keeping every state of a match, as before,
#: made ~4,000 objects a table that the garbage collector scanned again and again)
CHECKPOINT_EVERY = 16

#: seconds a change of the seats online waits, so that a burst of pages coming or
#: going makes one ``table`` frame
PRESENCE_DELAY_S = 0.05

#: seconds between two passes that close the tables whose time is up
SWEEP_EVERY_S = 60.0


@dataclass(eq=False)
class Connection:
    """One open WebSocket: a seat (or None for a spectator) and its outgoing queue."""

    seat: int | None
    queue: asyncio.Queue[Frame | str | int] = field(default_factory=asyncio.Queue)

    def send(self, frame: Frame | str) -> None:
        """Queue a frame for this client (a dict, or one already encoded as JSON text
        with :func:`meio.web.protocol.encode`)."""
        self.queue.put_nowait(frame)

    def close(self, code: int = 1001) -> None:
        """Close the connection with ``code`` once the frames queued before are sent."""
        self.queue.put_nowait(code)


def same_secret(given: str, secret: str) -> bool:
    """Whether ``given`` is ``secret``, compared in constant time (any text may be given).

    >>> same_secret("abc", "abc"), same_secret("ábc", "abc")
    (True, False)
    """
    return secrets.compare_digest(given.encode("utf-8", "surrogatepass"), secret.encode())


def bot_seed(match_seed: int, seat: int, turn: int) -> int:
    """The seed of the bot deciding ``seat``'s ``turn``-th action of a match.

    It depends on the position only, not on timing, so a restarted server (or a
    rerun of the same seeds) makes the same bot choices.
    """
    digest = hashlib.sha256(f"{match_seed}:{seat}:{turn}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


#: the bot that moves for a seat whose turn timer ran out
TIMEOUT_BOT = "heuristic"


def public_table(info: TableInfo, online: set[int]) -> Frame:
    """What anyone at the table may know of it (no codes, no token hashes)."""
    opts = info.options
    return {
        "id": info.id,
        "edition": opts["edition"],
        "players": opts["players"],
        "partnership": opts["partnership"],
        # chosen specials stay secret at a table that hides them
        "specials": opts["specials"] if opts.get("reveal_specials", True) else None,
        "wild_lead": opts.get("wild_lead", "declare"),
        "reveal_specials": opts.get("reveal_specials", True),
        "turn_timer_s": opts.get("turn_timer_s"),
        "listed": info.listed,
        "seats": [
            {
                "seat": s.seat,
                "kind": s.kind,
                "bot": s.bot,
                "name": s.name if s.kind == "human"
                else f"Bot {s.seat + 1} ({level_name(s.bot or 'random')})",
                "filled": s.filled,
                "online": s.kind == "bot" or s.seat in online,
            }
            for s in info.seats
        ],
        "free_seats": [s.seat for s in info.seats if not s.filled],
        "match": info.current_match,
    }


class TableRuntime:
    """One table in memory. All changes happen under :attr:`lock`."""

    def __init__(self, hub: Hub, info: TableInfo) -> None:
        self.hub = hub
        self.info = info
        self.lock = asyncio.Lock()
        self.match: MatchInfo | None = None
        self.config: MatchConfig | None = None  # secret: holds the seed
        self.state: State | None = None
        self.events: list[EventInfo] = []
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
        self._bot_task: asyncio.Task[None] | None = None
        self._timer_task: asyncio.Task[None] | None = None
        self._presence_task: asyncio.Task[None] | None = None
        #: the seats that asked for a rematch after the match of that id
        self._rematch: tuple[str | None, set[int]] = (None, set())
        #: the seats with a request for advice in flight (one each)
        self.advising: set[int] = set()
        #: each seat's budget of requests for advice
        self.advice_limiter = KeyedLimiter(hub.settings.advice_rate_per_min / 60,
                                           hub.settings.advice_burst)

    @property
    def store(self) -> Store:
        return self.hub.store

    @property
    def settings(self) -> Settings:
        return self.hub.settings

    @property
    def seq(self) -> int:
        return len(self.events)

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
        for ev, (state, _) in zip(events, self._replay(config, events), strict=True):
            if ev.seq % CHECKPOINT_EVERY == 0:
                self.checkpoint = (ev.seq, state.clone())
            since = self._turn_start(before, state, since, ev.created_at)
            before = (state.phase, state.round_index)
            if ev.client_id:
                accepted[(ev.seat, ev.client_id)] = ev.seq
        self.match, self.config, self.state, self.events = match, config, state, list(events)
        self.turn_since = since
        self.accepted = accepted
        self.rejected = OrderedDict()

    @staticmethod
    def _turn_start(
        before: tuple[Phase, int], state: State, since: float, now: float
    ) -> float:
        # the split is simultaneous: one clock for every seat from the start of the round
        if before == (Phase.SPLIT, state.round_index) and state.phase is Phase.SPLIT:
            return since
        return now

    # -- helpers -----------------------------------------------------------------------
    def seat_info(self, seat: int) -> SeatInfo:
        return self.info.seats[seat]

    def deadline(self) -> float | None:
        timer = self.info.options.get("turn_timer_s")
        if not timer or self.state is None or self.state.is_over:
            return None
        return self.turn_since + float(timer)

    def online(self) -> set[int]:
        seats = {c.seat for c in self.conns if c.seat is not None}
        for remote in self.remote_online.values():
            seats |= remote
        return seats

    def local_seats(self) -> list[int]:
        """The seats connected to this process (told to the others on the bus)."""
        return sorted({c.seat for c in self.conns if c.seat is not None})

    def needs_actor(self) -> bool:
        """Whether a bot must move or a turn timer must run at this table now."""
        st = self.state
        if st is None or st.is_over:
            return False
        to_act = [self.seat_info(s).kind for s in st.seats_to_act()]
        return "bot" in to_act or ("human" in to_act and self.deadline() is not None)

    def busy_acting(self) -> bool:
        """Whether a bot task or a turn timer runs for this table."""
        return self._bot_task is not None or self._timer_task is not None

    def busy(self) -> bool:
        """Whether anything runs for this table here (it must not be evicted)."""
        return (bool(self.conns) or self._bot_task is not None or self._timer_task is not None
                or self._presence_task is not None)

    def seat_of_token(self, token: str) -> int | None:
        """The seat ``token`` holds here, as far as this process knows (no database
        read: a seat taken on another process a moment ago may not be known yet)."""
        digest = hash_token(token)
        for s in self.info.seats:
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, digest):
                return s.seat
        return None

    def table_frame(self) -> Frame:
        return {"type": "table", "table": public_table(self.info, self.online())}

    def snapshot(self, seat: int | None) -> Frame:
        frame = P.snapshot_frame(
            None if self.match is None else self.match.id,
            self.seq,
            self.state,
            seat,
            self.deadline(),
        )
        frame["now"] = time.time()
        return frame

    def broadcast_table(self) -> None:
        frame = self.table_frame()
        for c in self.conns:
            c.send(frame)

    def broadcast_snapshots(self) -> None:
        for c in self.conns:
            c.send(self.snapshot(c.seat))

    # -- connections ---------------------------------------------------------------------
    async def attach(
        self, conn: Connection, since_match: str | None, since_seq: int | None,
        address: str = "?",
    ) -> TableRuntime:
        """Add a connection; send it what it missed since ``since``, or a snapshot when
        that is more than ``max_resume_events`` actions or ``address`` has reconnected
        too often lately (the snapshot is one frame, whatever the gap).

        Returns the runtime that took the connection: this one, or, when this one was
        evicted while the client said hello and the table has been loaded afresh
        since, that fresh one.
        """
        live, stale = await self.hub.readmit(self)
        if live is not self:
            return await live.attach(conn, since_match, since_seq, address)
        async with self.lock:
            if stale:  # other processes may have moved on while it was out of the hub
                await self.catch_up_locked()
            online = self.online(), self.local_seats()
            self.conns.add(conn)
            M.CONNECTIONS.inc()
            self.last_used = time.monotonic()
            conn.send({"type": "welcome", "seat": conn.seat, "table": public_table(
                self.info, self.online())})
            if (
                self.match is not None
                and self.state is not None
                and since_match == self.match.id
                and since_seq is not None
                and since_seq <= self.seq
                and (since_seq == self.seq
                     or (self.seq - since_seq <= self.settings.max_resume_events
                         and self.hub.resume_limiter.take(address)))
            ):
                for frame in self._frames_since(self.match, since_seq, conn.seat):
                    conn.send(frame)
            else:
                conn.send(self.snapshot(conn.seat))
            self._presence_changed(online)
        return self

    def _presence_changed(self, before: tuple[set[int], list[int]]) -> None:
        """After a connection came or went: the pages here and the other processes
        hear of it only when the seats online (or connected here) changed — a
        spectator changes nothing they are shown — in one ``table`` frame for a burst
        of changes (caller holds the lock)."""
        if (self.online(), self.local_seats()) == before or self._presence_task is not None:
            return
        self._presence_task = self.hub.spawn(self._send_presence())

    async def _send_presence(self) -> None:
        await asyncio.sleep(PRESENCE_DELAY_S)
        async with self.lock:
            self._presence_task = None
            self.broadcast_table()
            self.hub.cluster.presence(self)

    @staticmethod
    def _replay(config: MatchConfig, events: list[EventInfo]) -> Iterator[tuple[State, Outcome]]:
        return replay_steps(config, ((ev.seat, A.parse_action(ev.action)) for ev in events))

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
            steps = zip(self.events, self._replay(self.config, self.events), strict=True)
        for ev, (state, outcome) in steps:
            if ev.seq > since:
                out.append(
                    P.event_frame(match.id, ev.seq, state, outcome, ev.source, seat, None)
                )
        if out:
            out[-1]["deadline"] = self.deadline()
            out[-1]["now"] = time.time()
        return out

    async def detach(self, conn: Connection) -> None:
        async with self.lock:
            online = self.online(), self.local_seats()
            if conn in self.conns:
                self.conns.discard(conn)
                M.CONNECTIONS.dec()
            self.last_used = time.monotonic()
            self._presence_changed(online)

    # -- seats and matches -------------------------------------------------------------
    async def join(self, invite: str, name: str, seat: int | None) -> tuple[int, str]:
        """Take a free seat with the invite code; returns ``(seat, token)``."""
        async with self.lock:
            if not same_secret(invite, self.info.invite_code):
                raise JoinError(403, "this invite link is not valid for this table", "bad_invite")
            if self.info.closed:
                raise JoinError(410, CLOSED, "closed")
            free = [s.seat for s in self.info.seats if not s.filled]
            if seat is None:
                if not free:
                    raise JoinError(409, "every seat of this table is taken", "full")
                seat = free[0]
            elif not 0 <= seat < len(self.info.seats):
                raise JoinError(422, f"there is no seat {seat + 1} at this table", "no_seat",
                                seat=seat + 1)
            elif seat not in free:
                raise JoinError(409, f"seat {seat + 1} is not free", "seat_taken", seat=seat + 1)
            token = secrets.token_urlsafe(24)
            try:
                await asyncio.to_thread(
                    self.store.take_seat, self.info.id, seat, name, hash_token(token)
                )
            except StoreError:
                await self.load()
                if self.info.closed:
                    raise JoinError(410, CLOSED, "closed") from None
                raise JoinError(409, f"seat {seat + 1} was just taken by someone else",
                                "seat_taken", seat=seat + 1) from None
            await self.load()
            if self.match is None and all(s.filled for s in self.info.seats):
                await self._start_match(1)
            self.broadcast_table()
            self.broadcast_snapshots()
            self._after_change()
            self.hub.cluster.table_changed(self)
            return seat, token

    def _match_config(self, number: int) -> MatchConfig:
        opts = self.info.options
        fixed = opts.get("seed")
        seed = secrets.randbits(62) if fixed is None else bot_seed(int(fixed), -1, number)
        specials = opts.get("specials")
        return MatchConfig(
            edition=opts["edition"],
            players=opts["players"],
            partnership=opts["partnership"],
            specials=None if specials is None else tuple(C.parse_card(s) for s in specials),
            seed=seed,
            options=TableOptions(opts.get("wild_lead", "declare"),
                                 opts.get("reveal_specials", True)),
        )

    async def _start_match(self, number: int) -> None:
        config = self._match_config(number)
        # if another server started it first, StoreError says so: take theirs
        with contextlib.suppress(StoreError):
            await asyncio.to_thread(
                self.store.start_match, self.info.id, number, config_json(config)
            )
        await self.load()

    async def ensure_started(self) -> None:
        """Start match 1 of a full table that has none (after a crash between the two)."""
        async with self.lock:
            if self.match is None and all(s.filled for s in self.info.seats):
                await self._start_match(1)
                self.hub.cluster.table_changed(self)
            self._after_change()

    async def rematch(self, msg_id: str, seat: int | None) -> Frame:
        """Ask for the next match at this table with the same seats. It starts once
        every seated person has asked (bots always agree); until then each asking
        seat is shown to the table in a ``rematch`` frame, and the answer says whom
        it waits for. Requests are kept for the match just over, in memory."""
        async with self.lock:
            if seat is None:
                return _reject(msg_id, "forbidden", "spectators cannot start a rematch", self)
            if self.match is None or self.state is None or not self.state.is_over:
                return _reject(msg_id, "not_over", "a rematch starts once the match is over",
                               self, seat)
            if self.info.closed:
                return _reject(msg_id, "closed", CLOSED, self, seat)
            match = self.match
            self.hub.cluster.rematch_asked(self, seat)
            waiting = await self._rematch_vote_locked(match.id, seat)
            if waiting:
                return {"type": "ack", "id": msg_id, "seq": self.seq, "match": match.id,
                        "waiting": waiting}
            assert self.match is not None
            return {"type": "ack", "id": msg_id, "seq": self.seq, "match": self.match.id}

    async def rematch_remote(self, match_id: str, seat: int) -> None:
        """A seat connected to another process asked for a rematch."""
        async with self.lock:
            if (self.match is not None and self.match.id == match_id
                    and self.state is not None and self.state.is_over
                    and 0 <= seat < len(self.info.seats)):
                await self._rematch_vote_locked(match_id, seat)

    async def _rematch_vote_locked(self, match_id: str, seat: int) -> list[int]:
        """Count ``seat``'s request; start the rematch when none is missing (whichever
        process sees the last request starts it; the database lets only one). Returns
        the seats still waited for."""
        if self._rematch[0] != match_id:
            self._rematch = (match_id, set())
        asked = self._rematch[1]
        asked.add(seat)
        humans = {s.seat for s in self.info.seats if s.kind == "human"}
        waiting = sorted(humans - asked)
        if waiting:
            for c in self.conns:
                c.send({"type": "rematch", "match": match_id, "asked": sorted(asked & humans),
                        "waiting": waiting})
            return waiting
        assert self.match is not None
        await self._start_match(self.match.number + 1)
        if self.match.id != match_id:
            for c in self.conns:
                c.send({"type": "match", "match": self.match.id, "number": self.match.number})
        self.broadcast_table()
        self.broadcast_snapshots()
        self._after_change()
        self.hub.cluster.table_changed(self)
        return []

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
                return _reject(cid, "forbidden", "spectators cannot act", self)
            if self.match is None or self.state is None:
                return _reject(cid, "not_started",
                               "the match starts when every seat is filled", self, seat)
            key = (seat, cid)
            if client_id and key in self.accepted:
                return {**_ack(cid, self.accepted[key]), "duplicate": True}
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
            return _reject(cid, "stale", "that match is no longer being played", self, seat)
        if expected_seq != self.seq:
            return _reject(
                cid, "stale",
                f"the game has moved on: your action was made at {expected_seq}, "
                f"the table is at {self.seq}", self, seat,
            )
        try:
            action = A.parse_action(action_text)
            new = state.clone()
            outcome = new.apply(action, seat)
        except IllegalActionError as exc:
            return _reject(cid, "illegal", exc.reason, self, seat, exc)
        except MeioError as exc:
            return _reject(cid, "illegal", str(exc), self, seat)
        seq = self.seq + 1
        now = time.time()
        ev = EventInfo(seq, seat, A.action_text(action), source, client_id, now)
        try:
            began = time.perf_counter()
            # stored (with other tables' actions, in one transaction) before anyone
            # hears of it
            await self.hub.writer.append(
                NewEvent(match.id, ev, _result(new) if new.is_over else None)
            )
            M.DB_COMMIT.observe(time.perf_counter() - began)
        except StoreError:
            # another server wrote this number first: the database decided; what it
            # stored goes to the clients as events
            await self.catch_up_locked()
            return _reject(cid, "stale", "another action was accepted first", self, seat)
        self._accept(ev, new, outcome)
        self.hub.cluster.event_accepted(self, ev)
        self._after_change()
        return _ack(cid, seq)

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
        self.turn_since = self._turn_start(before, new, self.turn_since, ev.created_at)
        deadline = self.deadline()
        # each seat's frame is built from its own view and encoded once, however many
        # of its pages are open; every spectator gets the one spectator frame
        texts: dict[int | None, str] = {}
        for c in self.conns:
            text = texts.get(c.seat)
            if text is None:
                frame = P.event_frame(
                    self.match.id, ev.seq, new, outcome, ev.source, c.seat, deadline
                )
                frame["now"] = ev.created_at
                text = texts[c.seat] = P.encode(frame)
            c.send(text)

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
            self._after_change()

    async def catch_up_locked(self) -> None:
        """Bring this table up to the database (caller holds the lock): new actions go
        to the clients as events, a new match or changed seats as snapshots."""
        before = None if self.match is None else self.match.id
        info = await asyncio.to_thread(self.store.table, self.info.id)
        if info is None:
            return
        if info.current_match != before or self.state is None or self.match is None:
            await self.load()
            if self.match is not None and self.match.id != before:
                for c in self.conns:
                    c.send({"type": "match", "match": self.match.id,
                            "number": self.match.number})
            self.broadcast_table()
            self.broadcast_snapshots()
            self._after_change()
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
        self._after_change()

    def set_remote_online(self, origin: str, seats: list[int]) -> None:
        """Another process says which seats of this table are connected to it."""
        if set(seats) == self.remote_online.get(origin, set()):
            return
        if seats:
            self.remote_online[origin] = set(seats)
        else:
            self.remote_online.pop(origin, None)
        self.broadcast_table()

    # -- bots and timers -----------------------------------------------------------------
    def _after_change(self) -> None:
        """Wake the bots and re-arm the turn timer (caller holds the lock).

        Only the process holding the table's lease does either; another asks for
        the lease when it looks free, and acts once it has it.
        """
        st = self.state
        if st is None or st.is_over:
            self.hub.cluster.done_with(self)
            return
        current = asyncio.current_task()
        if self._timer_task is not None and self._timer_task is not current:
            self._timer_task.cancel()
        self._timer_task = None
        if not self.needs_actor() or not self.hub.cluster.may_act(self):
            return
        bot_seats = [s for s in st.seats_to_act() if self.seat_info(s).kind == "bot"]
        if bot_seats and self._bot_task is None:
            self._bot_task = self.hub.spawn(self._run_bots())
        deadline = self.deadline()
        humans = [s for s in st.seats_to_act() if self.seat_info(s).kind == "human"]
        if deadline is not None and humans:
            self._timer_task = self.hub.spawn(self._run_timer(self.seq, deadline))

    async def _run_bots(self) -> None:
        me = asyncio.current_task()
        try:
            while await self._bot_step():
                pass
        except Exception:
            # the move could not even be stored (the database is away...): try again soon
            log.exception("table %s: the bots stopped; trying again in %.1f s",
                          self.info.id, self.settings.task_retry_s)
            if self._bot_task is me:
                self._bot_task = None
            self.hub.spawn(self._wake(self.settings.task_retry_s))

    async def _bot_step(self) -> bool:
        """Let one bot seat move; False (with the task cleared, under the lock) when none
        is to act."""
        async with self.lock:
            st = self.state
            seat = None
            if st is not None and not st.is_over:
                seat = next(
                    (s for s in st.seats_to_act() if self.seat_info(s).kind == "bot"), None
                )
            if seat is None or not self.hub.cluster.holds(self):
                # nothing to do, or the lease went to another process
                self._bot_task = None
                return False
            kind = self.seat_info(seat).bot or "random"
        if self.settings.bot_delay_s > 0:
            await asyncio.sleep(self.settings.bot_delay_s)
        await self._bot_move(seat, kind, "bot")
        return True

    async def _bot_move(self, seat: int, kind: str, source: str) -> None:
        """Move for ``seat`` with a ``kind`` bot: a bot that raises (or chooses an illegal
        action) is asked once more, then the random bot moves instead (source
        ``fallback``), so that a failing bot never stalls its table."""
        tries = [(kind, source), (kind, source), ("random", FALLBACK_SOURCE)]
        for attempt, (bot, src) in enumerate(tries, 1):
            async with self.lock:
                st = self.state
                if st is None or st.is_over or seat not in st.seats_to_act():
                    return  # someone else moved for this seat meanwhile
                seq, seed, view = self._bot_position(seat)
            began = time.perf_counter()
            try:
                # a cheap bot chooses on the loop: a hop to a worker costs more than its
                # choice; the others think in the think pool, never in the threads that
                # the database writes use
                text = (think.bot_choice(bot, seed, view) if bot in INLINE_BOTS
                        else await self.hub.think.run(self.think_priority(), think.bot_choice,
                                                      bot, seed, view))
            except Exception:
                log.exception("table %s: the %s bot failed for seat %d (try %d of %d)",
                              self.info.id, bot, seat, attempt, len(tries))
                continue
            M.BOT_THINK.labels(bot).observe(time.perf_counter() - began)
            if not self.hub.cluster.holds(self):
                return  # the lease went to another process while this bot thought
            answer = await self.submit(seat, text, expected_seq=seq, client_id=None, source=src)
            if answer["type"] == "ack" or answer.get("code") != "illegal":
                return  # done, or the table moved on: the caller looks again
            log.error("table %s: the %s bot chose %r for seat %d, which is not allowed: %s",
                      self.info.id, bot, text, seat, answer.get("reason"))
        raise BotError(f"no bot could move for seat {seat} of table {self.info.id}")

    async def _wake(self, delay: float) -> None:
        """Look for bots and timers again after ``delay`` (after a failed task)."""
        await asyncio.sleep(delay)
        async with self.lock:
            self._after_change()

    def _bot_position(self, seat: int) -> tuple[int, int, View]:
        """What a bot deciding for ``seat`` is given: the sequence number it decides
        at, its seed and the seat's view (taken under the lock; the thinking runs off
        the event loop)."""
        if self.state is None or self.config is None:
            raise BotError("no match is being played at this table")
        turn = sum(1 for ev in self.events if ev.seat == seat)
        return self.seq, bot_seed(self.config.seed, seat, turn), self.state.view(seat)

    def think_priority(self) -> int:
        """Where this table's jobs queue in the think pool: tables with people first."""
        people = any(s.kind == "human" for s in self.info.seats)
        return think.PEOPLE if people else think.BOTS_ONLY

    async def _run_timer(self, seq: int, deadline: float) -> None:
        # one timeout move; the move re-arms the timer for the next late seat
        await asyncio.sleep(max(0.0, deadline - time.time()))
        async with self.lock:
            st = self.state
            if st is None or st.is_over or self.seq != seq or not self.hub.cluster.holds(self):
                return
            late = [s for s in st.seats_to_act() if self.seat_info(s).kind == "human"]
            if not late:
                return
            seat = late[0]
        try:
            await self._bot_move(seat, TIMEOUT_BOT, "timeout")
        except Exception:
            log.exception("table %s: the turn timer could not move for seat %d; trying "
                          "again in %.1f s", self.info.id, seat, self.settings.task_retry_s)
            self.hub.spawn(self._wake(self.settings.task_retry_s))

    def refuse(self, msg_id: str, code: str, reason: str, seat: int | None) -> Frame:
        """A ``reject`` frame for a message that changes nothing (with a snapshot)."""
        return _reject(msg_id, code, reason, self, seat)

    # -- advice ------------------------------------------------------------------------
    async def advise(self, msg_id: str, seat: int | None, pack: tuple[str, ...] | None) -> Frame:
        """The split advisor's hint for ``seat``, computed from its view in the think
        pool. A seat has one request in flight at a time and a budget of requests a
        minute, however many pages it has open (``advice_burst``,
        ``advice_rate_per_min``)."""
        async with self.lock:
            st = self.state
            if seat is None:
                return _reject(msg_id, "forbidden", "spectators get no split advice", self)
            if st is None or st.phase is not Phase.SPLIT or st.packs[seat]:
                return _reject(msg_id, "illegal", "advice is given for your split only", self,
                               seat)
            if seat in self.advising:
                return _reject(msg_id, "busy", "your last request for advice is still being "
                                               "worked out", self, seat)
            view = st.view(seat)
        chosen = None
        if pack is not None:
            try:
                cards = [C.parse_card(c) for c in pack]
            except MeioError as exc:
                return _reject(msg_id, "bad_message", str(exc), self, seat)
            chosen = C.mask_of(cards)
            if len(cards) != 6 or C.count(chosen) != 6:
                return _reject(msg_id, "illegal", "a pack is 6 different cards of your hand",
                               self, seat)
            if chosen & ~view.hand:
                return _reject(msg_id, "illegal",
                               f"{C.format_cards(chosen & ~view.hand)} not in your hand",
                               self, seat)
        if seat in self.advising:
            return _reject(msg_id, "busy", "your last request for advice is still being "
                                           "worked out", self, seat)
        if not self.advice_limiter.take(str(seat)):
            return _reject(msg_id, "rate_limited", "you asked for advice too often: wait a "
                                                   "little", self, seat)
        self.advising.add(seat)
        try:
            payload = await self.hub.think.run(self.think_priority(), think.advice, view,
                                               chosen, self.settings.advice_budget_s)
        finally:
            self.advising.discard(seat)
        if "error" in payload:
            return _reject(msg_id, "illegal", str(payload["error"]), self, seat)
        return {"type": "advice", "id": msg_id, **payload}

    async def close(self) -> None:
        for task in (self._bot_task, self._timer_task):
            if task is not None:
                task.cancel()
        for c in list(self.conns):
            c.close()


#: why a closed table takes no one
CLOSED = "this table has closed; its matches are in the history"

#: the event source of a move made by the random bot for a bot that failed
FALLBACK_SOURCE = "fallback"


class BotError(Exception):
    """No bot could move for a seat (the table tries again later)."""


class JoinError(Exception):
    """A seat that cannot be taken; ``status`` is the HTTP status to answer with, ``code``
    and ``params`` what a client translates (seats in ``params`` count from 1)."""

    def __init__(self, status: int, reason: str, code: str = "refused", **params: int) -> None:
        super().__init__(reason)
        self.status = status
        self.code = code
        self.reason = reason
        self.params = params


def _ack(msg_id: str, seq: int) -> Frame:
    return {"type": "ack", "id": msg_id, "seq": seq}


def _reject(
    msg_id: str, code: str, reason: str, rt: TableRuntime, seat: int | None = None,
    why: IllegalActionError | None = None,
) -> Frame:
    frame: Frame = {"type": "reject", "id": msg_id, "code": code, "reason": reason}
    if why is not None and why.code is not None:
        # the engine's reason as a code and parameters, for the page to translate
        frame["reason_code"], frame["reason_params"] = why.code, why.params
    frame["snapshot"] = rt.snapshot(seat)
    return frame


def _result(state: State) -> dict[str, Any]:
    return {
        "winners": list(state.winners),
        "totals": list(state.totals),
        "victories": state.victories,
        "rounds": len(state.rounds),
    }


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
