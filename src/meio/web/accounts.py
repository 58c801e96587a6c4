"""Accounts and sessions: every read and write of them (the seats' side is in
:mod:`meio.web.store`).

An account is a username and an Argon2id hash of the password; a session is the
SHA-256 of a random cookie value, so a stolen database holds neither passwords nor
usable cookies. Guests have no account and play as before, with seat tokens.
"""

from __future__ import annotations

import functools
import time
import unicodedata
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from meio.web.db import (
    AccountRow,
    PasskeyRow,
    RatingChangeRow,
    RatingRow,
    SeatRow,
    SessionRow,
)
from meio.web.friends import forget_account
from meio.web.store import StoreError, new_id

USERNAME_CHARS = "letters, digits, '_', '-' and '.'"


def username_key(username: str) -> str:
    """The form two usernames are compared in: ``Ana`` and ``ANA`` are one account.

    >>> username_key("Ana.Maria")
    'ana.maria'
    """
    return unicodedata.normalize("NFKC", username).casefold()


#: the longest skeleton a username's key can have (TR39 maps a character to at most
#: a few others, so 24 characters stay well under it)
SKELETON_CHARS = 192


def username_skeleton(username: str) -> str:
    """The form two usernames are compared in for look-alikes: Unicode's confusable
    skeleton (UTS #39, by ICU's spoof checker) of the name, case-folded and taken
    again, so that ``ana``, Cyrillic ``аna`` and Greek ``ΑNA`` are one name.

    The skeleton is taken before the case is folded too, as Unicode's table maps
    capitals (Greek ``Α`` to Latin ``A``) that their small letters do not match
    (``α`` is drawn ``ɑ``), and ``I``, ``l`` and ``1`` all become ``l``.

    >>> username_skeleton("ana") == username_skeleton("\u0430na") == username_skeleton("\u0391NA")
    True
    >>> username_skeleton("Iana") == username_skeleton("lana")
    True
    >>> username_skeleton("ana") == username_skeleton("ina")
    False
    """
    checker = _spoof_checker()
    once = checker.getSkeleton(0, unicodedata.normalize("NFKC", username))
    return str(checker.getSkeleton(0, once.casefold()))[:SKELETON_CHARS]


@functools.cache
def _spoof_checker() -> Any:
    from icu import SpoofChecker

    return SpoofChecker()


def check_username(value: str) -> str:
    """A username as stored, or ValueError saying what is wrong with it.

    >>> check_username(" bia_2 ")
    'bia_2'
    >>> check_username("a b")
    Traceback (most recent call last):
    ...
    ValueError: a username is 3 to 24 letters, digits, '_', '-' and '.'
    """
    name = unicodedata.normalize("NFKC", value.strip())
    if not (3 <= len(name) <= 24 and all(c.isalnum() or c in "_-." for c in name)
            and len(username_key(name)) <= 24):
        raise ValueError(f"a username is 3 to 24 {USERNAME_CHARS}")
    return name


@dataclass(frozen=True, slots=True)
class Account:
    """A player's account as the server shows it (never the password hash)."""

    id: str
    username: str
    created_at: float


