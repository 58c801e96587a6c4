"""A gauntlet on the benchmark deal set: each bot against one reference bot (not a test; minutes).

For each bot of ``--bots``, the benchmark protocol of ``meio bench`` with that
bot and the reference only: the first ``--deals`` deals of one table of the
deal set (``meio-bench-v1``, checked against its checksum), the two bots in
balanced seats (at four seats ``X R X R`` and ``R X R X``), so both meet the
same cards from every seat. Each row is the bot's mean round score and the
paired difference from the reference (the bot minus the reference, per deal;
negative: the bot did better), the bot's share of the matches it finished ahead
of the reference, and its Elo difference from the reference, all with 95%
percentile-bootstrap intervals over deals. Rows share the reference and the
deals (a row with fewer deals plays a prefix of the others' deals), so they
can be read side by side.

``--deals`` is one count for every bot or one per bot (fewer for the expensive
search levels). ``--seeded`` plays seeded deals instead of the deal set (deal
``d`` is ``MatchConfig(seed=seed*1000003+d)``, as ``meio tournament`` deals
them); ``--seed`` then seeds the deals too (it defaults to 2026, the seed
earlier versions of this script always used).

``ismcts`` is OpenSpiel's ISMCTSBot (``bench/ismcts_peer.py``, the ``bench``
extra) with a fixed number of simulations per decision
(``--ismcts-simulations``), so that, like every meio bot, it is reproducible
from its seed.

    nice .venv/bin/python bench/rl_strength.py --bots learned,search:1 --deals 100,20 \\
        --reference heuristic --players 4 --seed 0 --jobs 2
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from functools import partial
from pathlib import Path

from meio.bots import Bot, register
from meio.tournament import TournamentSpec, leaderboard, load_deal_set, run_tournament


def ismcts_bot(simulations: int, seed: int) -> Bot:
    """OpenSpiel's ISMCTS with ``simulations`` per card decision and per split."""
    sys.path.insert(0, str(Path(__file__).parent))
    from ismcts_peer import IsmctsPeer

    return IsmctsPeer(seed, 0.0, 0.0, simulations=(simulations, simulations))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bots", default="learned")
    ap.add_argument("--reference", default="heuristic")
    ap.add_argument("--deals", default="100", help="one count, or one per bot")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--edition", default="meio")
    ap.add_argument("--partnership", action="store_true")
    ap.add_argument("--set", default="meio-bench-v1", dest="deal_set")
    ap.add_argument("--seed", type=int, default=2026,
                    help="seeds the bots and the bootstrap (and the deals with --seeded)")
    ap.add_argument("--seeded", action="store_true",
                    help="play seeded deals, not the deal set")
    ap.add_argument("--bootstrap", type=int, default=1000)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--ismcts-simulations", type=int, default=100)
    ap.add_argument("--json", type=Path, help="also write the rows to this file")
    args = ap.parse_args()
    bots = [b for b in args.bots.split(",") if b]
    counts = [int(x) for x in args.deals.split(",")]
    if len(counts) == 1:
        counts *= len(bots)
    if len(counts) != len(bots):
        ap.error(f"--deals gives {len(counts)} counts for {len(bots)} bots")
    if "ismcts" in bots:
        register("ismcts", partial(ismcts_bot, args.ismcts_simulations))
    table = load_deal_set(args.deal_set).table(args.edition, args.players, args.partnership)
    source = "seeded deals" if args.seeded else args.deal_set
    print(f"{source} {table.key}, reference {args.reference}, seed {args.seed}, "
          f"{args.bootstrap} bootstrap resamples", flush=True)
    print(f"| bot | deals | mean round score [95% CI] | paired difference from "
          f"{args.reference} [95% CI] | ahead of {args.reference} [95% CI] "
          f"| Elo difference [95% CI] | wall s ({args.jobs} jobs) |")
    print("|---|---:|---|---|---|---|---:|")
    rows = []
    for bot, count in zip(bots, counts, strict=True):
        spec = TournamentSpec((bot, args.reference), table.players, table.edition,
                              table.partnership, count, args.seed,
                              deal_table=None if args.seeded else table)
        wall = time.perf_counter()
        results = run_tournament(spec, jobs=args.jobs)
        wall = time.perf_counter() - wall
        board = leaderboard(results, reference=args.reference, bootstrap=args.bootstrap,
                            seed=args.seed)
        me = next(e for e in board.entries if e.bot == bot)
        ahead = board.pairwise[bot][args.reference]
        # with two bots the ratings sit symmetrically about 1500
        elo = (2 * (me.rating - 1500), 2 * (me.rating_ci95[0] - 1500),
               2 * (me.rating_ci95[1] - 1500))
        row = {"bot": bot, "deals": count, "games": board.games,
               "mean_round_score": [me.mean_round_score, *me.mean_round_score_ci95],
               "paired_difference": [me.vs_reference, *me.vs_reference_ci95],
               "ahead": list(ahead), "elo_difference": list(elo), "wall_s": round(wall, 1)}
        rows.append(row)
        s_lo, s_hi = me.mean_round_score_ci95
        v_lo, v_hi = me.vs_reference_ci95
        print(f"| {bot} | {count} | {me.mean_round_score:.3f} [{s_lo:.3f}, {s_hi:.3f}] | "
              f"{me.vs_reference:+.3f} [{v_lo:+.3f}, {v_hi:+.3f}] | "
              f"{100 * ahead[0]:.0f}% [{100 * ahead[1]:.0f}, "
              f"{100 * ahead[2]:.0f}] | {elo[0]:+.0f} [{elo[1]:+.0f}, {elo[2]:+.0f}] "
              f"| {wall:.0f} |", flush=True)
    if args.json:
        args.json.write_text(json.dumps({"set": source, "table": table.key,
                                         "reference": args.reference, "seed": args.seed,
                                         "command": " ".join(sys.argv), "rows": rows},
                                        indent=1))


if __name__ == "__main__":
    main()
