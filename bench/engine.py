"""Engine throughput: random full matches through the public, checked API.

    .venv/bin/python bench/engine.py [--seconds 3] [--json] [--compiled]

For each table size it plays whole matches with ``legal_actions()`` + ``apply()``
(every action validated) and prints actions/s and rounds/s; it also times the
unchecked path, ``clone()``, ``view()`` and ``sample_world()``. When OpenSpiel is
installed (``pip install -e '.[bench]'``) it plays Hearts the same way in the same
run and prints the ratio.

``--compiled`` also times the wheel's engine, compiled with mypyc, in a worker
process (``bench/wheel.py``: the wheel is built once into ``build/bench-wheel/``),
each table timed here and then there in turn, and prints both with their ratio.
``--against DIR`` does the same with another tree's engine (``DIR/src``, e.g. an
earlier commit unpacked with ``git archive``, or an unpacked wheel's site): a change's
speed ratio, this engine's over that one's; each side says whether it is compiled.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from meio.engine import MatchConfig, State, sample_world
from wheel import Worker, compiled_site, serve

TABLES = [
    ("meio", 2, False),
    ("meio", 3, False),
    ("meio", 4, False),
    ("meio", 5, False),
    ("meio", 4, True),
    ("classic", 2, False),
    ("classic", 3, False),
    ("classic", 4, False),
]


def _label(edition: str, players: int, partnership: bool) -> str:
    return f"{edition} {players}p" + (" partnership" if partnership else "")


def bench_matches(
    edition: str, players: int, partnership: bool, seconds: float, checked: bool = True
) -> dict[str, float]:
    rng = random.Random(1)
    actions = rounds = matches = 0
    seed = 0
    start, cpu = time.perf_counter(), time.thread_time()
    while time.perf_counter() - start < seconds:
        st = State.new(
            MatchConfig(
                edition=edition,
                players=players,  # type: ignore[arg-type]
                partnership=partnership,
                seed=seed,
            )
        )
        seed += 1
        apply = st.apply if checked else st.apply_unchecked
        legal = st.legal_actions
        while not st.is_over:
            options = legal()
            apply(options[rng.randrange(len(options))])
            actions += 1
        rounds += len(st.rounds)
        matches += 1
    elapsed = time.perf_counter() - start
    return {
        "actions_per_s": actions / elapsed,
        # per second of this thread's CPU time: the fair figure on a shared machine
        "cpu_actions_per_s": actions / max(time.thread_time() - cpu, 1e-9),
        "rounds_per_s": rounds / elapsed,
        "matches": matches,
    }


def _per_call(fn: Callable[[], object], seconds: float = 0.5) -> float:
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(100):
            fn()
        n += 100
    return (time.perf_counter() - start) / n * 1e6


def bench_primitives() -> dict[str, float]:
    st = State.new(MatchConfig(players=4, seed=5))
    rng = random.Random(5)
    for _ in range(30):
        st.apply(rng.choice(st.legal_actions()))
    view = st.view(st.current_seat())
    return {
        "clone_us": _per_call(st.clone),
        "view_us": _per_call(lambda: st.view(0)),
        "legal_actions_us": _per_call(st.legal_actions),
        "sample_world_us": _per_call(lambda: sample_world(view, rng)),
    }


def bench_openspiel_hearts(seconds: float) -> dict[str, float] | None:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("hearts")
    rng = random.Random(1)
    actions = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                decisions += 1
            actions += 1
    elapsed = time.perf_counter() - start
    # player decisions exclude the 52 chance actions of the deal; meio's deal is not an
    # action at all, so decisions/s is the like-for-like figure
    return {"actions_per_s": actions / elapsed, "decisions_per_s": decisions / elapsed}


def engine_kind() -> str:
    """Whether this process's engine is the mypyc-compiled one or pure Python."""
    import meio.engine.state

    return "compiled" if meio.engine.state.__file__.endswith(".so") else "pure"


