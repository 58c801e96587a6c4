"""Typed settings of the web server."""

from __future__ import annotations

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

    @classmethod
    def from_env(cls, database_url: str | None = None) -> Settings:
        """Settings from the environment (``DATABASE_URL``, ``MEIO_BOT_DELAY``,
        ``MEIO_ALLOW_SEEDS``, ``MEIO_MIN_TURN_TIMER``, ``MEIO_ALLOWED_ORIGINS`` (comma
        separated), ``MEIO_MESSAGE_RATE``, ``MEIO_JOIN_RATE`` (a minute),
        ``MEIO_BAD_HELLO_RATE`` (a minute)), ``database_url`` first."""
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
        )
