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
    nice .venv/bin/python bench/rl.py --seconds 10 --openspiel-only
    git show 3e8564d:src/meio/openspiel.py > /tmp/openspiel_before.py
    nice .venv/bin/python bench/rl.py --seconds 10 --openspiel-only \
        --before /tmp/openspiel_before.py

``--before FILE`` also steps the game of an earlier ``meio.openspiel`` (the file
of one commit), registered as ``meio_before``: an A/B in one run. With
``--openspiel-only`` a second table gives each game's own cost a decision, with no
sampling (:func:`game_cost`), and both tables also hold the game on the wheel's
mypyc-compiled engine: the wheel is built once into ``build/bench-wheel/`` and a
worker process imports it (``bench/wheel.py``), its windows taken in turn with
this process's (``--pure-only`` leaves it out).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import shlex
import sys
import time
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from meio.engine import MatchConfig
from meio.rl import VectorEnv
from meio.rl.env import Backend, MeioEnv
from meio.sim.batch import simulate
from wheel import Worker, compiled_site, serve

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


def register_before(path: Path) -> None:
    """Run an earlier ``meio.openspiel`` file, its game registered as ``meio_before``."""
    source = path.read_text()
    if 'short_name="meio",' not in source:
        raise SystemExit(f"{path} does not register a game named 'meio'")
    module = sys.modules["meio_openspiel_before"] = types.ModuleType("meio_openspiel_before")
    exec(compile(source.replace('short_name="meio",', 'short_name="meio_before",'),
                 str(path), "exec"), module.__dict__)


def stepper(pyspiel: Any, game_name: str, params: dict[str, object]) -> Callable[[], int]:
    """50 nodes of ``game_name`` stepped with random legal actions (chance sampled as
    OpenSpiel's examples do, ``rng.choice(outcomes, p=probs)``); returns the decisions."""
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

    return run


def window(run: Callable[[], int], seconds: float) -> tuple[int, float, float]:
    """Run ``run`` for ``seconds`` of wall time: (decisions, CPU seconds of this
    thread, wall seconds)."""
    done = 0
    start, cpu = time.perf_counter(), time.thread_time()
    while time.perf_counter() - start < seconds:
        done += run()
    return done, time.thread_time() - cpu, time.perf_counter() - start


#: (label, game, parameters, note): the games of the compiled engine's worker
NOTE = "decisions; chance not counted"
COMPILED_GAMES: list[tuple[str, str, dict[str, object], str]] = [
    ("OpenSpiel: MEIO, compiled engine (packs)", "meio", {"players": 4}, NOTE + "; the wheel's"),
    ("OpenSpiel: MEIO, compiled engine, six picks", "meio",
     {"players": 4, "split_mode": "sequential"}, NOTE + "; the wheel's"),
    ("OpenSpiel: Hearts (C++), in the compiled engine's process", "hearts", {},
     NOTE + "; a control: the two processes alike"),
]
_served: list[Callable[[], int]] = []  # the worker's steppers, in COMPILED_GAMES order


def worker_setup() -> str:
    import pyspiel

    import meio.engine.state
    import meio.openspiel  # registers "meio"

    register_replay_game(pyspiel, "meio_replay", {"players": 4})
    register_replay_game(pyspiel, "meio_replay_picks",
                         {"players": 4, "split_mode": "sequential"})
    _served.extend(stepper(pyspiel, g, p) for _, g, p, _ in COMPILED_GAMES)
    for run in _served:
        run()
    return meio.engine.state.__file__


def worker_window(k: int, seconds: float) -> tuple[int, float, float]:
    return window(_served[k], seconds)


