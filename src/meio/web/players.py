"""HTTP routes of players: the ratings a rated match changed, a pool's leaderboard and
a player's public profile. Nothing here is secret: no token, no code, no card of a
match in play (a profile lists finished matches, whose records are public)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import Request

from meio.engine import actions as A
from meio.engine import replay_actions
from meio.engine.wire import config_from_json
from meio.ratings import Pool, RatingError
from meio.web.accounts import Account, AccountStore, username_key
from meio.web.api import HubDep, client_address
from meio.web.auth import AccountDep
from meio.web.frames import public_table
from meio.web.refusal import Refusal
from meio.web.schemas import Leaderboard, MatchRatings, Pools, Profile, Router
from meio.web.store import EventInfo, MatchInfo, Store, TableInfo

#: the last finished matches a profile lists, and reads the rounds of (replayed)
PROFILE_MATCHES = 20

router = Router(prefix="/api")



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
async def match_ratings(match_id: str, hub: HubDep, request: Request) -> MatchRatings:
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
    return MatchRatings.model_validate(
        {"rated": rated, "pending": rated and m.finished_at is not None and not changes,
         "changes": [{**c.to_json(), "name": names[c.seat] if c.seat < len(names) else None}
                     for c in changes]})


@router.get("/ratings")
async def pools() -> Pools:
    """The rating pools, as the leaderboard offers them."""
    return Pools(pools=POOLS)


@router.get("/ratings/{pool}")
async def leaderboard(pool: str, hub: HubDep, request: Request) -> Leaderboard:
    """The best accounts of a pool by rating (``mu − 3σ``); ``?`` marks a provisional one."""
    _limit(hub, request)
    try:
        key = Pool.parse(pool).key
    except RatingError as exc:
        raise Refusal(404, "no_pool", str(exc)) from None
    rows = await asyncio.to_thread(hub.services.ratings.leaderboard, key)
    return Leaderboard.model_validate({"pool": key, "players": [
        {"username": name, "rating": str(r), "ordinal": r.ordinal, "mu": r.mu,
         "sigma": r.sigma, "games": r.games, "provisional": r.provisional}
        for name, r in rows]})


def round_scores(config: dict[str, Any], events: list[EventInfo], seat: int) -> list[int]:
    """The score of ``seat`` (its team's in partnership) in each round of a finished
    match, from its stored actions."""
    cfg = config_from_json(config)
    state = replay_actions(cfg, [(ev.seat, A.parse_action(ev.action)) for ev in events])
    out = []
    for r in state.rounds:
        out.append(r.team_scores[seat % 2] if r.team_scores is not None else r.scores[seat])
    return out


def profile_stats(store: Store, account: Account) -> dict[str, Any]:
    """What a profile shows of a player's play: every finished match counted (games,
    wins), the rounds of the last :data:`PROFILE_MATCHES` read (mean round score, the
    share of perfectly balanced rounds, scored 0; of standard matches only, as a
    variant may score otherwise), and those matches listed."""
    played = store.matches_of_account(account.id)
    wins = sum(1 for m, seat in played if m.result and seat in m.result["winners"])
    scores: list[int] = []
    recent = []
    tables: dict[str, TableInfo | None] = {}
    for m, seat in played[:PROFILE_MATCHES]:
        if m.config.get("variant") is None:  # a variant may score rounds otherwise
            scores += round_scores(m.config, store.events(m.id), seat)
        if m.table_id not in tables:
            tables[m.table_id] = store.table(m.table_id)
        recent.append(_recent(m, seat, tables[m.table_id]))
    return {
        "games": len(played), "wins": wins,
        "rounds": len(scores),
        "mean_round_score": sum(scores) / len(scores) if scores else None,
        "balanced_share": sum(1 for x in scores if x == 0) / len(scores) if scores else None,
        "matches": recent,
    }


async def _status(store: Store, info: TableInfo) -> str:
    if info.current_match is None:
        return "waiting"
    m = await asyncio.to_thread(store.match, info.current_match)
    return "finished" if m is not None and m.finished_at else "playing"


def _recent(m: MatchInfo, seat: int, info: TableInfo | None) -> dict[str, Any]:
    cfg = m.config
    return {"id": m.id, "finished_at": m.finished_at, "seat": seat,
            "pool": Pool(cfg["edition"], cfg["players"], cfg["partnership"]).key,
            "variant": None if cfg.get("variant") is None else cfg["variant"]["name"],
            "names": _names(info), "winners": (m.result or {}).get("winners", []),
            "won": seat in (m.result or {}).get("winners", []),
            "total": (m.result or {}).get("totals", [None] * (seat + 1))[seat]}


@router.get("/players/{username}")
async def profile(username: str, hub: HubDep, request: Request, me: AccountDep
                  ) -> Profile:
    """A player's public profile: games, wins, round scores, ratings per pool and their
    history, the last finished matches (each with its replay). The player's own
    profile (signed in) says ``own`` and adds the tables they sit at now."""
    _limit(hub, request)
    accounts: AccountStore = request.app.state.auth.accounts
    found = (await asyncio.to_thread(accounts.by_username, username)
             if len(username_key(username)) <= 24 else None)
    if found is None:
        raise Refusal(404, "no_player", "no such player")
    account = found[0]
    ratings = await asyncio.to_thread(hub.services.ratings.ratings, account.id)
    history = await asyncio.to_thread(hub.services.ratings.history, account.id)
    stats = await asyncio.to_thread(profile_stats, hub.store, account)
    own = me is not None and me.id == account.id
    out: dict[str, Any] = {
        "username": account.username,
        "since": account.created_at,
        "own": own,
        **stats,
        "ratings": {pool: {"rating": str(r), "ordinal": r.ordinal, "mu": r.mu,
                           "sigma": r.sigma, "games": r.games, "provisional": r.provisional}
                    for pool, r in ratings.items()},
        "history": [c.to_json() for c in history],
    }
    if own:
        rows = await asyncio.to_thread(hub.store.tables_of_account, account.id)
        out["tables"] = [{"id": info.id, "seat": seat,
                          "status": await _status(hub.store, info)}
                         for info, seat in rows if not info.closed]
    return Profile.model_validate(out)
