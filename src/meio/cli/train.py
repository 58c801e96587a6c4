"""``meio train``: train a small policy with PPO on VectorEnv (the ``rl`` extra)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from meio.cli.app import app
from meio.cli.files import InputFile, OutputFile
from meio.cli.options import (
    MAX_PLAYERS,
    OldOpponentsOption,
    either,
    read_variant,
    seed_option,
)
from meio.i18n import _


@app.command(
    help=_(
        "Train a small policy with PPO against compiled bots, or with --from-selfplay "
        "distil search's decisions into a policy and value network, and save it for "
        "the learned bot; with --variant FILE improve the network for any ruleset on "
        "that ruleset (needs the rl extra: PyTorch)."
    )
)
def train(
    out: Annotated[
        Path,
        typer.Option("--out", parser=OutputFile(), metavar=_("FILE"),
                     help=_("Where to save the policy (.npz), never inside the "
                            "installed package; a checkpoint and the curve go "
                            "next to it.")),
    ] = Path("meio-policy.npz"),
    steps: Annotated[
        int,
        typer.Option("--steps", min=1, max=10**12,
                     help=_("Agent steps to train for: the same run on every machine.")),
    ] = 5_000_000,
    minutes: Annotated[
        float | None,
        typer.Option("--minutes", min=0.01, max=7 * 24 * 60,
                     help=_("Also stop after this many minutes.")),
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option("--resume", parser=InputFile(), metavar=_("FILE"),
                     help=_("Continue from this checkpoint (the .ckpt.pt "
                            "saved next to a policy).")),
    ] = None,
    players: Annotated[
        int, typer.Option("--players", "-n", min=2, max=MAX_PLAYERS, help=_("Table size."))
    ] = 4,
    bots: Annotated[
        str, typer.Option("--bots", help=_("Compiled opponents: random or heuristic."))
    ] = "heuristic",
    envs: Annotated[
        int, typer.Option("--envs", min=1, max=65536, help=_("Matches played side by side."))
    ] = 128,
    hidden: Annotated[
        int | None, typer.Option("--hidden", min=1, max=65536,
                                 help=_("Width of the policy's hidden layers: 128 with PPO, "
                                        "256 distilled, or the --init network's, which a "
                                        "larger width grows."))
    ] = None,
    seed: Annotated[int, seed_option(_("Random seed."))] = 0,
    plot: Annotated[
        Path | None, typer.Option(
            "--plot", parser=OutputFile(), metavar=_("FILE"),
            help=_("Also draw the learning curve to this PNG."))
    ] = None,
    old_opponents: OldOpponentsOption = None,
    from_selfplay: Annotated[
        list[Path] | None, typer.Option(
            "--from-selfplay", parser=InputFile(), metavar=_("FILE"),
            help=_("Distil the self-play data of meio selfplay instead of running PPO "
                   "(repeat it to learn from several data sets at once)."))
    ] = None,
    epochs: Annotated[
        int, typer.Option("--epochs", min=1, max=100_000,
                          help=_("Passes over the self-play data (with --from-selfplay)."))
    ] = 20,
    init: Annotated[
        Path | None, typer.Option(
            "--init", parser=InputFile(), metavar=_("FILE"),
            help=_("Start from this network (with --from-selfplay): an earlier one."))
    ] = None,
    lr: Annotated[
        float, typer.Option("--lr", min=1e-7, max=1.0,
                            help=_("Learning rate of the distillation (with --from-selfplay); "
                                   "fine-tuning an earlier network learns best lower."))
    ] = 1e-3,
    ensemble: Annotated[
        list[Path] | None, typer.Option(
            "--ensemble", parser=InputFile(), metavar=_("FILE"),
            help=_("Also learn from the mean of these networks' choices (with "
                   "--from-selfplay; repeat it for each network)."))
    ] = None,
    ensemble_weight: Annotated[
        float, typer.Option("--ensemble-weight", min=0.0, max=1.0,
                            help=_("The ensemble's share of each target, the teacher's "
                                   "being the rest (with --ensemble)."))
    ] = 0.5,
    variant_file: Annotated[
        Path | None, typer.Option(
            "--variant", parser=InputFile(), metavar=_("FILE"),
            help=_("Improve the network for any ruleset on this ruleset (a TOML file, "
                   "docs/variants.md) in --minutes (15 by default): the compiled core plays "
                   "its tables, valuing each decision's actions by playing them out, then "
                   "the network learns from those values; play the result with the bot "
                   "learned:OUT."))
    ] = None,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", min=1, max=256,
                          help=_("Processes playing the ruleset's games (with --variant)."))
    ] = 2,
) -> None:
    if variant_file is not None:
        _improve(variant_file, out, minutes=15.0 if minutes is None else minutes, jobs=jobs,
                 seed=seed, init=init)
        return
    opponents = either(bots, old_opponents)
    if opponents not in ("random", "heuristic"):
        typer.echo(_("--bots is random or heuristic, not {value}").format(value=opponents),
                   err=True)
        raise typer.Exit(2)
    try:
        from meio.rl.train import train as run
    except ModuleNotFoundError as exc:
        if exc.name != "torch":
            raise
        typer.echo(
            _("meio train needs PyTorch: pip install 'meio[rl]' ({name} is missing)").format(
                name=exc.name
            ),
            err=True,
        )
        raise typer.Exit(2) from None
    from meio.rl.train import TrainingError

    if from_selfplay:
        _distil(from_selfplay, out, epochs=epochs, hidden=hidden, seed=seed, minutes=minutes,
                players=players, init=init, lr=lr, ensemble=ensemble or [],
                ensemble_weight=ensemble_weight)
        return
    try:
        run(out, steps=steps, minutes=minutes, players=players, opponents=opponents,
            envs=envs, hidden=128 if hidden is None else hidden, seed=seed, plot=plot,
            minibatch=min(2048, envs * 32),
            reference_matches=200, resume=resume, log=lambda line: typer.echo(line))
    except TrainingError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(2) from None
    typer.echo(_("Play it with the bot learned:{path}").format(path=out))


def _improve(path: Path, out: Path, *, minutes: float, jobs: int, seed: int,
             init: Path | None) -> None:
    variant = read_variant(path)
    assert variant is not None
    try:
        from meio.rl.general import improve
    except ModuleNotFoundError as exc:
        if exc.name != "torch":
            raise
        typer.echo(_("meio train needs PyTorch: pip install 'meio[rl]' ({name} is missing)")
                   .format(name=exc.name), err=True)
        raise typer.Exit(2) from None
    from meio.bots.general import GENERAL_POLICY, is_general_file
    from meio.engine.errors import MeioError

    start = init or GENERAL_POLICY
    if not is_general_file(start):
        typer.echo(_("--init {path} is not a network for any ruleset (meio train --variant "
                     "writes one)").format(path=start), err=True)
        raise typer.Exit(2)
    try:
        report = improve(variant, out, minutes=minutes, jobs=jobs, init=start, seed=seed,
                         log=lambda line: typer.echo(line))
    except MeioError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(2) from None
    typer.echo(_("{examples} examples, {epochs:.1f} passes: on held-out games the "
                 "network's card choices lose {regret:.3f} points to the best, the "
                 "heuristic's {base:.3f}").format(examples=report.examples,
                                                  epochs=report.epochs, regret=report.regret,
                                                  base=report.heuristic_regret))
    typer.echo(_("Play it with the bot learned:{path}").format(path=out))


def _distil(data: list[Path], out: Path, *, epochs: int, hidden: int | None, seed: int,
            minutes: float | None, players: int, init: Path | None, lr: float,
            ensemble: list[Path], ensemble_weight: float) -> None:
    from meio.engine.errors import MeioError
    from meio.rl.distil import distil

    try:
        report = distil(data, out, epochs=epochs, hidden=hidden, seed=seed, minutes=minutes,
                        players=players, init=init, lr=lr, ensemble=ensemble,
                        ensemble_weight=ensemble_weight, log=lambda line: typer.echo(line))
    except MeioError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(2) from None
    typer.echo(_("{examples} examples, {epochs} epochs in {seconds:.0f} s: held-out agreement "
                 "with search {agreement:.3f}, value error {error:.3f} points").format(
        examples=report.examples, epochs=report.epochs, seconds=report.seconds,
        agreement=report.agreement, error=report.value_error))
    typer.echo(_("Play it with the bot learned:{path}").format(path=out))
