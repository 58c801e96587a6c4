"""``meio analyze``: balance studies over many simulated games, with a report."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from meio.cli.app import app
from meio.cli.files import OutputFolder
from meio.cli.options import (
    MAX_PLAYERS,
    HideSpecialsOption,
    OldPolicyOption,
    VariantOption,
    WildLeadOption,
    either,
    read_variant,
    seed_option,
)
from meio.i18n import _

if TYPE_CHECKING:
    from meio.engine.ruleset import Variant

#: the most games a table may play
MAX_GAMES = 50_000_000
#: games per table by default: through the compiled core, and through the engine (a
#: variant, or a comparison: every game through the engine)
CORE_GAMES, ENGINE_GAMES = 2000, 200


def ruleset(name: str) -> Variant:
    """A ruleset of ``meio analyze compare``: a preset's name (``meio``, ``classic``) or
    a variant file; exit 2 printing each of a file's problems on a line."""
    from meio.engine.presets import PRESETS, preset

    if name in PRESETS:
        return preset(name)
    variant = read_variant(Path(name))
    assert variant is not None
    return variant


@app.command(
    help=_(
        "Answer balance questions with many simulated games: plots and confidence "
        "intervals in OUT/report.html, every figure in OUT/summary.json, the raw games in "
        "OUT/games.parquet. Interrupt with Ctrl-C and run the same command to resume. "
        "'meio analyze compare BASE VARIANT [QUESTION...]' runs the studies on the same "
        "deals under two rulesets (a variant file, or meio or classic) and writes the "
        "difference of every figure with its 95% interval (OUT/base and OUT/variant hold "
        "each ruleset's own analysis)."
    )
)
def analyze(
    questions: Annotated[list[str], typer.Argument(
        help=_("studies: seats, specials, skill, splits, rules, length; or compare BASE "
               "VARIANT and the studies (default: all but rules)"))],
    out: Annotated[Path, typer.Option(
        parser=OutputFolder(), metavar=_("FOLDER"),
        help=_("folder for report.html, summary.json and the raw tables (reused to resume)"))],
    players: Annotated[list[int] | None, typer.Option(
        "--players", "-n", min=2, max=MAX_PLAYERS,
        help=_("table size, 2-5 (repeat for several; default all)"))] = None,
    edition: Annotated[list[str] | None, typer.Option(
        help=_("meio or classic (repeat for both; default both)"))] = None,
    partnership: Annotated[bool | None, typer.Option(
        "--partnership/--no-partnership",
        help=_("only partnership tables / only plain ones (default: both)"))] = None,
    wild_lead: WildLeadOption = "declare",
    hide_specials: HideSpecialsOption = False,
    bots: Annotated[str, typer.Option(
        help=_("the bot for every seat: random, heuristic, learned[:FILE] (the network, "
               "in the compiled core), search, search:1 to search:6 or expert; compare "
               "plays both rulesets with it"))] = "heuristic",
    games: Annotated[int | None, typer.Option(
        min=1, max=MAX_GAMES, help=_("games per table"))] = None,
    ci: Annotated[float | None, typer.Option(
        min=0.001, max=13,
        help=_("play until every headline 95% interval is narrower than this"))] = None,
    max_games: Annotated[int, typer.Option(
        min=1, max=MAX_GAMES, help=_("most games per table with --ci"))] = 1_000_000,
    jobs: Annotated[int, typer.Option(
        min=1, max=1024, help=_("local worker processes (not with --ray)"))] = 1,
    ray: Annotated[str | None, typer.Option(
        help=_("Ray cluster address (HOST:PORT or auto); needs meio\\[cluster]"))] = None,
    seed: Annotated[int, seed_option(_("seed of every game"))] = 0,
    variant: VariantOption = None,
    old_policy: OldPolicyOption = None,
    allow_different_players: Annotated[bool, typer.Option(
        help=_("compare: play each ruleset as it is, an edition by the editions' own "
               "policy, though the bots then play the two rulesets as two different "
               "players (by default the bots play their general path on both, an "
               "edition included, so that one player plays both)"))] = False,
) -> None:
    """Run the balance studies named in ``questions`` and write their report to ``out``."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from meio.analysis import AnalysisError, AnalysisSpec, LocalBackend, run_analysis, write_run
    from meio.engine.errors import MeioError

    policy = either(bots, old_policy)
    console = Console(stderr=True)
    if games is not None and ci is not None:
        typer.echo(_("error: give --games or --ci, not both"), err=True)
        raise typer.Exit(2)
    rulesets: tuple[Variant, Variant] | None = None
    if questions[0] == "compare":
        if len(questions) < 3:
            typer.echo(_("error: compare needs two rulesets: meio analyze compare BASE "
                         "VARIANT [QUESTION...] (each a variant file, meio or classic)"),
                       err=True)
            raise typer.Exit(2)
        if variant is not None or edition:
            typer.echo(_("error: compare takes its two rulesets as arguments, not "
                         "--variant or --edition"), err=True)
            raise typer.Exit(2)
        if wild_lead != "declare" or hide_specials:
            typer.echo(_("error: a ruleset's table options are its own: set them in its "
                         "[options] table"), err=True)
            raise typer.Exit(2)
        rulesets = (ruleset(questions[1]), ruleset(questions[2]))
        questions = questions[3:] or ["seats", "specials", "skill", "splits", "length"]
    elif allow_different_players:
        typer.echo(_("error: --allow-different-players is for compare"), err=True)
        raise typer.Exit(2)
    elif variant is not None and edition:
        typer.echo(_("error: with --variant the edition is the variant's; leave out "
                     "--edition"), err=True)
        raise typer.Exit(2)
    chosen = read_variant(variant, wild_lead, not hide_specials)
    engine = chosen is not None or rulesets is not None
    try:
        spec = AnalysisSpec(
            questions=tuple(questions),
            players=tuple(players) if players else (2, 3, 4, 5),
            editions=tuple(edition) if edition else ("meio", "classic"),  # type: ignore[arg-type]
            partnership=partnership,
            wild_lead=wild_lead,  # type: ignore[arg-type]
            hide_specials=hide_specials,
            policy=policy,
            games=games if games is not None else (
                (ENGINE_GAMES if engine else CORE_GAMES) if ci is None else 1000),
            ci=ci,
            max_games=max_games,
            seed=seed,
            variant=rulesets[1] if rulesets else chosen,
        )
        if ray is not None:
            from meio.analysis import RayBackend

            backend: LocalBackend | RayBackend = RayBackend(ray)
        else:
            backend = LocalBackend(jobs)
        with Progress(TextColumn("[progress.description]{task.description}"), BarColumn(),
                      TextColumn("{task.percentage:>3.0f}%"), TimeElapsedColumn(),
                      TextColumn("ETA"), TimeRemainingColumn(), console=console) as bar:
            task = bar.add_task(_("games {count}").format(count=0), total=1.0)

            def show(done: float, total: float, count: int) -> None:
                bar.update(task, completed=done, total=max(total, 1.0),
                           description=_("games {count}").format(count=f"{count:,}"))

            try:
                if rulesets is not None:
                    from meio.analysis.compare import run_compare

                    summary, base_run, variant_run = run_compare(
                        spec, rulesets[0], rulesets[1], out, backend, progress=show,
                        allow_different_players=allow_different_players)
                else:
                    run = run_analysis(spec, out, backend, progress=show)
            finally:
                if isinstance(backend, LocalBackend):
                    backend.close()
        if rulesets is not None:
            from meio.analysis.output import write_compare

            paths = write_compare(summary, base_run, variant_run, out)
            each = sum(base_run.games.values())
            console.print(_("{games} games under each of two rulesets; wrote {files}").format(
                games=f"{each:,}", files=", ".join(str(p) for p in paths)))
            return
        paths = write_run(run, out)
    except KeyboardInterrupt:
        saved = out / "chunks" if rulesets is None else out / "*" / "chunks"
        console.print(_("interrupted: the finished chunks are saved in {folder}; run the "
                        "same command again to resume").format(folder=saved))
        raise typer.Exit(130) from None
    except (AnalysisError, MeioError) as exc:
        typer.echo(_("error: {message}").format(message=exc), err=True)
        raise typer.Exit(2) from None
    console.print(_("{games} games in {waves} wave(s); wrote {files}").format(
        games=f"{sum(run.games.values()):,}", waves=run.waves,
        files=", ".join(str(p) for p in paths)))
