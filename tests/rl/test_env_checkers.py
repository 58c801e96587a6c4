"""Standard tools take meio's environments as they come: Gymnasium's vector wrappers in
next-step autoreset, the self-play reward, reseeding, one default opponent, PettingZoo's
illegal-move convention and the compact action space."""

from __future__ import annotations

import inspect
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, SyncVectorEnv
from gymnasium.wrappers.vector import (
    DtypeObservation,
    NormalizeObservation,
    RecordEpisodeStatistics,
    TransformObservation,
)

import meio.rl
from meio.bots import spaces as S
from meio.engine import IllegalActionError
from meio.engine.errors import ConfigError
from meio.rl import MeioEnv, VectorEnv
from meio.rl import pettingzoo as mpz
from meio.rl.vector import make_vector


def _legal(masks: np.ndarray[Any, Any], rng: np.random.Generator) -> np.ndarray[Any, Any]:
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks])


def test_next_step_autoreset_steps_as_gymnasiums_own_vectoriser() -> None:
    n, kwargs = 3, {"players": 3, "opponents": "heuristic"}
    venv = VectorEnv(num_envs=n, seed=20, autoreset_mode="next_step", **kwargs)
    ref = SyncVectorEnv([lambda i=i: MeioEnv(seed=20 + i, strict=True, backend="engine",
                                             **kwargs) for i in range(n)],
                        autoreset_mode=AutoresetMode.NEXT_STEP)
    assert venv.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    obs, info = venv.reset()
    robs, rinfo = ref.reset()
    rng = np.random.default_rng(0)
    ends = restarts = 0
    done = np.zeros(n, dtype=bool)
    for t in range(160):
        assert np.array_equal(obs, robs), t
        live = ~done
        assert np.array_equal(info["action_mask"][live], rinfo["action_mask"][live]), t
        actions = _legal(info["action_mask"], rng)
        restarts += int(done.sum())
        obs, rew, term, trunc, info = venv.step(actions)
        robs, rrew, rterm, _, rinfo = ref.step(actions)
        assert np.array_equal(rew, rrew) and np.array_equal(term, rterm), t
        assert "final_obs" not in info and not trunc.any()
        ends += int(term.sum())
        done = term.copy()
    assert ends >= 1 and restarts >= 1


def test_gymnasiums_vector_observation_wrappers_take_the_next_step_env() -> None:
    def make() -> VectorEnv:
        return VectorEnv(num_envs=4, players=4, seed=1, autoreset_mode="next_step")

    for wrapped in (NormalizeObservation(make()),
                    TransformObservation(make(), lambda o: o * 2.0),
                    DtypeObservation(make(), np.float64)):
        obs, _ = wrapped.reset(seed=1)
        for _ in range(60):
            obs, *_rest = wrapped.step(wrapped.unwrapped.sample_actions())
        assert obs.shape == (4, 716)
    with pytest.raises(ConfigError, match="same_step' or 'next_step'"):
        VectorEnv(num_envs=1, autoreset_mode="disabled")


def test_several_agent_seats_give_a_reward_recordepisodestatistics_takes() -> None:
    venv = RecordEpisodeStatistics(VectorEnv(num_envs=4, players=3, seats="all", seed=2))
    venv.reset(seed=2)
    returns = np.zeros(4)
    seen: list[float] = []
    expected: list[float] = []
    for _ in range(300):
        _obs, rew, term, _, info = venv.step(venv.unwrapped.sample_actions())
        assert rew.shape == (4,) and info["seat_rewards"].shape == (4, 3)
        returns += rew
        for i in np.flatnonzero(term):
            expected.append(float(returns[i]))
            returns[i] = 0.0
        if "episode" in info:
            seen += [float(r) for r in info["episode"]["r"][info["_episode"]]]
    assert expected and seen == pytest.approx(expected)


@pytest.mark.parametrize("mode", ["same_step", "next_step"])
def test_reseeding_repeats_the_sampled_actions_too(mode: str) -> None:
    venv = VectorEnv(num_envs=8, players=4, seed=0, autoreset_mode=mode)

    def run(seed: int) -> list[list[int]]:
        venv.reset(seed=seed)
        out = []
        for _ in range(80):
            actions = venv.sample_actions()
            out.append(actions.tolist())
            venv.step(actions)
        return out

    first = run(5)
    run(6)
    assert run(5) == first
    assert run(6) != first


def test_one_default_opponent_everywhere() -> None:
    for maker in (VectorEnv, MeioEnv, make_vector):
        assert inspect.signature(maker).parameters["opponents"].default == "heuristic"
    one = VectorEnv(num_envs=2, seed=3)
    two = VectorEnv(num_envs=2, seed=3, opponents="heuristic")
    a, _ = one.reset()
    b, _ = two.reset()
    for _ in range(100):
        actions = one.sample_actions()
        a, ra, *_ = one.step(actions)
        b, rb, *_ = two.step(actions)
        assert np.array_equal(a, b) and np.array_equal(ra, rb)


