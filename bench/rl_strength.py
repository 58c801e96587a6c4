"""Strength of the learned bot in duplicate tournaments (not a test; minutes).

For each opponent, a duplicate tournament of ``learned`` against it: every deal
is played with the two bots alternating seats and again with the seats swapped,
so both meet the same cards. Reports each bot's mean round score with its 95% CI
and, per deal, the paired difference (learned minus opponent) with its 95% CI.

    nice .venv/bin/python bench/rl_strength.py --deals 200 --players 4
"""

from __future__ import annotations

import argparse
import statistics
from collections import defaultdict

from meio.tournament import TournamentSpec, run_tournament, summarize
from meio.tournament.stats import mean_ci


def paired(results: list, bot: str, other: str) -> tuple[float, float, float]:  # type: ignore[type-arg]
    """Mean per-deal difference of mean round scores (bot minus other), 95% CI."""
    by_deal: dict[int, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    for r in results:
        for scores in r.round_scores:
            for seat, kind in enumerate(r.lineup):
                by_deal[r.deal][kind].append(scores[seat])
    diffs = [statistics.fmean(d[bot]) - statistics.fmean(d[other]) for d in by_deal.values()]
    return mean_ci(diffs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--bot", default="learned")
    ap.add_argument("--opponents", default="random,heuristic")
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    print("| match-up | deals | learned: mean round score [95% CI] | opponent [95% CI] "
          "| paired difference [95% CI] | learned ahead |")
    print("|---|---:|---|---|---|---:|")
    for opp in args.opponents.split(","):
        spec = TournamentSpec((args.bot, opp), players=args.players, matches=args.deals,
                              seed=2026)
        results = run_tournament(spec, jobs=args.jobs)
        summary = summarize(results)
        cells = []
        for name in (args.bot, opp):
            s = next(x for x in summary.bots if x.bot == name)
            cells.append(f"{s.mean_score:.3f} [{s.ci_low:.3f}, {s.ci_high:.3f}]")
        d, lo, hi = paired(results, args.bot, opp)
        rate = summary.pairwise[args.bot][opp]
        print(f"| {args.bot} vs {opp} ({args.players} players) | {args.deals} | {cells[0]} "
              f"| {cells[1]} | {d:+.3f} [{lo:+.3f}, {hi:+.3f}] | {100 * rate:.0f}% |",
              flush=True)


if __name__ == "__main__":
    main()
