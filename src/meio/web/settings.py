"""Typed settings of the web server."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path


def default_database_url() -> str:
    """``DATABASE_URL`` when set, else an SQLite file under the user's data directory."""
    env = os.environ.get("DATABASE_URL")
    if env:
        return normalise_url(env)
    import platformdirs

    folder = Path(platformdirs.user_data_dir("meio"))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'meio.db'}"


def normalise_url(url: str) -> str:
    """A SQLAlchemy URL for ``url``: a plain path is an SQLite file, and PostgreSQL
    URLs use the psycopg 3 driver."""
    if "://" not in url:
        return f"sqlite:///{Path(url).expanduser().resolve()}"
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


@dataclass(frozen=True, slots=True)
class Settings:
    """What one server needs to know.

    ``bot_delay_s`` is the pause before each bot move, so that people can follow the
    play; ``allow_seeds`` lets a table be created with a fixed deal seed (tests and
    reproducible demos only: whoever knows the seed knows every deal).
    """

    database_url: str
    bot_delay_s: float = 0.7
    allow_seeds: bool = False
    min_turn_timer_s: float = 5.0
    max_turn_timer_s: float = 3600.0
    max_message_bytes: int = 4096
    #: the largest variant file (TOML text) a table may be created with
    max_variant_bytes: int = 16384
    advice_budget_s: float = 1.0
    #: answers to rejected messages kept per table (a resent one gets the same answer)
    max_remembered_rejects: int = 256
    #: pause before a bot or timer task that failed is tried again
    task_retry_s: float = 1.0
    #: origins (``https://example.org``) besides the server's own whose pages may open
    #: a WebSocket; a connection that sends no ``Origin`` (a bot, a script) is let in
    allowed_origins: tuple[str, ...] = ()
    #: messages one connection may send: ``message_burst`` at once, then this many a second
    message_rate: float = 20.0
    message_burst: int = 60
    #: seat joins (and table creations) one client address may make: a burst, then a rate
    join_rate_per_min: float = 20.0
    join_burst: int = 20
    #: hellos with a wrong seat token or spectator code one address may send
    bad_hello_rate_per_min: float = 10.0
    bad_hello_burst: int = 10
    #: load the compiled simulation core in the background at start-up, so that the
    #: first search-bot move never waits for numba (``meio serve`` turns this on)
    warm_core: bool = False
    #: seconds a table lease lasts unrenewed: how long the bots of a table whose
    #: server died wait before another server takes them over
    lease_ttl_s: float = 6.0
    #: seconds after which a table nobody uses is dropped from memory
    evict_after_s: float = 120.0
    #: where bots think and the advisor works (:mod:`meio.web.think`): this many
    #: worker processes at ``think_nice``, or with 0 this many threads of their own
    think_processes: int = 0
    think_threads: int = 2
    think_nice: int = 10
    #: requests for split advice per seat: a burst, then a rate (one in flight a seat)
    advice_rate_per_min: float = 12.0
    advice_burst: int = 4
    #: hellos with a wrong seat token or spectator code tried on one table (from any
    #: address); a right token or code always gets in
    bad_hello_table_rate_per_min: float = 60.0
    bad_hello_table_burst: int = 30
    #: tables where only bots play (no human seat) in play at once: on the whole
    #: database, and created from one client address
    max_bot_tables: int = 8
    max_bot_tables_per_address: int = 2
    #: open tables (waiting for players or in play) on the whole database, and
    #: created from one client address
    max_open_tables: int = 5000
    max_open_tables_per_address: int = 40
    #: seconds after which a table closes (its records stay in the history): once its
    #: match is over, while it waits for players, and when nobody has moved
    finished_ttl_s: float = 3600.0
    waiting_ttl_s: float = 86400.0
    stalled_ttl_s: float = 7 * 86400.0
    #: tables in one page of the lobby
    lobby_page: int = 50
    #: open WebSockets (players and spectators): in all, per client address, per table
    max_sockets: int = 4000
    max_sockets_per_address: int = 64
    max_sockets_per_table: int = 200
    #: a client that reconnects at most this many actions behind gets them as events;
    #: further behind (or over its address's budget) it gets one snapshot
    max_resume_events: int = 32
    resume_rate_per_min: float = 60.0
    resume_burst: int = 20
    #: ``/api/mine`` and ``/api/history`` (up to 200 tokens each) per client address
    lookup_rate_per_min: float = 30.0
    lookup_burst: int = 10
    #: (``meio serve``) seconds a connection has to send its request headers; TCP
    #: connections open in all (capped under the open-files limit) and HTTP ones
    #: being read from one peer address (the trusted proxy is not capped)
    header_timeout_s: float = 10.0
    max_tcp_connections: int = 4096
    max_tcp_per_address: int = 256
    #: serve the Swagger UI at ``/api/docs`` (its script and styles are served from
    #: this server, never a CDN)
    api_docs: bool = False
    #: show the process name and its table count on ``/readyz``
    readyz_details: bool = False
    #: turn-based tables (played over days): the bounds of their turn timer
    min_turn_based_s: float = 3600.0
    max_turn_based_s: float = 3 * 86400.0
    #: quick play: the turn timer of its tables (strangers wait for no one for long),
    #: and the waits a player may choose before bots fill the empty seats
    quick_turn_timer_s: float = 60.0
    #: rated tables: the turn timer of one made without one (every rated table has a
    #: timer: a player who leaves forfeits the rest of the match to the bot)
    rated_turn_timer_s: float = 60.0
    #: seconds a seat of a rated table that has left (its last move was its timer's)
    #: is given for each later turn before the bot plays it, until it acts again
    away_turn_s: float = 1.0
    #: quick-play seats one account may hold at tables waiting or in play
    max_quick_seats: int = 2
    quick_min_wait_s: float = 5.0
    quick_max_wait_s: float = 300.0
    #: seconds a sign-in lasts (the session cookie's age)
    session_ttl_s: float = 30 * 86400.0
    #: sign-in and sign-up attempts: per client address, and sign-ins per account
    #: (a burst, then a rate), whether the password was right or not
    login_rate_per_min: float = 10.0
    login_burst: int = 10
    #: wrong passwords an address may send for one account before each next one
    #: waits 1 s, 2 s, 4 s... (per address for all accounts: 20 free)
    login_free_failures: int = 3
    #: the least strength (zxcvbn's score, 0 to 4) of a new password
    min_password_score: int = 3
    #: the address players reach the server at (``https://meio.example.org``), when a
    #: proxy stands in front: passkeys belong to its host name, and an ``https`` one
    #: makes the cookies ``Secure``; None: the origin each request came to
    public_origin: str | None = None
    #: seconds a passkey challenge waits for the authenticator's answer
    passkey_challenge_ttl_s: float = 120.0
    #: (``meio serve``) milliseconds a thread may hold the interpreter lock while
    #: another waits (Python's default is 5): the writer's commits wait this long for
    #: the event loop at each step (see ``meio.cli.serve.tune_interpreter``)
    switch_interval_ms: float = 0.5
    #: (``meio serve``) seconds between two freezes of the heap, and between two full
    #: collections of it (0: never): see :mod:`meio.web.collector`
    gc_freeze_every_s: float = 1.0
    gc_sweep_every_s: float = 900.0

    @property
    def secure_cookies(self) -> bool:
        """Whether the public origin is TLS (a request over TLS gets them anyway)."""
        return (self.public_origin or "").startswith("https://")

    @classmethod
    def from_env(cls, database_url: str | None = None) -> Settings:
        """Settings from the environment (``DATABASE_URL``, ``MEIO_BOT_DELAY``,
        ``MEIO_ALLOW_SEEDS``, ``MEIO_MIN_TURN_TIMER``, ``MEIO_ALLOWED_ORIGINS`` (comma
        separated), ``MEIO_MESSAGE_RATE``, ``MEIO_JOIN_RATE`` (a minute),
        ``MEIO_BAD_HELLO_RATE`` (a minute), ``MEIO_LEASE_TTL``, ``MEIO_EVICT_AFTER``,
        ``MEIO_THINK_PROCESSES`` (1), ``MEIO_MAX_BOT_TABLES``, ``MEIO_MAX_OPEN_TABLES``,
        ``MEIO_MAX_TABLES_PER_ADDRESS``, ``MEIO_FINISHED_TTL``, ``MEIO_WAITING_TTL``,
        ``MEIO_STALLED_TTL``, ``MEIO_MAX_SOCKETS``, ``MEIO_MAX_SOCKETS_PER_ADDRESS``,
        ``MEIO_MAX_SOCKETS_PER_TABLE``, ``MEIO_HEADER_TIMEOUT``, ``MEIO_MAX_TCP_CONNECTIONS``,
        ``MEIO_MAX_TCP_PER_ADDRESS``, ``MEIO_API_DOCS``, ``MEIO_READYZ_DETAILS``,
        ``MEIO_SESSION_TTL``, ``MEIO_LOGIN_RATE`` (a minute), ``MEIO_RATED_TURN_TIMER``,
        ``MEIO_QUICK_TURN_TIMER``, ``MEIO_PUBLIC_ORIGIN`` (else :func:`site_origin` of
        ``MEIO_SITE``), ``MEIO_SWITCH_INTERVAL_MS``,
        ``MEIO_GC_FREEZE_EVERY``, ``MEIO_GC_SWEEP_EVERY``),
        ``database_url`` first; docs/web.md lists them all."""
        return cls(
            database_url=normalise_url(database_url) if database_url else default_database_url(),
            bot_delay_s=float(os.environ.get("MEIO_BOT_DELAY", "0.7")),
            allow_seeds=os.environ.get("MEIO_ALLOW_SEEDS", "") in ("1", "true", "yes"),
            min_turn_timer_s=float(os.environ.get("MEIO_MIN_TURN_TIMER", "5")),
            warm_core=os.environ.get("MEIO_WARM_CORE", "1") not in ("0", "false", "no"),
            allowed_origins=tuple(
                o.strip().rstrip("/")
                for o in os.environ.get("MEIO_ALLOWED_ORIGINS", "").split(",")
                if o.strip()
            ),
            message_rate=float(os.environ.get("MEIO_MESSAGE_RATE", "20")),
            join_rate_per_min=float(os.environ.get("MEIO_JOIN_RATE", "20")),
            bad_hello_rate_per_min=float(os.environ.get("MEIO_BAD_HELLO_RATE", "10")),
            lease_ttl_s=float(os.environ.get("MEIO_LEASE_TTL", "6")),
            evict_after_s=float(os.environ.get("MEIO_EVICT_AFTER", "120")),
            think_processes=int(os.environ.get("MEIO_THINK_PROCESSES", "1")),
            max_bot_tables=int(os.environ.get("MEIO_MAX_BOT_TABLES", "8")),
            max_open_tables=int(os.environ.get("MEIO_MAX_OPEN_TABLES", "5000")),
            max_open_tables_per_address=int(os.environ.get("MEIO_MAX_TABLES_PER_ADDRESS", "40")),
            finished_ttl_s=float(os.environ.get("MEIO_FINISHED_TTL", "3600")),
            waiting_ttl_s=float(os.environ.get("MEIO_WAITING_TTL", "86400")),
            stalled_ttl_s=float(os.environ.get("MEIO_STALLED_TTL", str(7 * 86400))),
            max_sockets=int(os.environ.get("MEIO_MAX_SOCKETS", "4000")),
            max_sockets_per_address=int(os.environ.get("MEIO_MAX_SOCKETS_PER_ADDRESS", "64")),
            max_sockets_per_table=int(os.environ.get("MEIO_MAX_SOCKETS_PER_TABLE", "200")),
            header_timeout_s=float(os.environ.get("MEIO_HEADER_TIMEOUT", "10")),
            max_tcp_connections=int(os.environ.get("MEIO_MAX_TCP_CONNECTIONS", "4096")),
            max_tcp_per_address=int(os.environ.get("MEIO_MAX_TCP_PER_ADDRESS", "256")),
            api_docs=_flag("MEIO_API_DOCS"),
            readyz_details=_flag("MEIO_READYZ_DETAILS"),
            session_ttl_s=float(os.environ.get("MEIO_SESSION_TTL", str(30 * 86400))),
            quick_turn_timer_s=float(os.environ.get("MEIO_QUICK_TURN_TIMER", "60")),
            rated_turn_timer_s=float(os.environ.get("MEIO_RATED_TURN_TIMER", "60")),
            login_rate_per_min=float(os.environ.get("MEIO_LOGIN_RATE", "10")),
            public_origin=(os.environ.get("MEIO_PUBLIC_ORIGIN", "").strip().rstrip("/")
                           or site_origin(os.environ.get("MEIO_SITE", ""))),
            switch_interval_ms=_positive("MEIO_SWITCH_INTERVAL_MS", "0.5"),
            gc_freeze_every_s=_positive("MEIO_GC_FREEZE_EVERY", "1"),
            gc_sweep_every_s=_at_least_zero("MEIO_GC_SWEEP_EVERY", "900"),
        )


