"""Typed settings of the web server: each declared once, with its default, its
environment variable and what it does.

A setting is a field of :class:`Settings` declared with :func:`setting`; everything
else is derived from that declaration: :meth:`Settings.from_env` reads each one's
variable (parsed by the field's type), and :func:`settings_table` writes the table
in docs/deploy.md (``python -m meio.web.settings`` prints it; a test checks that the
docs hold it word for word).

Two settings default differently when the server is served (``meio serve``, or
:meth:`Settings.from_env`) than when a program builds :class:`Settings` itself (the
tests, an embedding program): ``warm_core`` and ``think_processes``, whose
declarations say both (``served=``): a served process warms the compiled core and
thinks in a worker process; one built in code does neither unless asked.

>>> s = Settings.from_env("sqlite://", environ={"MEIO_BOT_DELAY": "0.2"})
>>> s.bot_delay_s, s.think_processes, Settings(database_url="sqlite://").think_processes
(0.2, 1, 0)
>>> Settings.from_env("sqlite://", environ={"MEIO_MAX_SOCKETS": "many"})
Traceback (most recent call last):
...
meio.web.settings.SettingsError: MEIO_MAX_SOCKETS must be a whole number, not 'many'
"""

from __future__ import annotations

import math
import os
import typing
from collections.abc import Callable, Mapping
from dataclasses import Field, dataclass, field, fields
from functools import cache
from pathlib import Path
from typing import Any

from meio.engine import MeioError


class SettingsError(MeioError, ValueError):
    """A setting in the environment that cannot be read: the message names its
    variable, what it must be, and the value given."""


def default_database_url(environ: Mapping[str, str] | None = None) -> str:
    """``DATABASE_URL`` when set, else an SQLite file under the user's data directory."""
    env = (os.environ if environ is None else environ).get("DATABASE_URL")
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


def _origin(text: str) -> str | None:
    return text.strip().rstrip("/") or None


def _origins(text: str) -> tuple[str, ...]:
    return tuple(o.strip().rstrip("/") for o in text.split(",") if o.strip())


def _public_origin(environ: Mapping[str, str]) -> str | None:
    return site_origin(environ.get("MEIO_SITE", ""))


#: a declaration's ``served`` when the served default is the field's own
SAME: Any = type("Same", (), {"__repr__": lambda self: "SAME"})()


@dataclass(frozen=True, slots=True)
class Declared:
    """What a setting's declaration says beside its type and default (a field's
    ``metadata["setting"]``)."""

    #: what the setting does (the docs' table writes it)
    doc: str
    #: its environment variable (None: ``MEIO_`` and the name, less ``_s``/``_per_min``)
    env: str | None = None
    #: the default of a served process (:meth:`Settings.from_env`), when it differs
    served: Any = SAME
    #: the least value of a number; ``above``: the value must be greater than it
    low: float = 0.0
    above: bool = False
    #: how its variable is read, when not by its type
    parse: Callable[[str], Any] | None = None
    #: its value when the variable is unset, from the other variables (``MEIO_SITE``)
    fallback: Callable[[Mapping[str, str]], Any] | None = None
    #: the default as the docs write it, when it is no plain value
    shown: str | None = None


def setting(default: Any, doc: str, **declared: Any) -> Any:
    """Declare one setting: its default, what it does, and (:class:`Declared`) how the
    environment sets it."""
    return field(default=default, metadata={"setting": Declared(doc, **declared)})


