"""PPO with an action mask in RLlib (new API stack) on ``gym.make("meio/Meio-v0")``.

RLlib steps single Gymnasium envs and reads the legal mask from the observation, not
from ``info``: :class:`MaskInObservation` turns the env's observation into the
``{"observations": ..., "action_mask": ...}`` dict that RLlib's own action-masking
module (``ray.rllib.examples.rl_modules.classes.action_masking_rlm``) expects, and that
module adds ``log(mask)`` to the policy's logits, so an illegal action gets no mass
(the env raises on one, so a run that finishes played legal actions only).
``--actions compact`` (the default) learns over the 96 compact actions (the split as
six picks), ``--actions flat`` over the 1,812 flat ones.

RLlib 2.60 requires ``gymnasium==1.2.2`` where meio's lock file has 1.4.0, so it is not
one of meio's extras; it runs in a venv of its own (docs/rl.md, "RLlib"):

    python3 -m venv /tmp/rllib && /tmp/rllib/bin/pip install -e '.[rl]' 'ray[rllib]==2.60.0'
    /tmp/rllib/bin/python examples/rllib_ppo.py --total-steps 20000

Sampling and learning both run in this process (no env-runner or learner actors), one
PyTorch thread: the figures are agent steps per CPU second of this process, as
``bench/compact_actions.py`` measures SB3 and CleanRL (the Ray services that
``ray.init`` starts beside it sit idle and are not counted).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from dataclasses import dataclass
from typing import Any

import gymnasium as gym
import numpy as np
import ray
import torch
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
    ActionMaskingTorchRLModule,
)
from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS, NUM_ENV_STEPS_SAMPLED_LIFETIME
from ray.tune.registry import register_env

import meio.rl

ENV_NAME = "meio-masked"


class MaskInObservation(gym.Wrapper[dict[str, np.ndarray], np.int64, np.ndarray, np.int64]):
    """A meio env whose observation carries the legal mask: ``{"observations": obs,
    "action_mask": mask}``, the mask as 0/1 floats (``info["action_mask"]`` too)."""

    def __init__(self, env: gym.Env[np.ndarray, np.int64]) -> None:
        super().__init__(env)
        assert isinstance(env.action_space, gym.spaces.Discrete)
        n = int(env.action_space.n)
        self.observation_space = gym.spaces.Dict({
            "observations": env.observation_space,
            "action_mask": gym.spaces.Box(0.0, 1.0, (n,), np.float32)})

    @staticmethod
    def _with_mask(obs: np.ndarray, info: dict[str, Any]) -> dict[str, np.ndarray]:
        return {"observations": obs, "action_mask": info["action_mask"].astype(np.float32)}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        obs, info = self.env.reset(seed=seed, options=options)
        return self._with_mask(obs, info), {"action_mask": info["action_mask"]}

    def step(self, action: np.int64) -> tuple[dict[str, np.ndarray], Any, bool, bool,
                                              dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        # the engine's view stays out of RLlib's episode buffers: the mask is all it needs
        return (self._with_mask(obs, info), reward, terminated, truncated,
                {"action_mask": info["action_mask"]})


def make_masked_env(config: dict[str, Any]) -> MaskInObservation:
    """RLlib's env creator: ``config`` is ``gym.make``'s keywords (``actions``,
    ``players``, ``opponents``...)."""
    return MaskInObservation(gym.make(meio.rl.ENV_ID, **config))


@dataclass
class Args:
    total_steps: int = 20_000
    envs: int = 32  # vectorised in the one env runner
    actions: str = "compact"  # or "flat": 1,812 actions
    players: int = 4
    opponents: str = "heuristic"
    seed: int = 1
    batch: int = 2_048  # agent steps a PPO update
    minibatch: int = 256
    epochs: int = 2
    lr: float = 3e-4
    hidden: int = 64


def build(args: Args) -> Any:
    """The PPO algorithm: one local env runner of ``args.envs`` envs, a local learner."""
    register_env(ENV_NAME, make_masked_env)
    config = (
        PPOConfig()
        .environment(ENV_NAME, env_config={"actions": args.actions, "players": args.players,
                                           "opponents": args.opponents})
        .env_runners(num_env_runners=0, num_envs_per_env_runner=args.envs,
                     rollout_fragment_length="auto")
        .learners(num_learners=0)
        .training(train_batch_size_per_learner=args.batch, minibatch_size=args.minibatch,
                  num_epochs=args.epochs, lr=args.lr, gamma=0.99, lambda_=0.95,
                  entropy_coeff=0.01)
        .rl_module(rl_module_spec=RLModuleSpec(
            module_class=ActionMaskingTorchRLModule,
            model_config={"fcnet_hiddens": [args.hidden, args.hidden],
                          "fcnet_activation": "tanh", "head_fcnet_hiddens": []}))
        .debugging(seed=args.seed, log_level="ERROR")
        .reporting(metrics_num_episodes_for_smoothing=100)
    )
    return config.build_algo()


def train(args: Args) -> dict[str, float]:
    """Train until ``args.total_steps`` agent steps are sampled; returns what it saw."""
    if args.actions not in ("flat", "compact"):
        raise ValueError(f"actions is 'flat' or 'compact', not {args.actions!r}")
    if args.total_steps < 1 or args.envs < 1:
        raise ValueError("total_steps and envs must be positive")
    torch.set_num_threads(1)
    if not ray.is_initialized():
        # a Ray of its own (address "local"), its files apart from any other Ray's on
        # the machine, so that another program's ray.init() never finds this one
        ray.init(address="local", num_cpus=1, include_dashboard=False,
                 log_to_driver=False, configure_logging=False,
                 _temp_dir=tempfile.mkdtemp(prefix="ray-meio-"))
    algo = build(args)
    steps, result = 0, {}
    wall, cpu = time.perf_counter(), time.process_time()
    while steps < args.total_steps:
        result = algo.train()
        steps = int(result[ENV_RUNNER_RESULTS][NUM_ENV_STEPS_SAMPLED_LIFETIME])
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    runner = result[ENV_RUNNER_RESULTS]
    algo.stop()
    return {"steps": float(steps), "episodes": float(runner.get("num_episodes_lifetime", 0)),
            "mean_return": float(runner.get("episode_return_mean", float("nan"))),
            "steps_per_second": steps / wall, "steps_per_cpu_second": steps / cpu}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name, default in vars(Args()).items():
        ap.add_argument("--" + name.replace("_", "-"), type=type(default), default=default)
    stats = train(Args(**vars(ap.parse_args())))
    print(f"{stats['steps']:,.0f} agent steps, {stats['episodes']:,.0f} matches, mean "
          f"return of the last 100 {stats['mean_return']:.2f}; "
          f"{stats['steps_per_cpu_second']:,.0f} steps per CPU second "
          f"({stats['steps_per_second']:,.0f} per wall second)")


if __name__ == "__main__":
    main()
