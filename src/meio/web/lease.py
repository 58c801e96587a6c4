"""Table leases: exactly one server process runs a table's bots and turn timer.

Several ``meio serve`` processes may share one database. Each table's bots and
turn timer must act from one process only, or two processes would race to move
for the same bot. The process that acts holds a row in ``meio_leases`` whose
``expires_at`` it pushes forward every ``ttl / 3`` seconds. When the holder dies
its lease runs out, and any other process that needs the table takes it over.

A holder trusts its lease only until the expiry it last wrote (less a margin), so
a process that cannot renew (stalled, cut off from the database) stops acting
before anyone else may start. Should two ever act at once, the database still
decides: an action number can be stored only once.
"""

from __future__ import annotations

import os
import socket
import time
import uuid
from dataclasses import dataclass

from sqlalchemy import delete, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from meio.web.db import LeaseRow


def process_id() -> str:
    """A name for this server process, unique across machines and restarts."""
    return f"{socket.gethostname()[:40]}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


@dataclass(frozen=True, slots=True)
class LeaseState:
    """A lease as read or written: who holds the table and until when."""

    table_id: str
    holder: str
    expires_at: float


class LeaseStore:
    """The lease rows, read and written synchronously (call from a worker thread)."""

    def __init__(self, engine: Engine, holder: str, ttl_s: float) -> None:
        self.engine = engine
        self.holder = holder
        self.ttl_s = ttl_s

    def acquire(self, table_id: str, now: float | None = None) -> LeaseState:
        """Take (or keep) the lease of ``table_id`` when it is free, expired or ours.

        Returns the lease as it stands afterwards: ``holder`` says who won.
        """
        now = time.time() if now is None else now
        expires = now + self.ttl_s
        with Session(self.engine) as s, s.begin():
            res = s.execute(
                update(LeaseRow)
                .where(
                    LeaseRow.table_id == table_id,
                    (LeaseRow.holder == self.holder) | (LeaseRow.expires_at < now),
                )
                .values(holder=self.holder, expires_at=expires)
            )
            if res.rowcount == 1:  # type: ignore[attr-defined]
                return LeaseState(table_id, self.holder, expires)
        try:
            with Session(self.engine) as s, s.begin():
                s.add(LeaseRow(table_id=table_id, holder=self.holder, expires_at=expires))
            return LeaseState(table_id, self.holder, expires)
        except IntegrityError:
            pass
        current = self.read(table_id)
        # the row vanished between the two writes (released): say it is free now
        return current or LeaseState(table_id, "", now)

    def read(self, table_id: str) -> LeaseState | None:
        """The lease of ``table_id``, or None when nobody holds one."""
        with Session(self.engine) as s:
            row = s.get(LeaseRow, table_id)
            return None if row is None else LeaseState(row.table_id, row.holder, row.expires_at)

    def renew(self, table_ids: list[str], now: float | None = None) -> tuple[set[str], float]:
        """Push our leases of ``table_ids`` forward; returns those still ours and the
        new expiry."""
        now = time.time() if now is None else now
        expires = now + self.ttl_s
        if not table_ids:
            return set(), expires
        with Session(self.engine) as s, s.begin():
            s.execute(
                update(LeaseRow)
                .where(LeaseRow.holder == self.holder, LeaseRow.table_id.in_(table_ids))
                .values(expires_at=expires)
            )
            held = set(
                s.scalars(
                    select(LeaseRow.table_id).where(
                        LeaseRow.holder == self.holder, LeaseRow.table_id.in_(table_ids)
                    )
                )
            )
        return held, expires

    def release(self, table_ids: list[str]) -> None:
        """Give up our leases of ``table_ids`` (others may take them at once)."""
        if not table_ids:
            return
        with Session(self.engine) as s, s.begin():
            s.execute(
                delete(LeaseRow).where(
                    LeaseRow.holder == self.holder, LeaseRow.table_id.in_(table_ids)
                )
            )

    def expired(self, now: float | None = None, limit: int = 100) -> list[str]:
        """Tables whose lease has run out (their holder died without releasing)."""
        now = time.time() if now is None else now
        with Session(self.engine) as s:
            q = select(LeaseRow.table_id).where(LeaseRow.expires_at < now).limit(limit)
            return list(s.scalars(q))


    def held_by_others(self, now: float | None = None) -> set[str]:
        """Tables whose lease another process holds and has not let run out."""
        now = time.time() if now is None else now
        with Session(self.engine) as s:
            q = select(LeaseRow.table_id).where(LeaseRow.holder != self.holder,
                                                LeaseRow.expires_at >= now)
            return set(s.scalars(q))


class Leases:
    """This process's view of its leases: which tables it may act for, and until when.

    ``held`` maps a table id to the expiry last written; ``others`` remembers, for a
    table another process holds, when that lease runs out, so that nobody asks the
    database again before then.
    """

    #: seconds before the written expiry at which a holder stops trusting its lease
    MARGIN_S = 0.5

    def __init__(self, store: LeaseStore) -> None:
        self.store = store
        self.held: dict[str, float] = {}
        self.others: dict[str, float] = {}

    @property
    def holder(self) -> str:
        return self.store.holder

    def holds(self, table_id: str, now: float | None = None) -> bool:
        """Whether this process may act for ``table_id`` now."""
        expires = self.held.get(table_id)
        now = time.time() if now is None else now
        return expires is not None and now < expires - self.MARGIN_S

    def worth_trying(self, table_id: str, now: float | None = None) -> bool:
        """Whether asking the database for ``table_id``'s lease could succeed."""
        now = time.time() if now is None else now
        return self.others.get(table_id, 0.0) <= now

    def record(self, lease: LeaseState) -> bool:
        """Note the outcome of an acquire; True when the lease is ours."""
        if lease.holder == self.holder:
            self.held[lease.table_id] = lease.expires_at
            self.others.pop(lease.table_id, None)
            return True
        self.held.pop(lease.table_id, None)
        self.others[lease.table_id] = lease.expires_at
        return False

    def renewed(self, asked: list[str], still: set[str], expires: float) -> list[str]:
        """Note a renewal; returns the tables whose lease was lost."""
        lost = [t for t in asked if t not in still]
        for t in lost:
            self.held.pop(t, None)
        for t in still:
            self.held[t] = expires
        return lost

    def forget(self, table_id: str) -> None:
        """Drop what is known of ``table_id`` (after a release or an eviction)."""
        self.held.pop(table_id, None)
        self.others.pop(table_id, None)