def site_origin(site: str) -> str | None:
    """The public origin a proxy's site address names (``MEIO_SITE``, Caddy's form,
    which compose.yaml gives the proxy and the replicas alike): a host name is served
    over HTTPS (Caddy gets its certificate), a scheme given is kept, and an address
    with no host (``:80``, any name) names no origin. Of several addresses, the first.

    >>> site_origin("play.example.org")
    'https://play.example.org'
    >>> site_origin("http://meio.lan:8080, https://other.example")
    'http://meio.lan:8080'
    >>> site_origin("play.example.org:443"), site_origin("play.example.org:8443")
    ('https://play.example.org', 'https://play.example.org:8443')
    >>> site_origin(":80") is None and site_origin("") is None
    True
    """
    first = site.replace(",", " ").split()
    if not first or first[0].startswith(":"):
        return None
    address = first[0].rstrip("/")
    scheme, sep, rest = address.partition("://")
    if not sep:
        scheme, rest = "https", address
    host, _, port = rest.partition(":")
    if not host or scheme not in ("http", "https"):
        return None
    default = "443" if scheme == "https" else "80"
    return f"{scheme}://{host}" + (f":{port}" if port and port != default else "")


def _positive(name: str, default: str) -> float:
    value = float(os.environ.get(name, default))
    if not 0 < value < math.inf:
        raise ValueError(f"{name} must be a finite number above 0, not {value:g}")
    return value


def _at_least_zero(name: str, default: str) -> float:
    value = float(os.environ.get(name, default))
    if not 0 <= value < math.inf:
        raise ValueError(f"{name} must be a finite number, 0 or more, not {value:g}")
    return value


def _flag(name: str) -> bool:
    return os.environ.get(name, "") in ("1", "true", "yes")
