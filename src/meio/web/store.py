"""Synchronous persistence: every read and write of the web server goes through here.

The async server calls these functions in a worker thread. Each write is one
transaction; an accepted action is committed here before it is broadcast.

Near 600 lines on purpose: it is the server's one door to the database (tables,
seats, events, chat, accounts, ratings), so that a query is written once, beside
the others that touch the same rows, and no module above it opens a session.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, exists, func, insert, or_, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from meio.web.db import ChatRow, EventRow, MatchRow, ReportRow, SeatKeyRow, SeatRow, TableRow
from meio.web.refusal import ServerError
from meio.web.tablesetup import TableSetup

_INSERT_EVENT = insert(EventRow)

#: how many of a match's last chat messages a (re)connecting page receives
CHAT_HISTORY = 100


class StoreError(ServerError):
    """A write the database refused; ``code`` says why (``conflict``, ``taken``,
    ``closed``; ``missing``: a row gone, answered 404)."""

    default_status = 409

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message, code=code, status=404 if code == "missing" else None)


def new_id(nbytes: int = 9) -> str:
    """A random, URL-safe identifier."""
    return secrets.token_urlsafe(nbytes)


def hash_token(token: str) -> str:
    """The SHA-256 of a seat token (the only form the server keeps)."""
    # surrogatepass: any text a client sends hashes (and matches nothing), none raises
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """A seat as the server knows it."""

    seat: int
    kind: str
    bot: str | None
    name: str | None
    token_hash: str | None
    #: the account of the person in the seat (None: a guest, a bot, a free seat)
    account_id: str | None = None

    @property
    def filled(self) -> bool:
        return self.kind == "bot" or self.token_hash is not None


@dataclass(frozen=True, slots=True)
class TableInfo:
    """A table row with its seats."""

    id: str
    created_at: float
    #: what it was created with (the stored JSON, read by :meth:`TableSetup.from_json`)
    options: TableSetup
    invite_code: str
    spectate_code: str
    listed: bool
    current_match: str | None
    seats: tuple[SeatInfo, ...]
    #: when the table closed (None: open); a closed table takes no players
    closed_at: float | None = None
    #: a rated table: its finished matches change its players' ratings
    rated: bool = False
    #: the hash of the address that created it (None once closed): the client its
    #: bots' thinking is charged to
    creator: str | None = None

    @property
    def closed(self) -> bool:
        return self.closed_at is not None


@dataclass(frozen=True, slots=True)
class OpenTables:
    """How many tables are open now (waiting for players or in play), in all and
    created from one address; and of those, how many only bots play at."""

    total: int
    mine: int
    bots_only: int
    bots_only_mine: int


@dataclass(frozen=True, slots=True)
class MatchInfo:
    """A match row."""

    id: str
    table_id: str
    number: int
    config: dict[str, Any]
    created_at: float
    finished_at: float | None
    result: dict[str, Any] | None


@dataclass(frozen=True, slots=True)
class EventInfo:
    """An accepted action."""

    seq: int
    seat: int
    action: str
    source: str
    client_id: str | None
    created_at: float


@dataclass(frozen=True, slots=True)
class ReportInfo:
    """A reported chat message: what it said, who wrote it, where and when."""

    id: int
    table_id: str
    match_id: str
    seat: int
    author: str | None
    text: str
    reporter_seat: int
    created_at: float


@dataclass(frozen=True, slots=True)
class NewEvent:
    """An accepted action of match ``match_id`` to store (``result``: the match's,
    given with its last action)."""

    match_id: str
    event: EventInfo
    result: dict[str, Any] | None = None


def _free_seat() -> Any:
    """``EXISTS`` a free human seat at the table of the outer query.

    Written so that the database finds the seats by the table's key: with
    ``token_hash IS NULL`` SQLite chose the token index and read every free seat of
    every table for each table (0.5 s at start-up with 10,000 tables).
    """
    return exists().where(SeatRow.table_id == TableRow.id, SeatRow.kind == "human",
                          func.coalesce(SeatRow.token_hash, "") == "")


class Store:
    """The database behind a server."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # -- reading ---------------------------------------------------------------------
    def table(self, table_id: str) -> TableInfo | None:
        with Session(self.engine) as s:
            row = s.get(TableRow, table_id)
            return None if row is None else self._table_info(s, row)

    def lobby(self, limit: int, before: float | None = None) -> list[TableInfo]:
        """Open listed tables with a free seat, newest first: at most ``limit``, created
        before ``before`` when given (the next page starts where the last one ended).
        One query for the tables and one for their seats, however many there are."""
        free = _free_seat()
        with Session(self.engine) as s:
            q = (select(TableRow)
                 .where(TableRow.closed_at.is_(None), TableRow.listed.is_(True), free)
                 .order_by(TableRow.created_at.desc()).limit(limit))
            if before is not None:
                q = q.where(TableRow.created_at < before)
            return self._table_infos(s, list(s.scalars(q)))

    def live_tables(self, limit: int) -> list[TableInfo]:
        """Listed open tables whose match is being played, newest match first (what
        the Watch page offers to spectate)."""
        with Session(self.engine) as s:
            q = (select(TableRow).join(MatchRow, MatchRow.id == TableRow.current_match)
                 .where(TableRow.listed.is_(True), TableRow.closed_at.is_(None),
                        MatchRow.finished_at.is_(None))
                 .order_by(MatchRow.created_at.desc()).limit(limit))
            return self._table_infos(s, list(s.scalars(q)))

    def tables_to_resume(self) -> list[TableInfo]:
        """The open tables that need an actor now: a match in play with a bot seat or a
        turn timer, or every seat taken and no match yet (a crash between the two).
        A table that only waits for people is loaded when someone asks for it."""
        playing = select(MatchRow.id).where(MatchRow.finished_at.is_(None))
        bot = exists().where(SeatRow.table_id == TableRow.id, SeatRow.kind == "bot")
        free = _free_seat()
        needs = (TableRow.closed_at.is_(None),
                 or_(TableRow.current_match.in_(playing),
                     and_(TableRow.current_match.is_(None), ~free)))
        with Session(self.engine) as s:
            infos = self._table_infos(s, list(s.scalars(select(TableRow).where(*needs))))
            with_bot = set(s.scalars(select(TableRow.id).where(*needs, bot)))
        return [t for t in infos
                if t.current_match is None or t.id in with_bot
                or t.options.turn_timer_s]

    def open_tables(self, creator: str | None) -> OpenTables:
        """The counts the table limits are checked against (see :class:`OpenTables`)."""
        human = exists().where(SeatRow.table_id == TableRow.id, SeatRow.kind == "human")
        playing = select(MatchRow.id).where(MatchRow.finished_at.is_(None))
        # open: not closed, and waiting for players or in play (a finished table
        # closes within ``finished_ttl_s`` and costs nothing meanwhile)
        is_open = and_(TableRow.closed_at.is_(None),
                       or_(TableRow.current_match.is_(None), TableRow.current_match.in_(playing)))
        bots_only = and_(is_open, ~human)
        mine = TableRow.creator == creator
        with Session(self.engine) as s:
            def count(*where: Any) -> int:
                return int(s.scalar(select(func.count()).select_from(TableRow).where(*where))
                           or 0)

            return OpenTables(count(is_open), count(is_open, mine) if creator else 0,
                              count(bots_only), count(bots_only, mine) if creator else 0)

    def close_expired(self, now: float, finished_ttl: float, waiting_ttl: float,
                      stalled_ttl: float) -> list[str]:
        """Close the tables whose match ended ``finished_ttl`` seconds ago, that waited
        ``waiting_ttl`` for players, or where nobody moved for ``stalled_ttl``; returns
        their ids. Their matches and records stay."""
        last_move = (select(EventRow.match_id, func.max(EventRow.created_at).label("at"))
                     .group_by(EventRow.match_id).subquery())
        with Session(self.engine) as s, s.begin():
            finished = select(MatchRow.id).where(MatchRow.finished_at < now - finished_ttl)
            stalled = (select(MatchRow.id)
                       .outerjoin(last_move, last_move.c.match_id == MatchRow.id)
                       .where(MatchRow.finished_at.is_(None),
                              func.coalesce(last_move.c.at, MatchRow.created_at)
                              < now - stalled_ttl))
            ids = list(s.scalars(select(TableRow.id).where(
                TableRow.closed_at.is_(None),
                or_(TableRow.current_match.in_(finished),
                    and_(TableRow.current_match.is_(None),
                         TableRow.created_at < now - waiting_ttl),
                    TableRow.current_match.in_(stalled)))))
            for i in range(0, len(ids), 500):  # under every database's parameter limit
                # the creator's address hash served the per-address limits of open
                # tables only: it is not kept
                s.execute(update(TableRow).where(TableRow.id.in_(ids[i:i + 500]))
                          .values(closed_at=now, creator=None))
            return ids

    def tables_of_tokens(self, token_hashes: list[str]) -> list[tuple[TableInfo, int]]:
        """The tables where one of these token hashes holds a seat, with the seat."""
        if not token_hashes:
            return []
        with Session(self.engine) as s:
            rows = list(s.scalars(select(SeatRow).where(SeatRow.token_hash.in_(token_hashes))))
            rows += s.scalars(select(SeatRow).join(SeatKeyRow, and_(
                SeatKeyRow.table_id == SeatRow.table_id, SeatKeyRow.seat == SeatRow.seat,
                SeatKeyRow.account_id == SeatRow.account_id))
                .where(SeatKeyRow.token_hash.in_(token_hashes)))
            out = []
            for r in rows:
                t = s.get(TableRow, r.table_id)
                if t is not None:
                    out.append((self._table_info(s, t), r.seat))
            return out

    def tables_of_account(self, account_id: str) -> list[tuple[TableInfo, int]]:
        """The tables where ``account_id`` holds a seat, with the seat."""
        with Session(self.engine) as s:
            seats = list(s.scalars(select(SeatRow).where(SeatRow.account_id == account_id)))
            rows = {r.id: r for r in s.scalars(
                select(TableRow).where(TableRow.id.in_([x.table_id for x in seats])))}
            infos = {i.id: i for i in self._table_infos(s, list(rows.values()))}
            return [(infos[x.table_id], x.seat) for x in seats if x.table_id in infos]

    def claim_seats(self, account_id: str, token_hashes: list[str]) -> int:
        """Give ``account_id`` the guests' seats these token hashes hold (a guest who
        signs up or in keeps their tables); a seat of another account stays its own,
        and an account gets one seat a table at most: a table where it sits already
        (the seat of a deleted account whose token it sends, say) gives it none. The
        tokens keep working. Returns how many seats it took."""
        if not token_hashes:
            return 0
        with Session(self.engine) as s, s.begin():
            mine = set(s.scalars(select(SeatRow.table_id)
                                 .where(SeatRow.account_id == account_id)))
            free = s.scalars(select(SeatRow)
                             .where(SeatRow.token_hash.in_(token_hashes[:500]),
                                    SeatRow.account_id.is_(None))
                             .order_by(SeatRow.table_id, SeatRow.seat))
            taken = 0
            for seat in free:
                if seat.table_id not in mine:
                    seat.account_id = account_id
                    mine.add(seat.table_id)
                    taken += 1
            return taken

    def matches_of_account(self, account_id: str, limit: int | None = None
                           ) -> list[tuple[MatchInfo, int]]:
        """The finished matches an account played, newest first, with its seat."""
        with Session(self.engine) as s:
            q = (select(MatchRow, SeatRow.seat)
                 .join(SeatRow, SeatRow.table_id == MatchRow.table_id)
                 .where(SeatRow.account_id == account_id, MatchRow.finished_at.is_not(None))
                 .order_by(MatchRow.finished_at.desc()))
            if limit is not None:
                q = q.limit(limit)
            return [(_match_info(m), seat) for m, seat in s.execute(q)]

    def quick_tables(self, pool: str, rated: bool = True) -> list[TableInfo]:
        """The quick-play tables of ``pool`` still waiting for players (open, no match
        yet), rated or not: unlisted tables whose options name the pool under ``quick``."""
        with Session(self.engine) as s:
            q = select(TableRow).where(TableRow.closed_at.is_(None),
                                       TableRow.current_match.is_(None),
                                       TableRow.rated.is_(rated), TableRow.listed.is_(False))
            return [i for i in self._table_infos(s, list(s.scalars(q)))
                    if i.options.quick == pool]

    def waiting_quick_tables(self) -> list[TableInfo]:
        """Every quick-play table still waiting for players (their fill is due later)."""
        with Session(self.engine) as s:
            q = select(TableRow).where(TableRow.closed_at.is_(None),
                                       TableRow.current_match.is_(None),
                                       TableRow.listed.is_(False))
            return [i for i in self._table_infos(s, list(s.scalars(q))) if i.options.quick]

    def fill_free_seats(self, table_id: str, bot: str) -> int:
        """Give every free human seat of an open table to a bot of kind ``bot``;
        returns how many. A seat taken meanwhile stays its person's."""
        with Session(self.engine) as s, s.begin():
            res = s.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.kind == "human",
                       SeatRow.token_hash.is_(None),
                       SeatRow.table_id.in_(select(TableRow.id).where(
                           TableRow.id == table_id, TableRow.closed_at.is_(None))))
                .values(kind="bot", bot=bot, name=None))
            return int(res.rowcount)  # type: ignore[attr-defined]

    def seat_of_token(self, table_id: str, token: str) -> int | None:
        """The seat ``token`` holds at ``table_id``: a seat's own token, or a key
        another browser of the seat's account was given (:meth:`add_seat_key`)."""
        digest = hash_token(token)
        with Session(self.engine) as s:
            row = s.scalar(
                select(SeatRow).where(SeatRow.table_id == table_id, SeatRow.token_hash == digest)
            )
            if row is None:
                # a key works only while its seat is still its account's
                row = s.scalar(select(SeatRow).join(SeatKeyRow, and_(
                    SeatKeyRow.table_id == SeatRow.table_id, SeatKeyRow.seat == SeatRow.seat,
                    SeatKeyRow.account_id == SeatRow.account_id))
                    .where(SeatKeyRow.table_id == table_id, SeatKeyRow.token_hash == digest))
            return None if row is None else row.seat

    def add_seat_key(self, table_id: str, account_id: str, token_hash: str) -> int | None:
        """Give another browser of ``account_id`` a key to its seat at ``table_id``
        (kept as the hash of the key); returns the seat, or None when the account
        holds no seat there."""
        with Session(self.engine) as s, s.begin():
            row = s.scalar(select(SeatRow).where(SeatRow.table_id == table_id,
                                                 SeatRow.account_id == account_id))
            if row is None:
                return None
            s.add(SeatKeyRow(token_hash=token_hash, table_id=table_id, seat=row.seat,
                             account_id=account_id, created_at=time.time()))
            return row.seat

    def match(self, match_id: str) -> MatchInfo | None:
        with Session(self.engine) as s:
            row = s.get(MatchRow, match_id)
            return None if row is None else _match_info(row)

    def matches(self, table_id: str) -> list[MatchInfo]:
        with Session(self.engine) as s:
            q = select(MatchRow).where(MatchRow.table_id == table_id).order_by(MatchRow.number)
            return [_match_info(r) for r in s.scalars(q)]

    def finished_matches(self, table_ids: list[str] | None, limit: int = 100) -> list[MatchInfo]:
        """Finished matches, newest first (of ``table_ids`` or of every listed table)."""
        with Session(self.engine) as s:
            q = select(MatchRow).where(MatchRow.finished_at.is_not(None))
            if table_ids is None:
                listed = select(TableRow.id).where(TableRow.listed.is_(True))
                q = q.where(MatchRow.table_id.in_(listed))
            else:
                q = q.where(MatchRow.table_id.in_(table_ids))
            q = q.order_by(MatchRow.finished_at.desc()).limit(limit)
            return [_match_info(r) for r in s.scalars(q)]

    def events(self, match_id: str) -> list[EventInfo]:
        with Session(self.engine) as s:
            q = select(EventRow).where(EventRow.match_id == match_id).order_by(EventRow.seq)
            return [
                EventInfo(r.seq, r.seat, r.action, r.source, r.client_id, r.created_at)
                for r in s.scalars(q)
            ]

    def chat(self, match_id: str, limit: int = CHAT_HISTORY
             ) -> list[tuple[int, str, str, float]]:
        """The last ``limit`` chat messages of a match, oldest first:
        ``(seat, kind, text, at)``."""
        with Session(self.engine) as s:
            rows = list(s.scalars(select(ChatRow).where(ChatRow.match_id == match_id)
                                  .order_by(ChatRow.id.desc()).limit(limit)))
        return [(r.seat, r.kind, r.text, r.created_at) for r in reversed(rows)]

    # -- writing ---------------------------------------------------------------------
    def add_chat(self, match_id: str, seat: int, kind: str, text: str, at: float) -> None:
        """Store one chat message or reaction with its match."""
        with Session(self.engine) as s, s.begin():
            s.add(ChatRow(match_id=match_id, seat=seat, kind=kind, text=text, created_at=at))

    def report_chat(self, table_id: str, match_id: str, seat: int, at: float,
                    reporter_seat: int, author: str | None) -> int | None:
        """Keep the chat message ``seat`` sent at ``at`` in this match for the operator,
        reported by ``reporter_seat``; returns the report's number (the same one when
        the seat reports it again), or None when there is no such message."""
        with Session(self.engine) as s, s.begin():
            row = s.scalar(select(ChatRow).where(ChatRow.match_id == match_id,
                                                 ChatRow.seat == seat,
                                                 ChatRow.created_at == at))
            if row is None:
                return None
            known = s.scalar(select(ReportRow.id).where(ReportRow.chat_id == row.id,
                                                        ReportRow.reporter_seat == reporter_seat))
            if known is not None:
                return int(known)
            report = ReportRow(chat_id=row.id, table_id=table_id, match_id=match_id,
                               seat=seat, author=author, text=row.text,
                               reporter_seat=reporter_seat, created_at=time.time())
            s.add(report)
            s.flush()
            return int(report.id)

    def reports(self) -> list[ReportInfo]:
        """Every report the operator has not removed, oldest first."""
        with Session(self.engine) as s:
            return [ReportInfo(r.id, r.table_id, r.match_id, r.seat, r.author, r.text,
                               r.reporter_seat, r.created_at)
                    for r in s.scalars(select(ReportRow).order_by(ReportRow.id))]

    def remove_report(self, report_id: int) -> bool:
        """Remove a report (the operator dealt with it); False when there is none."""
        with Session(self.engine) as s, s.begin():
            row = s.get(ReportRow, report_id)
            if row is None:
                return False
            s.delete(row)
            return True

    def create_table(
        self, options: TableSetup, seats: list[SeatInfo], listed: bool,
        creator: str | None = None, rated: bool = False,
    ) -> TableInfo:
        table_id = new_id()
        with Session(self.engine) as s, s.begin():
            s.add(
                TableRow(
                    id=table_id,
                    created_at=time.time(),
                    options=options.to_json(),
                    invite_code=new_id(12),
                    spectate_code=new_id(12),
                    listed=listed,
                    current_match=None,
                    creator=creator,
                    rated=rated,
                )
            )
            s.flush()
            for seat in seats:
                s.add(
                    SeatRow(
                        table_id=table_id,
                        seat=seat.seat,
                        kind=seat.kind,
                        bot=seat.bot,
                        name=seat.name,
                        token_hash=seat.token_hash,
                        joined_at=time.time() if seat.token_hash else None,
                    )
                )
        info = self.table(table_id)
        if info is None:
            raise StoreError("missing", f"table {table_id} vanished as it was created")
        return info

    def take_seat(self, table_id: str, seat: int, name: str, token_hash: str,
                  account_id: str | None = None) -> None:
        """Give a free human seat to ``name`` (of ``account_id``, or a guest); the
        database decides races."""
        with Session(self.engine) as s, s.begin():
            res = s.execute(
                update(SeatRow)
                .where(
                    SeatRow.table_id == table_id,
                    SeatRow.seat == seat,
                    SeatRow.kind == "human",
                    SeatRow.token_hash.is_(None),
                    SeatRow.table_id.in_(select(TableRow.id).where(
                        TableRow.id == table_id, TableRow.closed_at.is_(None))),
                )
                .values(name=name, token_hash=token_hash, joined_at=time.time(),
                        account_id=account_id)
            )
            if res.rowcount != 1:  # type: ignore[attr-defined]
                raise StoreError("taken", f"seat {seat} is not free")

    def start_match(self, table_id: str, number: int, config: dict[str, Any]) -> MatchInfo:
        """Create match ``number`` of a table; only one writer can create each number."""
        match_id = new_id()
        try:
            with Session(self.engine) as s, s.begin():
                table = s.get(TableRow, table_id)
                if table is not None and table.closed_at is not None:
                    raise StoreError("closed", "this table has closed")
                s.add(
                    MatchRow(
                        id=match_id,
                        table_id=table_id,
                        number=number,
                        config=config,
                        created_at=time.time(),
                    )
                )
                s.flush()
                s.execute(
                    update(TableRow).where(TableRow.id == table_id).values(current_match=match_id)
                )
        except IntegrityError:
            raise StoreError("conflict", f"match {number} of this table already exists") from None
        info = self.match(match_id)
        if info is None:
            raise StoreError("missing", f"match {match_id} vanished as it was created")
        return info

    def append_event(
        self,
        match_id: str,
        seq: int,
        seat: int,
        action: str,
        source: str,
        client_id: str | None,
        created_at: float,
        result: dict[str, Any] | None = None,
    ) -> None:
        """Store accepted action number ``seq`` (1-based); raises StoreError("conflict")
        when another writer already stored that number.

        ``result`` is given with the last action of a match: the action and the match's
        result are then stored in one transaction, so no crash can leave a match whose
        last card is stored but which is not finished.
        """
        event = EventInfo(seq, seat, action, source, client_id, created_at)
        self.append_events([NewEvent(match_id, event, result)])

    def append_events(self, events: list[NewEvent]) -> None:
        """Store several accepted actions (of different matches) in one transaction:
        all or none. Raises StoreError("conflict") when another writer already stored
        one of their numbers; then nothing of the batch is stored.

        A match's result is stored in the same transaction as its last action.
        """
        if not events:
            return
        # a Core insert, not the ORM: this runs once per action (profiled, see
        # docs/benchmarks.md) and the unit of work cost more than the write itself
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    _INSERT_EVENT,
                    [{"match_id": e.match_id, "seq": e.event.seq, "seat": e.event.seat,
                      "action": e.event.action, "source": e.event.source,
                      "client_id": e.event.client_id, "created_at": e.event.created_at}
                     for e in events],
                )
                for e in events:
                    if e.result is not None:
                        # after the events: a conflict raises first and finishes nothing
                        conn.execute(
                            update(MatchRow)
                            .where(MatchRow.id == e.match_id)
                            .values(finished_at=e.event.created_at, result=e.result)
                        )
        except IntegrityError:
            numbers = ", ".join(str(e.event.seq) for e in events)
            raise StoreError("conflict", f"action {numbers} of this match is already "
                                         "taken") from None

    # -- helpers -----------------------------------------------------------------------
    @classmethod
    def _table_infos(cls, s: Session, rows: list[TableRow]) -> list[TableInfo]:
        by_table: dict[str, list[SeatRow]] = {r.id: [] for r in rows}
        for i in range(0, len(rows), 500):  # under every database's parameter limit
            ids = [r.id for r in rows[i:i + 500]]
            q = select(SeatRow).where(SeatRow.table_id.in_(ids)).order_by(SeatRow.seat)
            for seat in s.scalars(q):
                by_table[seat.table_id].append(seat)
        return [cls._info_of(r, by_table[r.id]) for r in rows]

    @classmethod
    def _table_info(cls, s: Session, row: TableRow) -> TableInfo:
        seats = s.scalars(
            select(SeatRow).where(SeatRow.table_id == row.id).order_by(SeatRow.seat)
        )
        return cls._info_of(row, list(seats))

    @staticmethod
    def _info_of(row: TableRow, seats: list[SeatRow]) -> TableInfo:
        return TableInfo(
            id=row.id,
            created_at=row.created_at,
            options=TableSetup.from_json(row.options),
            invite_code=row.invite_code,
            spectate_code=row.spectate_code,
            listed=row.listed,
            current_match=row.current_match,
            seats=tuple(SeatInfo(r.seat, r.kind, r.bot, r.name, r.token_hash, r.account_id)
                        for r in seats),
            closed_at=row.closed_at,
            rated=row.rated,
            creator=row.creator,
        )


def _match_info(row: MatchRow) -> MatchInfo:
    return MatchInfo(
        id=row.id,
        table_id=row.table_id,
        number=row.number,
        config=dict(row.config),
        created_at=row.created_at,
        finished_at=row.finished_at,
        result=None if row.result is None else dict(row.result),
    )
