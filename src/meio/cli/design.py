"""``meio design``: the designer's report card and the rule tuner (:mod:`meio.design`).

A sub-app of its own rather than more questions under ``meio analyze``: a designer
asks about one ruleset as a whole under strong play (is it fair, deep, decisive, how
long), where ``analyze`` studies the editions' tables under self-play; the two share
the lab's statistics, not their options.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated

import typer

from meio.cli.app import app
from meio.cli.files import OutputFolder
from meio.cli.options import MAX_PLAYERS, seed_option
from meio.i18n import _

design_app = typer.Typer(
    help=_("The designer's tools: a ruleset's report card under strong play, and a tuner "
           "that searches rulesets for the designer's goals."),
    no_args_is_help=True,
)
app.add_typer(design_app, name="design")


def parse_time(text: str) -> float:
    """Seconds from ``600``, ``600s``, ``10m`` or ``1h``; exit 2 on anything else."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([smh]?)\s*", text)
    if m is None or float(m.group(1)) <= 0:
        typer.echo(_("error: --time {value!r}: give seconds, or minutes and hours as 10m, "
                     "1h").format(value=text), err=True)
        raise typer.Exit(2)
    return float(m.group(1)) * {"": 1, "s": 1, "m": 60, "h": 3600}[m.group(2)]


def _kinds(text: str | None) -> list[str] | None:
    return None if text is None else [k.strip() for k in text.split(",") if k.strip()]


def _rulesets(names: list[str]) -> list[object]:
    from meio.design.rulesets import DesignError, ruleset
    from meio.engine.ruleset_file import VariantError

    out: list[object] = []
    for name in names:
        try:
            out.append(ruleset(name))
        except VariantError as exc:
            for line in exc.problems:
                typer.echo(line, err=True)
            raise typer.Exit(2) from None
        except DesignError as exc:
            typer.echo(_("error: {message}").format(message=exc), err=True)
            raise typer.Exit(2) from None
    return out


#: the default ladder and the goals' figures, as meio.design names them (kept here, not
#: imported: a command module loads its heavy dependencies only when it runs; a test
#: checks them against meio.design)
LADDER = "random, heuristic, search:1, learned, search:2"
LADDER_ANY = "random, learned, heuristic, search:1, search:2"
FIGURES = ("seat_gap, leader_edge, match_win_gap, mean_score, depth, skill, luck, rounds75, "
           "last_round, lead_changes, shared, certain_after, minutes, decisions")

PlayersOpt = Annotated[int, typer.Option("--players", "-n", min=2, max=MAX_PLAYERS,
                                         help=_("table size"))]
PartnershipOpt = Annotated[bool, typer.Option(help=_("the 4-player partnership game"))]
JobsOpt = Annotated[int, typer.Option(min=1, max=1024,
                                      help=_("local worker processes (not with --ray)"))]
RayOpt = Annotated[str | None, typer.Option(
    help=_("Ray cluster address (HOST:PORT or auto); needs meio\\[cluster]"))]


@design_app.command(
    help=_("A report card of each RULESET (a preset: meio, classic, mini; or a variant "
           "file) under a strong player on duplicate deals: seat advantage, depth, luck "
           "and skill, drama, each special card's worth, length. Writes OUT/report.html, "
           "OUT/summary.json and OUT/summary.md; several rulesets go side by side, each "
           "row's difference measured on the same deals."))
