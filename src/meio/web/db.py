"""The database schema (SQLAlchemy 2) and how to open and migrate a database.

The game is event-sourced: a match is its secret configuration plus the ordered
list of accepted actions in ``meio_events``. The primary key ``(match_id, seq)``
makes the database itself serialise two actions racing for the same table: the
insert of sequence number N+1 succeeds only once.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Integer,
    LargeBinary,
    String,
    UniqueConstraint,
    create_engine,
    event,
    false,
    text,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from meio.web.background import Background

log = logging.getLogger("meio.web")

MIGRATIONS = Path(__file__).with_name("migrations")


class Base(DeclarativeBase):
    """Declarative base of the web server's tables."""


class TableRow(Base):
    """A table: its options, its seats (in :class:`SeatRow`) and its matches."""

    __tablename__ = "meio_tables"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[float] = mapped_column(Float)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    invite_code: Mapped[str] = mapped_column(String(64))
    spectate_code: Mapped[str] = mapped_column(String(64))
    listed: Mapped[bool] = mapped_column(Boolean, default=True)
    current_match: Mapped[str | None] = mapped_column(String(32), nullable=True)
    #: when the table closed (its match over, or nobody came or moved for long): a
    #: closed table takes no players; its matches stay in the history
    closed_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: a hash of the client address that created it, for the per-address limits of
    #: open tables (cleared when the table closes)
    creator: Mapped[str | None] = mapped_column(String(16), nullable=True)
    #: a rated table: its finished matches change the ratings of who played
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class SeatRow(Base):
    """One seat of a table: a bot, a free human seat, or a taken one."""

    __tablename__ = "meio_seats"
    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("meio_tables.id"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    bot: Mapped[str | None] = mapped_column(String(32), nullable=True)
    name: Mapped[str | None] = mapped_column(String(40), nullable=True)
    #: SHA-256 of the seat token; the token itself is never stored
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    joined_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: the account of the person in the seat (None: a guest, a bot or a free seat); the
    #: seat token works as well with it as without
    account_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)


class MatchRow(Base):
    """One match played at a table (a rematch is a new row)."""

    __tablename__ = "meio_matches"
    __table_args__ = (UniqueConstraint("table_id", "number"),)
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("meio_tables.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    #: engine.wire.config_json(config), seed included: never sent to a client
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[float] = mapped_column(Float)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


class LeaseRow(Base):
    """Which server process runs a table's bots and turn timer, and until when.

    A holder renews its leases every few seconds; a lease whose ``expires_at`` has
    passed may be taken by any other process (see :mod:`meio.web.lease`).
    """

    __tablename__ = "meio_leases"
    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    holder: Mapped[str] = mapped_column(String(96))
    expires_at: Mapped[float] = mapped_column(Float, index=True)


class EventRow(Base):
    """One accepted action: committed before anyone hears of it."""

    __tablename__ = "meio_events"
    match_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("meio_matches.id"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(80))
    #: who made the move: "human", "bot" or "timeout" (a bot playing for a late seat)
    source: Mapped[str] = mapped_column(String(8))
    client_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[float] = mapped_column(Float)


#: the longest chat message, in characters (:mod:`meio.web.chat` checks it)
CHAT_MAX_CHARS = 200


class ChatRow(Base):
    """One chat message or reaction, kept with its match."""

    __tablename__ = "meio_chat"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("meio_matches.id"), index=True
    )
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8))
    text: Mapped[str] = mapped_column(String(CHAT_MAX_CHARS * 4))
    created_at: Mapped[float] = mapped_column(Float)


class ReportRow(Base):
    """A chat message a player reported, kept for the operator (``meio admin``)
    with what it said and who wrote it then, until the operator removes the report."""

    __tablename__ = "meio_reports"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    chat_id: Mapped[int] = mapped_column(Integer, ForeignKey("meio_chat.id"), index=True)
    table_id: Mapped[str] = mapped_column(String(32))
    match_id: Mapped[str] = mapped_column(String(32))
    seat: Mapped[int] = mapped_column(Integer)
    author: Mapped[str | None] = mapped_column(String(40), nullable=True)
    text: Mapped[str] = mapped_column(String(CHAT_MAX_CHARS * 4))
    reporter_seat: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[float] = mapped_column(Float)


