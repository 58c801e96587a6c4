"""HTTP routes: tables, seats, the lobby, history and records. Thin: the work is in
:mod:`meio.web.seating`, :mod:`meio.web.table` and :mod:`meio.web.store`."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field, field_validator

from meio.engine import State, replay_actions
from meio.engine import actions as A
from meio.engine.wire import config_from_json
from meio.web.accounts import Account
from meio.web.auth import AccountDep
from meio.web.frames import public_table
from meio.web.hub import Hub, Room
from meio.web.newtable import STRICT, CreateTable, check_new_table, display_name
from meio.web.refusal import Refusal
from meio.web.schemas import (
    Bots,
    CreatedTable,
    History,
    Joined,
    Lobby,
    MyTables,
    QuickSeat,
    RecordFile,
    Replay,
    Router,
    Status,
    TableFacts,
)
from meio.web.store import MatchInfo, SeatInfo, Store, TableInfo, hash_token
from meio.web.table import same_secret
from meio.web.think import client_of

router = Router(prefix="/api")


def get_hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


HubDep = Annotated[Hub, Depends(get_hub)]


class JoinTable(BaseModel):
    """Take a seat with an invite code."""

    model_config = STRICT

    invite: str = Field(max_length=128)
    name: str
    seat: int | None = None
    #: at a rated table with bots: the player agrees to be rated with them
    agree_rated: bool = False

    @field_validator("name")
    @classmethod
    def _check_name(cls, v: str) -> str:
        return display_name(v)


class QuickPlayRequest(BaseModel):
    """Play now in a rating pool, waiting ``wait_s`` seconds for people before bots
    fill the empty seats."""

    model_config = STRICT

    pool: str = Field(max_length=32)
    wait_s: float = 30.0
    name: str
    rated: bool = True  # rated: signed-in players only; unrated seats guests too

    @field_validator("name")
    @classmethod
    def _check_name(cls, v: str) -> str:
        return display_name(v)


class Tokens(BaseModel):
    """The seat tokens a browser holds (to list its own tables)."""

    model_config = STRICT

    tokens: list[str] = Field(default_factory=list, max_length=200)
    everyone: bool = False  # the history: every listed table's matches too


def _links(info: TableInfo) -> dict[str, str]:
    return {
        "invite_url": f"/t/{info.id}?invite={info.invite_code}",
        "spectate_url": f"/t/{info.id}?watch={info.spectate_code}",
    }


@router.get("/health")
async def health() -> Status:
    return Status(status="ok")


@router.get("/bots")
async def bots() -> Bots:
    """Every bot kind, the levels a lobby offers (weakest first), those playing variants."""
    from meio.bots import LEVELS, bot_kinds
    from meio.bots.variant_play import VARIANT_BOTS

    return Bots.model_validate(
        {"bots": bot_kinds(),
         "levels": [{"kind": lv.kind, "name": lv.name, "strength": lv.strength}
                    for lv in LEVELS],
         "variant_bots": list(VARIANT_BOTS)})


def client_address(request: Request) -> str:
    """The client's address (behind a trusted proxy, the one it forwarded)."""
    return request.client.host if request.client is not None else "?"


def _limit_joins(hub: Hub, request: Request) -> None:
    if not hub.join_limiter.take(client_address(request)):
        raise Refusal(429, "rate_limited", "too many tables created or seats taken from "
                                           "your address; wait a minute")


def _limit_lookups(hub: Hub, request: Request) -> None:
    if not hub.lookup_limiter.take(client_address(request)):
        raise Refusal(429, "rate_limited", "too many look-ups of your tables from your "
                                           "address; wait a minute")


def creator_of(request: Request) -> str:
    """What a table keeps of the address that created it: a short hash."""
    return client_of(client_address(request))


