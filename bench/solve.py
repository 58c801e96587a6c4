"""The small game solved: CFR's convergence and the exact exploitability of every bot
that plays it (docs/rl.md, "A MEIO small enough to solve"; a few minutes).

Loads ``meio`` with ``variant`` (default ``mini``) and ``reward: victory`` (one
round, won by one seat and lost by the other: a zero-sum game), walks its whole
tree, runs OpenSpiel's C++ CFR+ (or CFR) for ``--iterations`` and reports the
exploitability of its average policy at each ``--checkpoints``; then turns every
bot that plays the game into a tabular policy, asking it once at each information
state what it plays (:mod:`meio.openspiel.solve`), and scores each exactly with
OpenSpiel's ``nash_conv``. Exploitability is OpenSpiel's: NashConv / 2, the mean
over the two seats of what a best response gains against the policy. The meio bots
that do not play variants are listed with the reason.

The ``--json`` document (``meio-exploitability/1``) records each bot's version
(:func:`meio.bots.versions.describe_bot`); ``bench/docs_tables.py`` makes docs/rl.md's
table of the ``mini`` game from ``docs/bench/mini-exploitability.json``:

    nice .venv/bin/python bench/solve.py --iterations 100 --checkpoints 1,10,30 \\
        --ismcts-simulations 100 --seed 0 --json docs/bench/mini-exploitability.json

``--add-to FILE`` scores the ``--bots`` named and adds their rows to a document made
before (a row of the same bot is replaced), without solving the game again; the
document keeps its CFR rows and lists the command under ``additions``:

    nice .venv/bin/python bench/solve.py --bots learned \\
        --add-to docs/bench/mini-exploitability.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import pyspiel

import meio.openspiel  # noqa: F401  (registers "meio")
from meio.bots.versions import describe_bot
from meio.openspiel.solve import (
    ADVISOR_WORLDS,
    POLICY_BOTS,
    bot_policy,
    decision_states,
    refused_bots,
    solve,
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="mini", help="a preset or a .toml file")
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--checkpoints", default="1,10,50,100",
                        help="comma-separated iterations to score CFR's policy at")
    parser.add_argument("--solver", choices=("cfr+", "cfr"), default="cfr+")
    parser.add_argument("--ismcts-simulations", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0, help="seed of the bots")
    parser.add_argument("--bots", default=",".join(POLICY_BOTS),
                        help="the bots to score besides CFR (default: every one that "
                             "plays the variant and is made a tabular policy here)")
    parser.add_argument("--json", type=Path, help="also write the result to this file")
    parser.add_argument("--add-to", type=Path, metavar="FILE",
                        help="score only --bots and add their rows to this document "
                             "(made before by this script for the same game and seed)")
    args = parser.parse_args(argv)
    if args.iterations < 1:
        parser.error("--iterations must be at least 1")
    try:
        checkpoints = tuple(int(c) for c in args.checkpoints.split(",") if c.strip())
    except ValueError:
        parser.error(f"--checkpoints is a list of whole numbers, not {args.checkpoints!r}")
    if args.ismcts_simulations < 2:
        parser.error("--ismcts-simulations must be at least 2")
    start = time.perf_counter()
    try:
        game = pyspiel.load_game("meio", {"players": 2, "variant": args.variant,
                                          "reward": "victory"})
    except pyspiel.SpielError as exc:  # a ConfigError raised in the game's constructor
        print(f"bench/solve.py: {exc}", file=sys.stderr)
        return 2
    states, size = decision_states(game)
    print(f"{game}\nhistories {size.histories}, terminal {size.terminals}, decision nodes "
          f"{size.decisions}, information states per player {list(size.infostates)} "
          f"({time.perf_counter() - start:.1f} s)", flush=True)
    command = "python bench/solve.py " + " ".join(sys.argv[1:] if argv is None else argv)
    if args.add_to is not None:
        return _add_to(args.add_to, game, states, args, command, start)
    out: dict[str, Any] = {
        "format": "meio-exploitability/1",
        "command": command,
        "game": str(game), "variant": args.variant, "solver": args.solver,
        "seed": args.seed, "ismcts_simulations": args.ismcts_simulations,
        "size": {"histories": size.histories, "terminals": size.terminals,
                 "decisions": size.decisions, "infostates": list(size.infostates)},
        "exploitability": "NashConv / 2 (OpenSpiel's pyspiel.exploitability)",
        "advisor_worlds": ADVISOR_WORLDS,
        "cfr": [], "bots": [], "bot_versions": {},
    }
    average = None
    for point, policy in solve(game, args.iterations, checkpoints,
                               plus=args.solver == "cfr+"):
        average = policy
        out["cfr"].append({"iteration": point.iteration,
                           "exploitability": point.exploitability,
                           "seconds": round(point.seconds, 1)})
        print(f"{args.solver} iteration {point.iteration}: exploitability "
              f"{point.exploitability:.6f} ({point.seconds:.1f} s)", flush=True)
    assert average is not None
    policies: list[tuple[str, Any, float]] = [
        (f"{args.solver} ({args.iterations} iterations)", average, 0.0)]
    policies += _bot_policies(args, states, out["bot_versions"])
    out["bots"] = _scored(game, policies)
    out["refused"] = refused_bots(game)
    for kind, reason in out["refused"].items():
        print(f"{kind}: not played ({reason})")
    out["seconds"] = round(time.perf_counter() - start, 1)
    print(f"{out['seconds']} s in all")
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n")
    return 0


def _bot_policies(args: argparse.Namespace, states: dict[str, Any],
                  versions: dict[str, Any]) -> list[tuple[str, Any, float]]:
    """Each bot of ``--bots`` made a tabular policy: (its row's name, the policy, the
    seconds that took); records each one's version in ``versions``."""
    policies: list[tuple[str, Any, float]] = []
    for kind in (b.strip() for b in args.bots.split(",") if b.strip()):
        t = time.perf_counter()
        if describe_bot(kind):
            versions[kind] = describe_bot(kind)
        policies.append((kind if kind != "ismcts" else
                         f"ismcts ({args.ismcts_simulations} simulations)",
                         bot_policy(kind, states, seed=args.seed,
                                    simulations=args.ismcts_simulations),
                         time.perf_counter() - t))
    return policies


