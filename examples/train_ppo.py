"""Train a small MEIO policy with PPO on the compiled VectorEnv (CPU, PyTorch).

The trainer lives in :mod:`meio.rl.train`; ``meio train`` runs it too. This script
keeps every knob of it on the command line:

    pip install 'meio[rl]'
    nice python examples/train_ppo.py --steps 5000000 --out ppo-4p.npz

The policy is saved as a small ``.npz`` that ``make_bot("learned:PATH")`` plays
with NumPy alone (no PyTorch needed to play). A CSV of the learning curve goes
next to it, and ``--plot`` draws it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from meio.rl.train import TrainingError, train


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=5_000_000,
                    help="agent steps to train for (the same run on every machine)")
    ap.add_argument("--minutes", type=float, default=None,
                    help="also stop after this many minutes of wall time")
    ap.add_argument("--resume", type=Path, default=None,
                    help="continue from this checkpoint (the .ckpt.pt next to a policy)")
    ap.add_argument("--envs", type=int, default=128)
    ap.add_argument("--horizon", type=int, default=32)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--opponents", default="heuristic", choices=["random", "heuristic"])
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--lr", type=float, default=5e-4)
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--minibatch", type=int, default=2048)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--out", type=Path, default=Path("ppo-4p.npz"),
                    help="where to save the policy, never inside the installed package")
    ap.add_argument("--plot", type=Path, default=None, help="draw the curve to this PNG")
    ap.add_argument("--reference-matches", type=int, default=2000,
                    help="matches played for the random and heuristic reference lines")
    a = ap.parse_args()
    try:
        train(
            a.out, steps=a.steps, minutes=a.minutes, resume=a.resume, envs=a.envs,
            horizon=a.horizon, players=a.players, opponents=a.opponents, hidden=a.hidden,
            lr=a.lr, epochs=a.epochs, minibatch=a.minibatch, seed=a.seed,
            threads=a.threads, reference_matches=a.reference_matches, plot=a.plot,
            log=lambda line: print(line, flush=True),
        )
    except TrainingError as exc:
        sys.exit(str(exc))


if __name__ == "__main__":
    main()