def report(
    rulesets: Annotated[list[str], typer.Argument(
        metavar="RULESET...", help=_("presets or variant files"))],
    out: Annotated[Path, typer.Option(parser=OutputFolder(), metavar=_("FOLDER"),
                                      help=_("folder for the report"))],
    players: PlayersOpt = 4,
    partnership: PartnershipOpt = False,
    player: Annotated[str | None, typer.Option(
        help=_("the named player in every seat (default: the strongest that fits the time)"))
    ] = None,
    ladder: Annotated[str | None, typer.Option(
        help=_("the depth ladder, weakest first, comma-separated (default on the "
               "editions: {ladder}; on other rulesets: {ladder_any})").format(
                   ladder=LADDER, ladder_any=LADDER_ANY))] = None,
    deals: Annotated[int | None, typer.Option(
        min=2, max=1_000_000, help=_("deals for every part (default: as many as --time "
                                     "allows)"))] = None,
    time: Annotated[str, typer.Option(
        "--time", help=_("time budget when --deals is not given (600, 600s, 10m, 1h)"))
    ] = "10m",
    jobs: JobsOpt = 1,
    ray: RayOpt = None,
    seed: Annotated[int, seed_option(_("seed of the deals"))] = 0,
) -> None:
    """Play and write the report card of ``rulesets``."""
    import time as clock

    from rich.console import Console
    from rich.progress import (
        BarColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from meio.design.report import (
        SUMMARY_SECONDS,
        cluster_cpus,
        make_plan,
        run,
        summarise,
        write,
    )
    from meio.design.rulesets import DesignError
    from meio.engine.errors import MeioError

    console = Console(stderr=True)
    seconds = parse_time(time)
    began = clock.perf_counter()
    chosen = _rulesets(rulesets)
    try:
        # on a cluster the time is planned for its CPUs (the matches are timed here)
        workers = cluster_cpus(ray) if ray is not None and deals is None else jobs
        console.print(_("planning: timing one match of each player..."))
        plan = make_plan(chosen, players, player=player, ladder=_kinds(ladder),  # type: ignore[arg-type]
                         deals=deals, seconds=seconds, jobs=workers, seed=seed,
                         partnership=partnership, began=began, reserve=SUMMARY_SECONDS)
        for note in plan.notes:
            console.print(note)
        console.print(_("named player {player}: {deals} deals; ladder {ladder}: {pairs} deals "
                        "a step").format(player=plan.player, deals=plan.deals,
                                         ladder=" < ".join(plan.ladder),
                                         pairs=", ".join(str(n) for n in plan.pair_deals)))
        with Progress(TextColumn("{task.description}"), BarColumn(),
                      TextColumn("{task.percentage:>3.0f}%"), TimeElapsedColumn(),
                      TextColumn("ETA"), TimeRemainingColumn(), console=console) as bar:
            task = bar.add_task(_("playing"), total=1.0)
            # without --deals the time is a limit: no chunk runs past it (the summary
            # and the page take seconds more)
            left = (None if deals is not None
                    else seconds - (clock.perf_counter() - began) - SUMMARY_SECONDS)
            played = run(plan, jobs=jobs, ray=ray, deadline=left,
                         progress=lambda done, total: bar.update(task, completed=done,
                                                                 total=max(total, 1e-9)))
        paths = write(summarise(played), out)
    except KeyboardInterrupt:
        console.print(_("interrupted"))
        raise typer.Exit(130) from None
    except (DesignError, MeioError) as exc:
        typer.echo(_("error: {message}").format(message=exc), err=True)
        raise typer.Exit(2) from None
    console.print(_("{seconds:.0f} s; wrote {files}").format(
        seconds=played.seconds, files=", ".join(str(p) for p in paths)))


@design_app.command(
    help=_("Search the rulesets around BASE for the goals: each --vary KEY=RANGE (a "
           "variant file's key, e.g. {keys}) and each --goal ({goals}). "
           "Every trial is played under the same player on the same deals; the study is "
           "kept in OUT/study.db (run the same command again to resume), every trial's "
           "ruleset in OUT/trials/, the Pareto front and the picks played again on fresh "
           "deals in OUT/tune.md and OUT/tune.json.").format(
               keys="hand.first_half=5..8, special.Q+.value=10..14, trump=H,none",
               goals="'max depth', 'min seat_gap', 'seat_gap<0.02'"))
def tune(
    base: Annotated[str, typer.Argument(metavar="BASE", help=_("a preset or a variant file"))],
    out: Annotated[Path, typer.Option(parser=OutputFolder(), metavar=_("FOLDER"),
                                      help=_("folder for the study (reused to resume)"))],
    vary: Annotated[list[str], typer.Option(help=_("KEY=LOW..HIGH or KEY=a,b,c"))],
    goal: Annotated[list[str], typer.Option(help=_(
        "'min FIGURE', 'max FIGURE' or 'FIGURE<BOUND' (figures: {figures})").format(
            figures=FIGURES))],
    trials: Annotated[int, typer.Option(min=1, max=100_000, help=_("trials to finish"))] = 30,
    players: PlayersOpt = 4,
    partnership: PartnershipOpt = False,
    player: Annotated[str, typer.Option(help=_("the player in every seat"))] = "heuristic",
    ladder: Annotated[str, typer.Option(
        help=_("the depth ladder, weakest first, comma-separated"))] = "random,heuristic",
    deals: Annotated[int, typer.Option(min=2, max=1_000_000,
                                       help=_("deals a trial"))] = 200,
    fresh_deals: Annotated[int | None, typer.Option(
        min=2, max=1_000_000, help=_("deals of the re-evaluation (default: --deals)"))] = None,
    pick: Annotated[int, typer.Option(min=0, max=50, help=_(
        "front trials played again on fresh deals"))] = 3,
    sampler: Annotated[str, typer.Option(help=_("tpe or nsga2"))] = "tpe",
    jobs: Annotated[int, typer.Option(min=1, max=1024, help=_(
        "trials played at once: local processes, or Ray tasks with --ray (the trials "
        "depend on it, not on where they run)"))] = 1,
    ray: RayOpt = None,
    seed: Annotated[int, seed_option(_("seed of the deals and of the search"))] = 0,
) -> None:
    """Run (or resume) a tuning study and write its front."""
    import json

    from rich.console import Console

    from meio.design.report import Plan, plays_all
    from meio.design.rulesets import DesignError
    from meio.design.space import parse_vary
    from meio.design.tune import Study, front, markdown, parse_goal, reevaluate, summary
    from meio.design.tune import tune as run_tune
    from meio.engine.errors import MeioError

    console = Console(stderr=True)
    if sampler not in ("tpe", "nsga2"):
        typer.echo(_("error: --sampler is tpe or nsga2, not {value!r}").format(value=sampler),
                   err=True)
        raise typer.Exit(2)
    (variant,) = _rulesets([base])
    kinds = _kinds(ladder) or []
    try:
        for kind in [player, *kinds]:
            if not plays_all(kind, [variant], players, partnership):  # type: ignore[list-item]
                raise DesignError(f"{kind} does not play variants (its network reads the "
                                  "editions' cards); tune with random, heuristic or search")
        if len(kinds) < 2:
            raise DesignError("--ladder needs two players at least (e.g. random,heuristic)")
        plan = Plan((variant,), players, player, tuple(kinds), deals,  # type: ignore[arg-type]
                    tuple(deals for _ in kinds[1:]), seed, partnership)
        study = Study(variant, tuple(parse_vary(v) for v in vary),  # type: ignore[arg-type]
                      tuple(parse_goal(g) for g in goal), plan, seed, sampler)
        study.check()
        s = run_tune(study, out, trials, jobs=jobs, ray=ray,
                     progress=lambda done, total: console.print(
                         _("trials finished: {done}/{total}").format(done=done, total=total)))
        picks = front(s, study)[:pick]
        console.print(_("playing {n} pick(s) again on fresh deals...").format(n=len(picks)))
        data = summary(s, study, reevaluate(study, picks, fresh_deals or deals, jobs, ray))
    except KeyboardInterrupt:
        console.print(_("interrupted: the finished trials are kept in {db}; run the same "
                        "command again to resume").format(db=out / "study.db"))
        raise typer.Exit(130) from None
    except (DesignError, MeioError) as exc:
        typer.echo(_("error: {message}").format(message=exc), err=True)
        raise typer.Exit(2) from None
    (out / "tune.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    text = markdown(data)
    (out / "tune.md").write_text(text, encoding="utf-8")
    typer.echo(text)
