"""Rated tables: every read and write of the ratings (the model is :mod:`meio.ratings`).

A finished match of a rated table updates, in one transaction, the rating in the
match's pool of every account that played it and of every bot level that sat there
(bots are rated like people, so that a table can be filled with a bot of a level near
its players'). The change of each player is stored with the match under the key
``(match_id, player)``: the update happens once however often the end of the match is
replayed (a restart, two processes), and it is the rating history of a profile.
A seat of no account (its account deleted) plays at the default rating and is not
stored.

The ratings are a **ledger**: every change is stored, and each rating carries a
version that every update checks, so two matches ending at the same moment (one
account's, or a bot level's at many tables) both count, on SQLite and PostgreSQL
alike; :meth:`RatingStore.repair` recomputes a player's rating from the stored
changes (``meio admin --repair-ratings USERNAME``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import exists, select, update
from sqlalchemy.engine import CursorResult, Engine
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session

from meio.engine.wire import config_from_json
from meio.ratings import Pool, Rating, match_ranks, rate
from meio.web.db import AccountRow, MatchRow, RatingChangeRow, RatingRow, SeatRow, TableRow
from meio.web.refusal import ServerError

#: how often an update is read and computed again when a rating changed under it
UPDATE_TRIES = 20


class RatingConflict(ServerError):
    """A rating kept changing under an update (it is tried again later)."""

    default_code = "rating_conflict"
    default_status = 409


class _Again(Exception):
    """A rating changed under a repair: read again."""


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
        is nothing to do (not rated, not over, or rated already).

        Each rating read carries its version and is written back only if nobody
        changed it meanwhile (another match of the same player, or of the same bot
        level, ending at the same moment, on this process or another): then the
        whole update is read and computed again, so no change is lost."""
        for _ in range(UPDATE_TRIES):
            outcome = self._rate_once(match_id)
            if outcome is not None:
                return outcome
        raise RatingConflict(f"the ratings of match {match_id} changed under it "
                             f"{UPDATE_TRIES} times in a row; it is rated at the next sweep")

    def _rate_once(self, match_id: str) -> bool | None:
        """One try of :meth:`rate_match`: None when a rating changed under it."""
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
            rows = {r.player: (Rating(r.mu, r.sigma, r.games), r.version)
                    for r in s.scalars(select(RatingRow).where(
                        RatingRow.pool == pool, RatingRow.player.in_([p for p in players if p])))}
            before = [Rating() if p is None or p not in rows else rows[p][0] for p in players]
            ranks = match_ranks(config, match.result["totals"], match.result["winners"])
            after = rate(before, ranks, partnership=config.partnership)
            # a bot level at two seats of one table is one player: its last seat counts
            done: dict[str, int] = {}
            for seat, player in enumerate(players):
                if player is not None:
                    done[player] = seat
            try:
                for player, seat in done.items():
                    new = after[seat]
                    if player in rows:
                        if not _write(s, pool, player, rows[player][1], new):
                            s.rollback()
                            return None  # another match changed it: read again
                    else:
                        s.add(RatingRow(pool=pool, player=player, mu=new.mu, sigma=new.sigma,
                                        games=new.games, ordinal=new.ordinal, version=1))
                    s.add(RatingChangeRow(
                        match_id=match_id, player=player, seat=seat, pool=pool,
                        rank=ranks[seat], mu_before=before[seat].mu,
                        sigma_before=before[seat].sigma, mu=new.mu, sigma=new.sigma,
                        games=new.games, created_at=now))
                s.commit()
            except (IntegrityError, OperationalError):
                # another process rated this match, or made a player's first rating,
                # or (SQLite) wrote while this one read: look again
                s.rollback()
                return None
            return True

    def repair(self, player: str) -> dict[str, tuple[Rating, Rating]]:
        """Recompute ``player``'s rating in each pool from its stored changes, and
        store it; returns each pool's rating ``(before, after)`` the repair.

        Each stored change is one rated match's step: the mean moved by
        ``mu - mu_before`` and the uncertainty was multiplied by ``sigma /
        sigma_before``. Taken in order from the default rating, the steps give the
        rating the player would have had had no update been lost, and ``games`` is
        the number of changes. (Before the version check, two matches ending at once
        could each start from the same rating and one write over the other.)"""
        out: dict[str, tuple[Rating, Rating]] = {}
        for _ in range(UPDATE_TRIES):
            with Session(self.engine) as s:
                changes = list(s.scalars(
                    select(RatingChangeRow).where(RatingChangeRow.player == player)
                    .order_by(RatingChangeRow.created_at, RatingChangeRow.match_id)))
                current = {r.pool: r for r in s.scalars(
                    select(RatingRow).where(RatingRow.player == player))}
                steps: dict[str, Rating] = {}
                for c in changes:
                    r = steps.get(c.pool, Rating())
                    steps[c.pool] = Rating(r.mu + (c.mu - c.mu_before),
                                           r.sigma * (c.sigma / c.sigma_before), r.games + 1)
                out = {}
                try:
                    for pool, fixed in steps.items():
                        row = current.get(pool)
                        if row is None:
                            s.add(RatingRow(pool=pool, player=player, mu=fixed.mu,
                                            sigma=fixed.sigma, games=fixed.games,
                                            ordinal=fixed.ordinal, version=1))
                            out[pool] = (Rating(), fixed)
                            continue
                        was = Rating(row.mu, row.sigma, row.games)
                        if not _write(s, pool, player, row.version, fixed):
                            raise _Again
                        out[pool] = (was, fixed)
                    s.commit()
                    return out
                except (_Again, IntegrityError, OperationalError):
                    s.rollback()
        raise RatingConflict(f"the ratings of {player} kept changing during the repair; "
                             "try again")

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


