"""The designer's targets: a report card within a time budget, and the tuner's time a
trial (docs/design.md, "Targets").

    nice .venv/bin/python bench/design.py card --ruleset meio --players 4 --time 600 --jobs 2
    nice .venv/bin/python bench/design.py tune --trials 6 --deals 200 --jobs 2

``card`` plans and plays a report card as ``meio design report`` does (the time a limit)
and prints the wall time, the named player, the deals and matches played and the
precision reached: the half-width of the seat edges' 95% intervals and of the ladder's
steps. ``tune`` runs a small study of the worked example (the box edition, the first
half's size and Q+'s value, seat gap against depth) in a fresh folder and prints the
seconds a trial, the extrapolation to 30 trials, and checks that a second run of the
same command resumes (plays no trial again).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from meio.design.report import SUMMARY_SECONDS, make_plan, run, summarise
from meio.design.rulesets import ruleset


def card(args: argparse.Namespace) -> None:
    start = time.perf_counter()
    plan = make_plan([ruleset(args.ruleset)], args.players, seconds=args.time, jobs=args.jobs,
                     seed=args.seed, began=start, reserve=SUMMARY_SECONDS)
    planned = time.perf_counter() - start
    played = run(plan, jobs=args.jobs, deadline=args.time - planned - SUMMARY_SECONDS)
    summary = summarise(played)
    wall = time.perf_counter() - start
    r = summary["rulesets"][0]
    p = played.plan
    print(f"wall {wall:.0f} s (planning {planned:.0f} s); player {p.player}; "
          f"{p.deals} deals ({summary['matches']['self_play']} matches) under it")
    print("match seconds when planned: " + ", ".join(f"{k} {v:.3f}" for k, v in
                                                     p.match_seconds))
    for key in ("from_leader", "from_first"):
        halves = [(e["ci95"][1] - e["ci95"][0]) / 2 for e in r["seats"][key]["positions"]]
        print(f"seat edges ({key}): ±{max(halves):.3f} at most")
    steps = r.get("depth", {}).get("steps", [])
    for (a, b), n, step in zip(p.pairs, p.pair_deals, steps, strict=True):
        g = r["figures"]["depth"][f"gap:{a}>{b}"]
        print(f"step {a} -> {b}: {n} deals, gap {g['value']:.3f} "
              f"±{(g['ci95'][1] - g['ci95'][0]) / 2:.3f} ({step['reading']})")
    for note in p.notes:
        print("note:", note)


def tune(args: argparse.Namespace) -> None:
    import json

    from meio.design.report import Plan
    from meio.design.space import parse_vary
    from meio.design.tune import Study, parse_goal
    from meio.design.tune import tune as run_tune

    base = ruleset("meio")
    plan = Plan((base,), 4, "heuristic", ("random", "heuristic"), args.deals, (args.deals,),
                args.seed)
    study = Study(base, (parse_vary("hand.first_half=5..8"),
                         parse_vary("special.Q+.value=10..14")),
                  (parse_goal("min seat_gap"), parse_goal("max depth")), plan, args.seed)
    folder = Path(tempfile.mkdtemp(prefix="meio-tune-"))
    start = time.perf_counter()
    s = run_tune(study, folder, args.trials, jobs=args.jobs)
    wall = time.perf_counter() - start
    again = time.perf_counter()
    run_tune(study, folder, args.trials, jobs=args.jobs)
    resumed = time.perf_counter() - again
    per = wall / args.trials
    trials = [t.duration.total_seconds() for t in s.get_trials() if t.duration]
    print(f"{args.trials} trials of {args.deals} deals in {wall:.0f} s with {args.jobs} "
          f"job(s): {per:.1f} s a trial of wall time ({sum(trials) / len(trials):.1f} s "
          f"each in a worker); 30 trials: about {30 * per / 60:.0f} min")
    print(f"the same command again (resumed, nothing to play): {resumed:.1f} s")
    print(json.dumps([t.params for t in s.get_trials()]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    sub = ap.add_subparsers(dest="what", required=True)
    c = sub.add_parser("card")
    c.add_argument("--ruleset", default="meio")
    c.add_argument("--players", type=int, default=4)
    c.add_argument("--time", type=float, default=600.0)
    c.add_argument("--jobs", type=int, default=2)
    c.add_argument("--seed", type=int, default=2026)
    t = sub.add_parser("tune")
    t.add_argument("--trials", type=int, default=6)
    t.add_argument("--deals", type=int, default=200)
    t.add_argument("--jobs", type=int, default=2)
    t.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    card(args) if args.what == "card" else tune(args)


if __name__ == "__main__":
    main()
