"""The Typer application every ``meio`` sub-command registers on."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="meio",
    help="MEIO, the trick-taking game of balanced halves.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
