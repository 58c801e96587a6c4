"""The auto-player: a table's bots and its turn timer.

An :class:`AutoPlayer` watches one :class:`~meio.web.table.LiveTable`: subscribed to
its changes (:meth:`AutoPlayer.schedule`, which the table calls under its lock), it
wakes the bots whose seats are to act and re-arms the turn timer. Only the process that
holds the table's lease acts (:meth:`~meio.web.group.Group.holds`); another asks
for the lease when it looks free, and acts once it has it.

Bots decide in the think pool from the seat's view only (the table's
:meth:`~meio.web.table.LiveTable.turn_of`), and move through the table's
:meth:`~meio.web.table.LiveTable.submit` like any client.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time

from meio.engine import View
from meio.web import metrics as M
from meio.web import think
from meio.web.refusal import ServerError
from meio.web.table import LiveTable

log = logging.getLogger("meio.web")

#: bots whose choice takes microseconds to a few milliseconds (the heuristic, the easy
#: level: 0.05 ms a move on average, 3 ms at most, cheaper than a hop to a worker):
#: they run on the event loop, never queued behind other tables' thinking
INLINE_BOTS = frozenset({"random", "heuristic"})

#: the bot that moves for a seat whose turn timer ran out: it chooses on the event
#: loop (3 ms at most a move, 0.05 ms on average), never queued behind other
#: tables' thinking, so a timer fires on time whatever the think pool holds
TIMEOUT_BOT = "heuristic"

#: the event source of a move made by the random bot for a bot that failed
FALLBACK_SOURCE = "fallback"


class BotError(ServerError):
    """No bot could move for a seat (the table tries again later)."""


def bot_seed(match_seed: int, seat: int, turn: int) -> int:
    """The seed of the bot deciding ``seat``'s ``turn``-th action of a match.

    It depends on the position only, not on timing, so a restarted server (or a
    rerun of the same seeds) makes the same bot choices.

    >>> bot_seed(7, 1, 0) == bot_seed(7, 1, 0) != bot_seed(7, 1, 1)
    True
    """
    digest = hashlib.sha256(f"{match_seed}:{seat}:{turn}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class AutoPlayer:
    """Moves a table's bots and enforces its turn timer."""

    def __init__(self, table: LiveTable) -> None:
        self.table = table
        self._bot_task: asyncio.Task[None] | None = None
        self._timer_task: asyncio.Task[None] | None = None
        table.subscribe(self.schedule)

    def needs_actor(self) -> bool:
        """Whether a bot must move or a turn timer must run at the table now."""
        t = self.table
        return bool(t.seats_to_act("bot")) or (
            bool(t.seats_to_act("human")) and t.deadline() is not None)

    def busy(self) -> bool:
        """Whether a bot task or a turn timer runs for the table."""
        return self._bot_task is not None or self._timer_task is not None

    def schedule(self) -> None:
        """Wake the bots and re-arm the turn timer (caller holds the table's lock).

        Only the process holding the table's lease does either; another asks for
        the lease when it looks free, and acts once it has it.
        """
        t = self.table
        group = t.group
        if not t.in_play():
            group.done_with(t.info.id)
            return
        current = asyncio.current_task()
        if self._timer_task is not None and self._timer_task is not current:
            self._timer_task.cancel()
        self._timer_task = None
        if not self.needs_actor() or not group.may_act(t.info.id):
            return
        spawn = t.services.spawn
        if t.seats_to_act("bot") and self._bot_task is None:
            self._bot_task = spawn(self._run_bots())
        deadline = t.deadline()
        if deadline is not None and t.seats_to_act("human"):
            self._timer_task = spawn(self._run_timer(t.seq, deadline))

    def close(self) -> None:
        """Stop the bots and the timer (the server stops, or the table leaves memory)."""
        self.table.unsubscribe(self.schedule)
        for task in (self._bot_task, self._timer_task):
            if task is not None:
                task.cancel()

    # -- bots ----------------------------------------------------------------------------
    async def _run_bots(self) -> None:
        me = asyncio.current_task()
        retry = self.table.settings.task_retry_s
        try:
            while await self._bot_step():
                pass
        except Exception:
            # the move could not even be stored (the database is away...): try again soon
            log.exception("table %s: the bots stopped; trying again in %.1f s",
                          self.table.info.id, retry)
            if self._bot_task is me:
                self._bot_task = None
            self.table.services.spawn(self._wake(retry))

    async def _bot_step(self) -> bool:
        """Let one bot seat move; False (with the task cleared, under the lock) when none
        is to act."""
        t = self.table
        async with t.lock:
            bots = t.seats_to_act("bot")
            if not bots or not t.group.holds(t.info.id):
                # nothing to do, or the lease went to another process
                self._bot_task = None
                return False
            seat = bots[0]
            kind = t.info.seats[seat].bot or "random"
        if t.settings.bot_delay_s > 0:
            await asyncio.sleep(t.settings.bot_delay_s)
        await self._bot_move(seat, kind, "bot")
        return True

    async def _bot_move(self, seat: int, kind: str, source: str) -> None:
        """Move for ``seat`` with a ``kind`` bot: a bot that raises (or chooses an illegal
        action) is asked once more, then the random bot moves instead (source
        ``fallback``), so that a failing bot never stalls its table."""
        t = self.table
        tries = [(kind, source), (kind, source), ("random", FALLBACK_SOURCE)]
        for attempt, (bot, src) in enumerate(tries, 1):
            async with t.lock:
                if seat not in t.seats_to_act():
                    return  # someone else moved for this seat meanwhile
                seq, seed, view = self._bot_position(seat)
            began = time.perf_counter()
            try:
                # a cheap bot (and the turn timer's) chooses on the loop: a hop to a
                # worker costs more than its choice; the others think in the think pool,
                # never in the threads that the database writes use
                text = (think.bot_choice(bot, seed, view)
                        if bot in INLINE_BOTS or source == "timeout"
                        else await t.services.think.run(t.think_share(), think.bot_choice,
                                                        bot, seed, view))
            except Exception:
                log.exception("table %s: the %s bot failed for seat %d (try %d of %d)",
                              t.info.id, bot, seat, attempt, len(tries))
                continue
            M.BOT_THINK.labels(bot).observe(time.perf_counter() - began)
            if not t.group.holds(t.info.id):
                return  # the lease went to another process while this bot thought
            answer = await t.submit(seat, text, expected_seq=seq, client_id=None, source=src)
            if answer["type"] == "ack" or answer.get("code") != "illegal":
                return  # done, or the table moved on: the caller looks again
            log.error("table %s: the %s bot chose %r for seat %d, which is not allowed: %s",
                      t.info.id, bot, text, seat, answer.get("reason"))
        raise BotError(f"no bot could move for seat {seat} of table {t.info.id}")

    def _bot_position(self, seat: int) -> tuple[int, int, View]:
        """What a bot deciding for ``seat`` is given: the sequence number it decides
        at, its seed and the seat's view (taken under the lock; the thinking runs off
        the event loop)."""
        turn = self.table.turn_of(seat)
        if turn is None:
            raise BotError("no match is being played at this table")
        return turn.seq, bot_seed(turn.match_seed, seat, turn.turn), turn.view

    async def _wake(self, delay: float) -> None:
        """Look for bots and timers again after ``delay`` (after a failed task)."""
        await asyncio.sleep(delay)
        async with self.table.lock:
            self.schedule()

    # -- the turn timer ------------------------------------------------------------------
    async def _run_timer(self, seq: int, deadline: float) -> None:
        # one timeout move; the move re-arms the timer for the next late seat
        t = self.table
        await asyncio.sleep(max(0.0, deadline - time.time()))
        async with t.lock:
            if t.seq != seq or not t.group.holds(t.info.id):
                return
            late = t.seats_to_act("human")
            if not late:
                return
            seat = late[0]
        try:
            await self._bot_move(seat, TIMEOUT_BOT, "timeout")
        except Exception:
            log.exception("table %s: the turn timer could not move for seat %d; trying "
                          "again in %.1f s", t.info.id, seat, t.settings.task_retry_s)
            t.services.spawn(self._wake(t.settings.task_retry_s))
