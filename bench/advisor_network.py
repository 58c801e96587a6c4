"""Does the network make the split advisor's advice better? (Not a test.)

    nice .venv/bin/python bench/advisor_network.py --hands 100 --budget 1 --judge 2000

For each of ``--hands`` 4-player MEIO hands (seat ``i % 4`` of the deal of seed
``--seed + i``), the advisor (:func:`meio.bots.advisor.advise_view`) picks a pack twice
at the same budget and seed: with its pool's first half from the heuristic's ranking
(as it always did) and from the network's best packs (``network=``, the shipped
``learned`` network unless ``--policy``). Each pick is then judged on the advisor's own
objective, the expected round score under heuristic play, in ``--judge`` fresh worlds
(the other seats splitting with the model of ``search:4``; compiled playouts) that
neither advisor saw; both picks are judged in the same worlds. The figure is the
judged score of the network's pick minus the heuristic's, hand by hand, with its 95%
interval (negative: the network's pool gives better advice), and the CPU time of an
advice each way.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import numpy as np

from meio.bots.advisor import advise_view
from meio.bots.inference import DEFAULT_MODEL
from meio.bots.learned import DEFAULT_POLICY, load_policy
from meio.bots.search import objective, split_worlds
from meio.engine import MatchConfig, State
from meio.engine import actions as A
from meio.sim import evaluate_actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--budget", type=float, default=1.0, help="advice budget, seconds")
    parser.add_argument("--judge", type=int, default=2000, help="worlds judging each pick")
    parser.add_argument("--seed", type=int, default=31000)
    parser.add_argument("--policy", default=str(DEFAULT_POLICY))
    args = parser.parse_args()
    if args.hands < 2 or args.judge < 1 or not args.budget > 0:
        parser.error("--hands must be 2 or more, --judge 1 or more, --budget above 0")
    network = load_policy(args.policy)
    diffs: list[float] = []
    same = 0
    cost: dict[str, list[float]] = {"heuristic": [], "network": []}
    for i in range(args.hands):
        view = State.new(MatchConfig(players=4, seed=args.seed + i)).view(i % 4)
        picks = {}
        for name, net in (("heuristic", None), ("network", network)):
            start = time.process_time()
            advice = advise_view(view, budget_s=args.budget, seed=i, network=net)
            cost[name].append(time.process_time() - start)
            picks[name] = advice.best.pack
        same += picks["heuristic"] == picks["network"]
        worlds = split_worlds(view, args.judge, random.Random(args.seed * 7 + i), DEFAULT_MODEL)
        actions = [A.pack_action(picks["heuristic"]), A.pack_action(picks["network"])]
        judged = objective(evaluate_actions(worlds, actions, 1, i), view)
        diffs.append(float(judged[1] - judged[0]))
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5
    print(f"{args.hands} hands, budget {args.budget} s, judged in {args.judge} worlds")
    print(f"network's pick - heuristic's pick: {mean:+.4f} [{mean - half:+.4f}, "
          f"{mean + half:+.4f}] a round; the same pack in {same} hands")
    for name, values in cost.items():
        print(f"advice with the {name}'s pool: {1000 * float(np.mean(values)):.0f} ms CPU "
              f"on average, worst {1000 * max(values):.0f} ms")


if __name__ == "__main__":
    main()
