"""HTTP routes of players finding each other and their games on any device.

* ``POST /api/tables/{id}/device``: a signed-in player's seat on a browser that has not
  held it yet (its own key to the seat; the seat follows the account).
* ``GET /api/notifications``: invitations waiting and the tables where it is your
  turn, for the lobby's reminder and the header's count (a guest gets none).
* ``/api/friends``: follow a player by name, stop following, who of them is online.
* ``POST /api/tables/{id}/invitations``: invite a player to your table by name.
* ``GET /api/live``: listed matches being played, to spectate (public facts only).
"""

from __future__ import annotations

import asyncio
import secrets
import time
from typing import Annotated, Any

from fastapi import Depends, Request
from pydantic import BaseModel, ConfigDict, Field

from meio.web.accounts import Account, check_username
from meio.web.api import HubDep, client_address
from meio.web.auth import AccountDep, SignedInDep, get_auth
from meio.web.frames import public_table
from meio.web.friends import FriendStore
from meio.web.hub import Hub
from meio.web.refusal import Refusal
from meio.web.schemas import (
    DeviceSeat,
    Dismissed,
    Followed,
    Friends,
    Live,
    Notifications,
    Router,
    Unfollowed,
)
from meio.web.store import TableInfo, hash_token

router = Router(prefix="/api")

#: how often one account's presence is written at most (pages report every 30 s)
PRESENCE_EVERY_S = 20.0
#: the most live matches the Watch page lists
LIVE_PAGE = 40


class Social:
    """The friends' store and the presence reports of one server process."""

    def __init__(self, friends: FriendStore) -> None:
        self.friends = friends
        self._written: dict[str, float] = {}

    async def seen(self, account: Account) -> None:
        """Note that ``account`` has a page open (at most every :data:`PRESENCE_EVERY_S`)."""
        now = time.time()
        if now - self._written.get(account.id, 0.0) < PRESENCE_EVERY_S:
            return
        if len(self._written) > 50_000:
            self._written.clear()
        self._written[account.id] = now
        await asyncio.to_thread(self.friends.seen, account.id, now)


def get_social(request: Request) -> Social:
    social: Social = request.app.state.social
    return social


SocialDep = Annotated[Social, Depends(get_social)]

STRICT = ConfigDict(strict=True, extra="forbid")


class Username(BaseModel):
    """A player named by username (as they typed it)."""

    model_config = STRICT
    username: str = Field(max_length=64)


def _limit(hub: Hub, request: Request, account: Account | None = None) -> None:
    """The look-up limit: a signed-in player's own (friends behind one address do not
    share it), else the address's."""
    key = client_address(request) if account is None else f"account:{account.id}"
    if not hub.lookup_limiter.take(key):
        raise Refusal(429, "rate_limited", "too many requests from your address; wait a minute")


async def _account_named(request: Request, username: str) -> Account:
    """The account of ``username``, or a refusal that says what is wrong with the name."""
    try:
        name = check_username(username)
    except ValueError as exc:
        raise Refusal(422, "bad_username", f"{username!r} cannot be a username: {exc}") from None
    found = await asyncio.to_thread(get_auth(request).accounts.by_username, name)
    if found is None:
        raise Refusal(404, "no_player", f"there is no player named {name!r}")
    return found[0]


def _links(info: TableInfo) -> dict[str, str]:
    return {"invite_url": f"/t/{info.id}?invite={info.invite_code}",
            "spectate_url": f"/t/{info.id}?watch={info.spectate_code}"}


@router.post("/tables/{table_id}/device")
async def seat_on_this_device(table_id: str, hub: HubDep, request: Request,
                              account: SignedInDep) -> DeviceSeat:
    """The signed-in account's seat at this table, for this browser: a new key to it
    (shown once, kept as a hash), with the table's links as its seat-holder sees them.
    The account's other browsers keep theirs."""
    _limit(hub, request, account)
    info = await asyncio.to_thread(hub.store.table, table_id) if len(table_id) <= 32 else None
    if info is None:
        raise Refusal(404, "no_table", "no such table")
    key = secrets.token_urlsafe(24)
    seat = await asyncio.to_thread(hub.store.add_seat_key, table_id, account.id, hash_token(key))
    if seat is None:
        raise Refusal(404, "no_seat_here", "your account holds no seat at this table")
    return DeviceSeat(table_id=table_id, seat=seat, token=key, name=info.seats[seat].name,
                      invite=info.invite_code, spectate=info.spectate_code)


async def _your_turns(hub: Hub, account: Account) -> list[dict[str, Any]]:
    """The open tables where it is the account's turn now, the nearest deadline first."""
    out = []
    for info, seat in await asyncio.to_thread(hub.store.tables_of_account, account.id):
        if info.closed or info.current_match is None:
            continue
        room = await hub.get(info.id)
        if room is None or seat not in room.table.seats_to_act("human"):
            continue
        out.append({**public_table(info, set()), "seat": seat,
                    "deadline": room.table.deadline()})
    return sorted(out, key=lambda t: (t["deadline"] is None, t["deadline"] or 0))


