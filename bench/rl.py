"""Environment speed for learning agents (not a test; about a minute).

Measures, in one run and on one core, agent steps per second of:
``VectorEnv`` at N = 1, 64 and 1024 (random and heuristic opponents, and every
seat an agent; actions drawn by the compiled ``sample_actions``), ``MeioEnv``
(Gymnasium; in the compiled core, its default with compiled opponents, and in
the engine), the PettingZoo AEC
env, MEIO as an OpenSpiel Python game, and OpenSpiel's C++ Hearts stepped from
Python, all with uniformly random legal actions. Each figure is the best of five
short windows, as other jobs share the machine, and is given twice: per second of
the stepping thread's own CPU time (``time.thread_time``: what one core does while
it runs this thread, the fair figure on a shared machine) and per second of wall
time. Also times the compiled core's random playout alone, to show where a
VectorEnv step's time goes.

    nice .venv/bin/python bench/rl.py --seconds 3
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from meio.engine import MatchConfig
from meio.rl import VectorEnv
from meio.rl.env import Backend, MeioEnv
from meio.sim.batch import simulate

WINDOWS = 5  # the machine is shared: each figure is the best of this many windows


Rate = tuple[float, float]  # (steps per CPU second of this thread, steps per wall second)


def timed(seconds: float, step: Callable[[], int]) -> Rate:
    """Steps per second of ``step`` (which returns how many steps it made): the best
    of :data:`WINDOWS` windows that together last ``seconds`` of wall time."""
    step()  # warm: compile or load the kernels, first allocations
    best_cpu, best_wall = 0.0, 0.0
    for _ in range(WINDOWS):
        done = 0
        start, cpu = time.perf_counter(), time.thread_time()
        while time.perf_counter() - start < seconds / WINDOWS:
            done += step()
        best_cpu = max(best_cpu, done / max(time.thread_time() - cpu, 1e-9))
        best_wall = max(best_wall, done / (time.perf_counter() - start))
    return best_cpu, best_wall


def vector(n: int, opponents: str, seconds: float, seats: str | None = None
           ) -> tuple[Rate, Rate]:
    """Rates with the compiled action sampling, and of step() alone, for N envs
    (``seats="all"``: every seat an agent, each step one seat's move)."""
    venv = VectorEnv(num_envs=n, players=4, opponents=opponents, seed=1, seats=seats)
    venv.reset()
    for _ in range(3):
        venv.step(venv.sample_actions(seed=2))
    batch = max(1, 4096 // n)
    best = [0.0, 0.0, 0.0, 0.0]  # all cpu, all wall, step cpu, step wall
    for _ in range(WINDOWS):
        steps = 0
        t_sample = [0.0, 0.0]
        t_step = [0.0, 0.0]
        start = time.perf_counter()
        while time.perf_counter() - start < seconds / WINDOWS:
            for _ in range(batch):
                c0, w0 = time.thread_time(), time.perf_counter()
                actions = venv.sample_actions(seed=2)
                c1, w1 = time.thread_time(), time.perf_counter()
                venv.step(actions)
                c2, w2 = time.thread_time(), time.perf_counter()
                t_sample[0] += c1 - c0
                t_sample[1] += w1 - w0
                t_step[0] += c2 - c1
                t_step[1] += w2 - w1
            steps += batch * n
        for k in range(2):
            best[k] = max(best[k], steps / max(t_sample[k] + t_step[k], 1e-9))
            best[2 + k] = max(best[2 + k], steps / max(t_step[k], 1e-9))
    return (best[0], best[1]), (best[2], best[3])


def meio_env(seconds: float, backend: Backend = "core") -> Rate:
    """``MeioEnv`` against random opponents, stepped in the core or the engine. The
    agent's random legal action is drawn from pre-drawn uniforms (``rng.choice``
    alone costs about as much as a core step)."""
    env = MeioEnv(players=4, opponents="random", seed=1, backend=backend)
    _, info = env.reset()
    uniforms = np.random.default_rng(0).random(1 << 16)
    state = {"info": info, "k": 0}

    def run() -> int:
        info, k = state["info"], state["k"]
        for _ in range(20):
            legal = np.flatnonzero(info["action_mask"])
            _, _, done, _, info = env.step(legal[int(uniforms[k & 0xFFFF] * len(legal))])
            k += 1
            if done:
                _, info = env.reset()
        state["info"], state["k"] = info, k
        return 20

    return timed(seconds, run)


def petting_zoo(seconds: float) -> Rate:
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


def openspiel_games(seconds: float) -> tuple[Rate | None, Rate | None]:
    """(MEIO Python game decisions/s, Hearts C++ decisions/s), both from a Python loop."""
    try:
        import pyspiel
    except ModuleNotFoundError:
        return None, None
    import meio.openspiel  # noqa: F401  (registers "meio")

    def loop(game_name: str, params: dict[str, object]) -> Rate:
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
    rows: list[tuple[str, Rate, str]] = []
    for n in (1, 64, 1024):
        rate, step_only = vector(n, "random", s)
        rows.append((f"VectorEnv N={n}, random opponents", rate,
                     f"step() alone {step_only[0]:,.0f}/s CPU"))
    rate, step_only = vector(1024, "heuristic", s)
    rows.append(("VectorEnv N=1024, heuristic opponents", rate,
                 f"step() alone {step_only[0]:,.0f}/s CPU"))
    rate, step_only = vector(1024, "random", s, seats="all")
    rows.append(("VectorEnv N=1024, self-play (4 agent seats)", rate,
                 f"step() alone {step_only[0]:,.0f}/s CPU; a step is one seat's move"))
    rows.append(("MeioEnv (Gymnasium), random opponents", meio_env(s), "compiled core"))
    rows.append(("MeioEnv, backend='engine'", meio_env(s, "engine"), "engine, checked"))
    rows.append(("PettingZoo AEC, 4 agents", petting_zoo(s), "engine, checked"))
    meio_os, hearts = openspiel_games(s)
    if meio_os is not None and hearts is not None:
        rows.append(("OpenSpiel: MEIO Python game", meio_os, "decisions; chance not counted"))
        rows.append(("OpenSpiel: Hearts (C++) from Python", hearts,
                     "decisions; chance not counted"))
    simulate(MatchConfig(players=4), 10, seed=1, policy="random", rounds=True)
    cards = [0.0, 0.0]
    for _ in range(WINDOWS):
        start, cpu = time.perf_counter(), time.thread_time()
        res = simulate(MatchConfig(players=4), 30_000, seed=1, policy="random", rounds=True)
        cards[0] = max(cards[0], res.cards_played / max(time.thread_time() - cpu, 1e-9))
        cards[1] = max(cards[1], res.cards_played / (time.perf_counter() - start))
    # an agent step of 4-player MEIO is about 4 cards played (its own and three
    # opponents'), plus a split every 14 steps
    rows.append(("core alone: random rounds, 4 cards = 1 agent step",
                 (cards[0] / 4, cards[1] / 4), f"{cards[0]:,.0f} cards/s CPU"))
    hearts_cpu = hearts[0] if hearts else 0.0
    print("| environment | agent steps/s (CPU) | x Hearts | steps/s (wall) | note |")
    print("|---|---:|---:|---:|---|")
    for name, (cpu, wall), note in rows:
        ratio = f"{cpu / hearts_cpu:.1f}x" if hearts_cpu else "-"
        print(f"| {name} | {cpu:,.0f} | {ratio} | {wall:,.0f} | {note} |")


if __name__ == "__main__":
    main()
