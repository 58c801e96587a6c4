"""HTTP routes: tables, seats, the lobby, history and records. Thin: the work is in
:mod:`meio.web.seating`, :mod:`meio.web.table` and :mod:`meio.web.store`."""

from __future__ import annotations

import asyncio
import hashlib
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, field_validator

from meio.engine import ConfigError, MatchConfig, MeioError, State, TableOptions, replay_actions
from meio.engine import actions as A
from meio.engine import cards as C
from meio.engine.ruleset_file import variant_json
from meio.engine.wire import config_from_json
from meio.web.accounts import Account
from meio.web.auth import AccountDep
from meio.web.frames import public_table
from meio.web.hub import Hub, Room
from meio.web.refusal import Refusal
from meio.web.seating import JoinError
from meio.web.settings import Settings
from meio.web.store import MatchInfo, SeatInfo, TableInfo, hash_token
from meio.web.table import same_secret
from meio.web.variants import check_variant_table, host_variant

router = APIRouter(prefix="/api")

#: request bodies are read strictly: ``"seat": "1"`` is not the number 1
STRICT = ConfigDict(strict=True, extra="forbid")


def get_hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


HubDep = Annotated[Hub, Depends(get_hub)]


def _name(value: str) -> str:
    name = " ".join(value.split())
    if not 1 <= len(name) <= 24 or not name.isprintable():
        raise ValueError("a display name is 1 to 24 printable characters")
    return name


class SeatSpec(BaseModel):
    """A seat of a new table: a human (free until someone joins) or a bot."""

    model_config = STRICT

    kind: Literal["human", "bot"] = "human"
    bot: str | None = Field(default=None, max_length=32)


class CreateTable(BaseModel):
    """The options of a new table."""

    model_config = STRICT

    edition: Literal["meio", "classic"] = "meio"
    players: int = Field(default=4, ge=2, le=5)
    partnership: bool = False
    #: None draws the special cards at random for each match
    specials: list[str] | None = Field(default=None, max_length=5)
    seats: list[SeatSpec] | None = Field(default=None, max_length=5)
    turn_timer_s: float | None = None
    listed: bool = True
    #: the creator's display name: when given, the creator takes the first human seat
    name: str | None = None
    #: a fixed deal seed (only when the server allows it: tests, demos)
    seed: int | None = Field(default=None, ge=0, lt=2**62)
    #: the table options of RULES.md §10
    wild_lead: Literal["declare", "next"] = "declare"
    reveal_specials: bool = True
    #: its finished matches change the ratings of the accounts (and bots) at it
    rated: bool = False
    #: played over hours or days: ``turn_timer_s`` is then a long one (required)
    turn_based: bool = False
    #: a rule variant's TOML text or a preset's name, and the file it was uploaded from
    #: (:mod:`meio.web.variants`); it sets the edition and the table options
    variant: str | None = None
    variant_file: str | None = Field(default=None, min_length=1, max_length=64)

    @field_validator("name")
    @classmethod
    def _check_name(cls, v: str | None) -> str | None:
        return None if v is None else _name(v)


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
        return _name(v)


class QuickPlayRequest(BaseModel):
    """Play now in a rating pool, waiting ``wait_s`` seconds for people before bots
    fill the empty seats."""

    model_config = STRICT

    pool: str = Field(max_length=32)
    wait_s: float = 30.0
    name: str

    @field_validator("name")
    @classmethod
    def _check_name(cls, v: str) -> str:
        return _name(v)


class Tokens(BaseModel):
    """The seat tokens a browser holds (to list its own tables)."""

    model_config = STRICT

    tokens: list[str] = Field(default_factory=list, max_length=200)