@router.get("/notifications")
async def notifications(hub: HubDep, social: SocialDep, request: Request,
                        account: AccountDep) -> Notifications:
    """What waits for the signed-in player on any device: invitations to tables (with
    the link to take a seat) and the tables where it is their turn. A guest's turns
    live in their browser: they get none here."""
    if account is None:
        return Notifications(signed_in=False, invitations=[], your_turn=[], count=0)
    _limit(hub, request, account)
    await social.seen(account)
    invitations = []
    for inv in await asyncio.to_thread(social.friends.invitations, account.id):
        info = await asyncio.to_thread(hub.store.table, inv.table_id)
        if info is None or any(s.account_id == account.id for s in info.seats):
            # seated there already (on this device or another): answered
            await asyncio.to_thread(social.friends.dismiss, account.id, inv.id)
            continue
        invitations.append({"id": inv.id, "from": inv.sender, "created_at": inv.created_at,
                            "table": public_table(info, set()), **_links(info)})
    turns = await _your_turns(hub, account)
    return Notifications.model_validate({"signed_in": True, "invitations": invitations,
                                         "your_turn": turns,
                                         "count": len(invitations) + len(turns)})


@router.delete("/invitations/{invitation_id}")
async def dismiss(invitation_id: int, social: SocialDep, account: SignedInDep
                  ) -> Dismissed:
    """Decline (remove) one of your invitations."""
    if not await asyncio.to_thread(social.friends.dismiss, account.id, invitation_id):
        raise Refusal(404, "no_invitation", "you have no such invitation")
    return Dismissed(dismissed=True)


@router.get("/friends")
async def friends(hub: HubDep, social: SocialDep, request: Request, account: SignedInDep
                  ) -> Friends:
    """The players you follow, online ones first (``mutual``: they follow you too)."""
    _limit(hub, request, account)
    await social.seen(account)
    rows = await asyncio.to_thread(social.friends.friends, account.id)
    return Friends.model_validate(
        {"friends": [{"username": f.username, "online": f.online, "mutual": f.mutual}
                     for f in rows]})


@router.post("/friends", status_code=201)
async def follow(body: Username, hub: HubDep, social: SocialDep, request: Request,
                 account: SignedInDep) -> Followed:
    """Follow a player by name."""
    _limit(hub, request, account)
    other = await _account_named(request, body.username)
    if other.id == account.id:
        raise Refusal(422, "follow_self", "you cannot follow yourself")
    try:
        new = await asyncio.to_thread(social.friends.follow, account.id, other.id)
    except ValueError as exc:
        raise Refusal(409, "too_many_friends", str(exc)) from None
    return Followed(username=other.username, new=new)


@router.delete("/friends/{username}")
async def unfollow(username: str, hub: HubDep, social: SocialDep, request: Request,
                   account: SignedInDep) -> Unfollowed:
    """Stop following a player."""
    _limit(hub, request, account)
    other = await _account_named(request, username)
    if not await asyncio.to_thread(social.friends.unfollow, account.id, other.id):
        raise Refusal(404, "not_following", "you do not follow this player")
    return Unfollowed(unfollowed=True)


@router.post("/tables/{table_id}/invitations", status_code=201)
async def invite(table_id: str, body: Username, hub: HubDep, social: SocialDep,
                 request: Request, account: SignedInDep) -> Followed:
    """Invite a player by name to a table where you hold a seat and a seat is free:
    the invitation waits among their notifications, on every device they sign in on."""
    _limit(hub, request, account)
    info = await asyncio.to_thread(hub.store.table, table_id) if len(table_id) <= 32 else None
    if info is None:
        raise Refusal(404, "no_table", "no such table")
    if not any(s.account_id == account.id for s in info.seats):
        raise Refusal(403, "not_seated", "invite people to a table where you hold a seat")
    if info.closed:
        raise Refusal(410, "closed", "this table has closed; its matches are in the history")
    if all(s.filled for s in info.seats):
        raise Refusal(409, "full", "every seat of this table is taken")
    other = await _account_named(request, body.username)
    if any(s.account_id == other.id for s in info.seats):
        raise Refusal(409, "already_there", f"{other.username} has a seat at this table already")
    new = await asyncio.to_thread(social.friends.invite, account.id, other.id, table_id)
    return Followed(username=other.username, new=new)


@router.get("/live")
async def live(hub: HubDep, request: Request) -> Live:
    """Listed matches being played now, with the spectator link of each: the public
    facts of the table, never a card (a spectator sees what anyone at the table may)."""
    _limit(hub, request)
    infos = await asyncio.to_thread(hub.store.live_tables, LIVE_PAGE)
    return Live.model_validate(
        {"tables": [{**public_table(info, set()),
                     "spectate_url": f"/t/{info.id}?watch={info.spectate_code}"}
                    for info in infos]})
