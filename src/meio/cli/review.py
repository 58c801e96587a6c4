"""``meio review``, ``meio puzzle`` and ``meio mine-puzzles``: learn from finished games."""

from __future__ import annotations

import datetime
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from meio.cli.app import app
from meio.cli.files import InputFile, OutputFile, open_input, os_error_text
from meio.cli.options import seed_option
from meio.i18n import _, decimal

if TYPE_CHECKING:
    from meio.engine import View
    from meio.puzzles import Entry
    from meio.review import Review


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
        typer.Option("--seat", min=0, max=4, help=_("review only this seat (may be repeated)")),
    ] = None,
    seed: Annotated[int, seed_option(_("seed of the sampled worlds"))] = 0,
) -> None:
    from meio.engine.errors import MeioError
    from meio.engine.record import Record
    from meio.i18n.reasons import error_line
    from meio.review import BUDGETS, review_match

    if depth not in ("quick", "deep"):
        raise _fail(_("--depth is quick or deep, not {depth!r}").format(depth=depth))
    try:
        with open_input(file) as fh:
            text = fh.read()
        if not text.strip():
            raise _fail(_("{file}: empty; a record is a JSON object").format(file=file))
        record = Record.from_json(text)
        state = record.to_state()
        players = state.config.players
        if not state.is_over:
            raise _fail(_("{file}: only a finished match can be reviewed: this one is still "
                          "in play").format(file=file))
        if state.config.variant is not None:
            raise _fail(_("{file}: reviews are for the meio and classic editions, not for "
                          "variants").format(file=file))
        if any(s >= players for s in seat or []):
            raise _fail(_("{file}: a {players}-player match has seats 0 to {last}").format(
                file=file, players=players, last=players - 1))
        result = review_match(record, budget=BUDGETS[depth], depth=depth, seed=seed,
                              seats=seat or None)
    except UnicodeDecodeError:
        raise _fail(_("{file}: not a UTF-8 text file").format(file=file)) from None
    except OSError as exc:
        raise _fail(_("{file}: cannot be read ({reason})").format(
            file=file, reason=os_error_text(exc))) from None
    except MeioError as exc:
        raise _fail(error_line(exc)) from None
    if as_json:
        typer.echo(json.dumps(result.to_json(), indent=1))
        return
    for line in review_lines(result):
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
    count: Annotated[int, typer.Option("--count", min=1, max=100_000,
                                       help=_("puzzles to find"))] = 500,
    seed: Annotated[int, seed_option(_("seed of the self-play and the worlds"))] = 39,
    records: Annotated[
        Path | None,
        typer.Option("--records", parser=InputFile(), metavar=_("FILE"),
                     help=_("JSON Lines of finished records to mine first")),
    ] = None,
    name: Annotated[str, typer.Option("--name", help=_("the set's name"))] = "meio-puzzles-v2",
    jobs: Annotated[int, typer.Option("--jobs", min=1, max=64,
                                      help=_("matches mined at once, in worker processes "
                                             "(the puzzles found do not depend on it)"))] = 1,
    kind: Annotated[
        list[str] | None,
        typer.Option("--kind", help=_("mine only this kind of position: {kinds} (may be "
                                      "repeated)").format(kinds="split, lead, follow, pile")),
    ] = None,
    split_share: Annotated[
        float | None,
        typer.Option("--split-share", min=0.0, max=1.0,
                     help=_("the share of splits looked at (the advisor costs seconds a "
                            "split)")),
    ] = None,
    base: Annotated[
        Path | None,
        typer.Option("--base", parser=InputFile(), metavar=_("FILE"),
                     help=_("a puzzle set whose puzzles the new set keeps first, as they "
                            "are; --count counts the puzzles added")),
    ] = None,
) -> None:
    from meio.engine.errors import MeioError
    from meio.engine.record import Record
    from meio.puzzles.collection import read_set, set_json, write_set
    from meio.puzzles.mine import KINDS, MIN_GAP, SCREEN, SPLIT_SHARE, Puzzle, mine
    from meio.review.judge import HIGH

    given: list[Record] = []
    kinds = tuple(kind or KINDS)
    share = SPLIT_SHARE if split_share is None else split_share
    try:
        if records is not None:
            with open_input(records) as fh:
                given = [Record.from_json(line) for line in fh if line.strip()]
        kept: list[dict[str, object]] = []
        budget: dict[str, object] = {
            "screen": SCREEN._asdict(), "confirm": HIGH._asdict(), "min_gap": MIN_GAP,
            "split_share": share, "kinds": list(kinds)}
        if base is not None:
            data = base.read_bytes()
            old = read_set(data, str(base))
            kept = list(set_json(data, str(base))["puzzles"])
            budget["base"] = {"set": old.name, "seed": old.seed, "version": old.version,
                              "command": old.command, "budget": old.budget,
                              "puzzles": len(kept)}
        taken = {str(p["id"]) for p in kept}
        command = " ".join(["meio", "mine-puzzles", *sys.argv[2:]])

        def progress(found: list[Puzzle], matches: int) -> None:
            clash = next((p.id for p in found if p.id in taken), None)
            if clash is not None:
                raise MeioError(f"puzzle {clash} is in the base set already: mine with "
                                f"another --seed")
            # written after every match, so a long run can be followed (and stopped)
            write_set(out, name, seed, command, budget, kept + [p.to_json() for p in found])
            typer.echo(_("{found} puzzles from {matches} matches").format(
                found=len(found), matches=matches), err=True)

        puzzles = mine(count, seed, records=given, jobs=jobs, progress=progress, kinds=kinds,
                       split_share=share)
    except OSError as exc:
        raise _fail(f"{records or base or out}: {os_error_text(exc)}") from None
    except MeioError as exc:
        raise _fail(str(exc)) from None
    typer.echo(_("{count} puzzles written to {file}").format(count=len(kept) + len(puzzles),
                                                            file=out))