def _scored(game: Any, policies: list[tuple[str, Any, float]]) -> list[dict[str, Any]]:
    """A row a policy: its exact NashConv and exploitability (printed as it comes)."""
    rows = []
    for name, policy, built in policies:
        t = time.perf_counter()
        nash_conv = float(pyspiel.nash_conv(game, policy))
        row = {"bot": name, "nash_conv": nash_conv, "exploitability": nash_conv / 2,
               "policy_seconds": round(built, 1),
               "score_seconds": round(time.perf_counter() - t, 1)}
        rows.append(row)
        print(f"{name}: NashConv {nash_conv:.6f}, exploitability {nash_conv / 2:.6f} "
              f"(policy {row['policy_seconds']} s, scored in {row['score_seconds']} s)",
              flush=True)
    return rows


def _add_to(path: Path, game: Any, states: dict[str, Any], args: argparse.Namespace,
            command: str, start: float) -> int:
    """``--add-to``: the named bots' rows added to the document at ``path``."""
    try:
        doc = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        print(f"bench/solve.py: cannot read {path}: {exc}", file=sys.stderr)
        return 2
    if doc.get("format") != "meio-exploitability/1" or doc.get("game") != str(game):
        print(f"bench/solve.py: {path} is not a meio-exploitability/1 document of {game}",
              file=sys.stderr)
        return 2
    if doc.get("seed") != args.seed:
        print(f"bench/solve.py: {path} was made with --seed {doc.get('seed')}, not "
              f"{args.seed}", file=sys.stderr)
        return 2
    rows = _scored(game, _bot_policies(args, states, doc.setdefault("bot_versions", {})))
    added = {r["bot"] for r in rows}
    doc["bots"] = [r for r in doc["bots"] if r["bot"] not in added] + rows
    doc["refused"] = refused_bots(game)
    # an earlier addition of these bots only is replaced by this one
    doc["additions"] = [a for a in doc.get("additions", []) if not set(a["bots"]) <= added]
    doc["additions"].append(
        {"command": command, "bots": sorted(added),
         "seconds": round(time.perf_counter() - start, 1)})
    path.write_text(json.dumps(doc, indent=2) + "\n")
    print(f"{', '.join(sorted(added))} added to {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
