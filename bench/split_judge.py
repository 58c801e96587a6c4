"""Split by split: how good are the packs of ``search:5`` and the network against
``search:4``'s, judged away from the table? (Not a test.)

    nice .venv/bin/python bench/split_judge.py --hands 40 --judge 2000

For each of ``--hands`` 4-player MEIO hands (seat ``i % 4`` of the deal of seed
``--seed + i``), ``search:4``, ``search:5`` and ``learned`` each choose a pack, with
the CPU time each took. The three packs are judged in the same ``--judge`` fresh
worlds (the other seats splitting with ``search:4``'s model, compiled heuristic
playouts): the expected round score under heuristic play — the objective of both
searches, so the judge favours a search's pick over the network's, whose packs are
learned from how rounds go under search. The figures are each pick's judged score
minus ``search:4``'s, hand by hand, with 95% intervals (negative: better than
``search:4``'s pick). Only duels (``bench/strength.py``) say which splits win rounds.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from meio.bots import make_bot
from meio.bots.inference import DEFAULT_MODEL
from meio.bots.search import objective, split_worlds
from meio.engine import MatchConfig, State
from meio.sim import evaluate_actions

KINDS = ("search:4", "search:5", "learned")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--judge", type=int, default=2000, help="worlds judging each pick")
    parser.add_argument("--seed", type=int, default=77000)
    args = parser.parse_args()
    if args.hands < 2 or args.judge < 1:
        parser.error("--hands must be 2 or more and --judge 1 or more")
    bots = {kind: make_bot(kind, 3) for kind in KINDS}
    gaps: dict[str, list[float]] = {kind: [] for kind in KINDS[1:]}
    cost: dict[str, list[float]] = {kind: [] for kind in KINDS}
    for i in range(args.hands):
        view = State.new(MatchConfig(players=4, seed=args.seed + i)).view(i % 4)
        picks = []
        for kind, bot in bots.items():
            start = time.process_time()
            picks.append(bot.choose(view, view.legal_actions()))
            cost[kind].append(time.process_time() - start)
        worlds = split_worlds(view, args.judge, random.Random(i), DEFAULT_MODEL)
        judged = objective(evaluate_actions(worlds, picks, 1, i), view)
        for kind, score in zip(KINDS[1:], judged[1:], strict=True):
            gaps[kind].append(float(score - judged[0]))
    print(f"{args.hands} hands, each pick judged in {args.judge} worlds")
    for kind, values in gaps.items():
        mean = statistics.fmean(values)
        half = 1.96 * statistics.stdev(values) / len(values) ** 0.5
        print(f"{kind} - search:4: {mean:+.3f} [{mean - half:+.3f}, {mean + half:+.3f}] a round")
    for kind, values in cost.items():
        print(f"{kind}: {1000 * statistics.fmean(values):.0f} ms CPU a split on average")


if __name__ == "__main__":
    main()
