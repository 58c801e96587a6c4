"""CPU time of ``search:4`` decisions, and where it goes (not a test; a minute or two).

Plays a few 4-player rounds with the heuristic in every seat, keeps every third
card decision with a choice and every split, then times ``search:4`` on each
(``time.process_time``: CPU time, so other work on the machine counts little)
after a warm-up decision. ``--profile`` adds the functions that took the most
time over the card decisions (cProfile, which slows everything down).

    nice .venv/bin/python bench/expert_cost.py --rounds 3
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import time

from meio.bots import bot_turn, make_bot
from meio.engine import MatchConfig, Phase, State, View


def positions(rounds: int) -> tuple[list[View], list[View]]:
    """Card views (every third with a choice) and split views of heuristic rounds."""
    heuristic = [make_bot("heuristic", s) for s in range(4)]
    cards: list[View] = []
    splits: list[View] = []
    for seed in range(rounds):
        state = State.new(MatchConfig(players=4, seed=8 + seed))
        step = 0
        while not state.rounds:
            view = state.view(state.current_seat())
            if len(view.legal_actions()) > 1:
                if state.phase is Phase.SPLIT:
                    splits.append(view)
                elif step % 3 == 0:
                    cards.append(view)
                step += 1
            bot_turn(state, heuristic)
    return cards, splits


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    cards, splits = positions(args.rounds)
    bot = make_bot("search:4", 0)
    bot.choose(splits[0], splits[0].legal_actions())  # compile or load the kernels
    bot.choose(cards[0], cards[0].legal_actions())
    for label, views in (("split", splits), ("card", cards)):
        times = []
        for view in views:
            t = time.process_time()
            bot.choose(view, view.legal_actions())
            times.append(time.process_time() - t)
        times.sort()
        print(f"search:4 {label}: {len(times)} decisions, mean {statistics.mean(times):.3f} s, "
              f"p95 {times[int(0.95 * (len(times) - 1))]:.3f} s, worst {times[-1]:.3f} s CPU")
    if args.profile:
        profile = cProfile.Profile()
        profile.enable()
        for view in cards:
            bot.choose(view, view.legal_actions())
        profile.disable()
        pstats.Stats(profile).sort_stats("cumulative").print_stats(15)


if __name__ == "__main__":
    main()
