"""HTTP routes of players: the ratings a rated match changed, a pool's leaderboard and
a player's public profile. Nothing here is secret: no token, no code, no card of a
match in play (a profile lists finished matches, whose records are public)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request

from meio.ratings import Pool, RatingError
from meio.web.accounts import AccountStore, username_key
from meio.web.api import HubDep, client_address
from meio.web.frames import public_table
from meio.web.refusal import Refusal
from meio.web.store import TableInfo

router = APIRouter(prefix="/api")



def _pools() -> list[str]:
    """Every pool a table can be rated in (every table the engine deals)."""
    out = []
    for key in (f"{edition}-{players}p{partners}" for edition in ("meio", "classic")
                for players in range(2, 6) for partners in ("", "-partners")):
        try:
            out.append(Pool.parse(key).key)
        except RatingError:
            continue
    return out


#: the pools, in the order the leaderboard offers them
POOLS = _pools()


def _limit(hub: Any, request: Request) -> None:
    if not hub.lookup_limiter.take(client_address(request)):
        raise Refusal(429, "rate_limited", "too many look-ups from your address; wait a minute")


def _names(info: TableInfo | None) -> list[str]:
    return [] if info is None else [s["name"] for s in public_table(info, set())["seats"]]


@router.get("/matches/{match_id}/ratings")
async def match_ratings(match_id: str, hub: HubDep, request: Request) -> dict[str, Any]:
    """The ratings a finished rated match changed, by seat (``pending``: the match is
    rated but its update is not stored yet)."""
    _limit(hub, request)
    m = await asyncio.to_thread(hub.store.match, match_id) if len(match_id) <= 32 else None
    if m is None:
        raise Refusal(404, "no_match", "no such match")
    info = await asyncio.to_thread(hub.store.table, m.table_id)
    rated = info is not None and info.rated
    changes = await asyncio.to_thread(hub.services.ratings.changes_of_match, m.id)
    names = _names(info)
    return {"rated": rated, "pending": rated and m.finished_at is not None and not changes,
            "changes": [{**c.to_json(), "name": names[c.seat] if c.seat < len(names) else None}
                        for c in changes]}


@router.get("/ratings")
async def pools() -> dict[str, Any]:
    """The rating pools, as the leaderboard offers them."""
    return {"pools": POOLS}


@router.get("/ratings/{pool}")
async def leaderboard(pool: str, hub: HubDep, request: Request) -> dict[str, Any]:
    """The best accounts of a pool by rating (``mu − 3σ``); ``?`` marks a provisional one."""
    _limit(hub, request)
    try:
        key = Pool.parse(pool).key
    except RatingError as exc:
        raise Refusal(404, "no_pool", str(exc)) from None
    rows = await asyncio.to_thread(hub.services.ratings.leaderboard, key)
    return {"pool": key, "players": [
        {"username": name, "rating": str(r), "ordinal": r.ordinal, "mu": r.mu,
         "sigma": r.sigma, "games": r.games, "provisional": r.provisional}
        for name, r in rows]}


@router.get("/players/{username}")
async def profile(username: str, hub: HubDep, request: Request) -> dict[str, Any]:
    """A player's public profile: their ratings per pool and their rating history."""
    _limit(hub, request)
    accounts: AccountStore = request.app.state.auth.accounts
    found = (await asyncio.to_thread(accounts.by_username, username)
             if len(username_key(username)) <= 24 else None)
    if found is None:
        raise Refusal(404, "no_player", "no such player")
    account = found[0]
    ratings = await asyncio.to_thread(hub.services.ratings.ratings, account.id)
    history = await asyncio.to_thread(hub.services.ratings.history, account.id)
    return {
        "username": account.username,
        "since": account.created_at,
        "ratings": {pool: {"rating": str(r), "ordinal": r.ordinal, "mu": r.mu,
                           "sigma": r.sigma, "games": r.games, "provisional": r.provisional}
                    for pool, r in ratings.items()},
        "history": [c.to_json() for c in history],
    }
