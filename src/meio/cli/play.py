"""``meio play`` (a match against bots in the terminal) and ``meio view`` (a replay viewer)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Annotated

import typer

from meio.cli.app import app
from meio.cli.errors import meio_error_text
from meio.cli.files import InputFile, OutputFile
from meio.cli.options import (
    MAX_PLAYERS,
    SEED_MAX,
    HideSpecialsOption,
    PlayersOption,
    VariantOption,
    WildLeadOption,
    check_edition,
    check_table,
    read_variant,
    seed_option,
)
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
        raise _fail(meio_error_text(exc)) from None


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
    edition: Annotated[str, typer.Option(
        callback=check_edition,
        help=_("meio (65-card box edition) or classic"))] = "meio",
    players: PlayersOption = 4,
    partnership: Annotated[
        bool,
        typer.Option("--partnership", help=_("4 players in two teams (seats 0+2, 1+3)")),
    ] = False,
    specials: Annotated[
        str | None,
        typer.Option(help=_("the special cards, e.g. '-1 A+ +.5 Q+' (default: drawn at random)")),
    ] = None,
    seat: Annotated[int, typer.Option(
        min=0, max=MAX_PLAYERS - 1, help=_("your seat, 0 to players-1"))] = 0,
    seed: Annotated[
        int | None, seed_option(_("seed for the deals and bots (default: random)"))
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
        typer.Option(parser=InputFile(), metavar=_("FILE"),
                     help=_("resume a match saved with the s or q key (a meio-record/1)")),
    ] = None,
    save: Annotated[
        Path | None,
        typer.Option(
            parser=OutputFile(), metavar=_("FILE"),
            help=_("the file s and q save to (default: the file given to --resume; else s "
                   "offers meio-game.json and q writes meio-autosave.json)"),
        ),
    ] = None,
    quick: Annotated[
        bool, typer.Option("--quick", help=_("skip the start screen and deal at once"))
    ] = False,
    lang: Annotated[str | None, typer.Option("--lang", help=LANG_HELP)] = None,
    wild_lead: WildLeadOption = "declare",
    hide_specials: HideSpecialsOption = False,
    variant_file: VariantOption = None,
) -> None:
    choose_language(lang)
    if resume is not None and variant_file is not None:
        raise _fail(_("--resume plays the saved match by its own rules: drop --variant"))
    variant = read_variant(variant_file, wild_lead, not hide_specials)
    if resume is None and variant is None:
        check_table(edition, players, partnership)
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
        edition=edition if variant is None else variant.edition,
        players=players,
        partnership=partnership,
        specials=special_cards,
        seat=seat,
        seed=random.SystemRandom().randrange(1 << 31) if seed is None else seed,
        bots=levels,
        speed=speed,
        wild_lead=wild_lead if variant is None else variant.options.wild_lead,
        reveal_specials=not hide_specials if variant is None else variant.options.reveal_specials,
        variant=variant,
    )
    session: Session | None = None
    try:
        if resume is None:
            settings = settings.checked()
        else:
            check_saved_game(resume)
            session = Session.load(resume, settings)
    except SessionError as exc:
        raise _fail(meio_error_text(exc)) from None
    farewell = PlayApp(
        settings, ascii=ascii, session=session, save_path=save or resume, setup=not quick
    ).run()
    if farewell:
        typer.echo(farewell)


def check_saved_game(path: Path) -> None:
    """Refuse, with one line in the command's language, a saved game that cannot be
    resumed: a record that cannot be read or breaks a rule, or a bad side file."""
    from meio.engine.errors import MeioError
    from meio.engine.record import Record
    from meio.i18n.reasons import error_line

    try:
        Record.from_json(path.read_text(encoding="utf-8")).to_state()
    except UnicodeDecodeError:
        raise _fail(_("{file}: not a UTF-8 text file").format(file=path)) from None
    except MeioError as exc:
        raise _fail(_("{file} is not a game that can be resumed: {error}").format(
            file=path, error=error_line(exc))) from None
    check_sidecar(path)


def check_sidecar(record: Path) -> None:
    """Refuse, with one line, the side file of a saved game (``FILE.play.json``: the
    human's seat, the seed, the bots and their speed) when a field has the wrong kind of
    value; a side file that is missing is fine (the options decide)."""
    import json

    from meio.tui.saved import SIDECAR_FORMAT, sidecar_path
    from meio.tui.session import SPEEDS

    path = sidecar_path(record)
    if not path.exists():
        return
    try:
        side = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise _fail(_("{file}: not a readable {format} file").format(
            file=path, format=SIDECAR_FORMAT)) from None
    if not isinstance(side, dict) or side.get("format") != SIDECAR_FORMAT:
        raise _fail(_("{file}: not a {format} file").format(file=path, format=SIDECAR_FORMAT))

    def bad(field: str, wanted: str) -> typer.Exit:
        return _fail(_("{file}: {field} is {value}, not {wanted}").format(
            file=path, field=field, value=json.dumps(side[field]), wanted=wanted))

    def whole(value: object) -> bool:
        return isinstance(value, int) and not isinstance(value, bool)

    if "seat" in side and not (whole(side["seat"]) and 0 <= side["seat"] < MAX_PLAYERS):
        raise bad("seat", _("a seat from 0 to {last}").format(last=MAX_PLAYERS - 1))
    if "seed" in side and not (whole(side["seed"]) and 0 <= side["seed"] <= SEED_MAX):
        raise bad("seed", _("a whole number from 0 to {max}").format(max=SEED_MAX))
    bots = side.get("bots")
    if "bots" in side and not (
        isinstance(bots, list) and all(isinstance(b, str) for b in bots)
    ):
        raise bad("bots", _("a list of bot names"))
    if "speed" in side and side["speed"] not in SPEEDS:
        raise bad("speed", _("one of {speeds}").format(speeds=", ".join(SPEEDS)))


@app.command(
    help=_("Step through a game record, card by card or trick by trick (? for the keys).")
)
def view(
    file: Annotated[Path, typer.Argument(
        parser=InputFile(), metavar=_("FILE"), help=_("a meio-record/1 file"))],
    ascii: Annotated[bool, typer.Option("--ascii", help=ASCII_HELP)] = False,
    lang: Annotated[str | None, typer.Option("--lang", help=LANG_HELP)] = None,
) -> None:
    choose_language(lang)
    from meio.tui.replay import Replay, ReplayApp
    from meio.tui.session import SessionError

    try:
        replay = Replay.load(file, ascii=ascii)
    except SessionError as exc:
        raise _fail(meio_error_text(exc)) from None
    ReplayApp(replay, title=file.name, ascii=ascii).run()
