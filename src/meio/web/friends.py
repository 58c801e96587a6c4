"""Friends: who follows whom, invitations to a table sent by name, and who is online.

Every read and write of them; the routes are in :mod:`meio.web.social`. Following is
one-way and needs no answer (as on a chess server): it puts the player on one's
Friends page, with whether they are online. An invitation names a table and waits
among the invited account's notifications, on every device it signs in on, until it
is answered, dismissed, or its table closes. "Online" is a page of the site open
within :data:`ONLINE_S` (a signed-in page reports itself every half minute).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from sqlalchemy import delete, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from meio.web.db import (
    AccountRow,
    FollowRow,
    InvitationRow,
    PresenceRow,
    SeatKeyRow,
    TableRow,
)

#: seconds since an account's last page report within which it counts as online
ONLINE_S = 90.0
#: the most accounts one account may follow
MAX_FOLLOWS = 200
#: the most invitations waiting for one account (older ones make room)
MAX_INVITATIONS = 50


@dataclass(frozen=True, slots=True)
class Friend:
    """An account one follows, as the Friends page shows it."""

    username: str
    online: bool
    #: whether they follow back
    mutual: bool


@dataclass(frozen=True, slots=True)
class Invitation:
    """An invitation waiting for its account: who sent it, to which table."""

    id: int
    sender: str
    table_id: str
    created_at: float


class FriendStore:
    """Follows, invitations and presence in the server's database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # -- presence ------------------------------------------------------------------
    def seen(self, account_id: str, now: float | None = None) -> None:
        """Note that ``account_id`` has a page of the site open now."""
        at = time.time() if now is None else now
        with Session(self.engine) as s, s.begin():
            row = s.get(PresenceRow, account_id)
            if row is None:
                s.add(PresenceRow(account_id=account_id, seen_at=at))
            else:
                row.seen_at = at

    # -- follows -------------------------------------------------------------------
    def follow(self, follower: str, followed: str) -> bool:
        """``follower`` follows ``followed``; False if it already did. ValueError when
        it follows :data:`MAX_FOLLOWS` accounts already."""
        with Session(self.engine) as s, s.begin():
            if s.get(FollowRow, (follower, followed)) is not None:
                return False
            count = len(list(s.scalars(select(FollowRow.followed)
                                       .where(FollowRow.follower == follower))))
            if count >= MAX_FOLLOWS:
                raise ValueError(f"you follow {count} players already, the most there may be")
            s.add(FollowRow(follower=follower, followed=followed, created_at=time.time()))
        return True

    def unfollow(self, follower: str, followed: str) -> bool:
        with Session(self.engine) as s, s.begin():
            res = s.execute(delete(FollowRow).where(FollowRow.follower == follower,
                                                    FollowRow.followed == followed))
            return bool(res.rowcount)  # type: ignore[attr-defined]

    def friends(self, account_id: str, now: float | None = None) -> list[Friend]:
        """The accounts ``account_id`` follows, online ones first, then by name."""
        at = time.time() if now is None else now
        with Session(self.engine) as s:
            rows = s.execute(
                select(AccountRow.id, AccountRow.username, PresenceRow.seen_at)
                .join(FollowRow, FollowRow.followed == AccountRow.id)
                .outerjoin(PresenceRow, PresenceRow.account_id == AccountRow.id)
                .where(FollowRow.follower == account_id)).all()
            back = set(s.scalars(select(FollowRow.follower)
                                 .where(FollowRow.followed == account_id)))
        out = [Friend(name, seen is not None and at - seen <= ONLINE_S, aid in back)
               for aid, name, seen in rows]
        return sorted(out, key=lambda f: (not f.online, f.username.casefold()))

    # -- invitations ---------------------------------------------------------------
    def invite(self, sender: str, to: str, table_id: str) -> bool:
        """Invite ``to`` to ``table_id``; False when it is invited there already."""
        try:
            with Session(self.engine) as s, s.begin():
                s.add(InvitationRow(to_account=to, from_account=sender, table_id=table_id,
                                    created_at=time.time()))
        except IntegrityError:
            return False
        with Session(self.engine) as s, s.begin():
            old = list(s.scalars(select(InvitationRow.id)
                                 .where(InvitationRow.to_account == to)
                                 .order_by(InvitationRow.created_at.desc())
                                 .offset(MAX_INVITATIONS)))
            if old:
                s.execute(delete(InvitationRow).where(InvitationRow.id.in_(old)))
        return True

    def invitations(self, account_id: str) -> list[Invitation]:
        """The invitations waiting for ``account_id`` to open tables, newest first
        (those of closed tables are gone)."""
        with Session(self.engine) as s:
            rows = s.execute(
                select(InvitationRow, AccountRow.username)
                .join(AccountRow, AccountRow.id == InvitationRow.from_account)
                .join(TableRow, TableRow.id == InvitationRow.table_id)
                .where(InvitationRow.to_account == account_id, TableRow.closed_at.is_(None))
                .order_by(InvitationRow.created_at.desc())).all()
        return [Invitation(r.id, name, r.table_id, r.created_at) for r, name in rows]

    def dismiss(self, account_id: str, invitation_id: int) -> bool:
        """Remove an invitation of ``account_id`` (answered or declined)."""
        with Session(self.engine) as s, s.begin():
            res = s.execute(delete(InvitationRow).where(InvitationRow.id == invitation_id,
                                                        InvitationRow.to_account == account_id))
            return bool(res.rowcount)  # type: ignore[attr-defined]

    def dismiss_table(self, account_id: str, table_id: str) -> None:
        """Remove ``account_id``'s invitations to ``table_id`` (it sat down there)."""
        with Session(self.engine) as s, s.begin():
            s.execute(delete(InvitationRow).where(InvitationRow.to_account == account_id,
                                                  InvitationRow.table_id == table_id))


def forget_account(s: Session, account_id: str) -> None:
    """Delete what this module keeps of an account (in the transaction that deletes it)."""
    s.execute(delete(FollowRow).where((FollowRow.follower == account_id)
                                      | (FollowRow.followed == account_id)))
    s.execute(delete(InvitationRow).where((InvitationRow.to_account == account_id)
                                          | (InvitationRow.from_account == account_id)))
    s.execute(delete(PresenceRow).where(PresenceRow.account_id == account_id))
    s.execute(delete(SeatKeyRow).where(SeatKeyRow.account_id == account_id))