def _check_options(body: CreateTable, settings: Settings) -> tuple[dict[str, Any], list[SeatInfo]]:
    from meio.bots import bot_kinds

    specials: list[str] | None = None
    variant = None if body.variant is None else host_variant(
        body.variant, body.variant_file, settings.max_variant_bytes, body.model_fields_set)
    edition, table_options = ((body.edition, TableOptions(body.wild_lead, body.reveal_specials))
                              if variant is None else (variant.edition, variant.options))
    try:
        parsed = None if body.specials is None else tuple(C.parse_card(s) for s in body.specials)
        cfg = MatchConfig(edition=edition, players=body.players,
                          partnership=body.partnership, specials=parsed,
                          options=table_options, variant=variant)
    except (ConfigError, MeioError) as exc:
        raise HTTPException(422, str(exc)) from None
    if parsed is not None:
        specials = [C.card_code(s) for s in cfg.special_cards]
    seats = body.seats or [SeatSpec() for _ in range(body.players)]
    if len(seats) != body.players:
        raise HTTPException(422, f"{body.players} players need {body.players} seats, "
                                 f"not {len(seats)}")
    kinds = bot_kinds()
    infos: list[SeatInfo] = []
    for i, s in enumerate(seats):
        if s.kind == "bot":
            bot = s.bot or "random"
            if bot not in kinds:
                raise HTTPException(422, f"seat {i}: unknown bot {bot!r}; choose one of "
                                         f"{', '.join(kinds)}")
            infos.append(SeatInfo(i, "bot", bot, None, None))
        else:
            infos.append(SeatInfo(i, "human", None, None, None))
    timer = body.turn_timer_s
    if body.turn_based:
        low, high = settings.min_turn_based_s, settings.max_turn_based_s
        if timer is None or not low <= timer <= high:
            raise HTTPException(422, f"a turn-based table's turn timer is {low:g} to "
                                     f"{high:g} seconds")
    elif timer is not None and not settings.min_turn_timer_s <= timer <= settings.max_turn_timer_s:
        raise HTTPException(422, f"the turn timer is {settings.min_turn_timer_s:g} to "
                                 f"{settings.max_turn_timer_s:g} seconds")
    if body.seed is not None and not settings.allow_seeds:
        raise HTTPException(422, "this server does not accept fixed deal seeds")
    if body.name is not None and not any(s.kind == "human" for s in infos):
        raise HTTPException(422, "every seat is a bot: there is no seat for you")
    if body.rated and not any(s.kind == "human" for s in infos):
        raise HTTPException(422, "a table of bots alone is not rated")
    if variant is not None:
        check_variant_table(body.rated, [(s.seat, s.bot or "random") for s in infos
                                         if s.kind == "bot"])
    options: dict[str, Any] = {
        "edition": edition,
        "players": body.players,
        "partnership": body.partnership,
        "specials": specials,
        "turn_timer_s": timer,
        "seed": body.seed,
        "wild_lead": table_options.wild_lead, "reveal_specials": table_options.reveal_specials,
    }
    if body.turn_based:
        options["turn_based"] = True
    if variant is not None:
        options["variant"] = variant_json(variant)
    return options, infos


def _links(info: TableInfo) -> dict[str, str]:
    return {
        "invite_url": f"/t/{info.id}?invite={info.invite_code}",
        "spectate_url": f"/t/{info.id}?watch={info.spectate_code}",
    }


@router.get("/health")
async def health() -> dict[str, str]:
    return {"status": "ok"}


@router.get("/bots")
async def bots() -> dict[str, Any]:
    """Every bot kind, the levels a lobby offers (weakest first), those playing variants."""
    from meio.bots import LEVELS, bot_kinds
    from meio.bots.variant_play import VARIANT_BOTS

    return {"bots": bot_kinds(),
            "levels": [{"kind": lv.kind, "name": lv.name, "strength": lv.strength}
                       for lv in LEVELS],
            "variant_bots": list(VARIANT_BOTS)}


def client_address(request: Request) -> str:
    """The client's address (behind a trusted proxy, the one it forwarded)."""
    return request.client.host if request.client is not None else "?"


def _limit_joins(hub: Hub, request: Request) -> None:
    if not hub.join_limiter.take(client_address(request)):
        raise HTTPException(429, "rate_limited: too many tables created or seats taken from "
                                 "your address; wait a minute")


