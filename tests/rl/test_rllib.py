"""RLlib (new API stack) trains PPO with its action-masking module on the compact space
(examples/rllib_ppo.py).

RLlib 2.60 requires ``gymnasium==1.2.2`` and meio's lock file has 1.4.0, so RLlib is no
extra of meio and these tests skip in meio's own venv; they run in a venv made as
docs/rl.md ("RLlib") says. The env raises on an illegal action, so a training run that
gets through whole matches shows that RLlib read the mask from the observation."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

pytest.importorskip("torch")
try:
    import ray.rllib  # noqa: F401
except ImportError as exc:  # ray without the rllib extra lacks dm-tree, lz4...
    pytest.skip(f"RLlib is not installed ({exc}): it needs gymnasium==1.2.2, a venv of "
                "its own (docs/rl.md, 'RLlib')", allow_module_level=True)

import gymnasium as gym

import meio.rl

ROOT = Path(__file__).resolve().parents[2]


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rllib_ppo", ROOT / "examples" /
                                                  "rllib_ppo.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["rllib_ppo"] = module
    spec.loader.exec_module(module)
    return module


def test_the_observation_carries_the_legal_mask_of_the_compact_space() -> None:
    ex = _example()
    env = ex.make_masked_env({"actions": "compact", "players": 4})
    inner = gym.make(meio.rl.ENV_ID, actions="compact", players=4)
    assert env.action_space == gym.spaces.Discrete(96)
    assert env.observation_space["action_mask"].shape == (96,)
    obs, _ = env.reset(seed=5)
    want, info = inner.reset(seed=5)
    rng = np.random.default_rng(0)
    for _ in range(200):
        assert env.observation_space.contains(obs)
        assert np.array_equal(obs["observations"], want)
        assert np.array_equal(obs["action_mask"], info["action_mask"].astype(np.float32))
        # drawn from the observation's mask: the env raises on an illegal action
        action = rng.choice(np.flatnonzero(obs["action_mask"]))
        obs, _, done, _, _ = env.step(action)
        want, _, done_too, _, info = inner.step(action)
        assert done == done_too
        if done:
            obs, _ = env.reset(seed=6)
            want, info = inner.reset(seed=6)


@pytest.mark.slow  # a Ray start and a few PPO updates: about a minute
def test_rllib_ppo_trains_on_the_compact_space_with_legal_moves_only() -> None:
    ex = _example()
    stats = ex.train(ex.Args(total_steps=1_024, envs=4, batch=256, minibatch=64,
                             epochs=1, hidden=16))
    assert stats["steps"] >= 1_024
    assert stats["episodes"] > 0  # whole matches, every move from the mask
    assert -39 <= stats["mean_return"] <= 0  # minus the round scores of whole matches