@dataclass(frozen=True, slots=True)
class PairedAccounts:
    """Two accounts whose rated matches were all against each other (a pattern of a
    second account kept to feed the first's rating); ``first`` was made first."""

    first: str
    second: str
    matches: int
    #: how far apart the two accounts were made
    created_apart_s: float


def paired_accounts(engine: Engine, min_matches: int = 3) -> list[PairedAccounts]:
    """The pairs of accounts that played at least ``min_matches`` rated matches and
    never one without the other: each the only person the other met (bots aside),
    most matches first. (The server keeps no account's address, so the report rests
    on the pattern of play and the accounts' ages.)"""
    with Session(engine) as s:
        rows = s.execute(select(RatingChangeRow.match_id, RatingChangeRow.player)
                         .where(~RatingChangeRow.player.like("bot:%"))).all()
        people: dict[str, set[str]] = {}
        for match_id, player in rows:
            people.setdefault(match_id, set()).add(player)
        met: dict[str, set[str]] = {}
        played: dict[str, int] = {}
        for seated in people.values():
            for player in seated:
                met.setdefault(player, set()).update(seated - {player})
                played[player] = played.get(player, 0) + 1
        pairs = []
        for player, others in met.items():
            if len(others) != 1:
                continue
            (other,) = others
            if player < other and met.get(other) == {player} and (
                    played[player] == played[other] >= min_matches):
                pairs.append((player, other, played[player]))
        accounts = {a.id: a for a in s.scalars(select(AccountRow).where(
            AccountRow.id.in_([p for pair in pairs for p in pair[:2]])))}
        out = []
        for a, b, n in pairs:
            if a in accounts and b in accounts:
                older, newer = sorted((accounts[a], accounts[b]), key=lambda r: r.created_at)
                out.append(PairedAccounts(older.username, newer.username, n,
                                          newer.created_at - older.created_at))
        return sorted(out, key=lambda p: (-p.matches, p.first))


def _write(s: Session, pool: str, player: str, version: int, new: Rating) -> bool:
    """Store ``new`` as ``player``'s rating if it is still at ``version``; False when
    another update changed it since it was read."""
    result = s.execute(
        update(RatingRow)
        .where(RatingRow.pool == pool, RatingRow.player == player,
               RatingRow.version == version)
        .values(mu=new.mu, sigma=new.sigma, games=new.games, ordinal=new.ordinal,
                version=version + 1)
        .execution_options(synchronize_session=False))
    return cast(CursorResult[Any], result).rowcount == 1


def _change(r: RatingChangeRow) -> RatingChange:
    before = Rating(r.mu_before, r.sigma_before, r.games - 1)
    return RatingChange(r.match_id, r.seat, r.pool, r.rank, before,
                        Rating(r.mu, r.sigma, r.games), r.created_at)
