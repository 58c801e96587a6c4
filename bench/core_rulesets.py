"""The compiled core against another tree of meio, interleaved: the standard game, a
variant and the network in the core, each measured in a fresh interpreter.

Run (from this tree; ``OTHER`` is the root of the tree to compare, e.g. commit 0e9cfa8
unpacked with ``git archive 0e9cfa8 | tar -x -C /tmp/base36c``)::

    nice .venv/bin/python bench/core_rulesets.py --other /tmp/base36c --repeats 5

Each measure runs once per tree per repeat, the trees alternating, so that both see
the same load; a first call (compiling, or loading the disk cache) is left out of
every timing, and each timing is the measuring process's CPU time (numba's loops are
single-threaded), so a neighbour's load slows it less than a wall clock's. Prints the
median rate of each measure in each tree and their ratio
(this tree over the other), and in each tree the variant's rate over the standard
game's with the same policy. The variant is the 6/7 split (``first_half = 6``,
``pack = 7`` on the ``meio`` preset), the table 4 players with the box specials;
``learned`` is the shipped network in every seat (:func:`meio.bots.netcore.simulate`,
what ``meio analyze --bots learned`` plays), in whole matches.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

_MEASURE = """
import json, sys, time
from meio.engine import MatchConfig
from meio.engine import cards as C
try:  # where the ruleset file's reader lives since the variant module was split
    from meio.engine.ruleset_file import parse_variant
except ImportError:
    from meio.engine.variant import parse_variant

kind, policy, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
specials = (C.MINUS_ONE, C.A_PLUS, C.PLUS_HALF, C.Q_PLUS)
if kind == "variant":
    variant = parse_variant('preset = "meio"\\n[hand]\\nfirst_half = 6\\npack = 7\\n', "six-seven")
    config = MatchConfig(players=4, variant=variant, seed=1)
else:
    config = MatchConfig(players=4, specials=specials, seed=1)
if policy == "learned":
    from meio.bots.learned import DEFAULT_POLICY, load_policy
    from meio.bots.netcore import simulate as simulate_net
    net = load_policy(DEFAULT_POLICY)
    simulate_net(config, 0, 2, 0, net)
    start = time.process_time()
    simulate_net(config, 0, count, 1, net)
else:
    from meio.sim import simulate
    simulate(config, 4, seed=0, policy=policy, rounds=True)
    start = time.process_time()
    simulate(config, count, seed=1, policy=policy, rounds=True)
print(json.dumps(count / (time.process_time() - start)))
"""

#: (name, ruleset, policy, rounds or matches per measure)
MEASURES = [
    ("standard random, rounds/s", "standard", "random", 200_000),
    ("standard heuristic, rounds/s", "standard", "heuristic", 40_000),
    ("6/7 split random, rounds/s", "variant", "random", 200_000),
    ("6/7 split heuristic, rounds/s", "variant", "heuristic", 40_000),
    ("standard learned, matches/s", "standard", "learned", 1_000),
]


def rate(tree: Path, kind: str, policy: str, count: int) -> float:
    """One measure in a fresh interpreter with ``tree``'s sources first on the path."""
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    out = subprocess.run([sys.executable, "-c", _MEASURE, kind, policy, str(count)], env=env,
                         capture_output=True, text=True, cwd=tree)
    if out.returncode:
        raise SystemExit(f"the measure failed in {tree}:\n{out.stderr}")
    return float(json.loads(out.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--other", required=True, type=Path, help="root of the other tree")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--scale", type=float, default=1.0,
                        help="multiply every measure's count (smaller: quicker, noisier)")
    args = parser.parse_args()
    here = Path(__file__).resolve().parent.parent
    trees = {"this": here, "other": args.other.resolve()}
    for tree in trees.values():  # compile (or load) each tree's kernels before timing
        for _, kind, policy, _ in MEASURES:
            rate(tree, kind, policy, 10)
    got: dict[tuple[str, str], list[float]] = {}
    for r in range(args.repeats):
        for name, kind, policy, count in MEASURES:
            order = ("this", "other") if r % 2 == 0 else ("other", "this")
            for label in order:
                n = max(10, int(count * args.scale))
                got.setdefault((label, name), []).append(rate(trees[label], kind, policy, n))
    med = {key: statistics.median(values) for key, values in got.items()}
    print(f"{'':32} {'this':>10} {'other':>10} {'this/other':>10}")
    for name, *_ in MEASURES:
        a, b = med[("this", name)], med[("other", name)]
        print(f"{name:32} {a:10,.0f} {b:10,.0f} {a / b:10.3f}")
    for policy in ("random", "heuristic"):
        for label in trees:
            v = med[(label, f"6/7 split {policy}, rounds/s")]
            s = med[(label, f"standard {policy}, rounds/s")]
            print(f"6/7 split / standard, {policy:9} ({label:5}): {v / s:.3f}")
    print(f"medians of {args.repeats} interleaved runs; 4 players, the box specials")


if __name__ == "__main__":
    main()
