"""Published baselines: train one learner for several seeds, draw its learning curves
and score each seed's network on the benchmark deal set (not a test; minutes).

    nice .venv/bin/python bench/baselines.py --algo dmc --seeds 3 --minutes 3 \\
        --out docs/bench/baselines/dmc.json

``--algo`` is one of

* ``ppo``: meio's own trainer (:func:`meio.rl.train.train`, what ``meio train`` runs),
  stopped every ``--eval-every`` steps to draw the curve and resumed from its
  checkpoint;
* ``sb3``: SB3-contrib's ``MaskablePPO`` through :class:`meio.rl.sb3.Sb3VecEnv` on the
  compact actions (96), with the same MLP (ReLU, two hidden layers) as meio's policy, so
  its policy network is saved as a ``learned:PATH`` file;
* ``dmc``: Deep Monte-Carlo as DouZero learns (:mod:`meio.rl.dmc`);
* ``nfsp``: Neural Fictitious Self-Play (:mod:`meio.rl.nfsp`), its average policy.

Each learner plays seat 0 against compiled ``--opponents`` (4-player MEIO), for
``--minutes`` of training CPU time per seed (this process's, one thread: the fair
budget on a shared machine; evaluation not counted) or ``--steps`` agent steps,
whichever comes first (``ppo`` and ``sb3`` stop at the first curve point past it).
The **curve** is the greedy network's mean match score over ``--eval-matches`` fixed
matches in the compiled core (:func:`meio.rl.qnet.greedy_score`; lower is better)
every ``--eval-every`` steps; a uniform random agent's score on the same matches is
the reference line. The **score**
is ``meio bench``'s protocol: ``learned:PATH`` against ``heuristic`` on the first
``--deals`` deals of ``meio-bench-v1``, in balanced seats; each seed's paired
difference from the heuristic (negative: better than it) with its bootstrap 95%
interval over deals, and across seeds their mean with a Student-t 95% interval.

The document (``meio-baselines/1``) goes to ``--out``, the curves to a PNG beside it
(``--png``), the networks to ``--weights`` (not committed; their SHA-256 is in the
document). ``bench/docs_tables.py`` renders the ``baselines`` table of docs/rl.md
from these documents.
"""

from __future__ import annotations

import argparse
import json
import math
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import numpy as np
import torch

from meio import __version__
from meio.bots.learned import save_policy
from meio.bots.versions import describe_bot, file_sha256
from meio.rl.qnet import CurvePoint, greedy_score
from meio.tournament import TournamentSpec, leaderboard, load_deal_set, run_tournament

FORMAT = "meio-baselines/1"
ALGOS = {"ppo": "PPO, meio's trainer (`meio train`)",
         "sb3": "SB3 MaskablePPO, compact actions",
         "dmc": "Deep Monte-Carlo (DouZero)",
         "nfsp": "NFSP, average policy"}
# Student-t 97.5% quantiles for n - 1 degrees of freedom
_T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
         9: 2.262}

Trainer = Callable[[Path, int, argparse.Namespace], list[CurvePoint]]


