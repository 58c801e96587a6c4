"""``meio review``, ``meio puzzle`` and ``meio mine-puzzles``: learn from finished games."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from meio.cli.app import app
from meio.cli.files import InputFile, OutputFile, open_input, os_error_text
from meio.cli.options import seed_option
from meio.i18n import _


def _fail(message: str) -> typer.Exit:
    typer.echo(message, err=True)
    return typer.Exit(code=2)


@app.command(
    help=_(
        "Review a finished match: every decision judged from what its player could see.\n\n"
        "For each split, card, declared suit and pile choice: the expected round score of "
        "the action taken and of the best one found, the points a round it lost, and the "
        "margin of that loss. Flags (inaccuracy, mistake, blunder) are raised only when "
        "the loss clears its margin. Exits 2 with one line when the record cannot be "
        "read, breaks a rule or is not finished."
    )
)
def review(
    file: Annotated[
        Path,
        typer.Argument(parser=InputFile(dash=True), metavar=_("RECORD"),
                       help=_("a finished match's meio-record/1 file ('-' for standard input)")),
    ],
    as_json: Annotated[
        bool, typer.Option("--json", help=_("print the meio-review/1 JSON document")),
    ] = False,
    depth: Annotated[
        str,
        typer.Option("--depth", help=_("quick (a first look) or deep (the default)")),
    ] = "deep",
    seat: Annotated[
        list[int] | None,
        typer.Option("--seat", help=_("review only this seat (may be repeated)")),
    ] = None,
    seed: Annotated[int, seed_option(_("seed of the sampled worlds"))] = 0,
) -> None:
    from meio.engine.errors import MeioError
    from meio.engine.record import Record
    from meio.review import BUDGETS, review_match
    from meio.review.text import review_lines

    if depth not in ("quick", "deep"):
        raise _fail(_("--depth is quick or deep, not {depth!r}").format(depth=depth))
    try:
        with open_input(file) as fh:
            text = fh.read()
        record = Record.from_json(text)
        result = review_match(record, budget=BUDGETS[depth], depth=depth, seed=seed,
                              seats=seat or None)
    except OSError as exc:
        raise _fail(f"{file}: {os_error_text(exc)}") from None
    except MeioError as exc:
        raise _fail(f"{file}: {exc}") from None
    if as_json:
        typer.echo(json.dumps(result.to_json(), indent=1))
        return
    for line in review_lines(result, record):
        typer.echo(line)


@app.command(
    "mine-puzzles",
    help=_(
        "Mine puzzles from seeded self-play (and reviewed records): positions where one "
        "action is clearly best from the player's view and is not the heuristic's pick."
    ),
)
def mine_puzzles(
    out: Annotated[
        Path,
        typer.Option("--out", parser=OutputFile(), metavar=_("FILE"),
                     help=_("where to write the gzipped meio-puzzles/1 file")),
    ],
    count: Annotated[int, typer.Option("--count", min=1, help=_("puzzles to find"))] = 500,
    seed: Annotated[int, seed_option(_("seed of the self-play and the worlds"))] = 39,
    records: Annotated[
        Path | None,
        typer.Option("--records", parser=InputFile(), metavar=_("FILE"),
                     help=_("JSON Lines of finished records to mine first")),
    ] = None,
    name: Annotated[str, typer.Option("--name", help=_("the set's name"))] = "meio-puzzles-v1",
) -> None:
    from meio.engine.errors import MeioError
    from meio.engine.record import Record
    from meio.puzzles.collection import write_set
    from meio.puzzles.mine import MIN_GAP, SCREEN, SPLIT_SHARE, Puzzle, mine
    from meio.review.judge import HIGH

    given: list[Record] = []
    try:
        if records is not None:
            with open_input(records) as fh:
                given = [Record.from_json(line) for line in fh if line.strip()]

        budget = {"screen": SCREEN._asdict(), "confirm": HIGH._asdict(), "min_gap": MIN_GAP,
                  "split_share": SPLIT_SHARE}
        command = " ".join(["meio", "mine-puzzles", *sys.argv[2:]])

        def progress(found: list[Puzzle], matches: int) -> None:
            # written after every match, so a long run can be followed (and stopped)
            write_set(out, name, seed, command, budget, [p.to_json() for p in found])
            typer.echo(_("{found} puzzles from {matches} matches").format(
                found=len(found), matches=matches), err=True)

        puzzles = mine(count, seed, records=given, progress=progress)
    except OSError as exc:
        raise _fail(f"{records or out}: {os_error_text(exc)}") from None
    except MeioError as exc:
        raise _fail(str(exc)) from None
    typer.echo(_("{count} puzzles written to {file}").format(count=len(puzzles), file=out))
