"""Compile (or load from numba's disk cache) the RL kernels ahead of first use.

``make`` runs ``python -m meio.rl.warm`` after installing, as it does for the
simulation core, so a first ``VectorEnv.step`` or test does not wait on the
compiler.
"""

from __future__ import annotations

import time


def warm_up() -> float:
    """Call every RL kernel once; returns the seconds it took."""
    start = time.perf_counter()
    from meio.rl import VectorEnv
    from meio.rl.env import MeioEnv

    venv = VectorEnv(num_envs=2, players=4, opponents="heuristic", seed=0)
    venv.reset()
    for _ in range(20):
        venv.step(venv.sample_actions())
    env = MeioEnv(players=4, opponents="heuristic", seed=0)
    _, info = env.reset()
    env.step(int(info["action_mask"].argmax()))
    return time.perf_counter() - start


if __name__ == "__main__":
    print(f"meio.rl kernels ready in {warm_up():.1f} s")
