"""Stable-Baselines3 and sb3-contrib on the compiled :class:`~meio.rl.VectorEnv`.

SB3 steps its own ``VecEnv`` class, not Gymnasium's vector envs, so this is the
adapter: :class:`Sb3VecEnv` wraps a ``VectorEnv`` (every match still stepped in
one compiled call) and answers ``env_method("action_masks")``, which is how
sb3-contrib's ``MaskablePPO`` reads the legal mask. A finished match's last
observation is ``infos[i]["terminal_observation"]``, as SB3 expects. Needs the
``rl`` extra (``stable-baselines3``, ``sb3-contrib``).

    from sb3_contrib import MaskablePPO
    from meio.rl import VectorEnv
    from meio.rl.sb3 import Sb3VecEnv

    env = Sb3VecEnv(VectorEnv(num_envs=16, players=4, opponents="heuristic", seed=1))
    MaskablePPO("MlpPolicy", env, n_steps=64).learn(10_000)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode
from stable_baselines3.common.vec_env import VecEnv
from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices, VecEnvStepReturn

from meio.engine.errors import ConfigError
from meio.rl.vector import VectorEnv


class Sb3VecEnv(VecEnv):
    """A :class:`~meio.rl.VectorEnv` as an SB3 ``VecEnv`` (with ``action_masks``)."""

    def __init__(self, venv: VectorEnv) -> None:
        if venv.metadata["autoreset_mode"] is not AutoresetMode.SAME_STEP:
            raise ConfigError("SB3 reads a finished match's last observation as "
                              "terminal_observation: make the VectorEnv with "
                              "autoreset_mode 'same_step' (the default)")
        if len(venv.seats) > 1:
            raise ConfigError(
                f"SB3 trains one agent seat; this VectorEnv has seats {list(venv.seats)}"
            )
        self.venv = venv
        self._actions: npt.NDArray[np.int64] | None = None
        super().__init__(venv.num_envs, venv.single_observation_space,
                         venv.single_action_space)

    def _indices(self, indices: VecEnvIndices) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)

    def reset(self) -> npt.NDArray[np.float32]:
        """Start every match (of the seed given to :meth:`seed`, if any)."""
        seed = self._seeds[0]
        obs, _ = self.venv.reset(seed=seed)
        self._reset_seeds()
        return obs.copy()

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def step_wait(self) -> VecEnvStepReturn:
        if self._actions is None:
            raise ConfigError("step_wait() needs step_async(actions) first")
        obs, rewards, terminated, truncated, info = self.venv.step(self._actions)
        self._actions = None
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            infos[i]["terminal_observation"] = info["final_obs"][i].copy()
            infos[i]["TimeLimit.truncated"] = bool(truncated[i])
        return obs.copy(), rewards.copy(), dones, infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal mask of every environment, ``[N, 1812]``."""
        return self.venv.action_masks().copy()

    def close(self) -> None:
        self.venv.close()

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        value = getattr(self.venv, attr_name)
        return [value for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        raise ConfigError(f"the environments of a VectorEnv share their settings: "
                          f"{attr_name!r} cannot be set per environment")

    def env_method(self, method_name: str, *method_args: Any, indices: VecEnvIndices = None,
                   **method_kwargs: Any) -> list[Any]:
        wanted = self._indices(indices)
        if method_name in ("action_masks", "action_mask"):
            masks = self.venv.action_masks()
            return [masks[i].copy() for i in wanted]
        raise ConfigError(f"a VectorEnv has no per-environment method {method_name!r}")

    def env_is_wrapped(self, wrapper_class: type[gym.Wrapper[Any, Any, Any, Any]],
                       indices: VecEnvIndices = None) -> list[bool]:
        return [False for _ in self._indices(indices)]

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """Seed the next reset: environment ``i`` plays seed ``seed + i``."""
        return super().seed(seed)

    def get_images(self) -> Sequence[np.ndarray | None]:
        return [None for _ in range(self.num_envs)]