class AccountStore:
    """Accounts and their sessions in the server's database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def create(self, username: str, password_hash: str) -> Account:
        """A new account; StoreError ``username_taken`` when the name is in use,
        ``username_confusable`` when it looks like one in use (:func:`username_skeleton`)."""
        account = Account(new_id(), username, time.time())
        self.check_free(username)
        try:
            with Session(self.engine) as s, s.begin():
                s.add(AccountRow(id=account.id, username=username,
                                 username_key=username_key(username),
                                 username_skeleton=username_skeleton(username),
                                 password_hash=password_hash, created_at=account.created_at))
        except IntegrityError:
            self.check_free(username)  # which of the two, now that the other is stored
            raise StoreError("username_taken", f"the username {username!r} is taken") from None
        return account

    def check_free(self, username: str) -> None:
        """StoreError ``username_taken`` or ``username_confusable`` (naming the
        account it looks like) unless ``username`` may be a new account's."""
        key, skeleton = username_key(username), username_skeleton(username)
        with Session(self.engine) as s:
            rows = s.execute(select(AccountRow.username, AccountRow.username_key).where(
                (AccountRow.username_key == key) | (AccountRow.username_skeleton == skeleton)
            )).all()
        if any(found_key == key for _, found_key in rows):
            raise StoreError("username_taken", f"the username {username!r} is taken")
        if rows:
            raise StoreError("username_confusable", f"the username {username!r} looks "
                                                    f"like {rows[0][0]!r}, which is taken")

    def by_username(self, username: str) -> tuple[Account, str] | None:
        """The account of ``username`` (in any case) and its password hash."""
        with Session(self.engine) as s:
            row = s.scalar(select(AccountRow).where(
                AccountRow.username_key == username_key(username)))
            return None if row is None else (_account(row), row.password_hash)

    def password_hash(self, account_id: str) -> str | None:
        with Session(self.engine) as s:
            row = s.get(AccountRow, account_id)
            return None if row is None else row.password_hash

    def set_password_hash(self, account_id: str, password_hash: str) -> None:
        """Store a new hash of the same password (stronger parameters than the old)."""
        with Session(self.engine) as s, s.begin():
            s.execute(update(AccountRow).where(AccountRow.id == account_id)
                      .values(password_hash=password_hash))

    def start_session(self, account_id: str, token_hash: str, ended: str | None,
                      not_before: float = 0.0) -> None:
        """A new session of ``account_id``; the browser's previous session (``ended``,
        its hash) ends in the same transaction, so a cookie from before a sign-in is
        never valid after it, and so do the account's sessions that began before
        ``not_before`` (expired: they are worth nothing, and are not kept)."""
        with Session(self.engine) as s, s.begin():
            if ended is not None:
                s.execute(delete(SessionRow).where(SessionRow.token_hash == ended))
            s.execute(delete(SessionRow).where(SessionRow.account_id == account_id,
                                               SessionRow.created_at < not_before))
            s.add(SessionRow(token_hash=token_hash, account_id=account_id,
                             created_at=time.time()))

    def session(self, token_hash: str, not_before: float) -> Account | None:
        """The account signed in with this session, if it began after ``not_before``."""
        with Session(self.engine) as s:
            row = s.execute(
                select(AccountRow)
                .join(SessionRow, SessionRow.account_id == AccountRow.id)
                .where(SessionRow.token_hash == token_hash,
                       SessionRow.created_at >= not_before)
            ).scalar_one_or_none()
            return None if row is None else _account(row)

    def end_session(self, token_hash: str) -> None:
        with Session(self.engine) as s, s.begin():
            s.execute(delete(SessionRow).where(SessionRow.token_hash == token_hash))

    def end_sessions(self, account_id: str) -> int:
        """Sign ``account_id`` out of every browser; returns how many sessions ended."""
        with Session(self.engine) as s, s.begin():
            res = s.execute(delete(SessionRow).where(SessionRow.account_id == account_id))
            return int(res.rowcount)  # type: ignore[attr-defined]

    def delete(self, account_id: str) -> list[str]:
        """Delete an account, its sessions, its passkeys, its ratings, its follows,
        invitations and further seat keys in one
        transaction. Its seats stay, so the match records stay whole, but anonymous:
        the seat's name becomes ``Player N`` and the link to the account goes. Returns
        the tables concerned."""
        with Session(self.engine) as s, s.begin():
            seats = list(s.scalars(select(SeatRow).where(SeatRow.account_id == account_id)))
            for seat in seats:
                seat.name = f"Player {seat.seat + 1}"
                seat.account_id = None
            s.execute(delete(SessionRow).where(SessionRow.account_id == account_id))
            forget_account(s, account_id)
            s.execute(delete(PasskeyRow).where(PasskeyRow.account_id == account_id))
            s.execute(delete(RatingChangeRow).where(RatingChangeRow.player == account_id))
            s.execute(delete(RatingRow).where(RatingRow.player == account_id))
            s.execute(delete(AccountRow).where(AccountRow.id == account_id))
            return sorted({seat.table_id for seat in seats})


def _account(row: AccountRow) -> Account:
    return Account(row.id, row.username, row.created_at)
