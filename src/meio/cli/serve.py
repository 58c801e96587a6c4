"""``meio serve``: the web server (FastAPI + WebSockets + the browser client)."""

from __future__ import annotations

from typing import Annotated

import typer

from meio.cli.app import app
from meio.i18n import _


@app.command(
    help=_("Play MEIO in the browser: open the printed address, start a table, share the link.")
)
def serve(
    host: Annotated[str, typer.Option(help=_("Address to listen on."))] = "127.0.0.1",
    port: Annotated[int, typer.Option(help=_("Port to listen on."))] = 8000,
    db: Annotated[
        str | None,
        typer.Option(help=_("SQLite file or database URL (default: DATABASE_URL, else an "
                            "SQLite file in the user data directory).")),
    ] = None,
) -> None:
    import uvicorn

    from meio.web import Settings, create_app

    if not 0 < port < 65536:
        raise typer.BadParameter(
            _("{port} is not a port number").format(port=port), param_hint="--port"
        )
    settings = Settings.from_env(db)
    shown = settings.database_url
    if "@" in shown:  # hide a password in a PostgreSQL URL
        shown = shown.split("://", 1)[0] + "://…@" + shown.rsplit("@", 1)[1]
    typer.echo("meio: " + _("database {url}").format(url=shown))
    url = f"http://{host}:{port}/"
    typer.echo("meio: " + _("open {url} in a browser (Ctrl-C stops)").format(url=url))
    uvicorn.run(
        create_app(settings), host=host, port=port, log_level="warning", ws_max_size=65536
    )