async def _limit_tables(hub: Hub, request: Request, seats: list[SeatInfo]) -> str:
    """Refuse a table over the open-table limits (``server_full``, HTTP 503, or
    ``too_many_tables``, HTTP 429); returns its creator's hash."""
    s = hub.settings
    creator = creator_of(request)
    counts = await asyncio.to_thread(hub.store.open_tables, creator)
    if counts.total >= s.max_open_tables:
        raise Refusal(503, "server_full", "this server has as many open tables as it can "
                                          "take; join one from the lobby or try later")
    if counts.mine >= s.max_open_tables_per_address:
        raise Refusal(429, "too_many_tables", f"your address has {counts.mine} open tables; "
                                              "finish or leave some first", tables=counts.mine)
    if all(seat.kind == "bot" for seat in seats):
        if counts.bots_only >= s.max_bot_tables:
            raise Refusal(503, "server_full", "as many tables of bots alone as this server "
                                              "runs are playing; try later, or take a seat")
        if counts.bots_only_mine >= s.max_bot_tables_per_address:
            raise Refusal(429, "too_many_tables", "your address already has "
                          f"{counts.bots_only_mine} tables of bots alone playing",
                          tables=counts.bots_only_mine)
    return creator


@router.post("/tables", status_code=201)
async def create_table(body: CreateTable, hub: HubDep, request: Request,
                       account: AccountDep) -> CreatedTable:
    """Create a table; the creator gets the invite and spectator links (and a seat token
    when a name was given: the seat is the signed-in account's)."""
    _limit_joins(hub, request)
    options, seats = check_new_table(body, hub.settings)
    creator = await _limit_tables(hub, request, seats)
    if body.rated and body.name is not None and account is None:
        raise Refusal(401, "sign_in_to_rate", "a rated table seats signed-in players only: "
                                              "sign in or create an account")
    info = await asyncio.to_thread(hub.store.create_table, options, seats, body.listed, creator,
                                   body.rated)
    room = await _room(hub, info.id)
    out: dict[str, Any] = {"table_id": info.id, **_links(info), "invite": info.invite_code,
                           "spectate": info.spectate_code, "seat": None, "token": None}
    if body.name is not None:
        # the creator of a rated table with bots chose it: that is their agreement
        seat, token = await room.seating.join(info.invite_code,
                                              seat_name(info, account, body.name), None,
                                              None if account is None else account.id,
                                              agree_rated=True)
        out.update(seat=seat, token=token)
    else:
        await room.seating.ensure_started()
    out["table"] = public_table(room.table.info, room.table.online())
    return CreatedTable.model_validate(out)


@router.post("/quick")
async def quick_play(body: QuickPlayRequest, hub: HubDep, request: Request,
                     account: AccountDep) -> QuickSeat:
    """Quick play: a seat at a table of the pool, rated (signed in: with people near your
    rating) or not (guests too); bots near the table's level fill the seats left when
    the wait is over (:mod:`meio.web.quick`)."""
    from meio.ratings import Pool, RatingError

    if account is None and body.rated:
        raise Refusal(401, "sign_in_to_rate", "rated quick play is for signed-in players")
    s = hub.settings
    if not s.quick_min_wait_s <= body.wait_s <= s.quick_max_wait_s:
        raise Refusal(422, "bad_wait", f"the wait is {s.quick_min_wait_s:g} to "
                                       f"{s.quick_max_wait_s:g} seconds",
                      low=f"{s.quick_min_wait_s:g}", high=f"{s.quick_max_wait_s:g}")
    try:
        pool = Pool.parse(body.pool)
    except RatingError as exc:
        raise Refusal(404, "no_pool", str(exc)) from None
    _limit_joins(hub, request)
    creator = await _limit_tables(hub, request, [SeatInfo(0, "human", None, None, None)])
    table_id, seat, token = await request.app.state.quick.play(
        account and account.id, pool, body.wait_s,
        account.username if account else body.name, creator, rated=body.rated)
    room = await _room(hub, table_id)
    info = room.table.info
    return QuickSeat.model_validate(
        {"table_id": table_id, "seat": seat, "token": token, **_links(info),
         "invite": info.invite_code, "spectate": info.spectate_code,
         "fill_at": info.options.fill_at, "table": public_table(info, room.table.online())})


async def _room(hub: Hub, table_id: str) -> Room:
    if len(table_id) > 32:
        raise Refusal(404, "no_table", "no such table")
    room = await hub.get(table_id)
    if room is None:
        raise Refusal(404, "no_table", "no such table")
    return room