def _limit_lookups(hub: Hub, request: Request) -> None:
    if not hub.lookup_limiter.take(client_address(request)):
        raise HTTPException(429, "rate_limited: too many look-ups of your tables from your "
                                 "address; wait a minute")


def creator_of(request: Request) -> str:
    """What a table keeps of the address that created it: a short hash."""
    return hashlib.sha256(client_address(request).encode()).hexdigest()[:16]


async def _limit_tables(hub: Hub, request: Request, seats: list[SeatInfo]) -> str:
    """Refuse a table over the open-table limits (``server_full``, HTTP 503, or
    ``too_many_tables``, HTTP 429); returns its creator's hash."""
    s = hub.settings
    creator = creator_of(request)
    counts = await asyncio.to_thread(hub.store.open_tables, creator)
    if counts.total >= s.max_open_tables:
        raise HTTPException(503, "server_full: this server has as many open tables as it can "
                                 "take; join one from the lobby or try later")
    if counts.mine >= s.max_open_tables_per_address:
        raise HTTPException(429, "too_many_tables: your address has "
                                 f"{counts.mine} open tables; finish or leave some first")
    if all(seat.kind == "bot" for seat in seats):
        if counts.bots_only >= s.max_bot_tables:
            raise HTTPException(503, "server_full: as many tables of bots alone as this "
                                     "server runs are playing; try later, or take a seat")
        if counts.bots_only_mine >= s.max_bot_tables_per_address:
            raise HTTPException(429, "too_many_tables: your address already has "
                                     f"{counts.bots_only_mine} tables of bots alone playing")
    return creator


@router.post("/tables", status_code=201)
async def create_table(body: CreateTable, hub: HubDep, request: Request,
                       account: AccountDep) -> dict[str, Any]:
    """Create a table; the creator gets the invite and spectator links (and a seat token
    when a name was given: the seat is the signed-in account's)."""
    _limit_joins(hub, request)
    options, seats = _check_options(body, hub.settings)
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
        seat, token = await room.seating.join(info.invite_code, body.name, None,
                                              None if account is None else account.id,
                                              agree_rated=True)
        out.update(seat=seat, token=token)
    else:
        await room.seating.ensure_started()
    out["table"] = public_table(room.table.info, room.table.online())
    return out


@router.post("/quick")
async def quick_play(body: QuickPlayRequest, hub: HubDep, request: Request,
                     account: AccountDep) -> dict[str, Any]:
    """Quick play (signed-in players): a seat at a rated table of the pool, with people
    of a rating near yours; bots of a level near the table's fill the seats left
    when the wait is over (:mod:`meio.web.quick`)."""
    from meio.ratings import Pool, RatingError

    if account is None:
        raise Refusal(401, "sign_in_to_rate", "quick play is rated: sign in or create an "
                                              "account")
    s = hub.settings
    if not s.quick_min_wait_s <= body.wait_s <= s.quick_max_wait_s:
        raise HTTPException(422, f"the wait is {s.quick_min_wait_s:g} to "
                                 f"{s.quick_max_wait_s:g} seconds")
    try:
        pool = Pool.parse(body.pool)
    except RatingError as exc:
        raise Refusal(404, "no_pool", str(exc)) from None
    _limit_joins(hub, request)
    creator = await _limit_tables(hub, request, [SeatInfo(0, "human", None, None, None)])
    try:
        table_id, seat, token = await request.app.state.quick.play(
            account.id, pool, body.wait_s, body.name, creator)
    except JoinError as exc:
        raise Refusal(exc.status, exc.code, exc.reason, **exc.params) from None
    room = await _room(hub, table_id)
    info = room.table.info
    return {"table_id": table_id, "seat": seat, "token": token, **_links(info),
            "invite": info.invite_code, "spectate": info.spectate_code,
            "fill_at": info.options.get("fill_at"),
            "table": public_table(info, room.table.online())}


async def _room(hub: Hub, table_id: str) -> Room:
    if len(table_id) > 32:
        raise Refusal(404, "no_table", "no such table")
    room = await hub.get(table_id)
    if room is None:
        raise Refusal(404, "no_table", "no such table")
    return room


