"""``meio replay`` and ``meio deal``: check and share game records."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Annotated

import typer

from meio.cli.app import app, bot_table
from meio.cli.files import (
    InputFile,
    OutputFile,
    is_dash,
    open_input,
    os_error_text,
    write_text,
)
from meio.cli.options import (
    EditionOption,
    HideSpecialsOption,
    OldBotOption,
    PlayersOption,
    VariantOption,
    WildLeadOption,
    either,
    read_variant,
    seed_option,
)
from meio.i18n import _
from meio.i18n.reasons import error_line


def _fail(message: str) -> typer.Exit:
    typer.echo(message, err=True)
    return typer.Exit(code=2)


def _records(fh: IO[str]) -> Iterator[tuple[int | None, str]]:
    """The records of a file as ``(line, text)``: one record as a JSON document (``line``
    None), or JSON Lines, one record a line (``line`` counts from 1; blank lines skipped).

    A file is JSON Lines when its first line that is not blank is a whole JSON object and
    another line that is not blank follows.
    """
    from meio.engine.record import MAX_RECORD_BYTES

    def lines() -> Iterator[tuple[int, str]]:
        number = 0
        while line := fh.readline(MAX_RECORD_BYTES + 1):
            number += 1
            if line.strip():
                yield number, line

    found = lines()
    first = next(found, None)
    if first is None:
        yield None, ""  # an empty file
        return
    try:
        whole_line = isinstance(json.loads(first[1]), dict)
    except ValueError:
        whole_line = False
    second = next(found, None) if whole_line else None
    if second is None:
        rest = "" if whole_line else fh.read(MAX_RECORD_BYTES + 1 - len(first[1]))
        yield None, first[1] + rest
        return
    yield first
    yield second
    yield from found


@app.command(
    help=_(
        "Replay game records, checking every rule; print what happened.\n\n"
        "FILE holds one meio-record/1 record (as meio deal writes it) or JSON Lines, one "
        "record a line (as meio simulate --records writes them). Exits 2 with one line "
        "naming the record's line, the round, play, seat and reason when a record breaks a "
        "rule or cannot be read."
    )
)
def replay(
    file: Annotated[
        Path,
        typer.Argument(
            parser=InputFile(dash=True), metavar=_("FILE"),
            help=_("a meio-record/1 file, or JSON Lines of records ('-' for standard input)"),
        ),
    ],
    as_json: Annotated[
        bool,
        typer.Option(
            "--json",
            help=_("print the meio-result/1 JSON document (JSON Lines, one a line, for JSON "
                   "Lines of records)"),
        ),
    ] = False,
) -> None:
    from meio.cli.account import account
    from meio.engine.errors import MeioError
    from meio.engine.record import Record, result_json

    shown = 0
    line: int | None = None
    try:
        with open_input(file) as fh:
            for line, text in _records(fh):
                if not text.strip():
                    raise _fail(_("{file}: empty; a record is a JSON object").format(file=file))
                record = Record.from_json(text)
                state = record.to_state()
                result = result_json(state, rounds=len(record.rounds))
                shown += 1
                if as_json:
                    typer.echo(json.dumps(result, indent=None if line else 1))
                    continue
                if line is not None:
                    if shown > 1:
                        typer.echo("")
                    typer.echo(_("Record {n} (line {line})").format(n=shown, line=line))
                typer.echo("\n".join(account(state, rounds=len(record.rounds))))
    except UnicodeDecodeError:
        raise _fail(_("{file}: not a UTF-8 text file").format(file=file)) from None
    except OSError as exc:
        raise _fail(_("{file}: cannot be read ({reason})").format(
            file=file, reason=os_error_text(exc))) from None
    except MeioError as exc:
        message = error_line(exc)
        if line is not None:
            message = _("line {n}: {error}").format(n=line, error=message)
        raise _fail(message) from None


@app.command(
    help=_(
        "Play a whole match with bots and print its meio-record/1 record.\n\n"
        "Try it with replay: meio deal -o game.json && meio replay game.json"
    )
)
def deal(
    players: PlayersOption = 4,
    edition: EditionOption = "meio",
    partnership: Annotated[bool, typer.Option(help=_("4 players in two teams"))] = False,
    seed: Annotated[
        int | None, seed_option(_("random seed (default: a fresh one)"))
    ] = None,
    bots: Annotated[str, typer.Option(help=_("the bot that plays every seat"))] = "random",
    output: Annotated[
        Path | None,
        typer.Option(
            "--output", "-o", parser=OutputFile(dash=True), metavar=_("FILE"),
            help=_("write the record to this file instead of printing it ('-': print it)"),
        ),
    ] = None,
    wild_lead: WildLeadOption = "declare",
    hide_specials: HideSpecialsOption = False,
    old_bot: OldBotOption = None,
    variant_file: VariantOption = None,
) -> None:
    from meio.bots import play_match
    from meio.engine.record import Record

    variant = read_variant(variant_file, wild_lead, not hide_specials)
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    config, table_bots = bot_table(edition, players, partnership, seed, either(bots, old_bot),
                                   wild_lead, not hide_specials, variant)
    state = play_match(config, table_bots)
    text = Record.from_state(state).to_text()
    if output is None or is_dash(output):
        typer.echo(text)
        return
    try:
        write_text(output, text + "\n")
    except ValueError as exc:
        raise _fail(str(exc)) from None
    typer.echo(_("wrote {file} (seed {seed})").format(file=output, seed=seed), err=True)
