"""How exploitable is a bot: train an approximate best response to it, then measure it.

    nice python bench/best_response.py --bot learned-v7 --steps 50000 --seed 0 --deals 40

trains :func:`meio.rl.best_response.train_best_response` against the frozen bot for
``--steps`` learner decisions, measures the points a round it gains over the bot in
its seat on the first ``--deals`` 4-player deals of ``meio-bench-v1``
(:func:`meio.rl.best_response.measure`), and writes the ``meio-best-response/1``
document to ``--out`` (``docs/bench/best-response-BOT-STEPS-seedS.json`` by default;
with the gain of the policy the learner started from, 0 where that is the bot's own
network), the policy and its curve beside it under ``--work``.
"""

from __future__ import annotations

import os

# the frozen network's batches would wake OpenBLAS's threads, whose spinning costs more
# than the work on a busy machine (see meio.bots.learned.LearnedPolicy.top_packs)
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import shlex
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from meio.bots.versions import resolve
from meio.rl.best_response import (
    default_init,
    dump,
    frozen_kind,
    measure,
    report,
    train_best_response,
)

ROOT = Path(__file__).resolve().parent.parent


def plot(curves: Sequence[Path], png: Path) -> None:
    """The learning curves of best-response runs: mean round score of the learner's
    last 500 matches (sampling its actions) against learner decisions."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    for path in curves:
        rows = [r.split(",") for r in path.read_text().splitlines()[1:] if r]
        ax.plot([int(r[0]) / 1000 for r in rows], [float(r[2]) for r in rows],
                label=path.stem)
    ax.set_xlabel("learner decisions (thousands)")
    ax.set_ylabel("mean round score, last 500 matches (lower is better)")
    ax.set_title("Approximate best responses, PPO against a frozen bot")
    ax.legend(fontsize=8)
    fig.tight_layout()
    png.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png, dpi=110)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bot", help="heuristic, learned-v7, ppo-v1, ...")
    ap.add_argument("--steps", type=int, default=50_000, help="learner decisions")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--envs", type=int, default=64)
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--work", type=Path, default=Path("best-response"))
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--plot", type=Path, default=None,
                    help="only draw the curves of every BOT-seedS.csv under --work to this PNG")
    args = ap.parse_args(argv)
    if args.plot is not None:
        plot(sorted(args.work.glob("*-seed*.csv")), args.plot)
        return 0
    if args.bot is None:
        ap.error("give --bot (or --plot)")
    name = frozen_kind(args.bot)
    policy = args.work / f"{name}-seed{args.seed}.npz"
    start = time.process_time()
    train_best_response(name, policy, steps=args.steps, seed=args.seed, envs=args.envs)
    cpu = time.process_time() - start
    result = measure(name, policy, deals=args.deals, seed=args.seed)
    command = "python bench/best_response.py " + shlex.join(
        ["--bot", name, "--steps", str(args.steps), "--seed", str(args.seed),
         "--envs", str(args.envs), "--deals", str(args.deals)])
    doc = report(result, command=command, steps=args.steps, seeds=[args.seed],
                 cpu_seconds=cpu)
    if resolve(name).weights_path is None:
        # the learner started from another bot's network: what that start gains is the
        # line the training is judged against (from the bot's own network it is 0)
        start_gain = measure(name, default_init(name), deals=args.deals, seed=args.seed)
        doc["init_gain"] = round(start_gain.gain, 4)
        doc["init_gain_ci95"] = [round(v, 4) for v in start_gain.gain_ci95]
    else:
        doc["init_gain"], doc["init_gain_ci95"] = 0.0, [0.0, 0.0]
    doc["init"] = default_init(name).name
    out = args.out or ROOT / "docs" / "bench" / (
        f"best-response-{name}-{args.steps}-seed{args.seed}.json")
    dump(doc, out)
    print(doc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