def openspiel_rows(seconds: float, before: Path | None = None,
                   compiled: Worker | None = None) -> list[tuple[str, Rate, str]]:
    """Decisions/s of MEIO as an OpenSpiel Python game (4 players; the split as one
    pack action, and as six picks), of OpenSpiel's C++ Hearts, and of a Python game
    that does nothing but replay one MEIO match's nodes (the same chance outcomes
    and legal actions, each query answered from a list): what any Python game
    costs in this loop, the floor under MEIO's figure.
    With ``before``, also the game of that earlier file (:func:`register_before`);
    with ``compiled``, also the games of :data:`COMPILED_GAMES`, stepped by that
    worker process on the wheel's compiled engine.
    All stepped by the same Python loop (:func:`stepper`), taking turns window by
    window (the worker's games too); each figure is the best of its windows. Empty
    when OpenSpiel is not installed."""
    try:
        import pyspiel
    except ModuleNotFoundError:
        return []
    import meio.openspiel  # noqa: F401  (registers "meio")

    register_replay_game(pyspiel, "meio_replay", {"players": 4})
    register_replay_game(pyspiel, "meio_replay_picks",
                         {"players": 4, "split_mode": "sequential"})

    note = NOTE
    floor = "; no game logic: the floor of a Python game"
    if before is not None:
        register_before(before)
    games: list[tuple[str, Callable[[float], tuple[int, float, float]], str]] = []

    def local(name: str, params: dict[str, object]) -> Callable[[float], tuple[int, float, float]]:
        run = stepper(pyspiel, name, params)
        run()  # warm
        return lambda s: window(run, s)

    if before is not None:
        games += [
            ("OpenSpiel: MEIO before (--before)", local("meio_before", {"players": 4}), note),
            ("OpenSpiel: MEIO before, six picks", local(
                "meio_before", {"players": 4, "split_mode": "sequential"}), note),
        ]
    games += [
        ("OpenSpiel: MEIO Python game", local("meio", {"players": 4}), note + "; pure engine"),
        ("OpenSpiel: MEIO, split as six picks", local(
            "meio", {"players": 4, "split_mode": "sequential"}), note + "; pure engine"),
    ]
    games += [
        ("OpenSpiel: Hearts (C++) from Python", local("hearts", {}), note),
        ("OpenSpiel: a Python game replaying MEIO's nodes", local("meio_replay", {}),
         note + floor),
        ("OpenSpiel: the same, split as six picks", local("meio_replay_picks", {}),
         note + floor),
    ]
    if compiled is not None:
        engine = compiled.call("worker_setup")
        print(f"compiled engine: {engine}", file=sys.stderr)
        for k, (label, _, _, n) in enumerate(COMPILED_GAMES):
            games.append((label, functools.partial(compiled.call, "worker_window", k), n))
    # the games take turns, window by window, so that each meets the same load
    windows = 4 * WINDOWS
    best = [[0.0, 0.0] for _ in games]
    for _ in range(windows):
        for k, (_, run_window, _) in enumerate(games):
            done, cpu, wall = run_window(seconds / windows)
            best[k][0] = max(best[k][0], done / max(cpu, 1e-9))
            best[k][1] = max(best[k][1], done / wall)
    return [(name, (b[0], b[1]), n) for (name, _, n), b in zip(games, best, strict=True)]


def game_cost(before: Path | None, matches: int = 30, label: str = ""
              ) -> list[tuple[str, float, float]]:
    """Microseconds of the games' own work a decision, with no sampling: recorded random
    matches replayed through the queries of the loop above (``is_terminal``,
    ``is_chance_node``, ``chance_outcomes`` or ``legal_actions``, ``apply_action``),
    best of seven passes, less the same for the game that replays nodes from lists
    (the floor). Rows: (game, µs a decision, µs above the floor)."""
    import pyspiel

    def record(game: Any, count: int) -> list[list[int]]:
        rng = np.random.default_rng(1)
        out = []
        for _ in range(count):
            st, seq = game.new_initial_state(), []
            while not st.is_terminal():
                options = ([a for a, _ in st.chance_outcomes()] if st.is_chance_node()
                           else st.legal_actions())
                seq.append(options[int(rng.integers(len(options)))])
                st.apply_action(seq[-1])
            out.append(seq)
        return out

    def per_decision(game: Any, seqs: list[list[int]]) -> float:
        start, decisions = time.thread_time(), 0
        for seq in seqs:
            st = game.new_initial_state()
            for action in seq:
                st.is_terminal()
                if st.is_chance_node():
                    st.chance_outcomes()
                else:
                    st.legal_actions()
                    decisions += 1
                st.apply_action(action)
        return (time.thread_time() - start) * 1e6 / decisions

    rows = []
    for mode, floor_name in (("pack", "meio_replay"), ("sequential", "meio_replay_picks")):
        params = {"players": 4, "split_mode": mode}
        names = ["meio", *(["meio_before"] if before is not None else [])]
        seqs = record(pyspiel.load_game("meio", params), matches)
        games = {name: pyspiel.load_game(name, params) for name in names}
        floor_game = pyspiel.load_game(floor_name)
        floor_seqs = record(floor_game, 1) * matches
        best = dict.fromkeys([*names, "floor"], float("inf"))
        for _ in range(7):
            for name, game in games.items():
                best[name] = min(best[name], per_decision(game, seqs))
            best["floor"] = min(best["floor"], per_decision(floor_game, floor_seqs))
        for name in names:
            rows.append((f"{name}{label}, split_mode {mode}", best[name],
                         best[name] - best["floor"]))
        rows.append((f"the floor{label}, split_mode {mode}", best["floor"], 0.0))
    return rows


