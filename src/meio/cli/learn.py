"""``meio learn``: the Learn to play lesson in the terminal, then a first game."""

from __future__ import annotations

from typing import Annotated

import typer

from meio.cli.app import app
from meio.cli.play import ASCII_HELP, LANG_HELP, choose_language
from meio.i18n import _


@app.command(
    help=_(
        "Learn to play: a guided deal where you make every move, then a game against easy bots."
    )
)
def learn(
    ascii: Annotated[bool, typer.Option("--ascii", help=ASCII_HELP)] = False,
    lang: Annotated[str | None, typer.Option("--lang", help=LANG_HELP)] = None,
) -> None:
    choose_language(lang)
    from meio.tui.learn import LearnApp

    farewell = LearnApp(ascii=ascii).run()
    if farewell:
        typer.echo(farewell)
