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


def _fail(message: str) -> typer.Exit:
    typer.echo(message, err=True)
    return typer.Exit(code=2)


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="a meio-record/1 file ('-' for standard input)")],
    as_json: Annotated[
        bool, typer.Option("--json", help="print the meio-result/1 JSON document")
    ] = False,
) -> None:
    """Replay a game record, checking every rule; print what happened.

    Exits 2 with one line naming the round, play, seat and reason when the
    record breaks a rule or cannot be read.
    """
    from meio.engine.errors import MeioError
    from meio.engine.record import MAX_RECORD_BYTES, Record, describe, result_json

    try:
        if str(file) == "-":
            text = sys.stdin.read(MAX_RECORD_BYTES + 1)
        else:
            with file.open("rb") as fh:
                raw = fh.read(MAX_RECORD_BYTES + 1)
            text = raw.decode("utf-8")
    except FileNotFoundError:
        raise _fail(f"{file}: no such file") from None
    except IsADirectoryError:
        raise _fail(f"{file}: is a directory, not a record") from None
    except UnicodeDecodeError:
        raise _fail(f"{file}: not a UTF-8 text file") from None
    except OSError as exc:
        raise _fail(f"{file}: {exc.strerror or exc}") from None
    try:
        record = Record.from_json(text)
        state = record.to_state()
    except MeioError as exc:
        raise _fail(str(exc)) from None
    if as_json:
        typer.echo(json.dumps(result_json(state, rounds=len(record.rounds)), indent=1))
    else:
        typer.echo("\n".join(describe(state, rounds=len(record.rounds))))


@app.command()
def deal(
    players: Annotated[int, typer.Option("--players", "-n", help="2 to 5")] = 4,
    edition: Annotated[str, typer.Option(help="meio or classic")] = "meio",
    partnership: Annotated[bool, typer.Option(help="4 players in two teams")] = False,
    seed: Annotated[int | None, typer.Option(help="random seed (default: a fresh one)")] = None,
    bot: Annotated[str, typer.Option(help="the bot that plays every seat")] = "random",
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="write here instead of printing")
    ] = None,
    wild_lead: WildLeadOption = "declare",
    hide_specials: HideSpecialsOption = False,
) -> None:
    """Play a whole match with bots and print its meio-record/1 record.

    Try it with replay: ``meio deal -o game.json && meio replay game.json``.
    """
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
