"""VectorEnv as a Gymnasium vector env: make_vec, spaces, autoreset, wrappers, close."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, SyncVectorEnv
from gymnasium.wrappers.vector import RecordEpisodeStatistics

import meio.rl
from meio.engine import IllegalActionError
from meio.engine.errors import ConfigError
from meio.rl import VectorEnv
from meio.rl.env import MeioEnv
from tests.rl.conftest import TABLES, option_sets


def _legal_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks])


def test_make_vec_gives_the_compiled_vector_env() -> None:
    venv = gym.make_vec(meio.rl.ENV_ID, num_envs=5, players=3, seed=2)
    assert isinstance(venv, VectorEnv) and isinstance(venv, gym.vector.VectorEnv)
    assert venv.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    assert venv.num_envs == 5 and venv.table.players == 3
    assert venv.single_observation_space == gym.spaces.Box(0.0, 1.0, (716,), np.float32)
    assert venv.single_action_space == gym.spaces.Discrete(meio.rl.NUM_ACTIONS)
    assert venv.observation_space.shape == (5, 716)
    assert venv.action_space == gym.spaces.MultiDiscrete([meio.rl.NUM_ACTIONS] * 5)
    # MeioEnv's defaults: heuristic opponents, as gym.make("meio/Meio-v0") plays
    assert venv.spec is not None and venv.spec.id == meio.rl.ENV_ID
    sync = gym.make_vec(meio.rl.ENV_ID, num_envs=2, vectorization_mode="sync")
    assert isinstance(sync, SyncVectorEnv)
    with pytest.raises(ConfigError, match="strict"):
        gym.make_vec(meio.rl.ENV_ID, num_envs=2, strict=True)


SETUPS = [(p, e, part, opts) for k, (p, e, part) in enumerate(TABLES)
          for opts in option_sets()[k % 2 :: 2]]


@pytest.mark.parametrize(("players", "edition", "partnership", "options"), SETUPS, ids=str)
def test_steps_as_gymnasiums_own_vectoriser_of_meio_env(
    players: int, edition: str, partnership: bool, options: dict[str, Any]
) -> None:
    """Gymnasium's SyncVectorEnv over engine-backed MeioEnvs, in the same autoreset
    mode, is the reference: the compiled env returns the same observations,
    rewards, ends, masks and final observations, and every batch lies in its spaces."""
    n, kwargs = 3, {"players": players, "edition": edition, "partnership": partnership,
                    "opponents": "heuristic", **options}
    venv = VectorEnv(num_envs=n, seed=20, **kwargs)
    ref = SyncVectorEnv(
        [lambda i=i: MeioEnv(seed=20 + i, strict=True, backend="engine", **kwargs)
         for i in range(n)],
        autoreset_mode=AutoresetMode.SAME_STEP,
    )
    obs, info = venv.reset()
    robs, rinfo = ref.reset()
    rng = np.random.default_rng(players)
    ends = 0
    for t in range(150):
        assert np.array_equal(obs, robs), t
        assert np.array_equal(info["action_mask"], rinfo["action_mask"]), t
        assert venv.observation_space.contains(obs)
        actions = _legal_actions(venv.action_masks(), rng)
        assert venv.action_space.contains(actions)
        obs, rew, term, trunc, info = venv.step(actions)
        robs, rrew, rterm, rtrunc, rinfo = ref.step(actions)
        assert np.array_equal(rew, rrew) and np.array_equal(term, rterm), t
        assert not trunc.any() and not rtrunc.any()
        if term.any():
            ends += int(term.sum())
            assert np.array_equal(info["_final_obs"], rinfo["_final_obs"])
            for i in np.flatnonzero(term):
                assert np.array_equal(info["final_obs"][i], rinfo["final_obs"][i]), (t, i)
        else:
            assert "final_obs" not in info
    assert ends >= 1


def test_gymnasium_vector_wrappers_see_each_episode() -> None:
    venv = RecordEpisodeStatistics(VectorEnv(num_envs=4, players=4, seed=3))
    venv.reset()
    rng = np.random.default_rng(0)
    returns = np.zeros(4)
    seen: list[float] = []
    expected: list[float] = []
    for _ in range(200):
        _obs, rew, term, _, info = venv.step(_legal_actions(venv.unwrapped.action_masks(), rng))
        returns += rew
        for i in np.flatnonzero(term):
            expected.append(float(returns[i]))
            returns[i] = 0.0
        if "episode" in info:
            seen += [float(r) for r in info["episode"]["r"][info["_episode"]]]
    assert expected and seen == pytest.approx(expected)


def test_masks_under_every_name_and_close() -> None:
    venv = VectorEnv(num_envs=2, players=2, seed=1)
    _, info = venv.reset(seed=4)
    assert venv.action_masks() is info["action_mask"] and venv.action_mask() is info["action_mask"]
    with pytest.raises(ConfigError, match="one int"):
        venv.reset(seed=[1, 2])
    venv.close()
    assert venv.closed
    with pytest.raises(IllegalActionError, match="closed"):
        venv.step(np.zeros(2, dtype=np.int64))


def test_reset_seeds_the_gymnasium_generator_too() -> None:
    a, b = VectorEnv(num_envs=2, seed=0), VectorEnv(num_envs=2, seed=0)
    a.reset(seed=9)
    b.reset(seed=9)
    draws: list[Any] = [env.np_random.integers(1 << 30) for env in (a, b)]
    assert draws[0] == draws[1] and a.seed == 9
