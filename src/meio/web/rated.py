"""Rated tables: every read and write of the ratings (the model is :mod:`meio.ratings`).

A finished match of a rated table updates, in one transaction, the rating in the
match's pool of every account that played it and of every bot level that sat there
(bots are rated like people, so that a table can be filled with a bot of a level near
its players'). The change of each player is stored with the match under the key
``(match_id, player)``: the update happens once however often the end of the match is
replayed (a restart, two processes), and it is the rating history of a profile.
A seat of no account (its account deleted) plays at the default rating and is not
stored.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import exists, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from meio.engine.wire import config_from_json
from meio.ratings import Pool, Rating, match_ranks, rate
from meio.web.db import AccountRow, MatchRow, RatingChangeRow, RatingRow, SeatRow, TableRow


def bot_player(kind: str) -> str:
    """The player name of a bot level in the ratings: ``bot:heuristic``."""
    return f"bot:{kind}"


@dataclass(frozen=True, slots=True)
class RatingChange:
    """What one rated match did to one seat's rating."""

    match_id: str
    seat: int
    pool: str
    rank: int
    before: Rating
    after: Rating
    at: float

    def to_json(self) -> dict[str, Any]:
        return {"match": self.match_id, "seat": self.seat, "pool": self.pool,
                "rank": self.rank, "before": _rating_json(self.before),
                "after": _rating_json(self.after), "at": self.at}


def _rating_json(r: Rating) -> dict[str, Any]:
    return {"mu": r.mu, "sigma": r.sigma, "games": r.games, "ordinal": r.ordinal,
            "provisional": r.provisional, "shown": str(r)}


class RatingStore:
    """The ratings in the server's database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def rate_match(self, match_id: str) -> bool:
        """Update the ratings for a finished match of a rated table; False when there
        is nothing to do (not rated, not over, or rated already)."""
        now = time.time()
        with Session(self.engine) as s:
            match = s.get(MatchRow, match_id)
            if match is None or match.finished_at is None or match.result is None:
                return False
            table = s.get(TableRow, match.table_id)
            if table is None or not table.rated:
                return False
            if s.scalar(select(exists().where(RatingChangeRow.match_id == match_id))):
                return False
            config = config_from_json(match.config)
            if config.variant is not None:
                return False  # ratings are for the standard editions (docs/web.md)
            pool = Pool.of(config).key
            seats = list(s.scalars(select(SeatRow).where(SeatRow.table_id == table.id)
                                   .order_by(SeatRow.seat)))
            players = [seat.account_id if seat.kind == "human" else bot_player(seat.bot or "")
                       for seat in seats]
            rows = {r.player: r for r in s.scalars(select(RatingRow).where(
                RatingRow.pool == pool, RatingRow.player.in_([p for p in players if p])))}
            before = [Rating() if p is None or p not in rows else
                      Rating(rows[p].mu, rows[p].sigma, rows[p].games) for p in players]
            ranks = match_ranks(config, match.result["totals"], match.result["winners"])
            after = rate(before, ranks, partnership=config.partnership)
            # a bot level at two seats of one table is one player: its last seat counts
            done: dict[str, int] = {}
            for seat, player in enumerate(players):
                if player is not None:
                    done[player] = seat
            for player, seat in done.items():
                new = after[seat]
                row = rows.get(player)
                if row is None:
                    row = RatingRow(pool=pool, player=player)
                    s.add(row)
                row.mu, row.sigma, row.games, row.ordinal = new.mu, new.sigma, new.games, \
                    new.ordinal
                s.add(RatingChangeRow(
                    match_id=match_id, player=player, seat=seat, pool=pool, rank=ranks[seat],
                    mu_before=before[seat].mu, sigma_before=before[seat].sigma,
                    mu=new.mu, sigma=new.sigma, games=new.games, created_at=now))
            try:
                s.commit()
            except IntegrityError:
                # another process rated it between our check and our commit
                s.rollback()
                return False
            return True

    def pending(self, limit: int = 100) -> list[str]:
        """Finished matches of rated tables that are not rated yet (a crash between
        the last card and the update): the hub rates them at start-up and each sweep."""
        with Session(self.engine) as s:
            q = (select(MatchRow.id)
                 .join(TableRow, TableRow.id == MatchRow.table_id)
                 .where(TableRow.rated.is_(True), MatchRow.finished_at.is_not(None),
                        ~exists().where(RatingChangeRow.match_id == MatchRow.id))
                 .limit(limit))
            return list(s.scalars(q))

    def changes_of_match(self, match_id: str) -> list[RatingChange]:
        """What a rated match did to each rated seat, by seat."""
        with Session(self.engine) as s:
            q = (select(RatingChangeRow).where(RatingChangeRow.match_id == match_id)
                 .order_by(RatingChangeRow.seat))
            return [_change(r) for r in s.scalars(q)]

    def history(self, account_id: str, limit: int = 100) -> list[RatingChange]:
        """An account's rating after each of its rated matches, newest first."""
        with Session(self.engine) as s:
            q = (select(RatingChangeRow).where(RatingChangeRow.player == account_id)
                 .order_by(RatingChangeRow.created_at.desc()).limit(limit))
            return [_change(r) for r in s.scalars(q)]

    def ratings(self, player: str) -> dict[str, Rating]:
        """A player's rating in every pool they have played rated matches in."""
        with Session(self.engine) as s:
            q = select(RatingRow).where(RatingRow.player == player).order_by(RatingRow.pool)
            return {r.pool: Rating(r.mu, r.sigma, r.games) for r in s.scalars(q)}

    def leaderboard(self, pool: str, limit: int = 50) -> list[tuple[str, Rating]]:
        """The accounts of a pool by rating (``mu - 3 sigma``), best first."""
        with Session(self.engine) as s:
            q = (select(AccountRow.username, RatingRow)
                 .join(AccountRow, AccountRow.id == RatingRow.player)
                 .where(RatingRow.pool == pool)
                 .order_by(RatingRow.ordinal.desc(), AccountRow.username).limit(limit))
            return [(name, Rating(r.mu, r.sigma, r.games)) for name, r in s.execute(q)]


def _change(r: RatingChangeRow) -> RatingChange:
    before = Rating(r.mu_before, r.sigma_before, r.games - 1)
    return RatingChange(r.match_id, r.seat, r.pool, r.rank, before,
                        Rating(r.mu, r.sigma, r.games), r.created_at)
