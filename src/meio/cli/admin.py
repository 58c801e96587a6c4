"""``meio admin``: the operator's view of a ``meio serve`` database — the chat messages
players reported — and removing a report once dealt with; repairing an account's
ratings from their stored changes."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from meio.cli.app import app
from meio.i18n import _


@app.command(
    help=_("For the server's operator: list the chat messages players reported on the "
           "server's database, or remove a report that has been dealt with.")
)
def admin(
    db: Annotated[
        str | None,
        typer.Option(help=_("SQLite file or database URL (default: DATABASE_URL, else an "
                            "SQLite file in the user data directory).")),
    ] = None,
    remove_report: Annotated[
        int | None,
        typer.Option(min=1, max=2**31 - 1,
                     help=_("Remove report number N (the list shows the numbers).")),
    ] = None,
    repair_ratings: Annotated[
        str | None,
        typer.Option(metavar="USERNAME",
                     help=_("Recompute an account's ratings from their stored changes.")),
    ] = None,
    paired: Annotated[
        bool,
        typer.Option("--paired",
                     help=_("List pairs of accounts whose rated matches were all against "
                            "each other (a second account feeding the first's rating?).")),
    ] = False,
) -> None:
    """List the reported chat messages (number, date, table, seat, author, text), or
    remove one."""
    from datetime import UTC, datetime

    from meio.cli.serve import database_problem
    from meio.web.db import migrate, open_engine
    from meio.web.settings import Settings
    from meio.web.store import Store

    try:
        settings = Settings.from_env(db)
    except ValueError as exc:
        typer.echo(_("a setting in the environment is not a number: {error}").format(
            error=exc), err=True)
        raise typer.Exit(2) from None
    problem = database_problem(settings.database_url)
    if problem is not None:
        typer.echo(problem, err=True)
        raise typer.Exit(2)
    engine = open_engine(settings.database_url)
    try:
        migrate(engine)
        store = Store(engine)
        if repair_ratings is not None:
            _repair(engine, repair_ratings)
            return
        if paired:
            _paired(engine)
            return
        if remove_report is not None:
            if not store.remove_report(remove_report):
                typer.echo(_("there is no report {n}").format(n=remove_report), err=True)
                raise typer.Exit(1)
            typer.echo(_("report {n} removed").format(n=remove_report))
            return
        found = store.reports()
        if not found:
            typer.echo(_("no report"))
            return
        for r in found:
            when = datetime.fromtimestamp(r.created_at, UTC).isoformat(timespec="seconds")
            author = r.author or _("seat {seat}").format(seat=r.seat + 1)
            typer.echo(f"{r.id}\t{when.replace('+00:00', 'Z')}\t{r.table_id}/{r.match_id}\t"
                       + _("seat {seat}").format(seat=r.seat + 1)
                       + f"\t{author}\t{r.text!r}")
    finally:
        engine.dispose()


def _repair(engine: Any, username: str) -> None:
    """Recompute ``username``'s ratings (:meth:`meio.web.rated.RatingStore.repair`) and
    say what changed, a pool a line."""
    from meio.web.accounts import AccountStore
    from meio.web.rated import RatingStore

    found = AccountStore(engine).by_username(username)
    if found is None:
        typer.echo(_("there is no account {name}").format(name=repr(username)), err=True)
        raise typer.Exit(1)
    repaired = RatingStore(engine).repair(found[0].id)
    if not repaired:
        typer.echo(_("{name} has no rated match").format(name=found[0].username))
        return
    for pool, (before, after) in repaired.items():
        typer.echo(_("{pool}: {before} ({b_games} games) -> {after} ({a_games} games)").format(
            pool=pool, before=before, b_games=before.games, after=after, a_games=after.games))


def _paired(engine: Any) -> None:
    """Print the pairs :func:`meio.web.rated.paired_accounts` finds, one a line."""
    from meio.web.rated import paired_accounts

    found = paired_accounts(engine)
    if not found:
        typer.echo(_("no pair of accounts plays rated matches only against each other"))
        return
    for p in found:
        typer.echo(_("{first} and {second}: {n} rated matches, only against each other; "
                     "the second made {seconds:.0f} s after the first").format(
            first=p.first, second=p.second, n=p.matches, seconds=p.created_apart_s))
