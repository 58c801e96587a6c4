"""What the learned network costs (not a test): CPU time a decision in the Python bot,
and a batch of 4-player matches played by the network in the compiled core.

    nice .venv/bin/python bench/net_cost.py --rounds 20 --games 20000 --jobs 2

The Python figure is ``time.process_time`` around ``choose`` for every decision with
a choice (cards, declares, piles) and every split, over ``--rounds`` rounds played by
the bot in every seat. The core figure is the wall time of ``--games`` whole matches
(the network in every seat), split over ``--jobs`` processes, after one warm-up call
that compiles the kernels (or loads them from numba's cache).
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from meio.bots import make_bot
from meio.bots.learned import DEFAULT_POLICY, load_policy
from meio.bots.netcore import simulate
from meio.engine import MatchConfig, Phase, State


def python_costs(kind: str, rounds: int) -> tuple[list[float], list[float]]:
    cards: list[float] = []
    splits: list[float] = []
    for r in range(rounds):
        state = State.new(MatchConfig(players=4, seed=9000 + r))
        bots = [make_bot(kind, s) for s in range(4)]
        while not state.rounds:
            seat = state.current_seat()
            view = state.view(seat)
            legal = view.legal_actions()
            t = time.process_time()
            action = bots[seat].choose(view, legal)
            spent = time.process_time() - t
            if view.phase is Phase.SPLIT:
                splits.append(spent)
            elif len(legal) > 1:
                cards.append(spent)
            state.apply(action, seat)
    return cards, splits


def _chunk(path: str, first: int, count: int) -> int:
    out = simulate(MatchConfig(players=4), first, count, 2026, load_policy(path))
    return int(out["rounds_played"].sum())


def core_study(path: Path, games: int, jobs: int) -> tuple[float, int]:
    _chunk(str(path), 0, 2)  # compile or load the kernels before the clock starts
    start = time.perf_counter()
    bounds = [games * j // jobs for j in range(jobs + 1)]
    ctx = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
        rounds = sum(pool.map(_chunk, [str(path)] * jobs, bounds[:-1],
                              [b - a for a, b in itertools.pairwise(bounds)]))
    return time.perf_counter() - start, rounds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--bot", default="learned")
    ap.add_argument("--policy", type=Path, default=DEFAULT_POLICY)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--games", type=int, default=20_000)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    cards, splits = python_costs(args.bot, args.rounds)
    print(f"{args.bot} (Python bot): a card {1000 * statistics.mean(cards):.2f} ms CPU "
          f"(p95 {1000 * sorted(cards)[int(0.95 * len(cards))]:.2f}, {len(cards)} decisions), "
          f"a split {1000 * statistics.mean(splits):.2f} ms ({len(splits)} splits)")
    wall, rounds = core_study(args.policy, args.games, args.jobs)
    print(f"compiled core: {args.games:,} 4-player matches ({rounds:,} rounds) under the "
          f"network in {wall:.1f} s wall with {args.jobs} processes")


if __name__ == "__main__":
    main()
