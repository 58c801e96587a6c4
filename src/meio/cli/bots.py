"""``meio advise`` (the split advisor) and ``meio tournament`` (duplicate bot matches)."""

from __future__ import annotations

import csv
import json
import random
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from meio.cli.app import app
from meio.cli.errors import meio_error_text
from meio.cli.files import OutputFolder
from meio.cli.options import (
    MAX_PLAYERS,
    EditionOption,
    HideSpecialsOption,
    OldPlayersOption,
    PlayersOption,
    VariantOption,
    WildLeadOption,
    check_table,
    either,
    read_variant,
    rules_text,
    seed_option,
)
from meio.i18n import _, decimal

if TYPE_CHECKING:
    from rich.console import RenderableType

    from meio.engine import MatchConfig
    from meio.tournament import Leaderboard


def _fail(message: str) -> typer.Exit:
    typer.echo(_("error: {message}").format(message=message), err=True)
    return typer.Exit(code=2)


@app.command(
    help=_(
        "Rank packs for a hand by expected round score, and say why the best balances "
        "(any ruleset: --variant FILE)."
    )
)
def advise(
    hand: Annotated[
        str, typer.Argument(help=_("your cards as codes (13 in the editions), e.g. "
                                   "'AS KS 9H -1 ...'"))
    ],
    players: PlayersOption = 4,
    edition: EditionOption = "meio",
    partnership: Annotated[bool, typer.Option(help=_("4-player partnership"))] = False,
    specials: Annotated[
        str | None,
        typer.Option(help=_("the special cards in the deck (meio), e.g. '-1,A+,+.5,Q+'; "
                            "default: those in your hand, then -1 A+ -2H +.5 Q+ in that order")),
    ] = None,
    seat: Annotated[int, typer.Option(min=0, max=MAX_PLAYERS - 1, help=_("your seat"))] = 0,
    leader: Annotated[
        int | None, typer.Option(min=0, max=MAX_PLAYERS - 1,
                                 help=_("the seat leading trick 1, if known"))
    ] = None,
    chosen: Annotated[
        str | None, typer.Option(help=_("a pack you are considering (6 codes in the "
                                        "editions)"))
    ] = None,
    budget: Annotated[float, typer.Option(
        min=0.01, max=3600, help=_("seconds of simulation"))] = 2.0,
    top: Annotated[int, typer.Option(min=1, max=1716, help=_("candidates to show"))] = 5,
    seed: Annotated[int, seed_option(_("seed of the simulation"))] = 0,
    as_json: Annotated[bool, typer.Option("--json", help=_("print JSON"))] = False,
    wild_lead: WildLeadOption = "declare",
    hide_specials: HideSpecialsOption = False,
    old_players: OldPlayersOption = None,
    variant_file: VariantOption = None,
) -> None:
    from rich.console import Console
    from rich.table import Table

    from meio.bots.advisor import advise_view
    from meio.cli.advice import explanation
    from meio.engine import MatchConfig, State, TableOptions
    from meio.engine import cards as C
    from meio.engine.errors import MeioError

    players = either(players, old_players)
    variant = read_variant(variant_file, wild_lead, not hide_specials)
    if variant is not None:
        edition = variant.edition
    else:
        check_table(edition, players, partnership)
    if leader is not None and leader >= players:
        raise _fail(_("seat {seat} is not a seat of a {players}-player table").format(
            seat=leader, players=players))
    try:
        mask = C.parse_cards(hand)
        size = variant.hand if variant is not None else 13
        if mask.bit_count() != size:
            raise _fail(_("a hand is {size} cards; you gave {n}").format(
                size=size, n=mask.bit_count()))
        if budget <= 0 or top < 1:
            raise _fail(_("--budget must be positive and --top at least 1"))
        pool = variant.special_pool if variant is not None else C.SPECIALS
        count = variant.deck_for(players).specials if variant is not None else players
        special_ids = _specials(edition, count, mask, specials, pool)
        cfg = MatchConfig(edition=edition, players=players,  # type: ignore[arg-type]
                          partnership=partnership, specials=special_ids, seed=seed,
                          first_leader=leader,
                          options=TableOptions(wild_lead, not hide_specials)  # type: ignore[arg-type]
                          if variant is None else variant.options, variant=variant)
        if not 0 <= seat < players:
            raise _fail(_("seat {seat} is not a seat of a {players}-player table").format(
                seat=seat, players=players))
        outside = mask & ~cfg.deck
        if outside:
            raise _fail(_("{cards} not in the {edition} deck for {players} players with "
                          "these specials").format(
                cards=C.format_cards(outside),
                edition=variant.name if variant is not None else edition, players=players))
        view = State.new(cfg, deals=[_deal(cfg, mask, seat, seed)]).view(seat)
        chosen_mask = None
        if chosen is not None:
            chosen_mask = C.parse_cards(chosen)
            pack = cfg.rules.pack
            if chosen_mask & ~mask or chosen_mask.bit_count() != pack:
                raise _fail(_("--chosen must be {n} cards of your hand").format(n=pack))
        advice = advise_view(view, chosen_pack=chosen_mask, budget_s=budget, seed=seed)
    except MeioError as exc:
        raise _fail(meio_error_text(exc)) from None
    if as_json:
        typer.echo(json.dumps(advice.to_dict(), indent=1))
        return
    console = Console()
    table = Table(title=_("Packs for {hand} ({n} simulated deals)").format(
        hand=C.format_cards(mask), n=advice.worlds))
    table.add_column("#", justify="right")
    table.add_column(_("pack (second half)"), no_wrap=True)
    table.add_column(_("expected |H-V|"), justify="right")
    table.add_column(_("95% CI"), justify="right", no_wrap=True)
    table.add_column("H", justify="right")
    table.add_column("V", justify="right")
    shown = advice.candidates[:top]
    if advice.chosen is not None and advice.chosen not in shown:
        shown.append(advice.chosen)
    for i, c in enumerate(shown, 1):
        mark = _(" (yours)") if advice.chosen is not None and c.pack == advice.chosen.pack else ""
        table.add_row(str(i), C.format_cards(c.pack) + mark, decimal(c.mean),
                      f"{decimal(c.low)}–{decimal(c.high)}", decimal(c.first_half_tricks, 1),
                      decimal(c.second_half_tricks, 1))
    console.print(table)
    console.print(explanation(advice, mask, cfg))