def test_the_pettingzoo_env_ends_the_match_on_an_illegal_move() -> None:
    aec = mpz.env(players=3, seed=1)
    aec.reset(seed=1)
    mover = aec.agent_selection
    illegal = 0  # a card play during the split
    assert not aec.observe(mover)["action_mask"][illegal]
    aec.step(illegal)
    assert all(aec.terminations.values())
    assert aec.rewards[mover] == mpz.ILLEGAL_REWARD
    assert [r for a, r in aec.rewards.items() if a != mover] == [0, 0]
    with pytest.raises(IllegalActionError):
        raw = mpz.raw_env(players=3, seed=1)
        raw.reset(seed=1)
        raw.step(illegal)


def test_the_compact_action_space_plays_the_same_games_in_96_actions() -> None:
    compact = VectorEnv(num_envs=4, players=4, seed=7, actions="compact")
    flat = VectorEnv(num_envs=4, players=4, seed=7, split_mode="sequential")
    assert compact.single_action_space == gym.spaces.Discrete(96)
    assert compact.split_mode == "sequential"
    obs_c, info_c = compact.reset()
    obs_f, info_f = flat.reset()
    table = np.array(S.COMPACT_ACTIONS)
    rng = np.random.default_rng(3)
    for t in range(200):
        assert info_c["action_mask"].shape == (4, 96)
        assert np.array_equal(info_c["action_mask"], info_f["action_mask"][:, table]), t
        assert np.array_equal(obs_c, obs_f), t
        actions = _legal(info_c["action_mask"], rng)
        assert compact.action_space.contains(actions)
        obs_c, rc, tc, _, info_c = compact.step(actions)
        obs_f, rf, tf, _, info_f = flat.step(table[actions])
        assert np.array_equal(rc, rf) and np.array_equal(tc, tf)
    sampled = compact.sample_actions()
    assert all(compact.action_masks()[i, a] for i, a in enumerate(sampled))
    with pytest.raises(IllegalActionError, match="compact action 96 is not one of 0 to 95"):
        compact.step(np.full(4, 96))
    with pytest.raises(ConfigError, match="split by picks"):
        VectorEnv(num_envs=1, actions="compact", split_mode="pack")
    venv = gym.make_vec("meio/Meio-v0", num_envs=2, seed=1, actions="compact")
    assert venv.single_action_space == gym.spaces.Discrete(96)
    assert meio.rl is not None


def test_sb3_takes_the_compact_space_and_refuses_next_step() -> None:
    pytest.importorskip("stable_baselines3")
    from meio.rl.sb3 import Sb3VecEnv

    env = Sb3VecEnv(VectorEnv(num_envs=2, players=4, seed=1, actions="compact"))
    assert env.action_space == gym.spaces.Discrete(96)
    env.reset()
    assert env.action_masks().shape == (2, 96)
    with pytest.raises(ConfigError, match="same_step"):
        Sb3VecEnv(VectorEnv(num_envs=2, autoreset_mode="next_step"))


@pytest.mark.filterwarnings("ignore:.*different from the unwrapped version")
def test_the_single_env_takes_the_compact_space_and_passes_gymnasiums_checker() -> None:
    from gymnasium.utils.env_checker import check_env

    env = gym.make("meio/Meio-v0", actions="compact", opponents="random", seed=5)
    check_env(env, skip_render_check=True)
    flat = MeioEnv(opponents="random", seed=5, split_mode="sequential")
    obs, info = env.reset(seed=5)
    fobs, finfo = flat.reset(seed=5)
    table = np.array(S.COMPACT_ACTIONS)
    rng = np.random.default_rng(2)
    done = False
    while not done:
        assert np.array_equal(obs, fobs)
        assert np.array_equal(info["action_mask"], finfo["action_mask"][table])
        a = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, r, done, _, info = env.step(a)
        fobs, fr, fdone, _, finfo = flat.step(int(table[a]))
        assert (r, done) == (fr, fdone)
    with pytest.raises(IllegalActionError, match="compact action 96"):
        env.step(96)
    with pytest.raises(ConfigError, match="split by picks"):
        gym.make("meio/Meio-v0", actions="compact", split_mode="pack")


def test_a_seed_given_to_sample_actions_starts_its_stream_once() -> None:
    venv = VectorEnv(num_envs=8, players=4, seed=0)
    venv.reset(seed=3)
    first = [venv.sample_actions(seed=2).tolist() for _ in range(3)]
    assert first[0] != first[1] or first[1] != first[2]  # one stream, not restarted
    venv.reset(seed=3)
    assert [venv.sample_actions(seed=2).tolist() for _ in range(3)] == first
