"""MEIO for learning agents: a flat action space, observations, and environments.

* :data:`NUM_ACTIONS`, :func:`legal_mask` — the flat action space (:mod:`meio.bots.spaces`).
* :func:`observe` — a seat's view as a ``float32`` vector (:mod:`meio.bots.observation`).
* :class:`MeioEnv` — Gymnasium, registered as ``"meio/Meio-v0"``.
* :class:`VectorEnv` — many matches stepped in the compiled core, a Gymnasium
  vector env: ``gym.make_vec("meio/Meio-v0", num_envs=N)`` makes one.
* :mod:`meio.rl.pettingzoo` — PettingZoo AEC and parallel environments; :mod:`meio.openspiel`
  registers the game with OpenSpiel.

Gymnasium is needed for :class:`MeioEnv` and :class:`VectorEnv` (the ``gym``
extra); the rest, and the learned bot, work without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from meio.bots.observation import OBS_SIZE, observe
from meio.bots.spaces import (
    NUM_ACTIONS,
    PACK_BASE,
    PICK_BASE,
    from_engine_action,
    legal_mask,
    to_engine_action,
)

if TYPE_CHECKING:
    from meio.rl.env import MeioEnv
    from meio.rl.vector import VectorEnv

__all__ = [
    "NUM_ACTIONS",
    "OBS_SIZE",
    "PACK_BASE",
    "PICK_BASE",
    "MeioEnv",
    "VectorEnv",
    "from_engine_action",
    "legal_mask",
    "observe",
    "to_engine_action",
]

ENV_ID = "meio/Meio-v0"


def __getattr__(name: str) -> Any:
    # the environments need gymnasium: imported on first use, so the rest works without it
    if name == "MeioEnv":
        from meio.rl.env import MeioEnv

        return MeioEnv
    if name == "VectorEnv":
        from meio.rl.vector import VectorEnv

        return VectorEnv
    raise AttributeError(f"module 'meio.rl' has no attribute {name!r}")


def _register() -> None:
    try:
        import gymnasium
    except ModuleNotFoundError:
        return
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point="meio.rl.env:make_env",
                           vector_entry_point="meio.rl.vector:make_vector")


_register()