def _specials(edition: str, count: int, hand: int, given: str | None,
              pool: tuple[int, ...]) -> tuple[int, ...] | None:
    """The table's ``count`` special cards: those ``given``, else those of ``pool`` in the
    hand, then the rest of ``pool`` in order."""
    from meio.engine import cards as C

    if edition != "meio" or not count:
        return None if edition != "meio" else ()
    if given is not None:
        return tuple(C.cards_of(C.parse_cards(given)))
    held = [c for c in pool if hand >> c & 1]
    rest = [c for c in pool if c not in held]
    return tuple(sorted((held + rest)[:count])) if len(held) <= count else tuple(held)


def _deal(cfg: MatchConfig, hand: int, seat: int, seed: int) -> tuple[list[int], int, int]:
    """Some deal giving ``seat`` its hand; the others' cards are placeholders the advisor
    never sees (it reads only the seat's view)."""
    from meio.engine import cards as C

    size = cfg.rules.hand
    rest = C.cards_of(cfg.deck & ~hand)
    random.Random(seed).shuffle(rest)
    hands = []
    for s in range(cfg.players):
        if s == seat:
            hands.append(hand)
        else:
            hands.append(C.mask_of(rest[:size]))
            rest = rest[size:]
    return hands, C.mask_of(rest), cfg.leader_of_round_one