@dataclass(frozen=True, slots=True)
class Settings:
    """What one server needs to know (each field's declaration says what it does)."""

    database_url: str = field(metadata={"setting": Declared(
        "the database: `postgresql://user:pass@host/db` for replicas; a plain path is an "
        "SQLite file", env="DATABASE_URL", parse=normalise_url,
        fallback=default_database_url, shown="an SQLite file in the user data directory")})
    bot_delay_s: float = setting(0.7, "seconds before each bot move, so that people can "
                                      "follow the play")
    allow_seeds: bool = setting(False, "accept tables created with a fixed deal seed (tests "
                                       "and reproducible demos only: whoever knows the seed "
                                       "knows every deal)")
    min_turn_timer_s: float = setting(5.0, "the shortest turn timer a table may have (s)")
    max_turn_timer_s: float = setting(3600.0, "the longest turn timer of a table that is "
                                              "not turn-based (s)")
    max_message_bytes: int = setting(4096, "the largest WebSocket message a client may send")
    max_variant_bytes: int = setting(16384, "the largest variant file (TOML text) a table "
                                            "may be created with")
    advice_budget_s: float = setting(1.0, "seconds the split advisor thinks for one request")
    max_remembered_rejects: int = setting(256, "answers to rejected messages kept per table "
                                               "(a resent one gets the same answer)")
    task_retry_s: float = setting(1.0, "pause before a bot or timer task that failed is "
                                       "tried again (s)")
    allowed_origins: tuple[str, ...] = setting(
        (), "origins (`https://example.org`, comma separated) besides the server's own "
            "whose pages may open a WebSocket or post; a connection that sends no `Origin` "
            "(a bot, a script) is let in", parse=_origins)
    message_rate: float = setting(20.0, "messages one connection may send a second, after "
                                        "a burst of `MEIO_MESSAGE_BURST`")
    message_burst: int = setting(60, "messages one connection may send at once")
    join_rate_per_min: float = setting(20.0, "seat joins and table creations one client "
                                             "address may make a minute, after a burst")
    join_burst: int = setting(20, "seat joins and table creations one address may make at "
                                  "once")
    bad_hello_rate_per_min: float = setting(10.0, "hellos with a wrong seat token or "
                                                  "spectator code one address may send a "
                                                  "minute, after a burst")
    bad_hello_burst: int = setting(10, "wrong hellos one address may send at once")
    warm_core: bool = setting(False, "load the compiled simulation core in the background at "
                                     "start-up, so that the first search-bot move never "
                                     "waits for numba", served=True)
    lease_ttl_s: float = setting(6.0, "seconds a table lease lasts unrenewed: how long the "
                                      "bots of a table whose server died wait before "
                                      "another server takes them over")
    evict_after_s: float = setting(120.0, "seconds after which a table nobody uses leaves "
                                          "memory")
    think_processes: int = setting(0, "worker processes (at `MEIO_THINK_NICE`) where bots "
                                      "think and the advisor works; `0`: "
                                      "`MEIO_THINK_THREADS` threads of their own", served=1)
    think_threads: int = setting(2, "threads where bots think when there are no worker "
                                    "processes")
    think_nice: int = setting(10, "the `nice` of the worker processes", low=-20)
    advice_rate_per_min: float = setting(12.0, "requests for split advice per seat a minute, "
                                               "after a burst (one in flight a seat)")
    advice_burst: int = setting(4, "requests for split advice per seat at once")
    bad_hello_table_rate_per_min: float = setting(
        60.0, "hellos with a wrong seat token or spectator code tried on one table (from "
              "any address) a minute, after a burst; a right token or code always gets in")
    bad_hello_table_burst: int = setting(30, "wrong hellos tried on one table at once")
    max_bot_tables: int = setting(8, "tables where only bots play, in play at once on the "
                                     "whole database")
    max_bot_tables_per_address: int = setting(2, "tables where only bots play created from "
                                                 "one address, in play at once")
    max_open_tables: int = setting(5000, "open tables (waiting for players or in play) on "
                                         "the whole database")
    max_open_tables_per_address: int = setting(40, "open tables created from one address",
                                               env="MEIO_MAX_TABLES_PER_ADDRESS")
    finished_ttl_s: float = setting(3600.0, "seconds after which a table whose match is "
                                            "over closes (its records stay in the history)")
    waiting_ttl_s: float = setting(86400.0, "seconds after which a table waiting for "
                                            "players closes")
    stalled_ttl_s: float = setting(7 * 86400.0, "seconds after which a table where nobody "
                                                "moves closes")
    lobby_page: int = setting(50, "tables in one page of the lobby", low=1)
    max_sockets: int = setting(4000, "open WebSockets (players and spectators) in all")
    max_sockets_per_address: int = setting(64, "open WebSockets from one client address")
    max_sockets_per_table: int = setting(200, "spectators' WebSockets on one table (a "
                                              "seat's own pages always get in)")
    max_resume_events: int = setting(32, "a client that reconnects at most this many "
                                         "actions behind gets them as events; further "
                                         "behind (or over its address's budget) one "
                                         "snapshot")
    resume_rate_per_min: float = setting(60.0, "resumes as events one address may ask a "
                                               "minute, after a burst")
    resume_burst: int = setting(20, "resumes as events one address may ask at once")
    lookup_rate_per_min: float = setting(30.0, "`/api/mine` and `/api/history` look-ups (up "
                                               "to 200 tokens each) per client address a "
                                               "minute, after a burst")
    lookup_burst: int = setting(10, "look-ups per client address at once")
    header_timeout_s: float = setting(10.0, "(`meio serve`) seconds a connection has to "
                                            "send its request headers (then 408)")
    max_tcp_connections: int = setting(4096, "(`meio serve`) TCP connections open in all "
                                             "(kept under the open-files limit)")
    max_tcp_per_address: int = setting(256, "(`meio serve`) HTTP connections being read "
                                            "from one peer address (the trusted proxy is "
                                            "not capped)")
    api_docs: bool = setting(False, "serve the Swagger UI at `/api/docs` (its script comes "
                                    "from a CDN onto the origin that holds the seat tokens)")
    readyz_details: bool = setting(False, "show the process name and its table count on "
                                          "`/readyz`")
    min_turn_based_s: float = setting(3600.0, "the shortest turn timer of a turn-based "
                                              "table (s)")
    max_turn_based_s: float = setting(3 * 86400.0, "the longest turn timer of a turn-based "
                                                   "table (s)")
    quick_turn_timer_s: float = setting(60.0, "the turn timer of quick-play tables (s): "
                                              "strangers wait for no one for long")
    rated_turn_timer_s: float = setting(60.0, "the turn timer of a rated table made without "
                                              "one (s): a player who leaves forfeits the "
                                              "rest of the match to the bot")
    away_turn_s: float = setting(1.0, "seconds a seat of a rated table that has left (its "
                                      "last move was its timer's) is given for each later "
                                      "turn before the bot plays it, until it acts again")
    max_quick_seats: int = setting(2, "quick-play seats one account may hold at tables "
                                      "waiting or in play")
    quick_min_wait_s: float = setting(5.0, "the shortest wait a quick-play player may "
                                           "choose before bots fill the empty seats (s)")
    quick_max_wait_s: float = setting(300.0, "the longest such wait (s)")
    session_ttl_s: float = setting(30 * 86400.0, "seconds a sign-in lasts (the session "
                                                 "cookie's age)")
    login_rate_per_min: float = setting(10.0, "sign-in and sign-up attempts per client "
                                              "address, and sign-ins per account, a minute "
                                              "after a burst, whether the password was "
                                              "right or not")
    login_burst: int = setting(10, "sign-in attempts at once")
    login_free_failures: int = setting(3, "wrong passwords an address may send for one "
                                          "account before each next one waits 1 s, 2 s, "
                                          "4 s... (per address for all accounts: 20 free)")
    min_password_score: int = setting(3, "the least strength (zxcvbn's score, 0 to 4) of a "
                                         "new password")
    public_origin: str | None = setting(
        None, "the address players use (`https://play.example.org`) when a proxy stands in "
              "front: the Origin check compares pages with it (never with `Host`), passkeys "
              "belong to its host name, and an `https://` one makes the cookies `Secure`; "
              "unset: each request's own host and scheme",
        parse=_origin, fallback=_public_origin,
        shown="unset: `https://` the domain name of `MEIO_SITE` (compose passes both to the "
              "replicas), or nothing with `MEIO_SITE` `:80`")
    passkey_challenge_ttl_s: float = setting(120.0, "seconds a passkey challenge waits for "
                                                    "the authenticator's answer")
    switch_interval_ms: float = setting(
        0.5, "(`meio serve`) milliseconds a thread may hold the interpreter lock while "
             "another waits (Python's default is 5): the writer's commits wait this long "
             "for the event loop at each step (docs/benchmarks.md)", above=True)
    gc_freeze_every_s: float = setting(
        1.0, "(`meio serve`) seconds between two freezes of the heap (`gc.freeze`, which "
             "costs nothing): what has lived that long is never walked by the collector's "
             "automatic passes (`meio.web.collector`)", above=True)
    gc_sweep_every_s: float = setting(
        900.0, "(`meio serve`) seconds between two full collections of the whole heap, "
               "which free the reference cycles that became garbage after they were "
               "frozen; `0`: never")

    @property
    def secure_cookies(self) -> bool:
        """Whether the public origin is TLS (a request over TLS gets them anyway)."""
        return (self.public_origin or "").startswith("https://")

    @classmethod
    def from_env(cls, database_url: str | None = None,
                 environ: Mapping[str, str] | None = None) -> Settings:
        """The settings of a served process: each setting from its environment variable
        (unset or empty: its served default), ``database_url`` first when given; raises
        :class:`SettingsError` naming a variable that cannot be read. The variables and
        defaults: docs/deploy.md, "Settings"."""
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for f in fields(cls):
            decl = declared(f)
            text = env.get(env_name(f), "").strip()
            if f.name == "database_url" and database_url:
                values[f.name] = normalise_url(database_url)
            elif text and (value := parse_setting(f, text)) is not None:
                values[f.name] = value
            elif decl.fallback is not None:
                values[f.name] = decl.fallback(env)
            elif decl.served is not SAME:
                values[f.name] = decl.served
        return cls(**values)