@router.get("/tables/{table_id}")
async def table(table_id: str, hub: HubDep, key: str | None = None) -> TableFacts:
    """A table's public facts, for holders of its invite or spectator code (or any
    visitor of a listed table)."""
    rt = (await _room(hub, table_id)).table
    invite = key is not None and same_secret(key, rt.info.invite_code)
    spectate = key is not None and same_secret(key, rt.info.spectate_code)
    if not rt.info.listed and not (invite or spectate):
        raise Refusal(403, "bad_invite" if key else "private",
                      "this table is private: use its invite or spectator link")
    out = public_table(rt.info, rt.online())
    # which link ``key`` is; an invite may also watch (a seat sees more than a spectator)
    out["key"] = "invite" if invite else "spectate" if spectate else None
    if invite:
        out["spectate"] = rt.info.spectate_code
    return TableFacts.model_validate(out)


def seat_name(info: TableInfo, account: Account | None, name: str) -> str:
    """The name a seat is shown with: at a rated table the account's username, so that
    a seat there cannot read "Bot 2 (expert)" or another player's name; else the
    name given."""
    return account.username if info.rated and account is not None else name


@router.post("/tables/{table_id}/join")
async def join(table_id: str, body: JoinTable, hub: HubDep, request: Request,
               account: AccountDep) -> Joined:
    """Take a free seat (the signed-in account's). The token in the answer is the only
    way to act for the seat: it is shown once and kept by the server only as a hash."""
    _limit_joins(hub, request)
    room = await _room(hub, table_id)
    seat, token = await room.seating.join(body.invite,
                                          seat_name(room.table.info, account, body.name),
                                          body.seat, None if account is None else account.id,
                                          body.agree_rated)
    return Joined.model_validate(
        {"table_id": table_id, "seat": seat, "token": token,
         "table": public_table(room.table.info, room.table.online())})


@router.get("/lobby")
async def lobby(hub: HubDep, before: float | None = None) -> Lobby:
    """Open listed tables with a free seat, newest first, with the code to join them:
    one page; ``next`` (or null on the last page) is the ``before`` of the next one."""
    page = hub.settings.lobby_page
    infos = await asyncio.to_thread(hub.store.lobby, page + 1, before)
    out = [{**public_table(info, set()), **_links(info), "invite": info.invite_code}
           for info in infos[:page]]
    return Lobby.model_validate(
        {"tables": out, "next": infos[page - 1].created_at if len(infos) > page else None})


async def _own_tables(hub: Hub, body: Tokens, account: Account | None
                      ) -> list[tuple[TableInfo, int]]:
    """The tables where these seat tokens, or the signed-in account, hold a seat."""
    hashes = [hash_token(t) for t in body.tokens if len(t) <= 128]
    rows = await asyncio.to_thread(hub.store.tables_of_tokens, hashes)
    if account is not None:
        rows += await asyncio.to_thread(hub.store.tables_of_account, account.id)
    seen: dict[str, tuple[TableInfo, int]] = {}
    for info, seat in rows:
        seen.setdefault(info.id, (info, seat))
    return sorted(seen.values(), key=lambda row: -row[0].created_at)


@router.post("/mine")
async def mine(body: Tokens, hub: HubDep, request: Request, account: AccountDep
               ) -> MyTables:
    """The tables where these seat tokens (or the signed-in account) hold a seat
    (``closed``: it takes no one any more; its matches are in the history)."""
    _limit_lookups(hub, request)
    tables = []
    for info, seat in await _own_tables(hub, body, account):
        item = public_table(info, set())
        status, your_turn, deadline = "waiting", False, None
        if info.current_match is not None:
            m = await asyncio.to_thread(hub.store.match, info.current_match)
            status = "finished" if m is not None and m.finished_at else "playing"
        if status == "playing" and not info.closed:
            # whose turn it is: the table's state (loaded if it was not in memory)
            room = await hub.get(info.id)
            if room is not None:
                your_turn = seat in room.table.seats_to_act("human")
                deadline = room.table.deadline() if your_turn else None
        tables.append({**item, "seat": seat, "status": status, "closed": info.closed,
                       "your_turn": your_turn, "deadline": deadline, **_links(info)})
    return MyTables.model_validate({"tables": tables})


