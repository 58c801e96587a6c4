"""Train the network for any ruleset (``learned-any-v1``, meio/bots/policies/any-v1.npz):
search plays rounds of randomly generated rulesets (:func:`meio.rl.general.random_ruleset`)
for ``--minutes`` of wall time, then the general network is distilled from them.

    nice -n 10 .venv/bin/python examples/train_general.py --minutes 22 --jobs 2 \\
        --data general-data.npz --out src/meio/bots/policies/any-v1.npz --epochs 14

A data file already at ``--data`` is extended by the rounds after its last one.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from meio.rl.general import Batch, generate, train


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=20.0, help="wall time of teacher play")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--data", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--epochs", type=int, default=14)
    ap.add_argument("--hidden", type=int, default=256)
    args = ap.parse_args()
    parts = []
    first = 0
    if args.data.exists():
        old = Batch.load(args.data)
        parts.append(old)
        first = int(old.game.max()) + 1
        print(f"{len(old)} examples from {args.data}, rounds 0..{first - 1}")
    if args.minutes > 0:
        parts.append(generate(args.minutes, seed=args.seed, jobs=args.jobs, first=first,
                              log=print))
        data = Batch.join(parts)
        data.save(args.data)
    else:
        data = Batch.join(parts)
    print(f"{len(data)} examples from {len(np.unique(data.game))} rounds")
    report = train(data, args.out, hidden=args.hidden, epochs=args.epochs, seed=args.seed,
                   log=print)
    print(report)


if __name__ == "__main__":
    main()
