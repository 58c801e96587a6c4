"""``meio serve``: the web server (FastAPI + WebSockets + the browser client)."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from meio.cli.app import app
from meio.i18n import _


@app.command(
    help=_("Play MEIO in the browser: open the printed address, start a table, share the link.")
)
def serve(
    host: Annotated[str, typer.Option(help=_("Address to listen on."))] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help=_("Port to listen on."))] = 8000,
    db: Annotated[
        str | None,
        typer.Option(help=_("SQLite file or database URL (default: DATABASE_URL, else an "
                            "SQLite file in the user data directory).")),
    ] = None,
    log_format: Annotated[
        str | None,
        typer.Option(help=_("'text' (quiet, for people) or 'json' (one object a line, with "
                            "table and match ids; default: MEIO_LOG_FORMAT, else text).")),
    ] = None,
    drain: Annotated[
        float | None,
        typer.Option(min=0, max=3600,
                     help=_("Seconds to keep serving after SIGTERM while /readyz says "
                            "'draining' (default: MEIO_DRAIN_S, else 0).")),
    ] = None,
) -> None:
    """Play MEIO in the browser: open the printed address, start a table, share the link."""
    import math
    import os

    import uvicorn

    from meio.web import Settings, create_app
    from meio.web.logs import configure

    fmt = log_format or os.environ.get("MEIO_LOG_FORMAT", "text")
    if fmt not in ("text", "json"):
        raise typer.BadParameter(
            _("{value}: use text or json").format(value=repr(fmt)), param_hint="--log-format"
        )
    raw = os.environ.get("MEIO_DRAIN_S", "0") if drain is None else str(drain)
    try:
        drain_s = float(raw)
    except ValueError:
        drain_s = math.nan
    if not 0 <= drain_s <= 3600:  # nan too
        raise typer.BadParameter(
            _("{value} is not from {min} to {max}").format(value=raw, min=0, max=3600),
            param_hint="--drain / MEIO_DRAIN_S",
        )
    try:
        settings = Settings.from_env(db)
    except ValueError as exc:  # a number in the environment that is none (MEIO_BOT_DELAY=x)
        typer.echo(_("a setting in the environment is not a number: {error}").format(
            error=exc), err=True)
        raise typer.Exit(2) from None
    problem = database_problem(settings.database_url)
    if problem is not None:
        typer.echo(problem, err=True)
        raise typer.Exit(2)
    configure(fmt, "INFO" if fmt == "json" else "WARNING")
    shown = settings.database_url
    if "@" in shown:  # hide a password in a PostgreSQL URL
        shown = shown.split("://", 1)[0] + "://…@" + shown.rsplit("@", 1)[1]
    typer.echo("meio: " + _("database {url}").format(url=shown))
    url = f"http://{host}:{port}/"
    typer.echo("meio: " + _("open {url} in a browser (Ctrl-C stops)").format(url=url))
    web = create_app(settings)
    from meio.web.conn import uvicorn_guards

    # header timeout and connection caps (docs/web.md, "Security and limits")
    config = uvicorn.Config(web, host=host, port=port, log_config=None, access_log=False,
                            log_level="info" if fmt == "json" else "warning",
                            ws_max_size=65536, ws_per_message_deflate=False,
                            timeout_graceful_shutdown=10, **uvicorn_guards(settings))
    draining_server(config, web, drain_s).run()


def database_problem(url: str) -> str | None:
    """Why the server could not open the database at ``url`` (an SQLAlchemy URL), in one
    line, or None: a URL that is no URL, a database kind with no driver installed, an
    SQLite file that cannot be made or written."""
    from pathlib import Path

    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError

    from meio.cli.files import OutputFile

    try:
        parsed = make_url(url)
        parsed.get_dialect()
    except (NoSuchModuleError, ImportError):  # NoSuchModuleError is an ArgumentError
        return _("--db / DATABASE_URL: no driver for {kind} databases is installed").format(
            kind=url.split("://", 1)[0])
    except ArgumentError:
        return _("--db / DATABASE_URL: {url} is not a database URL").format(url=url)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        try:
            OutputFile()(Path(parsed.database))
        except ValueError as exc:
            return f"--db / DATABASE_URL: {exc}"
    return None


def draining_server(config: Any, web: Any, drain_s: float) -> Any:
    """A uvicorn server that, on SIGTERM or SIGINT, first says 'draining' on
    ``/readyz`` for ``drain_s`` seconds (the proxy sends new players elsewhere),
    then stops: WebSockets close with 1012 so clients reconnect to another replica,
    and the table leases are handed over."""
    import threading

    import uvicorn

    class Server(uvicorn.Server):
        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets)
            settings = web.state.settings
            tune_interpreter(settings.switch_interval_ms)
            from meio.web.collector import Collector

            web.state.collector = Collector(settings.gc_freeze_every_s,
                                            settings.gc_sweep_every_s)
            web.state.collector.start()

        def handle_exit(self, sig: int, frame: Any) -> None:
            if drain_s <= 0 or getattr(web.state, "draining", False):
                super().handle_exit(sig, frame)
                return
            web.state.draining = True
            timer = threading.Timer(drain_s, super().handle_exit, (sig, frame))
            timer.daemon = True
            timer.start()

    return Server(config)


def tune_interpreter(switch_interval_ms: float) -> None:
    """Make the interpreter suit a long-running server.

    Once the server has started, what it loaded (modules, the bot table, the
    compiled core: some 200,000 objects) is frozen, so the collector no longer
    scans it, and young collections run every 50,000 new objects instead of 700.
    From then on :class:`meio.web.collector.Collector` freezes the heap every
    second, so that no automatic pass walks the tables in memory.
    Under load (``bench/load.py``) the collector had taken ~12% of the server's CPU,
    and its full passes (100-650 ms, the whole heap) made the slowest moves; the
    objects of a table are freed by reference counting, so little is left for it.

    The writer stores actions in a thread (:mod:`meio.web.writer`), and each step of a
    commit (the pool, ``BEGIN``, the insert, ``COMMIT``) gives the interpreter lock up
    and must win it back from the event loop. With Python's 5 ms switch interval a
    commit behind a busy loop waited up to 5 ms a step: tens of milliseconds of wall
    time for well under one of work, and every action of the batch waited with it
    (docs/history/benchmarks.md, the fourth round; issue 25). At 0.5 ms
    (``Settings.switch_interval_ms``) the same commit waits a tenth as long.
    """
    import gc
    import sys

    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)
    sys.setswitchinterval(switch_interval_ms / 1000)

