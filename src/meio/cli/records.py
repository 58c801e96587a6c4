"""``meio replay`` and ``meio deal``: check and share game records."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Annotated

import typer

from meio.cli.app import app, bot_table
from meio.cli.options import HideSpecialsOption, WildLeadOption
from meio.i18n import _
from meio.i18n.reasons import error_line


def _fail(message: str) -> typer.Exit:
    typer.echo(message, err=True)
    return typer.Exit(code=2)


@app.command(
    help=_(
        "Replay a game record, checking every rule; print what happened.\n\n"
        "Exits 2 with one line naming the round, play, seat and reason when the "
        "record breaks a rule or cannot be read."
    )
)
def replay(
    file: Annotated[
        Path, typer.Argument(help=_("a meio-record/1 file ('-' for standard input)"))
    ],
    as_json: Annotated[
        bool, typer.Option("--json", help=_("print the meio-result/1 JSON document"))
    ] = False,
) -> None:
    from meio.cli.account import account
    from meio.engine.errors import MeioError
    from meio.engine.record import MAX_RECORD_BYTES, Record, result_json

    try:
        if str(file) == "-":
            text = sys.stdin.read(MAX_RECORD_BYTES + 1)
        else:
            with file.open("rb") as fh:
                raw = fh.read(MAX_RECORD_BYTES + 1)
            text = raw.decode("utf-8")
    except FileNotFoundError:
        raise _fail(_("{file}: no such file").format(file=file)) from None
    except IsADirectoryError:
        raise _fail(_("{file}: is a directory, not a record").format(file=file)) from None
    except UnicodeDecodeError:
        raise _fail(_("{file}: not a UTF-8 text file").format(file=file)) from None
    except OSError as exc:
        raise _fail(f"{file}: {exc.strerror or exc}") from None
    try:
        record = Record.from_json(text)
        state = record.to_state()
    except MeioError as exc:
        raise _fail(error_line(exc)) from None
    if as_json:
        typer.echo(json.dumps(result_json(state, rounds=len(record.rounds)), indent=1))
    else:
        typer.echo("\n".join(account(state, rounds=len(record.rounds))))


@app.command(
    help=_(
        "Play a whole match with bots and print its meio-record/1 record.\n\n"
        "Try it with replay: meio deal -o game.json && meio replay game.json"
    )
)
def deal(
    players: Annotated[int, typer.Option("--players", "-n", help=_("2 to 5"))] = 4,
    edition: Annotated[str, typer.Option(help=_("meio or classic"))] = "meio",
    partnership: Annotated[bool, typer.Option(help=_("4 players in two teams"))] = False,
    seed: Annotated[
        int | None, typer.Option(help=_("random seed (default: a fresh one)"))
    ] = None,
    bot: Annotated[str, typer.Option(help=_("the bot that plays every seat"))] = "random",
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help=_("write here instead of printing"))
    ] = None,
    wild_lead: WildLeadOption = "declare",
    hide_specials: HideSpecialsOption = False,
) -> None:
    from meio.bots import play_match
    from meio.engine.record import Record

    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    config, bots = bot_table(edition, players, partnership, seed, bot, wild_lead,
                             not hide_specials)
    state = play_match(config, bots)
    text = Record.from_state(state).to_text()
    if output is None:
        typer.echo(text)
    else:
        output.write_text(text + "\n", encoding="utf-8")
        typer.echo(_("wrote {file} (seed {seed})").format(file=output, seed=seed), err=True)
