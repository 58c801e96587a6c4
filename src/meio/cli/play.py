"""``meio play`` (a match against bots in the terminal) and ``meio view`` (a replay viewer)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Annotated

import typer

from meio.cli.app import app


def _fail(message: str) -> typer.Exit:
    typer.echo(message, err=True)
    return typer.Exit(code=2)


@app.command()
def play(
    edition: Annotated[str, typer.Option(help="meio (65-card box edition) or classic")] = "meio",
    players: Annotated[int, typer.Option(help="table size: 2-5 (classic: 2-4)")] = 4,
    partnership: Annotated[
        bool, typer.Option("--partnership", help="4 players in two teams (seats 0+2, 1+3)")
    ] = False,
    specials: Annotated[
        str | None,
        typer.Option(help="the special cards, e.g. '-1 A+ +.5 Q+' (default: drawn at random)"),
    ] = None,
    seat: Annotated[int, typer.Option(help="your seat, 0 to players-1")] = 0,
    seed: Annotated[
        int | None, typer.Option(help="seed for the deals and bots (default: random)")
    ] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            help="bot level for the other seats: one level, or one per other seat "
            "separated by commas (default: heuristic if installed, else random)"
        ),
    ] = None,
    speed: Annotated[
        str, typer.Option(help="how fast the bots play: slow, normal, fast or instant")
    ] = "normal",
    ascii: Annotated[
        bool, typer.Option("--ascii", help="draw suits as S H D C, for terminals without ♠♥♦♣")
    ] = False,
    resume: Annotated[
        Path | None, typer.Option(help="resume a match saved with the s key (a meio-record/1)")
    ] = None,
    save: Annotated[
        Path | None, typer.Option(help="the file the s key saves to (default: meio-game.json)")
    ] = None,
    quick: Annotated[
        bool, typer.Option("--quick", help="skip the start screen and deal at once")
    ] = False,
) -> None:
    """Play MEIO against bots, full screen in the terminal.

    With no options a start screen opens with a 4-player MEIO table ready: press
    Enter to deal. Press ? in the game for the keys.
    """
    from meio.engine import MeioError
    from meio.engine import cards as C
    from meio.tui.app import PlayApp
    from meio.tui.session import PlaySettings, Session, SessionError

    try:
        special_cards = (
            tuple(C.cards_of(C.parse_cards(specials)))
            if specials and specials.strip().lower() != "random"
            else None
        )
    except MeioError as exc:
        raise _fail(f"--specials: {exc}") from None
    levels = tuple(b.strip() for b in bots.split(",")) if bots else ()
    settings = PlaySettings(
        edition=edition,
        players=players,
        partnership=partnership,
        specials=special_cards,
        seat=seat,
        seed=random.SystemRandom().randrange(1 << 31) if seed is None else seed,
        bots=levels,
        speed=speed,
    )
    session: Session | None = None
    try:
        if resume is None:
            settings = settings.checked()
        else:
            session = Session.load(resume, settings)
    except SessionError as exc:
        raise _fail(str(exc)) from None
    PlayApp(settings, ascii=ascii, session=session, save_path=save or resume, setup=not quick).run()


@app.command()
def view(
    file: Annotated[Path, typer.Argument(help="a meio-record/1 file")],
    ascii: Annotated[
        bool, typer.Option("--ascii", help="draw suits as S H D C, for terminals without ♠♥♦♣")
    ] = False,
) -> None:
    """Step through a game record, card by card or trick by trick (? for the keys)."""
    from meio.tui.replay import Replay, ReplayApp
    from meio.tui.session import SessionError

    try:
        replay = Replay.load(file, ascii=ascii)
    except SessionError as exc:
        raise _fail(str(exc)) from None
    ReplayApp(replay, title=file.name, ascii=ascii).run()