def specials_in_play(store: Store, info: TableInfo | None) -> bool:
    """Whether the finished matches of this table would show specials that a match of
    it in play still hides: a table that hides its chosen specials deals the same ones
    every match, so match 1's tell match 2's until match 2 is over."""
    if info is None or info.closed or info.options.options.reveal_specials or (
            info.options.specials is None or info.current_match is None):
        return False
    current = store.match(info.current_match)
    return current is not None and current.finished_at is None


def _match_summary(m: MatchInfo, info: TableInfo | None, hide_specials: bool = False
                   ) -> dict[str, Any]:
    names = [] if info is None else [public_table(info, set())["seats"][s.seat]["name"]
                                     for s in info.seats]
    cfg = m.config
    return {
        "id": m.id, "table_id": m.table_id, "number": m.number,
        "edition": cfg["edition"], "players": cfg["players"],
        "partnership": cfg["partnership"],
        "specials": None if hide_specials else cfg["specials"],
        "variant": None if cfg.get("variant") is None else cfg["variant"]["name"],
        "names": names, "finished_at": m.finished_at, "result": m.result,
    }


@router.post("/history")
async def history(body: Tokens, hub: HubDep, request: Request, account: AccountDep
                  ) -> History:
    """Finished matches of your tables (tokens, account); ``everyone``: all listed too."""
    _limit_lookups(hub, request)
    own = [info.id for info, _ in await _own_tables(hub, body, account)]
    found = await asyncio.to_thread(hub.store.finished_matches, None) if body.everyone else []
    if own:
        found += await asyncio.to_thread(hub.store.finished_matches, own)
    seen: dict[str, MatchInfo] = {m.id: m for m in found}
    out = []
    for m in sorted(seen.values(), key=lambda m: -(m.finished_at or 0)):
        info = await asyncio.to_thread(hub.store.table, m.table_id)
        hidden = await asyncio.to_thread(specials_in_play, hub.store, info)
        out.append({**_match_summary(m, info, hidden), "mine": m.table_id in own})
    return History.model_validate({"matches": out})


async def _finished_state(hub: Hub, match_id: str) -> tuple[MatchInfo, State]:
    m = await asyncio.to_thread(hub.store.match, match_id) if len(match_id) <= 32 else None
    if m is None:
        raise Refusal(404, "no_match", "no such match")
    if m.finished_at is None:
        raise Refusal(409, "not_finished",
                      "the record of a match is published once the match is over")
    info = await asyncio.to_thread(hub.store.table, m.table_id)
    if await asyncio.to_thread(specials_in_play, hub.store, info):
        raise Refusal(409, "not_finished",
                      "this record shows the hidden specials of the table's match in "
                      "play: it is published once that match is over")
    events = await asyncio.to_thread(hub.store.events, m.id)
    state = replay_actions(config_from_json(m.config),
                           [(ev.seat, A.parse_action(ev.action)) for ev in events])
    return m, state


@router.get("/matches/{match_id}/record", response_model=RecordFile)
async def record(match_id: str, hub: HubDep) -> JSONResponse:
    """The ``meio-record/1`` record of a finished match, as a download."""
    from meio.engine.record import Record

    m, state = await _finished_state(hub, match_id)
    info = await asyncio.to_thread(hub.store.table, m.table_id)
    body = Record.from_state(state).to_json()
    body["meta"] = _record_meta(m, info)
    return JSONResponse(
        body, headers={"Content-Disposition": f'attachment; filename="meio-{m.id}.json"'},
    )


def _record_meta(m: MatchInfo, info: TableInfo | None) -> dict[str, Any]:
    """Who played and when, for a downloaded record (``meta``: readers ignore it)."""
    from datetime import UTC, datetime

    summary = _match_summary(m, info)
    finished = datetime.fromtimestamp(m.finished_at or 0, UTC).isoformat(timespec="seconds")
    return {"names": summary["names"], "date": finished.replace("+00:00", "Z"),
            "table": m.table_id, "match": m.number}


@router.get("/matches/{match_id}/replay")
async def replay(match_id: str, hub: HubDep) -> Replay:
    """What the replay viewer steps through: the record, the result and the names."""
    from meio.engine.record import Record, result_json

    m, state = await _finished_state(hub, match_id)
    info = await asyncio.to_thread(hub.store.table, m.table_id)
    return Replay.model_validate({"match": _match_summary(m, info),
                                  "record": Record.from_state(state).to_json(),
                                  "result": result_json(state)})