def flag_name(flag: str) -> str:
    """A flag's name in the current language."""
    return {"blunder": _("blunder"), "mistake": _("mistake"),
            "inaccuracy": _("inaccuracy")}[flag]


def review_lines(review: Review) -> Iterator[str]:
    """A readable review: each seat's accuracy and flags, then every flagged decision."""
    yield _("Review ({depth}): decisions judged from each player's own view").format(
        depth=_("quick") if review.depth == "quick" else _("deep"))
    for seat in range(review.players):
        s = review.summary(seat)
        if s.accuracy is None:
            continue
        flags = ", ".join(f"{n} {flag_name(k)}" for k, n in s.flags.items() if n) or _("none")
        yield _("seat {seat}: accuracy {accuracy}%, flags: {flags}").format(
            seat=seat, accuracy=decimal(s.accuracy, 1), flags=flags)
    for d in review.decisions:
        j = d.judgement
        if j.flag is None:
            continue
        where = (_("round {round}, split") if d.trick == 0
                 else _("round {round}, trick {trick}")).format(round=d.round + 1, trick=d.trick)
        yield _("{where} (seat {seat}): {flag}: {action} lost {loss} ± {margin} points a "
                "round; better: {best} ({worlds} worlds)").format(
            where=where, seat=j.seat, flag=flag_name(j.flag), action=j.action,
            loss=decimal(j.loss, 2), margin=decimal(j.margin, 2), best=j.best,
            worlds=j.worlds)


def theme_name(theme: str) -> str:
    """A puzzle theme's name in the current language."""
    names = {
        "split-balance": _("split: balance the halves"),
        "split-special": _("split: the right half for a special card"),
        "pile": _("pile: put the trick where it balances"),
        "q-plus": _("Q+: send a trick to the other half"),
        "plus-half": _("+.5: take the trick and choose its pile"),
        "declare": _("declare the suit that keeps the trick"),
        "lead": _("the lead that balances"),
        "take": _("take the trick your half needs"),
        "duck": _("duck to balance"),
        "follow": _("follow with the right card"),
    }
    return names.get(theme, theme)


def position_lines(view: View) -> Iterator[str]:
    """What the solver sees: their cards, the trick so far, the piles; nothing hidden."""
    from meio.engine import Phase
    from meio.engine import cards as C

    seat = view.seat
    assert seat is not None
    n = view.config.players
    table = _("{players} players").format(players=n)
    if view.config.partnership:
        table += ", " + _("partnership")
    yield _("{edition}, {table}; you are seat {seat}; round {round}").format(
        edition=view.config.edition, table=table, seat=seat, round=view.round_index + 1)
    if view.phase is Phase.SPLIT:
        yield _("Split: choose 6 of your 13 cards for the second half.")
        yield _("Your cards: {cards}").format(cards=C.format_cards(view.hand))
        return
    yield _("Half {half}, trick {trick}").format(half=view.half, trick=view.trick_number)
    yield _("Your cards: {cards}").format(cards=C.format_cards(view.hand))
    if view.pack:
        yield _("Your pack: {cards}").format(cards=C.format_cards(view.pack))
    piles = ", ".join(f"{s}: {h}/{v}" for s, (h, v) in enumerate(view.piles))
    yield _("Piles (first/second half) by seat: {piles}").format(piles=piles)
    if view.current_trick:
        played = ", ".join(f"{s}: {C.card_code(c)}" for s, c in view.current_trick)
        yield _("Trick so far: {cards}").format(cards=played)
    if view.phase is Phase.PILE:
        yield _("You won the trick with +.5: choose its pile (pile=1 or pile=2).")


