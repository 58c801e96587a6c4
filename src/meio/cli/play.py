"""``meio play`` (a match against bots in the terminal) and ``meio view`` (a replay viewer)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Annotated

import typer

from meio.cli.app import app
from meio.cli.options import HideSpecialsOption, WildLeadOption
from meio.i18n import _


def _fail(message: str) -> typer.Exit:
    typer.echo(message, err=True)
    return typer.Exit(code=2)


def choose_language(lang: str | None) -> None:
    """Switch the messages to ``--lang`` (en or pt), or exit 2 with the reason."""
    from meio.cli.lang import speak
    from meio.i18n import LanguageError

    if lang is None:
        return
    try:
        speak(lang)
    except LanguageError as exc:
        raise _fail(str(exc)) from None


LANG_HELP = _("language of the game: en (English) or pt (Português); default: from LANG")
ASCII_HELP = _("draw suits as S H D C and plain borders, for terminals without ♠♥♦♣")


@app.command(
    help=_(
        "Play MEIO against bots, full screen in the terminal.\n\n"
        "With no options a start screen opens with a 4-player MEIO table ready: press "
        "Enter to deal. Press ? in the game for the keys."
    )
)
def play(
    edition: Annotated[str, typer.Option(help=_("meio (65-card box edition) or classic"))] = "meio",
    players: Annotated[int, typer.Option(help=_("table size: 2-5 (classic: 2-4)"))] = 4,
    partnership: Annotated[
        bool,
        typer.Option("--partnership", help=_("4 players in two teams (seats 0+2, 1+3)")),
    ] = False,
    specials: Annotated[
        str | None,
        typer.Option(help=_("the special cards, e.g. '-1 A+ +.5 Q+' (default: drawn at random)")),
    ] = None,
    seat: Annotated[int, typer.Option(help=_("your seat, 0 to players-1"))] = 0,
    seed: Annotated[
        int | None, typer.Option(help=_("seed for the deals and bots (default: random)"))
    ] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            help=_(
                "bot level for the other seats: one level, or one per other seat "
                "separated by commas (default: heuristic)"
            )
        ),
    ] = None,
    speed: Annotated[
        str, typer.Option(help=_("how fast the bots play: slow, normal, fast or instant"))
    ] = "normal",
    ascii: Annotated[bool, typer.Option("--ascii", help=ASCII_HELP)] = False,
    resume: Annotated[
        Path | None,
        typer.Option(help=_("resume a match saved with the s or q key (a meio-record/1)")),
    ] = None,
    save: Annotated[
        Path | None,
        typer.Option(help=_("the file s and q save to (default: meio-game.json)")),
    ] = None,
    quick: Annotated[
        bool, typer.Option("--quick", help=_("skip the start screen and deal at once"))
    ] = False,
    lang: Annotated[str | None, typer.Option("--lang", help=LANG_HELP)] = None,
    wild_lead: WildLeadOption = "declare",
    hide_specials: HideSpecialsOption = False,
) -> None:
    choose_language(lang)
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
        wild_lead=wild_lead,
        reveal_specials=not hide_specials,
    )
    session: Session | None = None
    try:
        if resume is None:
            settings = settings.checked()
        else:
            session = Session.load(resume, settings)
    except SessionError as exc:
        raise _fail(str(exc)) from None
    farewell = PlayApp(
        settings, ascii=ascii, session=session, save_path=save or resume, setup=not quick
    ).run()
    if farewell:
        typer.echo(farewell)


@app.command(
    help=_("Step through a game record, card by card or trick by trick (? for the keys).")
)
def view(
    file: Annotated[Path, typer.Argument(help=_("a meio-record/1 file"))],
    ascii: Annotated[bool, typer.Option("--ascii", help=ASCII_HELP)] = False,
    lang: Annotated[str | None, typer.Option("--lang", help=LANG_HELP)] = None,
) -> None:
    choose_language(lang)
    from meio.tui.replay import Replay, ReplayApp
    from meio.tui.session import SessionError

    try:
        replay = Replay.load(file, ascii=ascii)
    except SessionError as exc:
        raise _fail(str(exc)) from None
    ReplayApp(replay, title=file.name, ascii=ascii).run()