def mean_ci95(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean of ``values`` and its Student-t 95% interval (the values themselves for
    one value).

    >>> [round(x, 3) for x in mean_ci95([1.0, 2.0, 3.0])]
    [2.0, -0.484, 4.484]
    """
    n = len(values)
    if n == 0:
        raise ValueError("no values to average")
    mean = float(np.mean(values))
    if n == 1:
        return mean, mean, mean
    if n - 1 not in _T975:
        raise ValueError(f"at most {max(_T975) + 1} seeds, not {n}")
    half = _T975[n - 1] * float(np.std(values, ddof=1)) / math.sqrt(n)
    return mean, mean - half, mean + half


def train_ppo(out: Path, seed: int, args: argparse.Namespace) -> list[CurvePoint]:
    from meio.bots.learned import load_policy
    from meio.rl.train import checkpoint_path, train

    def score() -> float:
        w = load_policy(out).weights
        return greedy_score(dict(zip(("w1", "b1", "w2", "b2", "w3", "b3"), w, strict=True)),
                            players=args.players, opponents=args.opponents,
                            matches=args.eval_matches)

    # the trainer saves no network before its first update: the curve starts there
    curve: list[CurvePoint] = []
    done, spent = 0, 0.0
    while (args.steps is None or done < args.steps) and spent < 60 * args.minutes:
        goal = done + args.eval_every
        if args.steps is not None:
            goal = min(goal, args.steps)
        started = time.process_time()
        train(out, steps=goal, envs=args.envs, horizon=32, players=args.players,
              opponents=args.opponents, hidden=args.hidden, seed=seed, reference_matches=1,
              resume=checkpoint_path(out) if done else None, log=lambda _: None)
        spent += time.process_time() - started
        done = int(torch.load(checkpoint_path(out), weights_only=True)["steps"])
        curve.append(CurvePoint(done, spent, score()))
        print(f"ppo seed {seed}: {done:>9,} steps {spent:6.0f} s  greedy score "
              f"{curve[-1].score:.3f}", flush=True)
    return curve


def train_sb3(out: Path, seed: int, args: argparse.Namespace) -> list[CurvePoint]:
    from sb3_contrib import MaskablePPO

    from meio.rl import VectorEnv
    from meio.rl.sb3 import Sb3VecEnv

    env = Sb3VecEnv(VectorEnv(num_envs=args.envs, players=args.players,
                              opponents=args.opponents, seed=seed * 1_000_003,
                              actions="compact"))
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=512, n_epochs=3, seed=seed,
                        device="cpu", policy_kwargs={
                            "net_arch": {"pi": [args.hidden, args.hidden],
                                         "vf": [args.hidden, args.hidden]},
                            "activation_fn": torch.nn.ReLU})

    def weights() -> dict[str, Any]:
        pi = model.policy.mlp_extractor.policy_net
        layers = (pi[0], pi[2], model.policy.action_net)
        out_w: dict[str, Any] = {}
        for k, layer in enumerate(layers, 1):
            out_w[f"w{k}"] = layer.weight.detach().numpy().T.astype(np.float32)
            out_w[f"b{k}"] = layer.bias.detach().numpy().astype(np.float32)
        return out_w

    def score() -> float:
        return greedy_score(weights(), players=args.players, opponents=args.opponents,
                            matches=args.eval_matches)

    curve = [CurvePoint(0, 0.0, score())]
    done, spent = 0, 0.0
    while (args.steps is None or done < args.steps) and spent < 60 * args.minutes:
        started = time.process_time()
        model.learn(total_timesteps=args.eval_every, reset_num_timesteps=False)
        spent += time.process_time() - started
        done = int(model.num_timesteps)
        curve.append(CurvePoint(done, spent, score()))
        print(f"sb3 seed {seed}: {done:>9,} steps {spent:6.0f} s  greedy score "
              f"{curve[-1].score:.3f}", flush=True)
    save_policy(out, weights(), players=args.players)
    return curve


def train_dmc(out: Path, seed: int, args: argparse.Namespace) -> list[CurvePoint]:
    from meio.rl.dmc import train_dmc as run

    return run(out, steps=args.steps, minutes=args.minutes, players=args.players,
               opponents=args.opponents, envs=args.envs, hidden=args.hidden, seed=seed,
               eval_every=args.eval_every, eval_matches=args.eval_matches)


def train_nfsp(out: Path, seed: int, args: argparse.Namespace) -> list[CurvePoint]:
    from meio.rl.nfsp import train_nfsp as run

    return run(out, steps=args.steps, minutes=args.minutes, players=args.players,
               opponents=args.opponents, envs=args.envs, hidden=args.hidden, seed=seed,
               eval_every=args.eval_every, eval_matches=args.eval_matches)


TRAINERS: dict[str, Trainer] = {"ppo": train_ppo, "sb3": train_sb3, "dmc": train_dmc,
                                "nfsp": train_nfsp}


def bench_score(weights: Path, args: argparse.Namespace) -> dict[str, Any]:
    """``meio bench``'s protocol for ``learned:weights`` against the reference."""
    table = load_deal_set(args.deal_set).table("meio", args.players, False)
    bot = f"learned:{weights}"
    spec = TournamentSpec((bot, args.reference), table.players, table.edition, False,
                          args.deals, args.bench_seed, deal_table=table)
    results = run_tournament(spec, jobs=args.jobs)
    board = leaderboard(results, reference=args.reference, bootstrap=1000,
                        seed=args.bench_seed)
    me = next(e for e in board.entries if e.bot == bot)
    return {"mean_round_score": me.mean_round_score,
            "mean_round_score_ci95": list(me.mean_round_score_ci95),
            "vs_reference": me.vs_reference, "vs_reference_ci95": list(me.vs_reference_ci95),
            "games": board.games}


def plot(doc: dict[str, Any], png: Path) -> None:
    """Each seed's curve, with the random agent's line."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 3.2), dpi=100)
    for run in doc["runs"]:
        xs = [p["steps"] for p in run["curve"]]
        ax.plot(xs, [p["score"] for p in run["curve"]], marker=".", label=f"seed {run['seed']}")
    ax.axhline(doc["random_score"], color="grey", ls="--", label="random agent")
    ax.set_xlabel("agent steps")
    ax.set_ylabel("mean match score (lower is better)")
    steps = max(run["steps"] for run in doc["runs"])
    ax.set_title(f"{doc['label'].replace('`', '')}: {steps:,} steps a seed", fontsize=9)
    ax.legend(fontsize=7)
    fig.tight_layout()
    png.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png)
    plt.close(fig)


def one_seed(seed: int, args: argparse.Namespace) -> dict[str, Any]:
    """Train seed ``seed``, score its network: its entry of the document's ``runs``."""
    torch.set_num_threads(1)
    weights = args.weights / f"{args.algo}-seed{seed}.npz"
    weights.parent.mkdir(parents=True, exist_ok=True)
    curve = TRAINERS[args.algo](weights, seed, args)
    started = time.perf_counter()
    score = bench_score(weights, args)
    print(f"{args.algo} seed {seed}: vs {args.reference} {score['vs_reference']:+.3f} "
          f"({time.perf_counter() - started:.0f} s to score)", flush=True)
    return {"seed": seed, "steps": curve[-1].steps, "train_s": round(curve[-1].seconds, 1),
            "sha256": file_sha256(weights), **score,
            "curve": [{"steps": p.steps, "seconds": round(p.seconds, 1),
                       "score": round(p.score, 4)} for p in curve]}


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--algo", choices=sorted(ALGOS), required=True)
    ap.add_argument("--seeds", type=int, default=3, help="seeds 0 .. N-1")
    ap.add_argument("--minutes", type=float, default=3.0, help="training CPU minutes a seed")
    ap.add_argument("--steps", type=int, help="also stop at this many agent steps")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--opponents", default="heuristic", choices=("heuristic", "random"))
    ap.add_argument("--envs", type=int, default=64)
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--eval-every", type=int, default=16_384)
    ap.add_argument("--eval-matches", type=int, default=256)
    ap.add_argument("--set", default="meio-bench-v1", dest="deal_set")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--reference", default="heuristic")
    ap.add_argument("--bench-seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1, help="processes of each bench score")
    ap.add_argument("--parallel", type=int, default=1,
                    help="seeds trained at once, each in its own process (one thread each)")
    ap.add_argument("--out", type=Path, required=True, help="the meio-baselines/1 JSON")
    ap.add_argument("--png", type=Path, help="the curves (default: --out with .png)")
    ap.add_argument("--weights", type=Path, default=Path("/tmp/meio-baselines"),
                    help="folder for the trained networks")
    ap.add_argument("--replot", action="store_true",
                    help="train nothing: draw the curves of the --out document again")
    args = ap.parse_args(argv)
    if args.replot:
        doc = json.loads(args.out.read_text())
        plot(doc, Path(doc["png"]))
        return 0
    if not 1 <= args.seeds <= max(_T975) + 1:
        ap.error(f"--seeds is 1 to {max(_T975) + 1}")
    if args.minutes <= 0 or args.eval_every < 1 or args.eval_matches < 1:
        ap.error("--minutes, --eval-every and --eval-matches must be positive")
    if args.parallel < 1:
        ap.error("--parallel is a number of processes, at least 1")
    torch.set_num_threads(1)
    png = args.png or args.out.with_suffix(".png")
    if args.parallel > 1:
        with ProcessPoolExecutor(args.parallel, mp_context=get_context("fork")) as pool:
            runs = list(pool.map(one_seed, range(args.seeds), [args] * args.seeds))
    else:
        runs = [one_seed(seed, args) for seed in range(args.seeds)]
    vs = mean_ci95([r["vs_reference"] for r in runs])
    mean = mean_ci95([r["mean_round_score"] for r in runs])
    doc = {"format": FORMAT, "meio": __version__, "algo": args.algo,
           "label": ALGOS[args.algo],
           "command": shlex.join(["python", "bench/baselines.py", *sys.argv[1:]]
                                 if argv is None else ["python", "bench/baselines.py", *argv]),
           "players": args.players, "opponents": args.opponents, "minutes": args.minutes,
           "steps_cap": args.steps, "hidden": args.hidden, "envs": args.envs,
           "eval_matches": args.eval_matches,
           "random_score": round(greedy_score(None, players=args.players,
                                              opponents=args.opponents,
                                              matches=args.eval_matches), 4),
           "set": args.deal_set, "deals": args.deals, "reference": args.reference,
           "bot_versions": {args.reference: describe_bot(args.reference)},
           "vs_reference": vs[0], "vs_reference_ci95": [vs[1], vs[2]],
           "mean_round_score": mean[0], "mean_round_score_ci95": [mean[1], mean[2]],
           "png": str(png), "runs": runs}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(doc, indent=1) + "\n")
    plot(doc, png)
    print(f"wrote {args.out} and {png}: vs {args.reference} {vs[0]:+.3f} "
          f"[{vs[1]:+.3f}, {vs[2]:+.3f}] over {args.seeds} seeds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
