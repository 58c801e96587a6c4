"""The network for any ruleset in the compiled core: whole matches a second on the
standard game and on variants, interleaved in one process (not a test).

Every seat plays the shipped general network (``learned-any-v1``,
:func:`meio.bots.netcore.simulate`) at 4 players with the box specials; the rulesets
are the standard game (the box edition's preset) and the three benchmark variants.
Each repeat times every ruleset once, in turn, so all see the same load; the first
call (compiling, or loading the disk cache) is left out. Prints the median rate of each
and its ratio to the standard game's.

    nice .venv/bin/python bench/net_rulesets.py --matches 400 --repeats 5
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from meio.bots.general import GENERAL_POLICY, load_general
from meio.bots.netcore import simulate
from meio.engine import MatchConfig
from meio.engine import cards as C
from meio.engine.ruleset_file import load_variant

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = {
    "6/7 split": ROOT / "examples/variants/six-seven.toml",
    "invented special": ROOT / "bench/rulesets/invented-special.toml",
    "no trump": ROOT / "bench/rulesets/no-trump.toml",
}


def tables() -> dict[str, MatchConfig]:
    specials = (C.MINUS_ONE, C.A_PLUS, C.PLUS_HALF, C.Q_PLUS)
    out = {"standard": MatchConfig(players=4, specials=specials, seed=1)}
    for name, path in VARIANTS.items():
        v = load_variant(path)
        keep = tuple(s for s in specials if s in v.special_pool)
        out[name] = MatchConfig(edition=v.edition, players=4, variant=v, options=v.options,
                                specials=keep if len(keep) == 4 else None, seed=1)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=400)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    net = load_general(GENERAL_POLICY)
    configs = tables()
    for config in configs.values():
        simulate(config, 0, 2, 0, net)
    rates: dict[str, list[float]] = {name: [] for name in configs}
    for r in range(args.repeats):
        for name, config in configs.items():
            start = time.perf_counter()
            simulate(config, 0, args.matches, r + 1, net)
            rates[name].append(args.matches / (time.perf_counter() - start))
    base = statistics.median(rates["standard"])
    print("| ruleset | matches/s | / standard |")
    print("|---|---|---|")
    for name, values in rates.items():
        med = statistics.median(values)
        print(f"| {name} | {med:,.0f} | {med / base:.2f} |")
    print(f"medians of {args.repeats} interleaved runs of {args.matches} matches; 4 players")


if __name__ == "__main__":
    main()
