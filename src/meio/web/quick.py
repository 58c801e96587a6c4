"""Quick play: "Play now" for a rating pool.

A player asks to play in a pool (``meio-4p``...), rated or not, and says how long they
will wait for people. They are seated at the waiting quick-play table of that pool
(rated ones seat signed-in players only; unrated ones anyone, guests too) whose
players' mean rating is nearest their own, among those that will fill within their
wait; with none, a new one is made, to fill when their wait is over. A quick-play
table is an unlisted table with a turn timer; when its time comes, bots of the
level whose rating in the pool is nearest the table's take the empty seats and the
match starts. Choosing rated quick play is the players' agreement to be rated with
those bots. The fill is scheduled in the process that seated the player and again at
start-up for every table still waiting, so a restart does not lose it; filling twice
fills nothing more.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from meio.bots import LEVELS
from meio.engine import TableOptions
from meio.engine.wire import options_json
from meio.ratings import Pool, Rating, nearest
from meio.web.hub import Hub
from meio.web.rated import bot_player
from meio.web.seating import JoinError
from meio.web.store import SeatInfo, TableInfo

log = logging.getLogger("meio.web")

#: the level that fills a table when no bot level has a rating in its pool yet
DEFAULT_BOT = "heuristic"


class QuickPlay:
    """The quick-play tables of one server process."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        # choosing a table and sitting down is one step per process; the database
        # decides between processes (a seat taken meanwhile fails the join)
        self._lock = asyncio.Lock()
        self._scheduled: set[str] = set()

    async def start(self) -> None:
        """Schedule the fill of every quick-play table still waiting (after a restart)."""
        for info in await asyncio.to_thread(self.hub.store.waiting_quick_tables):
            self._schedule(info)

    def rating(self, player: str, pool: str) -> Rating:
        return self.hub.services.ratings.ratings(player).get(pool, Rating())

    def _table_rating(self, info: TableInfo) -> Rating:
        """The mean rating of the people seated (a new one's when nobody is)."""
        pool = str(info.options["quick"])
        seated = [self.rating(s.account_id, pool) for s in info.seats if s.account_id]
        if not seated:
            return Rating()
        return Rating(sum(r.mu for r in seated) / len(seated),
                      sum(r.sigma for r in seated) / len(seated))

    async def play(self, account_id: str | None, pool: Pool, wait_s: float, name: str,
                   creator: str, rated: bool = True) -> tuple[str, int, str]:
        """Seat the player (``account_id`` None: a guest, at an unrated table only) at a
        quick-play table of ``pool``; returns ``(table_id, seat, token)``."""
        now = time.time()
        if account_id is None and rated:
            raise ValueError("a rated quick-play table seats signed-in players only")
        async with self._lock:
            if account_id is not None:  # a guest is bounded by its address's rate limit
                held = await asyncio.to_thread(self.open_seats, account_id)
                cap = self.hub.settings.max_quick_seats
                if held >= cap:
                    raise JoinError(429, f"you already have {held} quick-play seats waiting or "
                                         "in play: finish or leave one first",
                                    "too_many_quick_seats", seats=held)
            mine = (Rating() if account_id is None else
                    await asyncio.to_thread(self.rating, account_id, pool.key))
            candidates = [
                info for info in await asyncio.to_thread(self.hub.store.quick_tables,
                                                         pool.key, rated)
                if any(not s.filled for s in info.seats)
                and not (account_id is not None
                         and any(s.account_id == account_id for s in info.seats))
                and now < float(info.options["fill_at"]) <= now + wait_s
            ]
            if candidates:
                ratings = {info.id: await asyncio.to_thread(self._table_rating, info)
                           for info in candidates}
                info = min(candidates, key=lambda i: (abs(ratings[i.id].mu - mine.mu),
                                                      float(i.options["fill_at"])))
            else:
                info = await asyncio.to_thread(self._create, pool, now + wait_s, creator,
                                               rated)
            room = await self.hub.get(info.id)
            assert room is not None
            seat, token = await room.seating.join(info.invite_code, name, None, account_id,
                                                  agree_rated=True)
        self._schedule(info)
        return info.id, seat, token

    def open_seats(self, account_id: str) -> int:
        """How many quick-play seats ``account_id`` holds at tables waiting for players
        or in play (a finished match's table is not counted)."""
        store = self.hub.store
        held = 0
        for info, _ in store.tables_of_account(account_id):
            if not info.options.get("quick") or info.closed:
                continue
            match = None if info.current_match is None else store.match(info.current_match)
            if match is None or match.finished_at is None:
                held += 1
        return held

    def _create(self, pool: Pool, fill_at: float, creator: str, rated: bool) -> TableInfo:
        s = self.hub.settings
        options: dict[str, Any] = {
            "edition": pool.edition, "players": pool.players, "partnership": pool.partnership,
            "specials": None, "turn_timer_s": s.quick_turn_timer_s, "seed": None,
            **options_json(TableOptions(), full=True),
            "quick": pool.key, "fill_at": fill_at,
        }
        seats = [SeatInfo(i, "human", None, None, None) for i in range(pool.players)]
        return self.hub.store.create_table(options, seats, False, creator, rated)

    def _schedule(self, info: TableInfo) -> None:
        if info.id not in self._scheduled:
            self._scheduled.add(info.id)
            self.hub.spawn(self._fill_later(info.id, float(info.options["fill_at"])))

    async def _fill_later(self, table_id: str, fill_at: float) -> None:
        try:
            await asyncio.sleep(max(0.0, fill_at - time.time()))
            room = await self.hub.get(table_id)
            if room is None or room.table.match is not None or room.table.info.closed:
                return
            info = room.table.info
            pool = str(info.options["quick"])
            target = await asyncio.to_thread(self._table_rating, info)
            rated = await asyncio.to_thread(self._bot_ratings, pool)
            bot = nearest(target, rated) if rated else DEFAULT_BOT
            filled = await room.seating.fill_with_bots(bot)
            log.info("quick play: %d seats of a %s table filled with %s bots", filled, pool,
                     bot, extra={"table": table_id})
        finally:
            self._scheduled.discard(table_id)

    def _bot_ratings(self, pool: str) -> dict[str, Rating]:
        """The rated bot levels of a pool (weakest first, as :data:`LEVELS` lists them)."""
        out = {}
        for level in LEVELS:
            r = self.hub.services.ratings.ratings(bot_player(level.kind)).get(pool)
            if r is not None:
                out[level.kind] = r
        return out
