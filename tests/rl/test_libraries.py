"""Standard RL code trains on the compiled vector env, end to end: sb3-contrib's
MaskablePPO and a CleanRL-style PPO loop (examples/cleanrl_ppo.py).

The vector env refuses an illegal action (it raises and no environment moves), so
a run that gets through its steps has only ever played legal actions: the
library read the mask under its own name and used it."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

from meio.engine.errors import ConfigError
from meio.rl import VectorEnv
from meio.rl.sb3 import Sb3VecEnv

ROOT = Path(__file__).resolve().parents[2]


def test_sb3_sees_the_mask_and_the_final_observations() -> None:
    env = Sb3VecEnv(VectorEnv(num_envs=4, players=2, opponents="random", seed=3))
    assert is_masking_supported(env)
    obs = env.reset()
    assert obs.shape == (4, 716) and get_action_masks(env).shape == (4, 1812)
    rng = np.random.default_rng(0)
    ends = 0
    for _ in range(150):
        masks = get_action_masks(env)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, _rewards, dones, infos = env.step(actions)
        for i in np.flatnonzero(dones):
            final = infos[i]["terminal_observation"]
            assert final.shape == (716,) and not np.array_equal(final, obs[i])
            ends += 1
    assert ends > 0
    with pytest.raises(ConfigError, match="one agent seat"):
        Sb3VecEnv(VectorEnv(num_envs=2, players=2, seats="all"))


@pytest.mark.slow  # about 10 s of PyTorch
def test_maskable_ppo_trains_on_the_vector_env() -> None:
    env = Sb3VecEnv(VectorEnv(num_envs=8, players=4, opponents="heuristic", seed=1))
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=64, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [32, 32]}, device="cpu")
    model.learn(total_timesteps=512)
    assert model.num_timesteps >= 512
    venv = env.venv
    assert venv.episodes_done > 0  # whole matches were played, with legal actions only
    action, _ = model.predict(env.reset(), action_masks=get_action_masks(env))
    assert all(m[a] for m, a in zip(venv.action_masks(), action, strict=True))


@pytest.mark.slow  # about 10 s of PyTorch
def test_a_cleanrl_style_ppo_loop_trains_on_make_vec() -> None:
    spec = importlib.util.spec_from_file_location("cleanrl_ppo", ROOT / "examples" /
                                                  "cleanrl_ppo.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["cleanrl_ppo"] = module
    spec.loader.exec_module(module)
    stats = module.train(module.Args(total_steps=512, envs=8, steps=32, hidden=16))
    assert stats["steps"] >= 512 and stats["episodes"] > 0
    assert -39 <= stats["mean_return"] <= 0  # minus the round scores of whole matches
