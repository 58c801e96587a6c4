"""MeioEnv under Gymnasium's own checker, registration, rewards and errors."""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import meio.rl
from meio.bots import make_bot
from meio.engine import IllegalActionError
from meio.rl.env import MeioEnv


@pytest.mark.parametrize("kwargs", [
    {"players": 4},
    {"players": 2, "edition": "classic", "opponents": "random"},
    {"players": 4, "partnership": True, "split_mode": "sequential"},
])
def test_check_env_passes(kwargs: dict[str, object]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a checker warning is a failure here
        check_env(MeioEnv(seed=1, **kwargs), skip_render_check=True)  # type: ignore[arg-type]


def test_registered_id_makes_the_env() -> None:
    env = gym.make(meio.rl.ENV_ID, players=3, opponents="random", seed=4)
    obs, info = env.reset(seed=4)
    assert obs.shape == env.observation_space.shape
    assert info["action_mask"].shape == (meio.rl.NUM_ACTIONS,)


def test_a_match_scores_minus_each_round_score() -> None:
    env = MeioEnv(players=4, opponents="heuristic", seed=9)
    _, info = env.reset()
    rng = np.random.default_rng(2)
    total = 0.0
    done = False
    while not done:
        action = rng.choice(np.flatnonzero(info["action_mask"]))
        _, reward, done, _, info = env.step(action)
        total += reward
    state = env.state
    assert state.is_over and total == -sum(r.scores[0] for r in state.rounds)


def test_illegal_action_ends_or_raises() -> None:
    env = MeioEnv(players=3, seed=1)
    env.reset()
    _obs, reward, terminated, _, info = env.step(0)  # a card during the split
    assert terminated and reward == env.illegal_reward and info["illegal_action"]
    strict = MeioEnv(players=3, seed=1, strict=True)
    strict.reset()
    with pytest.raises(IllegalActionError, match="not legal"):
        strict.step(0)


def test_any_bot_can_be_the_opponent() -> None:
    env = MeioEnv(players=3, opponents=[make_bot("heuristic"), make_bot("random", 3)], seed=2)
    _, info = env.reset()
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert env.state.phase.name in ("PLAY", "PILE")