class AccountRow(Base):
    """A player's account: a username and an Argon2id hash of the password (the
    password itself is never stored)."""

    __tablename__ = "meio_accounts"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    #: as the player wrote it, and case-folded (unique: ``Ana`` and ``ana`` are one)
    username: Mapped[str] = mapped_column(String(24))
    username_key: Mapped[str] = mapped_column(String(24), unique=True)
    #: Unicode's confusable skeleton of the name (unique: ``ana`` and Cyrillic ``аna``
    #: are one); empty for an account that looked like an older one before the
    #: skeletons were kept (migration ``0012_username_skeletons``)
    username_skeleton: Mapped[str | None] = mapped_column(String(192), nullable=True,
                                                           unique=True, index=True)
    password_hash: Mapped[str] = mapped_column(String(256))
    created_at: Mapped[float] = mapped_column(Float)


class SessionRow(Base):
    """A signed-in browser: the SHA-256 of its session cookie (never the cookie)."""

    __tablename__ = "meio_sessions"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("meio_accounts.id"), index=True
    )
    created_at: Mapped[float] = mapped_column(Float)


class PasskeyRow(Base):
    """A passkey (WebAuthn credential) of an account: its id, public key and the
    signature count last seen (no private key ever reaches the server)."""

    __tablename__ = "meio_passkeys"
    #: the credential id, base64url
    id: Mapped[str] = mapped_column(String(1400), primary_key=True)
    account_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("meio_accounts.id"), index=True
    )
    public_key: Mapped[bytes] = mapped_column(LargeBinary)
    sign_count: Mapped[int] = mapped_column(BigInteger)
    #: what the browser said the authenticator speaks through (``internal,hybrid``)
    transports: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[float] = mapped_column(Float)
    last_used_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class PasskeyChallengeRow(Base):
    """A WebAuthn challenge waiting for its answer: single-use (deleted when it is
    answered) and short-lived. ``attempt`` is the SHA-256 of the random value of the
    browser's ``meio_webauthn`` cookie, so only the browser that asked can answer;
    a registration's is bound to the session that asked too."""

    __tablename__ = "meio_passkey_challenges"
    attempt: Mapped[str] = mapped_column(String(64), primary_key=True)
    #: ``register`` or ``sign_in``
    purpose: Mapped[str] = mapped_column(String(16))
    challenge: Mapped[bytes] = mapped_column(LargeBinary)
    session_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[float] = mapped_column(Float, index=True)


class RatingRow(Base):
    """A player's rating in one pool (``meio.ratings.Pool.key``); the player is an
    account id, or ``bot:KIND`` for a bot level."""

    __tablename__ = "meio_ratings"
    pool: Mapped[str] = mapped_column(String(24), primary_key=True)
    player: Mapped[str] = mapped_column(String(40), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    #: ``mu - 3 sigma``, kept for the leaderboard's order
    ordinal: Mapped[float] = mapped_column(Float, index=True)
    #: raised by one at every change: an update names the version it read and is
    #: refused when another changed the row meanwhile (:mod:`meio.web.rated`)
    version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class RatingChangeRow(Base):
    """A player's rating after a rated match. The key ``(match_id, player)`` makes a
    match's update happen once, however often its end is replayed."""

    __tablename__ = "meio_rating_changes"
    match_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("meio_matches.id"), primary_key=True
    )
    player: Mapped[str] = mapped_column(String(40), primary_key=True, index=True)
    seat: Mapped[int] = mapped_column(Integer)
    pool: Mapped[str] = mapped_column(String(24))
    rank: Mapped[int] = mapped_column(Integer)
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[float] = mapped_column(Float)



