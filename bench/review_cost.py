"""CPU time of a match review (not a test): 4-player matches of 3 rounds, each reviewed
by the quick pass and then the deep one, at the default budgets of ``meio.review``.

The limit is 60 s of one core for both passes of a match (``time.process_time``: CPU
time, so other work on the machine counts little). The matches are played by the
heuristic and ``search:1`` in turn, seeded, so every run reviews the same matches.

    nice .venv/bin/python bench/review_cost.py --matches 3
"""

from __future__ import annotations

import argparse
import time

from meio.bots import make_bot, play_match
from meio.engine import MatchConfig
from meio.engine.record import Record
from meio.review import DEEP, QUICK, review_match

LIMIT_S = 60.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    # a warm-up review compiles (or loads) the numba kernels outside the figures
    warm = play_match(MatchConfig(players=4, seed=999),
                      [make_bot("heuristic", s) for s in range(4)])
    review_match(Record.from_state(warm), budget=QUICK, seats=[0])
    worst = 0.0
    print("match  decisions  judged  quick_s  deep_s  total_s")
    for m in range(args.matches):
        kinds = ("heuristic", "search:1")
        bots = [make_bot(kinds[(m + s) % 2], args.seed + s) for s in range(4)]
        record = Record.from_state(
            play_match(MatchConfig(players=4, seed=args.seed * 1000 + m), bots))
        t0 = time.process_time()
        quick = review_match(record, budget=QUICK, depth="quick")
        t1 = time.process_time()
        review_match(record, budget=DEEP, depth="deep")
        t2 = time.process_time()
        judged = sum(1 for d in quick.decisions if not d.judgement.forced)
        worst = max(worst, t2 - t0)
        print(f"{m:5d}  {len(quick.decisions):9d}  {judged:6d}  {t1 - t0:7.1f}  "
              f"{t2 - t1:6.1f}  {t2 - t0:7.1f}")
    print(f"worst match: {worst:.1f} s of CPU (limit {LIMIT_S:.0f} s): "
          f"{'within' if worst <= LIMIT_S else 'OVER'} the limit")


if __name__ == "__main__":
    main()