@app.command(
    help=_(
        "Play duplicate matches between bots and report who is better.\n\n"
        "Every deal is replayed with the bots rotated through the seats, so the luck of "
        "the deal cancels out. Saves each match as a meio-record/1 file under OUT/records "
        "and the summary as OUT/summary.json and OUT/summary.csv."
    )
)
def tournament(
    bots: Annotated[
        str, typer.Option(help=_("comma-separated bots, e.g. search,heuristic,random"))
    ],
    players: PlayersOption = 4,
    edition: EditionOption = "meio",
    partnership: Annotated[bool, typer.Option(help=_("4-player partnership"))] = False,
    matches: Annotated[
        int, typer.Option(min=1, max=1_000_000, help=_("deals; each is played once per lineup"))
    ] = 10,
    jobs: Annotated[int, typer.Option(min=1, max=1024, help=_("worker processes"))] = 1,
    ray: Annotated[str | None, typer.Option(
        help=_("Ray cluster address (HOST:PORT or auto): one task per match; needs "
               "meio\\[cluster]"))] = None,
    seed: Annotated[int, seed_option(_("base seed of the deals"))] = 0,
    out: Annotated[Path, typer.Option(
        parser=OutputFolder(), metavar=_("FOLDER"),
        help=_("folder for records and the summary"))] = Path("tournament"),
    as_json: Annotated[bool, typer.Option("--json", help=_("print the summary JSON"))] = False,
    wild_lead: WildLeadOption = "declare",
    hide_specials: HideSpecialsOption = False,
    old_players: OldPlayersOption = None,
    variant_file: VariantOption = None,
) -> None:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from meio.engine import MatchConfig, TableOptions
    from meio.engine.errors import MeioError
    from meio.tournament import (
        TournamentSpec,
        leaderboard,
        run_tournament,
        summarize,
        tournament_bot_kinds,
    )

    players = either(players, old_players)
    variant = read_variant(variant_file, wild_lead, not hide_specials)
    if variant is not None:
        edition = variant.edition
    else:
        check_table(edition, players, partnership)
    names = tuple(b.strip() for b in bots.split(",") if b.strip())
    known = tournament_bot_kinds()
    unknown = [b for b in names if b not in known
               and not b.startswith(("learned:", "ismcts:"))]
    if not names or unknown:
        raise _fail(_("unknown bot {names}; choose from {known}").format(
            names=", ".join(unknown) or _("(none given)"), known=", ".join(known)))
    if matches < 1 or jobs < 1:
        raise _fail(_("--matches and --jobs must be at least 1"))
    try:
        config = MatchConfig(edition=edition, players=players,  # type: ignore[arg-type]
                             partnership=partnership,
                             options=TableOptions(wild_lead, not hide_specials)  # type: ignore[arg-type]
                             if variant is None else variant.options,
                             variant=variant)
    except MeioError as exc:
        raise _fail(meio_error_text(exc)) from None
    try:
        spec = TournamentSpec(names, players, config.edition, partnership, matches, seed,
                              wild_lead=config.options.wild_lead,
                              reveal_specials=config.options.reveal_specials,
                              variant=variant)
    except MeioError as exc:
        raise _fail(meio_error_text(exc)) from None
    total = spec.games
    console = Console(stderr=True)
    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeRemainingColumn(), console=console) as bar:
        task = bar.add_task(_("matches"), total=total)
        try:
            results = run_tournament(spec, jobs=jobs, record_dir=out / "records",
                                     progress=lambda _r: bar.advance(task), ray_address=ray)
        except MeioError as exc:
            raise _fail(meio_error_text(exc)) from None
    summary = summarize(results)
    board = leaderboard(results, seed=seed)
    document = {**summary.to_json(), "leaderboard": board.to_json()}
    if variant is not None:
        document["variant"] = variant.name
    out.mkdir(parents=True, exist_ok=True)
    (out / "summary.json").write_text(json.dumps(document, indent=1))
    with (out / "summary.csv").open("w", newline="") as fh:
        csv.writer(fh).writerows(summary.csv_rows())
    if as_json:
        typer.echo(json.dumps(document, indent=1))
        return
    out_console = Console()
    for line in tournament_tables(board, config, variant.name if variant else None):
        out_console.print(line)
    out_console.print(_("rating: Bradley–Terry fit to the pairwise results, Elo scale, "
                        "mean 1500; intervals: 95% bootstrap over deals. Records and "
                        "summary in {folder}/").format(folder=out))


def _interval(value: float, low: float, high: float, digits: int) -> str:
    """``value [low, high]`` in the command's language."""
    return f"{decimal(value, digits)} [{decimal(low, digits)}, {decimal(high, digits)}]"


def tournament_tables(board: Leaderboard, config: MatchConfig,
                      variant: str | None) -> list[RenderableType]:
    """What ``meio tournament`` prints: each bot's rating, wins and mean round score
    with their 95% intervals, then each bot's paired difference with the first bot on
    the same deals, and the pairwise win rates; each table fits 80 columns."""
    from rich.table import Table

    kind = (_("{players}-player {edition} partnership") if config.partnership
            else _("{players}-player {edition}")).format(players=config.players,
                                                        edition=config.edition)
    if variant is not None:
        kind = _("variant {name}, {table}").format(name=variant, table=kind)
    table = Table(title=_("{table} ({options}): {deals} deals, {games} matches").format(
        table=kind, options=rules_text(config.options.wild_lead,
                                       config.options.reveal_specials),
        deals=board.deals, games=board.games))
    table.add_column(_("bot"), no_wrap=True)
    for col in (_("rating [95% CI]"), _("wins a seat"), _("round score [95% CI]")):
        table.add_column(col, justify="right", no_wrap=True)
    for e in board.entries:
        table.add_row(e.bot, _interval(e.rating, *e.rating_ci95, 0),
                      decimal(100 * e.win_rate_per_seat, 1) + "%",
                      _interval(e.mean_round_score, *e.mean_round_score_ci95, 2))
    out: list[RenderableType] = [table]
    if len(board.entries) > 1:
        ref = board.reference
        diff = Table(title=_("paired difference of the mean round score with {bot} on the "
                             "same deals (negative: better)").format(bot=ref))
        diff.add_column(_("bot"), no_wrap=True)
        diff.add_column(_("difference [95% CI]"), justify="right", no_wrap=True)
        for e in board.entries:
            if e.bot != ref:
                diff.add_row(e.bot, _interval(e.vs_reference, *e.vs_reference_ci95, 3))
        out.append(diff)
        pw = Table(title=_("pairwise win rate (row against column)"))
        pw.add_column("")
        order = [e.bot for e in board.entries]
        for name in order:
            pw.add_column(name)
        for a in order:
            pw.add_row(a, *("—" if a == c else
                            f"{100 * board.pairwise[a].get(c, (0.0, 0.0, 0.0))[0]:.0f}%"
                            for c in order))
        out.append(pw)
    return out
