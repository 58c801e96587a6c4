"""``meio bench``: the benchmark protocol — bots on a fixed, versioned deal set, a leaderboard.

The protocol (docs/rl.md, "Benchmark protocol"): the first ``--deals`` deals of
one table of a shipped deal set (checked against its SHA-256 before anything
is played), every listed bot in balanced seats on every deal
(:func:`~meio.tournament.lineups`), and a leaderboard with Bradley–Terry
ratings, mean round scores and paired differences, each with a 95% bootstrap
interval over deals (:mod:`meio.tournament.leaderboard`).
"""

from __future__ import annotations

import json
import shlex
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from meio.cli.app import app
from meio.cli.errors import meio_error_text
from meio.cli.files import OutputFolder
from meio.cli.options import OldPlayersOption, PlayersOption, either, seed_option
from meio.i18n import _

if TYPE_CHECKING:
    from meio.tournament import MatchResult, TournamentSpec
    from meio.tournament.leaderboard import Leaderboard

BENCH_FORMAT = "meio-bench/1"


def _fail(message: str) -> typer.Exit:
    typer.echo(_("error: {message}").format(message=message), err=True)
    return typer.Exit(code=2)


@app.command(
    help=_(
        "Play bots on a fixed benchmark deal set and print a leaderboard a paper can cite.\n\n"
        "Every listed bot sits in every seat equally often on the same deals (the first "
        "DEALS of the table in the deal set, checked against its checksum); ratings, mean "
        "round scores and paired differences come with 95% bootstrap intervals over deals."
    )
)
def bench(
    bots: Annotated[
        str, typer.Option(help=_("comma-separated bots, e.g. random,heuristic,search:1"))
    ] = "random,heuristic,learned",
    players: PlayersOption = 4,
    edition: Annotated[str, typer.Option(help=_("meio or classic"))] = "meio",
    partnership: Annotated[bool, typer.Option(help=_("4-player partnership"))] = False,
    deal_set: Annotated[
        str, typer.Option("--set", help=_("the benchmark deal set"))
    ] = "meio-bench-v1",
    deals: Annotated[
        int | None, typer.Option(min=1, max=1_000_000,
                                 help=_("play the first DEALS deals (default: all of them)"))
    ] = None,
    seed: Annotated[int, seed_option(_("seed of the bots and of the bootstrap"))] = 0,
    jobs: Annotated[int, typer.Option(min=1, max=256, help=_("worker processes"))] = 1,
    bootstrap: Annotated[
        int, typer.Option(min=10, max=100_000,
                          help=_("bootstrap resamples of the deals for the intervals"))
    ] = 1000,
    agents: Annotated[
        list[str] | None,
        typer.Option("--agent", metavar="MODULE:FACTORY",
                     help=_("also seat an outside agent: FACTORY(seed) in MODULE (or in a "
                            ".py file) returns the bot; may be given more than once")),
    ] = None,
    reference: Annotated[
        str | None,
        typer.Option(help=_("the bot paired differences are taken against (default: the "
                            "first listed)")),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(parser=OutputFolder(), metavar=_("FOLDER"),
                     help=_("folder for the records of every match and bench.json")),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help=_("print the result as JSON"))] = False,
    list_sets: Annotated[
        bool, typer.Option("--list", help=_("list the deal sets and their tables, and exit"))
    ] = False,
    old_players: OldPlayersOption = None,
) -> None:
    players = either(players, old_players)
    from meio.bots.versions import (
        ACTION_ENCODING,
        COMPACT_ACTION_ENCODING,
        OBSERVATION_ENCODING,
        describe_bot,
    )
    from meio.engine.errors import MeioError
    from meio.tournament import TournamentSpec, lineups, make_player, tournament_bot_kinds
    from meio.tournament.dealset import DEAL_SETS, load_deal_set
    from meio.tournament.leaderboard import leaderboard

    if list_sets:
        for name, digest in DEAL_SETS.items():
            try:
                ds = load_deal_set(name)
            except MeioError as exc:
                raise _fail(meio_error_text(exc)) from None
            tables = ", ".join(f"{k} ({len(t.deals)})" for k, t in ds.tables.items())
            typer.echo(f"{name}  sha256 {digest}\n  {tables}")
        return
    from meio.tournament.agents import describe_agent, is_agent_spec

    names = tuple([*(b.strip() for b in bots.split(",") if b.strip()), *(agents or ())])
    known = tournament_bot_kinds()
    bad_agents = [a for a in agents or () if not is_agent_spec(a)]
    if bad_agents:
        raise _fail(_("--agent {agent}: write MODULE:FACTORY or FILE.py:FACTORY").format(
            agent=bad_agents[0]))
    unknown = [b for b in names if b not in known and not is_agent_spec(b)
               and not b.startswith(("learned:", "ismcts:", "search:5:", "search:6:"))]
    if not names or unknown:
        raise _fail(_("unknown bot {names}; choose from {known}").format(
            names=", ".join(unknown) or _("(none given)"), known=", ".join(known)))
    if reference is not None and reference not in names:
        raise _fail(_("the reference bot {bot} is not one of --bots").format(bot=reference))
    try:
        table = load_deal_set(deal_set).table(edition, players, partnership)
        count = len(table.deals) if deals is None else deals
        if not 1 <= count <= len(table.deals):
            raise _fail(_("--deals must be between 1 and {n}").format(n=len(table.deals)))
        spec = TournamentSpec(names, players, table.edition, partnership, count, seed,
                              deal_table=table)
        schedule = lineups(names, players, partnership)
        for name in names:
            make_player(name, 0)  # a bad bot (ismcts:0, learned:FILE) fails before any play
        versions = {name: describe_agent(name) if is_agent_spec(name) else describe_bot(name)
                    for name in names}
        records = None if out is None else out / "records"
        started = time.perf_counter()
        results = _play(spec, jobs, records)
        elapsed = time.perf_counter() - started
        board = leaderboard(results, reference=reference or names[0], bootstrap=bootstrap,
                            seed=seed)
    except MeioError as exc:
        raise _fail(meio_error_text(exc)) from None
    except OSError as exc:
        raise _fail(_("cannot write {path}: {reason}").format(
            path=exc.filename or out, reason=exc.strerror or exc)) from None
    from meio import __version__

    listed = [n for n in names if n not in (agents or ())]
    command = ["meio", "bench", "--bots", ",".join(listed),
               *(x for a in agents or () for x in ("--agent", a)), "--players", str(players),
               "--edition", table.edition, *(["--partnership"] if partnership else []),
               "--set", deal_set, "--deals", str(count), "--seed", str(seed),
               "--bootstrap", str(bootstrap), "--reference", board.reference]
    doc: dict[str, object] = {
        "format": BENCH_FORMAT,
        "meio": __version__,
        "command": shlex.join(command),
        "set": deal_set,
        "sha256": DEAL_SETS[deal_set],
        "table": table.key,
        "bots": list(names),
        "bot_versions": versions,
        "encodings": {"observation": OBSERVATION_ENCODING, "actions": ACTION_ENCODING,
                      "compact_actions": COMPACT_ACTION_ENCODING},
        "seed": seed,
        "lineups_per_deal": len(schedule),
        "lineups": [list(lineup) for lineup in schedule],
        "elapsed_s": round(elapsed, 1),
        "jobs": jobs,
        **board.to_json(),
    }
    if out is not None:
        try:
            out.mkdir(parents=True, exist_ok=True)
            (out / "bench.json").write_text(json.dumps(doc, indent=1))
        except OSError as exc:
            raise _fail(_("cannot write {path}: {reason}").format(
                path=out / "bench.json", reason=exc.strerror or exc)) from None
    if as_json:
        typer.echo(json.dumps(doc, indent=1))
        return
    _print(board, doc)


