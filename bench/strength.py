"""Bot strength and decision times (not a test; takes minutes).

Runs duplicate tournaments (heuristic vs random, search vs heuristic) for 4-, 3-
and 2-player MEIO and 4-player partnership, then times single decisions.

    .venv/bin/python bench/strength.py --deals 200 --search-deals 30 --jobs 2
"""

from __future__ import annotations

import argparse
import statistics
import time

from meio.bots import bot_turn, make_bot
from meio.engine import MatchConfig, Phase, State
from meio.tournament import TournamentSpec, run_tournament, summarize

TABLES = [("4-player MEIO", 4, False), ("3-player MEIO", 3, False),
          ("2-player MEIO", 2, False), ("4-player partnership", 4, True)]


def duel(a: str, b: str, players: int, partnership: bool, deals: int, jobs: int,
         wild_lead: str = "declare") -> str:
    spec = TournamentSpec((a, b), players=players, partnership=partnership, matches=deals,
                          seed=2024, wild_lead=wild_lead)  # type: ignore[arg-type]
    summary = summarize(run_tournament(spec, jobs=jobs))
    cells = []
    for name in (a, b):
        s = next(x for x in summary.bots if x.bot == name)
        cells.append(f"{s.mean_score:.3f} [{s.ci_low:.3f}, {s.ci_high:.3f}]")
    rate = summary.pairwise[a][b]
    return f"| {a} vs {b} | {deals} | {cells[0]} | {cells[1]} | {100 * rate:.0f}% |"


def timings(kind: str, samples: int) -> str:
    split: list[float] = []
    card: list[float] = []
    seed = 0
    while len(card) < samples or len(split) < 4:
        state = State.new(MatchConfig(players=4, seed=1000 + seed))
        bots = [make_bot(kind, s) for s in range(4)]
        while not state.is_over and state.round_index == 0 and len(card) < samples:
            phase = state.phase
            t = time.perf_counter()
            bot_turn(state, bots)
            (split if phase is Phase.SPLIT else card).append(time.perf_counter() - t)
        seed += 1

    def q(xs: list[float], p: float) -> float:
        return sorted(xs)[min(len(xs) - 1, int(p * len(xs)))] * 1000

    return (f"| {kind} | {statistics.median(split) * 1000:.1f} | {q(split, 0.95):.1f} | "
            f"{statistics.median(card) * 1000:.1f} | {q(card, 0.95):.1f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--search-deals", type=int, default=30)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timing-samples", type=int, default=60)
    ap.add_argument("--wild-lead", choices=("declare", "next"), default="declare",
                    help="the wild_lead table option (RULES.md §10) of every match")
    ap.add_argument("--search-4p-only", action="store_true",
                    help="only search vs heuristic on 4-player MEIO (no timings)")
    args = ap.parse_args()
    if args.search_4p_only:
        row = duel("search", "heuristic", 4, False, args.search_deals, args.jobs, args.wild_lead)
        print(f"| 4-player MEIO, wild_lead {args.wild_lead} {row}")
        return
    print("| table | match-up | deals | mean round score (first) [95% CI] "
          "| mean round score (second) [95% CI] | first ahead |")
    print("|---|---|---|---|---|---|")
    for label, players, partnership in TABLES:
        for a, b, deals in (("heuristic", "random", args.deals),
                            ("search", "heuristic", args.search_deals)):
            row = duel(a, b, players, partnership, deals, args.jobs, args.wild_lead)
            print(f"| {label} {row}", flush=True)
    print()
    print("| bot (4-player MEIO) | split median ms | split p95 ms | card median ms | card p95 ms |")
    print("|---|---|---|---|---|")
    for kind in ("heuristic", "search:1", "search", "search:3"):
        print(timings(kind, args.timing_samples), flush=True)


if __name__ == "__main__":
    main()