@router.get("/tables/{table_id}")
async def table(table_id: str, hub: HubDep, key: str | None = None) -> dict[str, Any]:
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
    return out


@router.post("/tables/{table_id}/join")
async def join(table_id: str, body: JoinTable, hub: HubDep, request: Request,
               account: AccountDep) -> dict[str, Any]:
    """Take a free seat (the signed-in account's). The token in the answer is the only
    way to act for the seat: it is shown once and kept by the server only as a hash."""
    _limit_joins(hub, request)
    room = await _room(hub, table_id)
    try:
        seat, token = await room.seating.join(body.invite, body.name, body.seat,
                                              None if account is None else account.id,
                                              body.agree_rated)
    except JoinError as exc:
        raise Refusal(exc.status, exc.code, exc.reason, **exc.params) from None
    return {"table_id": table_id, "seat": seat, "token": token,
            "table": public_table(room.table.info, room.table.online())}


@router.get("/lobby")
async def lobby(hub: HubDep, before: float | None = None) -> dict[str, Any]:
    """Open listed tables with a free seat, newest first, with the code to join them:
    one page; ``next`` (or null on the last page) is the ``before`` of the next one."""
    page = hub.settings.lobby_page
    infos = await asyncio.to_thread(hub.store.lobby, page + 1, before)
    out = [{**public_table(info, set()), **_links(info), "invite": info.invite_code}
           for info in infos[:page]]
    return {"tables": out, "next": infos[page - 1].created_at if len(infos) > page else None}


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
               ) -> dict[str, Any]:
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
    return {"tables": tables}


def _match_summary(m: MatchInfo, info: TableInfo | None) -> dict[str, Any]:
    names = [] if info is None else [public_table(info, set())["seats"][s.seat]["name"]
                                     for s in info.seats]
    cfg = m.config
    return {
        "id": m.id, "table_id": m.table_id, "number": m.number,
        "edition": cfg["edition"], "players": cfg["players"],
        "partnership": cfg["partnership"], "specials": cfg["specials"],
        "variant": None if cfg.get("variant") is None else cfg["variant"]["name"],
        "names": names, "finished_at": m.finished_at, "result": m.result,
    }


@router.post("/history")
async def history(body: Tokens, hub: HubDep, request: Request, account: AccountDep
                  ) -> dict[str, Any]:
    """Finished matches: those of listed tables and of the tables these tokens (or the
    signed-in account) sit at."""
    _limit_lookups(hub, request)
    own = [info.id for info, _ in await _own_tables(hub, body, account)]
    found = await asyncio.to_thread(hub.store.finished_matches, None)
    if own:
        found += await asyncio.to_thread(hub.store.finished_matches, own)
    seen: dict[str, MatchInfo] = {m.id: m for m in found}
    out = []
    for m in sorted(seen.values(), key=lambda m: -(m.finished_at or 0)):
        info = await asyncio.to_thread(hub.store.table, m.table_id)
        out.append(_match_summary(m, info))
    return {"matches": out}


async def _finished_state(hub: Hub, match_id: str) -> tuple[MatchInfo, State]:
    m = await asyncio.to_thread(hub.store.match, match_id) if len(match_id) <= 32 else None
    if m is None:
        raise Refusal(404, "no_match", "no such match")
    if m.finished_at is None:
        raise Refusal(409, "not_finished",
                      "the record of a match is published once the match is over")
    events = await asyncio.to_thread(hub.store.events, m.id)
    state = replay_actions(config_from_json(m.config),
                           [(ev.seat, A.parse_action(ev.action)) for ev in events])
    return m, state


@router.get("/matches/{match_id}/record")
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
async def replay(match_id: str, hub: HubDep) -> dict[str, Any]:
    """What the replay viewer steps through: the record, the result and the names."""
    from meio.engine.record import Record, result_json

    m, state = await _finished_state(hub, match_id)
    info = await asyncio.to_thread(hub.store.table, m.table_id)
    return {"match": _match_summary(m, info), "record": Record.from_state(state).to_json(),
            "result": result_json(state)}
