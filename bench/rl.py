"""Environment speed for learning agents (not a test; about a minute).

Measures, in one run and on one core, agent steps per second of:
``VectorEnv`` at N = 1, 64 and 1024 (random and heuristic opponents, actions drawn
by the compiled ``sample_actions``), ``MeioEnv`` (Gymnasium), the PettingZoo AEC
env, MEIO as an OpenSpiel Python game, and OpenSpiel's C++ Hearts stepped from
Python, all with uniformly random legal actions. Each figure is the best of five
short windows, as other jobs share the machine. Also times the compiled core's
random playout alone, to show where a VectorEnv step's time goes.

    nice .venv/bin/python bench/rl.py --seconds 3
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from meio.engine import MatchConfig
from meio.rl import VectorEnv
from meio.rl.env import MeioEnv
from meio.sim.batch import simulate

WINDOWS = 5  # the machine is shared: each figure is the best of this many windows


def timed(seconds: float, step: Callable[[], int]) -> float:
    """Steps per second of ``step`` (which returns how many steps it made): the best
    of :data:`WINDOWS` windows that together last ``seconds``."""
    step()  # warm: compile or load the kernels, first allocations
    best = 0.0
    for _ in range(WINDOWS):
        done = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds / WINDOWS:
            done += step()
        best = max(best, done / (time.perf_counter() - start))
    return best


def vector(n: int, opponents: str, seconds: float) -> tuple[float, float]:
    """(steps/s with the compiled action sampling, steps/s of step() alone) for N envs."""
    venv = VectorEnv(num_envs=n, players=4, opponents=opponents, seed=1)
    venv.reset()
    for _ in range(3):
        venv.step(venv.sample_actions(seed=2))
    batch = max(1, 4096 // n)
    best_all, best_step = 0.0, 0.0
    for _ in range(WINDOWS):
        steps, t_sample, t_step = 0, 0.0, 0.0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds / WINDOWS:
            for _ in range(batch):
                t0 = time.perf_counter()
                actions = venv.sample_actions(seed=2)
                t1 = time.perf_counter()
                venv.step(actions)
                t_step += time.perf_counter() - t1
                t_sample += t1 - t0
            steps += batch * n
        best_all = max(best_all, steps / (t_sample + t_step))
        best_step = max(best_step, steps / t_step)
    return best_all, best_step


def meio_env(seconds: float) -> float:
    env = MeioEnv(players=4, opponents="random", seed=1)
    _, info = env.reset()
    rng = np.random.default_rng(0)
    state = {"info": info}

    def run() -> int:
        for _ in range(20):
            mask = state["info"]["action_mask"]
            _, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(mask))))
            if done:
                _, info = env.reset()
            state["info"] = info
        return 20

    return timed(seconds, run)


def petting_zoo(seconds: float) -> float:
    from meio.rl import pettingzoo as mpz

    env = mpz.env(players=4)
    env.reset(seed=1)
    rng = np.random.default_rng(0)

    def run() -> int:
        for _ in range(20):
            if not env.agents:
                env.reset(seed=int(rng.integers(1 << 30)))
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
            else:
                env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        return 20

    return timed(seconds, run)


def openspiel_games(seconds: float) -> tuple[float | None, float | None]:
    """(MEIO Python game decisions/s, Hearts C++ decisions/s), both from a Python loop."""
    try:
        import pyspiel
    except ModuleNotFoundError:
        return None, None
    import meio.openspiel  # noqa: F401  (registers "meio")

    def loop(game_name: str, params: dict[str, object]) -> float:
        game = pyspiel.load_game(game_name, params)
        rng = np.random.default_rng(0)
        holder = {"state": game.new_initial_state()}

        def run() -> int:
            decisions = 0
            for _ in range(50):
                st = holder["state"]
                if st.is_terminal():
                    st = holder["state"] = game.new_initial_state()
                if st.is_chance_node():
                    outcomes, probs = zip(*st.chance_outcomes(), strict=True)
                    st.apply_action(int(rng.choice(outcomes, p=probs)))
                else:
                    legal = st.legal_actions()
                    st.apply_action(legal[int(rng.integers(len(legal)))])
                    decisions += 1
            return decisions

        return timed(seconds, run)

    return loop("meio", {"players": 4}), loop("hearts", {})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    args = ap.parse_args()
    s = args.seconds
    rows: list[tuple[str, float, str]] = []
    for n in (1, 64, 1024):
        rate, step_only = vector(n, "random", s)
        rows.append((f"VectorEnv N={n}, random opponents", rate,
                     f"step() alone {step_only:,.0f}/s"))
    rate, step_only = vector(1024, "heuristic", s)
    rows.append(("VectorEnv N=1024, heuristic opponents", rate,
                 f"step() alone {step_only:,.0f}/s"))
    rows.append(("MeioEnv (Gymnasium), random opponents", meio_env(s), "engine, checked"))
    rows.append(("PettingZoo AEC, 4 agents", petting_zoo(s), "engine, checked"))
    meio_os, hearts = openspiel_games(s)
    if meio_os is not None and hearts is not None:
        rows.append(("OpenSpiel: MEIO Python game", meio_os, "decisions; chance not counted"))
        rows.append(("OpenSpiel: Hearts (C++) from Python", hearts,
                     "decisions; chance not counted"))
    simulate(MatchConfig(players=4), 10, seed=1, policy="random", rounds=True)
    cards = 0.0
    for _ in range(WINDOWS):
        start = time.perf_counter()
        res = simulate(MatchConfig(players=4), 30_000, seed=1, policy="random", rounds=True)
        cards = max(cards, res.cards_played / (time.perf_counter() - start))
    # an agent step of 4-player MEIO is about 4 cards played (its own and three
    # opponents'), plus a split every 14 steps
    rows.append(("core alone: random rounds, 4 cards = 1 agent step", cards / 4,
                 f"{cards:,.0f} cards/s"))
    hearts_rate = hearts or 0.0
    print("| environment | agent steps/s | x Hearts | note |")
    print("|---|---:|---:|---|")
    for name, rate, note in rows:
        ratio = f"{rate / hearts_rate:.1f}x" if hearts_rate else "-"
        print(f"| {name} | {rate:,.0f} | {ratio} | {note} |")


if __name__ == "__main__":
    main()