def _play(spec: TournamentSpec, jobs: int, records: Path | None) -> list[MatchResult]:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from meio.tournament import run_tournament

    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeRemainingColumn(),
                  console=Console(stderr=True)) as bar:
        task = bar.add_task(_("matches"), total=spec.games)
        return run_tournament(spec, jobs=jobs, record_dir=records,
                              progress=lambda _r: bar.advance(task))


def _print(board: Leaderboard, doc: dict[str, object]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    table = Table(title=_("{set} {table}: {deals} deals × {lineups} lineups = {games} matches "
                          "({seconds} s)").format(
        set=doc["set"], table=doc["table"], deals=board.deals, lineups=doc["lineups_per_deal"],
        games=board.games, seconds=doc["elapsed_s"]))
    table.add_column(_("bot"), no_wrap=True)
    for col in (_("rating [95% CI]"), _("mean round score [95% CI]"),
                _("vs {bot} [95% CI]").format(bot=board.reference), _("seats"),
                _("win % per seat")):
        table.add_column(col, justify="right")
    for e in board.entries:
        lo, hi = e.mean_round_score_ci95
        table.add_row(e.bot, f"{e.rating:.0f} [{e.rating_ci95[0]:.0f}, {e.rating_ci95[1]:.0f}]",
                      f"{e.mean_round_score:.3f} [{lo:.3f}, {hi:.3f}]",
                      f"{e.vs_reference:+.3f} [{e.vs_reference_ci95[0]:+.3f}, "
                      f"{e.vs_reference_ci95[1]:+.3f}]",
                      str(e.seats), f"{100 * e.win_rate_per_seat:.1f}")
    console.print(table)
    console.print(_("rating: Bradley–Terry fit to who finished ahead of whom, Elo scale, mean "
                    "1500; round scores: lower is better; 'vs' is the paired difference per "
                    "deal (negative: better). Intervals: {intervals}.").format(
        intervals=doc["intervals"]))
    console.print(_("set {set} sha256 {sha}").format(set=doc["set"], sha=doc["sha256"]))
    console.print(_("to reproduce: {command}").format(command=doc["command"]))
