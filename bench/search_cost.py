"""A search level's CPU a card decision on variants against the standard game, in one
run, interleaved (not a test; a few minutes).

For each ruleset, 4 players, the same deal seeds: heuristic rounds are played and
every third card decision with a choice is kept; then the search bot decides each of
them and its process CPU is summed (``time.process_time``: other work on the machine
counts little). Every measure runs in a fresh interpreter after one warm decision, the
rulesets (and, with ``--other``, the two trees) alternating within each repeat, so
that all see the same load. Prints the median CPU a decision of each ruleset and its
ratio to the standard game's in the same tree (issue 37's target: at most 1.5x).

    nice .venv/bin/python bench/search_cost.py --bot search:4 --rounds 4 --repeats 3
    nice .venv/bin/python bench/search_cost.py --other /tmp/base --repeats 3

``--other DIR`` measures the tree at ``DIR`` (e.g. an earlier commit unpacked with
``git archive``) beside this one.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

#: (label, ruleset file or "meio" for the box edition)
RULESETS = [
    ("meio (standard)", "meio"),
    ("six-seven (6/7 split)", "examples/variants/six-seven.toml"),
    ("invented special", "bench/rulesets/invented-special.toml"),
    ("no trump", "bench/rulesets/no-trump.toml"),
]

_MEASURE = """
import json, sys, time
from meio.bots import bot_turn, make_bot
from meio.engine import MatchConfig, Phase, State
try:
    from meio.engine.ruleset_file import load_variant
except ImportError:
    from meio.engine.variant import load_variant

where, bot_name, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
variant = None if where == "meio" else load_variant(where)


def config(seed):
    if variant is None:
        return MatchConfig(players=4, seed=seed)
    return MatchConfig(edition=variant.edition, players=4, seed=seed, variant=variant,
                       options=variant.options)


heuristic = [make_bot("heuristic", s) for s in range(4)]
views = []
for r in range(rounds):
    state = State.new(config(100 + r))
    step = 0
    while not state.rounds:
        seat = state.current_seat()
        view = state.view(seat)
        if state.phase is not Phase.SPLIT and len(view.legal_actions()) > 1:
            if step % 3 == 0:
                views.append(view)
            step += 1
        bot_turn(state, heuristic)
bot = make_bot(bot_name, 1)
bot.choose(views[0], views[0].legal_actions())  # compile or load the kernels
start = time.process_time()
for view in views:
    bot.choose(view, view.legal_actions())
print(json.dumps([(time.process_time() - start) / len(views), len(views)]))
"""


def measure(tree: Path, where: str, bot: str, rounds: int) -> tuple[float, int]:
    """CPU seconds a card decision (and the decisions timed) in a fresh interpreter."""
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    target = where if where == "meio" else str(tree / where)
    out = subprocess.run([sys.executable, "-c", _MEASURE, target, bot, str(rounds)],
                         env=env, capture_output=True, text=True, cwd=tree)
    if out.returncode:
        raise SystemExit(f"the measure failed in {tree}:\n{out.stderr}")
    cpu, count = json.loads(out.stdout.strip().splitlines()[-1])
    return float(cpu), int(count)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="search:4", help="the search level (a bot name)")
    parser.add_argument("--rounds", type=int, default=4, help="heuristic rounds a ruleset")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--other", type=Path, help="root of another tree to measure beside")
    args = parser.parse_args()
    if args.rounds < 1 or args.repeats < 1:
        raise SystemExit("--rounds and --repeats must be at least 1")
    trees = {"this": Path(__file__).resolve().parent.parent}
    if args.other is not None:
        if not (args.other / "src" / "meio").is_dir():
            raise SystemExit(f"{args.other} is not a meio tree (no src/meio)")
        trees["other"] = args.other.resolve()
    got: dict[tuple[str, str], list[float]] = {}
    counts: dict[str, int] = {}
    for r in range(args.repeats):
        order = RULESETS if r % 2 == 0 else RULESETS[::-1]
        for label, where in order:
            labels = list(trees) if r % 2 == 0 else list(trees)[::-1]
            for tree in labels:
                cpu, count = measure(trees[tree], where, args.bot, args.rounds)
                got.setdefault((tree, label), []).append(cpu)
                counts[label] = count
    print(f"{args.bot}: CPU a card decision, median of {args.repeats} interleaved runs")
    header = f"{'ruleset':24} {'decisions':>9}"
    for tree in trees:
        header += f" {tree + ' ms':>10} {tree + ' / std':>11}"
    print(header)
    for label, _ in RULESETS:
        line = f"{label:24} {counts[label]:9d}"
        for tree in trees:
            value = statistics.median(got[(tree, label)])
            standard = statistics.median(got[(tree, RULESETS[0][0])])
            line += f" {1000 * value:10.1f} {value / standard:11.2f}"
        print(line)


if __name__ == "__main__":
    main()