def move_text(text: str) -> str:
    """A puzzle's move as the solver reads it: a pack as its cards, else as it is."""
    from meio.engine import actions as A
    from meio.engine import cards as C

    if text.startswith("pack:"):
        return C.format_cards(A.pack_of(A.parse_action(text)))
    return text


def _pick(entry_id: str | None, daily: bool) -> Entry:
    import random

    from meio.puzzles import shipped

    puzzles = shipped()
    if entry_id is not None:
        return puzzles.get(entry_id)
    if daily:
        return puzzles.daily(datetime.datetime.now(datetime.UTC).date())
    return random.choice(puzzles.puzzles)


@app.command(
    help=_(
        "Solve a puzzle: a position from a real game where one move is clearly best from "
        "the player's view. Your rating and streak are kept in a file."
    )
)
def puzzle(
    puzzle_id: Annotated[str | None, typer.Option("--id", help=_("the puzzle to solve"))] = None,
    daily: Annotated[bool, typer.Option("--daily", help=_("today's puzzle"))] = False,
    progress_file: Annotated[
        Path | None,
        typer.Option("--progress", parser=OutputFile(), metavar=_("FILE"),
                     help=_("where your rating and streak are kept (default: meio's data "
                            "folder)")),
    ] = None,
) -> None:
    import platformdirs

    from meio.engine.errors import MeioError
    from meio.puzzles.progress import Progress
    from meio.ratings import Rating

    path = progress_file or Path(platformdirs.user_data_dir("meio")) / "puzzles.json"
    try:
        entry = _pick(puzzle_id, daily)
        view = entry.view()
        saved = json.loads(path.read_text()) if path.exists() else {}
        mine = Progress.from_json(saved["player"]) if "player" in saved else Progress()
    except OSError as exc:
        raise _fail(f"{path}: {os_error_text(exc)}") from None
    except ValueError as exc:
        raise _fail(f"{path}: {exc}") from None
    except MeioError as exc:
        raise _fail(str(exc)) from None
    typer.echo(_("Puzzle {id}").format(id=entry.id))
    for line in position_lines(view):
        typer.echo(line)
    if entry.choices:
        typer.echo(_("Which of these packs is best?"))
        for n, choice in enumerate(entry.choices, 1):
            typer.echo(f"  {n}) {move_text(choice)}")
    legal = list(view.legal_actions())
    while True:
        text = typer.prompt(_("Your pack (its number, or its 6 cards)") if entry.choices
                            else _("Your move (a card, Q+=D, pile=2, or 6 cards)"))
        try:
            action = entry.move(text)
        except (MeioError, ValueError) as exc:
            typer.echo(str(exc))
            continue
        if action in legal:
            break
        typer.echo(_("{move} is not legal here; try again").format(move=text.strip()))
    solved = entry.solves(action)
    ratings = saved.get("puzzles", {})
    rated = ratings.get(entry.id)
    before = Rating(rated["mu"], rated["sigma"], rated["games"]) if rated else Rating()
    mine, after = mine.attempt(before, solved=solved)
    typer.echo(_("Solved!") if solved else _("Not the best: {answer} was.").format(
        answer=move_text(entry.answer)))
    typer.echo(_("Theme: {theme}").format(theme=theme_name(entry.theme)))
    shown = [(a, v) for a, v in entry.options if a in entry.choices] or entry.options[:4]
    best = ", ".join(f"{move_text(a)} {decimal(v, 2)}" for a, v in shown)
    typer.echo(_("Expected round scores (lower is better): {options}").format(options=best))
    typer.echo(_("Your rating {rating}, streak {streak}").format(
        rating=decimal(mine.rating.ordinal, 1), streak=mine.streak))
    ratings[entry.id] = {"mu": after.mu, "sigma": after.sigma, "games": after.games}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"player": mine.to_json(), "puzzles": ratings}))
    except OSError as exc:
        raise _fail(f"{path}: {os_error_text(exc)}") from None