def declared(f: Field[Any]) -> Declared:
    """The declaration of the setting ``f`` (a field of :class:`Settings`)."""
    decl = f.metadata.get("setting")
    if not isinstance(decl, Declared):
        raise TypeError(f"the field {f.name} of Settings is not declared with setting()")
    return decl


def env_name(f: Field[Any]) -> str:
    """The environment variable of the setting ``f``.

    >>> [env_name(f) for f in fields(Settings) if f.name in ("join_rate_per_min",
    ...                                                      "lease_ttl_s", "max_sockets")]
    ['MEIO_JOIN_RATE', 'MEIO_LEASE_TTL', 'MEIO_MAX_SOCKETS']
    """
    decl = declared(f)
    if decl.env is not None:
        return decl.env
    name = f.name.upper()
    for unit in ("_PER_MIN", "_S"):
        name = name.removesuffix(unit)
    return f"MEIO_{name}"


@cache
def _types() -> dict[str, Any]:
    return typing.get_type_hints(Settings)


def parse_setting(f: Field[Any], text: str) -> Any:
    """The value of setting ``f`` written ``text`` in its variable, by the setting's
    type: a number (finite, at least its least value), a flag (``1``/``true``/``yes`` or
    ``0``/``false``/``no``), or text; raises :class:`SettingsError`."""
    decl, name, kind = declared(f), env_name(f), _types()[f.name]
    if decl.parse is not None:
        return decl.parse(text)
    if kind is bool:
        low = text.lower()
        if low in ("1", "true", "yes", "on"):
            return True
        if low in ("0", "false", "no", "off"):
            return False
        raise SettingsError(f"{name} must be 1 or 0 (true or false), not {text!r}")
    if kind is int:
        try:
            number: float = int(text)
        except ValueError:
            raise SettingsError(f"{name} must be a whole number, not {text!r}") from None
    elif kind is float:
        try:
            number = float(text)
        except ValueError:
            raise SettingsError(f"{name} must be a number, not {text!r}") from None
    else:
        raise TypeError(f"the setting {f.name} has a type ({kind}) with no reader: "
                        "give its declaration a parse=")
    low_text = f"{decl.low:g}"
    if decl.above and not decl.low < number < math.inf:
        raise SettingsError(f"{name} must be a finite number above {low_text}, "
                            f"not {number:g}")
    if not decl.low <= number < math.inf:
        least = "0 or more" if decl.low == 0 else f"at least {low_text}"
        raise SettingsError(f"{name} must be a finite number, {least}, not {number:g}")
    return number


def served_default(f: Field[Any]) -> Any:
    """The value of setting ``f`` in a served process whose environment leaves it unset
    (``MEIO_SITE`` and ``DATABASE_URL`` aside: their declarations' ``shown`` say)."""
    decl = declared(f)
    return f.default if decl.served is SAME else decl.served


def env_text(value: Any) -> str:
    """A value as its environment variable writes it (``""``: unset).

    >>> env_text(True), env_text(604800.0), env_text(0.7), env_text(())
    ('1', '604800', '0.7', '')
    """
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, tuple):
        return ",".join(value)
    return str(value)


def settings_table() -> str:
    """The docs' table of every setting: its variable, its served default, what it does."""
    lines = ["| variable | default | setting (`Settings.`) and what it does |",
             "| --- | --- | --- |"]
    for f in fields(Settings):
        decl = declared(f)
        shown = decl.shown
        if shown is None:
            text = env_text(served_default(f))
            shown = f"`{text}`" if text else "unset"
            if decl.served is not SAME:
                shown += f" (`{env_text(f.default)}` in a `Settings` built in code)"
        lines.append(f"| `{env_name(f)}` | {shown} | `{f.name}`: {decl.doc} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(settings_table(), end="")
