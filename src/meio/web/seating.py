"""Seats and matches: taking a seat, starting a match, and the rematch.

:class:`Seating` works on one :class:`~meio.web.table.LiveTable` under its lock. A
seat is taken with the table's invite code (the database decides races); the first
match starts when every seat is filled, and the next one when every seated person
has asked for a rematch (bots always agree). Whichever server process sees the
last request starts it; the database lets only one create each match number.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from typing import Any

from meio.engine import MatchConfig
from meio.engine import cards as C
from meio.engine.wire import config_json, options_in
from meio.web import frames as F
from meio.web.autoplay import bot_seed
from meio.web.services import Frame
from meio.web.store import StoreError, hash_token
from meio.web.table import LiveTable, same_secret
from meio.web.variants import table_variant

#: why a closed table takes no one
CLOSED = "this table has closed; its matches are in the history"


class JoinError(Exception):
    """A seat that cannot be taken; ``status`` is the HTTP status to answer with, ``code``
    and ``params`` what a client translates (seats in ``params`` count from 1)."""

    def __init__(self, status: int, reason: str, code: str = "refused", **params: int) -> None:
        super().__init__(reason)
        self.status = status
        self.code = code
        self.reason = reason
        self.params = params


def match_config(options: dict[str, Any], number: int) -> MatchConfig:
    """The configuration of match ``number`` of a table with these ``options``: a
    fresh random seed, or (tests only, ``MEIO_ALLOW_SEEDS``) one drawn from the
    table's fixed seed and the match number. A variant table's matches play its
    variant (:mod:`meio.web.variants`)."""
    fixed = options.get("seed")
    seed = secrets.randbits(62) if fixed is None else bot_seed(int(fixed), -1, number)
    specials = options.get("specials")
    return MatchConfig(
        edition=options["edition"],
        players=options["players"],
        partnership=options["partnership"],
        specials=None if specials is None else tuple(C.parse_card(s) for s in specials),
        seed=seed,
        options=options_in(options),
        variant=table_variant(options),
    )


class Seating:
    """Who sits at a table, and when its matches start."""

    def __init__(self, table: LiveTable) -> None:
        self.table = table
        #: the seats that asked for a rematch after the match of that id
        self._rematch: tuple[str | None, set[int]] = (None, set())

    async def join(self, invite: str, name: str, seat: int | None,
                   account_id: str | None = None, agree_rated: bool = False
                   ) -> tuple[int, str]:
        """Take a free seat with the invite code (for ``account_id``, or a guest);
        returns ``(seat, token)``. A rated table seats accounts only, each once, and
        one with bots only those who agree (``agree_rated``) to be rated with them."""
        t = self.table
        async with t.lock:
            if not same_secret(invite, t.info.invite_code):
                raise JoinError(403, "this invite link is not valid for this table", "bad_invite")
            if t.info.closed:
                raise JoinError(410, CLOSED, "closed")
            if t.info.rated:
                self._check_rated(account_id, agree_rated)
            chosen = seat
            token = secrets.token_urlsafe(24)
            while True:
                free = [s.seat for s in t.info.seats if not s.filled]
                if chosen is None:
                    if not free:
                        raise JoinError(409, "every seat of this table is taken", "full")
                    seat = free[0]
                elif not 0 <= chosen < len(t.info.seats):
                    raise JoinError(422, f"there is no seat {chosen + 1} at this table",
                                    "no_seat", seat=chosen + 1)
                elif chosen not in free:
                    raise JoinError(409, f"seat {chosen + 1} is not free", "seat_taken",
                                    seat=chosen + 1)
                assert seat is not None
                try:
                    await asyncio.to_thread(
                        t.store.take_seat, t.info.id, seat, name, hash_token(token), account_id
                    )
                    break
                except StoreError:
                    # taken a moment ago through another server process: this copy of
                    # the table was behind. The database knows; a join that named no
                    # seat takes the next free one
                    await t.load()
                    if t.info.closed:
                        raise JoinError(410, CLOSED, "closed") from None
                    if chosen is not None or any(
                            s.seat == seat and not s.filled for s in t.info.seats):
                        raise JoinError(409, f"seat {seat + 1} was just taken by someone "
                                             "else", "seat_taken", seat=seat + 1) from None
            await t.load()
            if t.match is None and all(s.filled for s in t.info.seats):
                await self._start_match(1)
            t.broadcast_table()
            t.broadcast_snapshots()
            t.changed()
            t.group.table_changed(t.info.id)
            return seat, token

    def _check_rated(self, account_id: str | None, agree_rated: bool) -> None:
        info = self.table.info
        if account_id is None:
            raise JoinError(401, "a rated table seats signed-in players only: sign in or "
                                 "create an account", "sign_in_to_rate")
        if any(s.account_id == account_id for s in info.seats):
            raise JoinError(409, "your account already has a seat at this rated table",
                            "already_seated")
        if any(s.kind == "bot" for s in info.seats) and not agree_rated:
            raise JoinError(409, "this rated table has bots: agree to be rated with them "
                                 "to sit down", "agree_rated")

    async def fill_with_bots(self, bot: str) -> int:
        """Seat bots of kind ``bot`` in every free seat (quick play, once its wait is
        over) and start the match; returns how many seats they took."""
        t = self.table
        async with t.lock:
            if t.info.closed or t.match is not None:
                return 0
            filled = await asyncio.to_thread(t.store.fill_free_seats, t.info.id, bot)
            await t.load()
            if t.match is None and all(s.filled for s in t.info.seats):
                await self._start_match(1)
            t.broadcast_table()
            t.broadcast_snapshots()
            t.changed()
            t.group.table_changed(t.info.id)
            return filled

    async def ensure_started(self) -> None:
        """Start match 1 of a full table that has none (after a crash between the two)."""
        t = self.table
        async with t.lock:
            if t.match is None and all(s.filled for s in t.info.seats):
                await self._start_match(1)
                t.group.table_changed(t.info.id)
            t.changed()

    async def _start_match(self, number: int) -> None:
        t = self.table
        config = match_config(t.info.options, number)
        # if another server started it first, StoreError says so: take theirs
        with contextlib.suppress(StoreError):
            await asyncio.to_thread(t.store.start_match, t.info.id, number, config_json(config))
        await t.load()

    async def rematch(self, msg_id: str, seat: int | None) -> Frame:
        """Ask for the next match at this table with the same seats. It starts once
        every seated person has asked (bots always agree); until then each asking
        seat is shown to the table in a ``rematch`` frame, and the answer says whom
        it waits for. Requests are kept for the match just over, in memory."""
        t = self.table
        async with t.lock:
            if seat is None:
                return t.refuse(msg_id, "forbidden", "spectators cannot start a rematch")
            if t.match is None or t.state is None or not t.state.is_over:
                return t.refuse(msg_id, "not_over", "a rematch starts once the match is over",
                                seat)
            if t.info.closed:
                return t.refuse(msg_id, "closed", CLOSED, seat)
            match = t.match
            t.group.rematch_asked(t.info.id, match.id, seat)
            waiting = await self._vote_locked(match.id, seat)
            if waiting:
                return F.ack(msg_id, t.seq, match=match.id, waiting=waiting)
            assert t.match is not None
            return F.ack(msg_id, t.seq, match=t.match.id)

    async def rematch_remote(self, match_id: str, seat: int) -> None:
        """A seat connected to another process asked for a rematch."""
        t = self.table
        async with t.lock:
            if (t.match is not None and t.match.id == match_id
                    and t.state is not None and t.state.is_over
                    and 0 <= seat < len(t.info.seats)):
                await self._vote_locked(match_id, seat)

    async def _vote_locked(self, match_id: str, seat: int) -> list[int]:
        """Count ``seat``'s request; start the rematch when none is missing (whichever
        process sees the last request starts it; the database lets only one). Returns
        the seats still waited for."""
        t = self.table
        if self._rematch[0] != match_id:
            self._rematch = (match_id, set())
        asked = self._rematch[1]
        asked.add(seat)
        humans = {s.seat for s in t.info.seats if s.kind == "human"}
        waiting = sorted(humans - asked)
        if waiting:
            t.broadcast(F.rematch(match_id, sorted(asked & humans), waiting))
            return waiting
        assert t.match is not None
        await self._start_match(t.match.number + 1)
        if t.match.id != match_id:
            t.broadcast(F.new_match(t.match.id, t.match.number))
        t.broadcast_table()
        t.broadcast_snapshots()
        t.changed()
        t.group.table_changed(t.info.id)
        return []