def compare(seconds: float, site: Path, other: str, windows: int = 5,
            flag: str = "--worker", flip: bool = False) -> None:
    """Each table timed in this process (the engine on ``PYTHONPATH``, pure in a
    checkout) and in a worker on the engine at ``site`` (the wheel's compiled one, or
    another tree's), window by window in turn, each figure the best of ``windows``
    windows per second of the timing thread's CPU time; then the primitives, best of
    three each. The ratio is the worker's speed over this process's (``other`` names
    the worker's engine); ``flip`` prints this process's over the worker's."""
    worker = Worker(Path(__file__), site, flag)
    rows: list[tuple[str, float, float]] = []
    tables = [(e, p, t, True) for e, p, t in TABLES] + [("meio", 4, False, False)]
    for edition, players, partnership, checked in tables:
        best = [0.0, 0.0]
        for _ in range(windows):
            here = bench_matches(edition, players, partnership, seconds / windows, checked)
            there = worker.call("bench_matches", edition, players, partnership,
                                seconds / windows, checked)
            best = [max(best[0], here["cpu_actions_per_s"]),
                    max(best[1], there["cpu_actions_per_s"])]
        name = _label(edition, players, partnership) + ("" if checked else " unchecked")
        rows.append((name, best[0], best[1]))
    here_us: dict[str, float] = {}
    there_us: dict[str, float] = {}
    for _ in range(3):
        for out, got in ((here_us, bench_primitives()),
                         (there_us, worker.call("bench_primitives"))):
            for name, us in got.items():
                out[name] = min(out.get(name, us), us)
    kinds = f"this: {engine_kind()}, {other}: {worker.call('engine_kind')}"
    worker.close()
    print(kinds)
    head = f"this/{other}" if flip else f"{other}/this"
    print(f"{'table':<26}{'this actions/s':>16}{other:>12}{head:>14}  (CPU)")
    for name, a, b in rows:
        print(f"{name:<26}{a:>16,.0f}{b:>12,.0f}{(a / b if flip else b / a):>13.2f}x")
    for name, us in here_us.items():
        ratio = there_us[name] / us if flip else us / there_us[name]
        print(f"{name:<26}{us:>13.2f} µs{there_us[name]:>9.2f} µs{ratio:>10.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per table size")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--compiled", action="store_true",
                        help="the checkout's engine beside the wheel's compiled one")
    parser.add_argument("--against", metavar="DIR", type=Path,
                        help="the checkout's engine beside another tree's (DIR/src)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--worker-any", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker or args.worker_any:  # the other engine's process (bench/wheel.py)
        functions = {"bench_matches": bench_matches, "bench_primitives": bench_primitives,
                     "engine_kind": engine_kind}
        serve(functions, compiled=True if args.worker else None)
        return
    if args.compiled:
        compare(args.seconds, compiled_site(), "compiled")
        return
    if args.against:
        src = args.against / "src"
        site = src if (src / "meio").is_dir() else args.against
        compare(args.seconds, site, "before", flag="--worker-any", flip=True)
        return
    out: dict[str, Any] = {"tables": {}}
    for edition, players, partnership in TABLES:
        out["tables"][_label(edition, players, partnership)] = bench_matches(
            edition, players, partnership, args.seconds
        )
    out["unchecked_meio_4p"] = bench_matches("meio", 4, False, args.seconds, checked=False)
    out["primitives"] = bench_primitives()
    hearts = bench_openspiel_hearts(args.seconds)
    out["openspiel_hearts"] = hearts
    if args.json:
        print(json.dumps(out, indent=1))
        return
    print(f"{'table':<22}{'actions/s':>12}{'rounds/s':>11}")
    for name, row in out["tables"].items():
        print(f"{name:<22}{row['actions_per_s']:>12,.0f}{row['rounds_per_s']:>11,.0f}")
    un = out["unchecked_meio_4p"]
    print(f"{'meio 4p unchecked':<22}{un['actions_per_s']:>12,.0f}{un['rounds_per_s']:>11,.0f}")
    for name, us in out["primitives"].items():
        print(f"{name:<22}{us:>12.2f} µs")
    if hearts is None:
        print("OpenSpiel Hearts: not installed (pip install -e '.[bench]' to compare)")
    else:
        ours = out["tables"]["meio 4p"]["actions_per_s"]
        print(
            f"{'OpenSpiel hearts, all':<22}{hearts['actions_per_s']:>12,.0f}  (with chance)"
        )
        print(
            f"{'OpenSpiel hearts, play':<22}{hearts['decisions_per_s']:>12,.0f}  (player decisions)"
        )
        print(
            f"meio 4p checked / OpenSpiel Hearts decisions = {ours / hearts['decisions_per_s']:.2f}"
        )


if __name__ == "__main__":
    main()
