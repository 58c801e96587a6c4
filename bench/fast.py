"""Speed of the compiled simulation core against OpenSpiel's Hearts in a Python loop.

Run: ``.venv/bin/python bench/fast.py`` (needs the ``bench`` extra: open-spiel);
``--variant FILE`` measures the core on a variant too (4 players).
Prints card plays per second and rounds per second of the core (one process and
``--jobs 2``), of ``pyspiel`` Hearts played by a Python loop with random actions,
their ratio, and the core's compile time (cold cache) and first-call latency
(warm cache), each measured in a fresh interpreter.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time

from meio.engine import MatchConfig
from meio.engine import cards as C

CONFIG = MatchConfig(players=4, specials=(C.MINUS_ONE, C.A_PLUS, C.PLUS_HALF, C.Q_PLUS))
_FIRST_CALL = """
import time
t = time.perf_counter()
import meio.sim as m
from meio.engine import MatchConfig, State
cfg = MatchConfig(players=4)
m.simulate(cfg, 1, 1, "heuristic")
st = State.new(cfg)
m.evaluate_actions([st], [st.legal_actions(0)[0]], 1, 1)
print(time.perf_counter() - t)
"""


def first_call_seconds(cache_dir: str | None) -> float:
    """``import meio.sim`` plus one simulated match, in a fresh interpreter."""
    env = dict(os.environ)
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = cache_dir
    out = subprocess.run(
        [sys.executable, "-c", _FIRST_CALL], env=env, check=True, capture_output=True, text=True
    )
    return float(out.stdout.strip())


def core_rate(
    rounds: int, policy: str, jobs: int, config: MatchConfig = CONFIG
) -> tuple[float, float]:
    """Cards per second and rounds per second of the core playing single rounds."""
    from meio.sim import simulate

    simulate(config, 2 * jobs, seed=0, policy=policy, rounds=True, jobs=jobs)  # warm
    start = time.perf_counter()
    res = simulate(config, rounds, seed=1, policy=policy, rounds=True, jobs=jobs)
    elapsed = time.perf_counter() - start
    return res.cards_played / elapsed, rounds / elapsed


def hearts_rate(seconds: float) -> tuple[float, float]:
    """Cards per second and hands per second of pyspiel Hearts, random actions."""
    import pyspiel

    game = pyspiel.load_game("hearts")
    rng = random.Random(0)
    hands = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = outcomes[rng.randrange(len(outcomes))][0]
            else:
                legal = state.legal_actions()
                action = legal[rng.randrange(len(legal))]
            state.apply_action(action)
        hands += 1
    elapsed = time.perf_counter() - start
    return 52 * hands / elapsed, hands / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200_000, help="core rounds per measure")
    parser.add_argument("--hearts-seconds", type=float, default=5.0)
    parser.add_argument("--variant", metavar="FILE",
                        help="also measure the core on this variant file, 4 players")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as cold:
        compile_s = first_call_seconds(cold)
    warm_s = first_call_seconds(None)
    print(f"core compile + first call, cold cache: {compile_s:6.2f} s")
    print(f"core import + first call, warm cache : {warm_s:6.2f} s")

    rows = []
    for policy in ("random", "heuristic"):
        for jobs in (1, 2):
            cards, rounds = core_rate(args.rounds, policy, jobs)
            rows.append((f"core {policy}, {jobs} job(s)", cards, rounds))
    if args.variant:
        from meio.engine.ruleset_file import load_variant

        variant = load_variant(args.variant)
        table = MatchConfig(players=4, variant=variant, options=variant.options, seed=1)
        for policy in ("random", "heuristic"):
            cards, rounds = core_rate(args.rounds, policy, 1, table)
            rows.append((f"core {policy}, 1 job, variant {variant.name}", cards, rounds))
    h_cards, h_hands = hearts_rate(args.hearts_seconds)
    rows.append(("OpenSpiel Hearts, Python loop, random", h_cards, h_hands))
    print(f"{'':42} {'cards/s':>12} {'rounds/s':>10} {'x Hearts':>9}")
    for name, cards, rounds in rows:
        print(f"{name:42} {cards:12,.0f} {rounds:10,.0f} {cards / h_cards:8.1f}x")
    print(f"4-player MEIO rounds; {args.rounds} rounds per core measure")


if __name__ == "__main__":
    main()
