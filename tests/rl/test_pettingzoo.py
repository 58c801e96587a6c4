"""The PettingZoo AEC environment under PettingZoo's own tests."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from meio.rl import pettingzoo as mpz


# dict observations, as in PettingZoo's own card games, draw these two warnings
@pytest.mark.filterwarnings("ignore:Observation:UserWarning")
@pytest.mark.parametrize("kwargs", [
    {"players": 4},
    {"players": 2, "edition": "classic"},
    {"players": 4, "partnership": True, "split_mode": "sequential"},
    {"players": 5},
])
def test_api_test_passes(kwargs: dict[str, object]) -> None:
    api_test(mpz.env(**kwargs), num_cycles=200)  # type: ignore[arg-type]


def test_seed_test_passes() -> None:
    seed_test(lambda: mpz.env(players=3), num_cycles=100)


def test_splitting_later_shows_no_earlier_pack() -> None:
    env = mpz.env(players=4, seed=3)
    env.reset(seed=3)
    first = env.agent_selection
    mask = env.observe(first)["action_mask"]
    env.step(int(np.flatnonzero(mask)[0]))
    assert env.agent_selection == "player_1"
    obs = env.observe("player_1")["observation"]
    view = env.state.view(1) if env.state else None
    assert view is not None and view.pack == 0
    assert not obs[65:195].any()  # no pack, no received pack during the split


def test_a_whole_match_rewards_every_seat() -> None:
    env = mpz.env(players=3, seed=8)
    env.reset(seed=8)
    rng = np.random.default_rng(0)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.state is not None and env.state.is_over
    assert [totals[a] for a in env.possible_agents] == [-t for t in env.state.totals]
