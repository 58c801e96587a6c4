"""Random-play matches a second: the JAX environment (jit + vmap) beside the numba core.

Run: ``nice -n 10 .venv/bin/python bench/jax_env.py`` (needs the ``jax`` extra);
``--batches 1 256 4096`` the JAX batch sizes, ``--players``/``--edition``/
``--partnership`` the table, ``--core N`` the matches the core plays.

Both sides play whole matches with uniformly random legal actions (the core's
``policy="random"``; the JAX side :func:`meio.jaxenv.random_matches`, its split as six
random picks), on the same table, in the same run. Each JAX batch size is compiled
once before it is timed (the compile time is printed apart); a JAX batch runs until
its longest match ends. The core is timed again just before each JAX batch, and each
ratio is to that neighbouring figure (the machine is shared: load moves between
rows). Prints matches per second, the ratio to the core, the device JAX ran on and
the load average.
"""

from __future__ import annotations

import argparse
import os
import time

import jax

from meio.engine import MatchConfig
from meio.jaxenv import JaxGame, random_matches
from meio.sim import simulate


def jax_rate(game: JaxGame, batch: int, repeats: int) -> tuple[float, float]:
    """(compile seconds, matches per second) of ``batch`` random matches at once."""
    run = jax.jit(lambda key: random_matches(game, key, batch))
    start = time.perf_counter()
    run(jax.random.key(0)).terminal.block_until_ready()
    compiled = time.perf_counter() - start
    start = time.perf_counter()
    for i in range(repeats):
        final = run(jax.random.key(1 + i))
        final.terminal.block_until_ready()
    elapsed = time.perf_counter() - start
    if not bool(final.terminal.all()):
        raise RuntimeError("a JAX batch came back with a match unfinished")
    return compiled, batch * repeats / elapsed


def core_rate(config: MatchConfig, matches: int, seed: int = 1) -> float:
    """Matches per second of the numba core (one process) with random players."""
    start = time.perf_counter()
    simulate(config, matches, seed=seed, policy="random")
    return matches / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--batches", type=int, nargs="+", default=[1, 256, 4096])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--edition", choices=["meio", "classic"], default="meio")
    ap.add_argument("--partnership", action="store_true")
    ap.add_argument("--core", type=int, default=20_000, help="matches the core plays")
    ap.add_argument("--repeats", type=int, default=2, help="timed calls per JAX batch")
    args = ap.parse_args()
    config = MatchConfig(edition=args.edition, players=args.players,
                         partnership=args.partnership)
    game = JaxGame(config)
    simulate(config, 4, seed=0, policy="random")  # compile or load the cached kernels
    table = f"{args.edition} {args.players}p" + (" partnership" if args.partnership else "")
    print(f"table: {table}; JAX {jax.__version__} on {jax.devices()[0].platform}; "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"{'':28} {'matches/s':>12} {'core before':>12} {'x core':>8} {'compile s':>10}")
    for i, batch in enumerate(args.batches):
        core = core_rate(config, args.core, seed=1 + i)
        compiled, rate = jax_rate(game, batch, args.repeats)
        print(f"{f'JAX jit+vmap, batch {batch}':28} {rate:>12,.0f} {core:>12,.0f} "
              f"{rate / core:>8.3f} {compiled:>10.1f}")

if __name__ == "__main__":
    main()