def register_replay_game(pyspiel: Any, name: str, params: dict[str, object]) -> None:
    """Register ``name``: one recorded MEIO match (random actions) of the game
    ``params``, replayed node by node whatever is chosen."""
    game = pyspiel.load_game("meio", params)
    rng = np.random.default_rng(1)
    state = game.new_initial_state()
    nodes: list[tuple[int, list[Any]]] = []  # (player, chance outcomes or legal actions)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            nodes.append((-1, outcomes))
            state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
        else:
            legal = state.legal_actions()
            nodes.append((state.current_player(), legal))
            state.apply_action(legal[int(rng.integers(len(legal)))])
    players = game.num_players()
    game_type = pyspiel.GameType(
        short_name=name, long_name=f"MEIO nodes replayed ({name})",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players, min_num_players=players,
        provides_information_state_string=False, provides_information_state_tensor=False,
        provides_observation_string=False, provides_observation_tensor=False,
        parameter_specification={})
    info = pyspiel.GameInfo(
        num_distinct_actions=game.num_distinct_actions(),
        max_chance_outcomes=game.max_chance_outcomes(), num_players=players,
        min_utility=-1.0, max_utility=0.0, utility_sum=None,
        max_game_length=len(nodes))
    end = len(nodes)

    class ReplayState(pyspiel.State):  # type: ignore[misc]
        def __init__(self, game: Any) -> None:
            super().__init__(game)
            self.i = 0

        def current_player(self) -> int:
            return -4 if self.i == end else nodes[self.i][0]

        def is_terminal(self) -> bool:
            return self.i == end

        def is_chance_node(self) -> bool:
            return self.i < end and nodes[self.i][0] == -1

        def legal_actions(self, player: int | None = None) -> list[int]:
            return list(nodes[self.i][1]) if self.i < end else []

        def _legal_actions(self, player: int) -> list[int]:
            return list(nodes[self.i][1])

        def chance_outcomes(self) -> list[tuple[int, float]]:
            return list(nodes[self.i][1])

        def _apply_action(self, action: int) -> None:
            self.i += 1

        def returns(self) -> list[float]:
            return [0.0] * players

        def __str__(self) -> str:
            return str(self.i)

    class ReplayGame(pyspiel.Game):  # type: ignore[misc]
        def __init__(self, params: dict[str, Any] | None = None) -> None:
            super().__init__(game_type, info, params or {})

        def new_initial_state(self) -> ReplayState:
            return ReplayState(self)

    pyspiel.register_game(game_type, ReplayGame)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--openspiel-only", action="store_true",
                    help="only the OpenSpiel rows (MEIO, Hearts and the replayed nodes)")
    ap.add_argument("--vector-only", action="store_true",
                    help="only the VectorEnv rows (run with PYTHONPATH=OLD/src to time an "
                         "older tree with this script)")
    ap.add_argument("--before", type=Path, metavar="FILE",
                    help="also step the game of this earlier meio/openspiel.py (A/B)")
    ap.add_argument("--pure-only", action="store_true",
                    help="with --openspiel-only: leave out the compiled engine's rows "
                         "(no wheel built)")
    ap.add_argument("--json", type=Path, metavar="FILE",
                    help="also write the main table as a meio-speed/1 document (the "
                         "speed table of docs/rl.md is made from it)")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:  # the compiled engine's process (bench/wheel.py)
        serve({"worker_setup": worker_setup, "worker_window": worker_window,
               "game_cost": lambda: game_cost(None, label=" (compiled)")})
        return
    s = args.seconds
    rows: list[tuple[str, Rate, str]] = []
    if args.openspiel_only:
        import meio.engine.state

        print(f"pure engine: {meio.engine.state.__file__}", file=sys.stderr)
        worker = None if args.pure_only else Worker(Path(__file__), compiled_site())
        print_rows(openspiel_rows(s, args.before, worker))
        print("\n| game (4 players) | µs a decision, no sampling | above the floor |")
        print("|---|---:|---:|")
        costs = game_cost(args.before)
        if worker is not None:
            costs += [tuple(row) for row in worker.call("game_cost")]
            worker.close()
        for name, cost, above in costs:
            print(f"| {name} | {cost:.2f} | {above:.2f} |")
        return
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
    if args.vector_only:
        print_rows(rows)
        return
    rows.append(("MeioEnv (Gymnasium), random opponents", meio_env(s), "compiled core"))
    rows.append(("MeioEnv, backend='engine'", meio_env(s, "engine"), "engine, checked"))
    rows.append(("PettingZoo AEC, 4 agents", petting_zoo(s), "engine, checked"))
    rows.extend(openspiel_rows(s, args.before))
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
    print_rows(rows)
    if args.json:
        write_json(args.json, rows, s)


def write_json(path: Path, rows: list[tuple[str, Rate, str]], seconds: float) -> None:
    """The table as a ``meio-speed/1`` document, with the command and the load."""
    doc = {"format": "meio-speed/1", "command": shlex.join(["python", "bench/rl.py",
                                                            *sys.argv[1:]]),
           "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
           "load_average": [round(x, 1) for x in os.getloadavg()], "seconds": seconds,
           "rows": [{"environment": name, "cpu": round(cpu), "wall": round(wall),
                     "note": note} for name, (cpu, wall), note in rows]}
    path.write_text(json.dumps(doc, indent=1) + "\n")


def print_rows(rows: list[tuple[str, Rate, str]]) -> None:
    """The table, each rate also as a multiple of Hearts' (when it was measured)."""
    hearts_cpu = next((rate[0] for name, rate, _ in rows if "Hearts" in name), 0.0)
    print("| environment | agent steps/s (CPU) | x Hearts | steps/s (wall) | note |")
    print("|---|---:|---:|---:|---|")
    for name, (cpu, wall), note in rows:
        ratio = f"{cpu / hearts_cpu:.2f}x" if hearts_cpu else "-"
        print(f"| {name} | {cpu:,.0f} | {ratio} | {wall:,.0f} | {note} |")


if __name__ == "__main__":
    main()
