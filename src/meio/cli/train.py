"""``meio train``: train a small policy with PPO on VectorEnv (the ``rl`` extra)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from meio.cli.app import app
from meio.i18n import _


@app.command(
    help=_(
        "Train a small policy with PPO against compiled bots and save it for "
        "the learned bot (needs the rl extra: PyTorch)."
    )
)
def train(
    out: Annotated[
        Path,
        typer.Option("--out", help=_("Where to save the policy (.npz), never inside the "
                                     "installed package; a checkpoint and the curve go "
                                     "next to it.")),
    ] = Path("meio-policy.npz"),
    steps: Annotated[
        int,
        typer.Option("--steps", min=1, help=_("Agent steps to train for: the same run on "
                                              "every machine.")),
    ] = 5_000_000,
    minutes: Annotated[
        float | None,
        typer.Option("--minutes", min=0.01, help=_("Also stop after this many minutes.")),
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option("--resume", help=_("Continue from this checkpoint (the .ckpt.pt "
                                        "saved next to a policy).")),
    ] = None,
    players: Annotated[
        int, typer.Option("--players", min=2, max=5, help=_("Table size."))
    ] = 4,
    opponents: Annotated[
        str, typer.Option("--opponents", help=_("Compiled opponents: random or heuristic."))
    ] = "heuristic",
    envs: Annotated[
        int, typer.Option("--envs", min=1, help=_("Matches played side by side."))
    ] = 128,
    hidden: Annotated[
        int, typer.Option("--hidden", min=1, help=_("Width of the policy's hidden layers."))
    ] = 128,
    seed: Annotated[int, typer.Option("--seed", help=_("Random seed."))] = 0,
    plot: Annotated[
        Path | None, typer.Option("--plot", help=_("Also draw the learning curve to this PNG."))
    ] = None,
) -> None:
    if opponents not in ("random", "heuristic"):
        typer.echo(_("--opponents is random or heuristic, not {value}").format(value=opponents),
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

    try:
        run(out, steps=steps, minutes=minutes, players=players, opponents=opponents,
            envs=envs, hidden=hidden, seed=seed, plot=plot, minibatch=min(2048, envs * 32),
            reference_matches=200, resume=resume, log=lambda line: typer.echo(line))
    except TrainingError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(2) from None
    typer.echo(_("Play it with the bot learned:{path}").format(path=out))
