"""``meio selfplay``: rounds of search in every seat, saved for ``meio train --from-selfplay``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from meio.cli.app import app
from meio.cli.files import OutputFile
from meio.cli.options import seed_option
from meio.i18n import _


@app.command(
    help=_(
        "Play rounds with a bot (a searching one by default) in every seat and save each "
        "round's deal, actions and the searched value of every legal action, to train the "
        "learned bot "
        "(meio train --from-selfplay). Run the same command again to resume or, with more "
        "--games, to extend the data."
    )
)
def selfplay(
    out: Annotated[Path, typer.Option(
        "--out", parser=OutputFile(), metavar=_("FILE"),
        help=_("the data file (JSON lines), reused to resume"))] = Path("selfplay.jsonl"),
    games: Annotated[int, typer.Option(
        min=1, max=10_000_000, help=_("rounds in the data set"))] = 1000,
    teacher: Annotated[str, typer.Option(
        help=_("the bot in every seat: a searching one (search:1 to search:6), or "
               "heuristic for a cheap first data set"))] = "search",
    jobs: Annotated[int, typer.Option(min=1, max=1024, help=_("worker processes"))] = 1,
    seed: Annotated[int, seed_option(_("seed of the tables, deals and bots"))] = 0,
) -> None:
    """Play rounds ``0 .. games - 1`` of the data set of ``seed`` into ``out``."""
    from meio.engine.errors import MeioError
    from meio.rl.selfplay import generate

    try:
        played = generate(out, games, seed=seed, teacher=teacher, jobs=jobs,
                          log=lambda line: typer.echo(line, err=True))
    except MeioError as exc:
        typer.echo(_("error: {message}").format(message=exc), err=True)
        raise typer.Exit(2) from None
    except KeyboardInterrupt:
        typer.echo(_("interrupted: the rounds played so far are in {file}; run the same "
                     "command again to resume").format(file=out), err=True)
        raise typer.Exit(130) from None
    typer.echo(_("{played} rounds played; {file} holds {games}").format(
        played=played, file=out, games=games))