class SeatKeyRow(Base):
    """A further key to an account's seat: what another browser of the same signed-in
    player holds (the SHA-256, as of a seat token). It acts for the seat only while
    the seat is still the account's."""

    __tablename__ = "meio_seat_keys"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("meio_tables.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    account_id: Mapped[str] = mapped_column(String(32), index=True)
    created_at: Mapped[float] = mapped_column(Float)


class FollowRow(Base):
    """One account following another (by name, from the Friends page)."""

    __tablename__ = "meio_follows"
    follower: Mapped[str] = mapped_column(
        String(32), ForeignKey("meio_accounts.id"), primary_key=True)
    followed: Mapped[str] = mapped_column(
        String(32), ForeignKey("meio_accounts.id"), primary_key=True, index=True)
    created_at: Mapped[float] = mapped_column(Float)


class InvitationRow(Base):
    """An invitation to a table, sent by name to an account: it waits among that
    account's notifications until it is answered or the table closes."""

    __tablename__ = "meio_invitations"
    __table_args__ = (UniqueConstraint("to_account", "table_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    to_account: Mapped[str] = mapped_column(
        String(32), ForeignKey("meio_accounts.id"), index=True)
    from_account: Mapped[str] = mapped_column(String(32), ForeignKey("meio_accounts.id"))
    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("meio_tables.id"))
    created_at: Mapped[float] = mapped_column(Float)


class PresenceRow(Base):
    """When an account last had a page of the site open (who of one's friends is online)."""

    __tablename__ = "meio_presence"
    account_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("meio_accounts.id"), primary_key=True)
    seen_at: Mapped[float] = mapped_column(Float)

def open_engine(url: str) -> Engine:
    """A SQLAlchemy engine for ``url``; SQLite files get WAL and a busy timeout."""
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA foreign_keys=ON")
            # FULL: a commit survives a power cut too, not only a crash of this process,
            # so "stored before broadcast" holds whatever stops the machine
            cur.execute("PRAGMA synchronous=FULL")
            # no checkpoint inside a commit: SQLite runs one in whichever commit finds
            # the log past 1,000 pages, and that commit, and every action the writer
            # batched behind it, would wait for its writes and the fsync of the
            # database file. A Checkpointer does it aside
            cur.execute("PRAGMA wal_autocheckpoint=0")
            cur.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


class Checkpointer(Background):
    """Copies an SQLite file's write-ahead log into the database every ``every_s``
    seconds, in a thread of its own, so that no commit waits for it (the connections
    of :func:`open_engine` never checkpoint). A passive checkpoint waits for nobody:
    commits go on meanwhile, and what it could not copy is copied the next time.
    Nothing to do on other databases.

    >>> Checkpointer(open_engine("sqlite://"), 1.0).needed
    True
    """

    def __init__(self, engine: Engine, every_s: float = 1.0) -> None:
        self.engine = engine
        self.every_s = every_s
        self.needed = engine.dialect.name == "sqlite"
        #: (pages in the log, pages copied) of the last checkpoint
        self.last: tuple[int, int] = (0, 0)

    def checkpoint(self) -> tuple[int, int]:
        """One passive checkpoint now: (pages in the log, pages copied)."""
        with self.engine.connect() as conn:
            row = conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)").one()
        self.last = (int(row[1]), int(row[2]))
        return self.last

    def start(self) -> None:
        if self.needed:
            super().start()

    async def run(self) -> None:
        while True:
            await asyncio.sleep(self.every_s)
            try:
                await asyncio.to_thread(self.checkpoint)
            except Exception:  # the database is away a moment: the next one will do
                log.warning("an SQLite checkpoint failed; trying again", exc_info=True)


#: the key of the PostgreSQL advisory lock held while migrating ("meio" in ASCII)
MIGRATION_LOCK = 0x6D65696F


def schema_head() -> str:
    """The revision of the newest schema the shipped migrations make (what
    :func:`migrate` brings a database to)."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory(str(MIGRATIONS)).get_current_head()
    assert head is not None, "the shipped migrations have one head"
    return head


def migrate(engine: Engine, revision: str = "head") -> None:
    """Bring the database to the newest schema with the Alembic migrations shipped
    in this package.

    On PostgreSQL the migrations run under a transaction-scoped advisory lock, so
    replicas started together on an empty database take turns: the first creates
    the schema, the others wait, then find it up to date. (SQLite serialises the
    writers itself.) ``revision`` stops at an older schema (the migration tests).
    """
    from alembic import command
    from alembic.config import Config

    cfg = Config(str(Path(__file__).with_name("alembic.ini")))
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)
