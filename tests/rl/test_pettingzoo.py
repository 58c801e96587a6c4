"""The PettingZoo environments under PettingZoo's own tests, on every table."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test
from pettingzoo.test.state_test import test_parallel_env as check_parallel_state
from pettingzoo.test.state_test import test_state as check_state
from pettingzoo.test.state_test import test_state_space as check_state_space

from meio.engine import IllegalActionError, Phase
from meio.rl import observe
from meio.rl import pettingzoo as mpz
from tests.rl.conftest import TABLES, option_sets

# every table; the options and split modes in turn, so each is met on several tables
SETUPS: list[dict[str, Any]] = [
    {"players": players, "edition": edition, "partnership": partnership,
     "split_mode": ("pack", "sequential")[i % 2], **option_sets()[i % len(option_sets())]}
    for i, (players, edition, partnership) in enumerate(TABLES)
]
IDS = [f"{s['players']}-{s['edition']}-{s['partnership']}-{s['split_mode']}" for s in SETUPS]


# dict observations, as in PettingZoo's own card games, draw these two warnings
@pytest.mark.filterwarnings("ignore:Observation:UserWarning")
@pytest.mark.parametrize("kwargs", SETUPS, ids=IDS)
def test_api_test_passes(kwargs: dict[str, Any]) -> None:
    api_test(mpz.env(**kwargs), num_cycles=200)  # type: ignore[arg-type]


@pytest.mark.parametrize("kwargs", SETUPS, ids=IDS)
def test_parallel_api_test_passes(kwargs: dict[str, Any]) -> None:
    parallel_api_test(mpz.parallel_env(**kwargs), num_cycles=400)


def test_seed_tests_pass() -> None:
    seed_test(lambda: mpz.env(players=3), num_cycles=100)
    parallel_seed_test(lambda: mpz.parallel_env(players=3), num_cycles=100)


@pytest.mark.filterwarnings("ignore:State numpy array is all zeros")
def test_pettingzoos_state_tests_pass() -> None:
    aec = mpz.env(players=4, partnership=True)
    check_state_space(aec)
    # state_test steps unmasked random actions: env() ends the match on one, as
    # PettingZoo's classic games do
    check_state(aec, num_cycles=50)
    check_parallel_state(mpz.parallel_env(players=4, partnership=True))


def test_the_state_is_every_seats_observation_hidden_cards_included() -> None:
    for make in (mpz.env, mpz.parallel_env):
        e = make(players=3, seed=4)
        e.reset(seed=4)
        full = e.state()
        assert full.shape == e.state_space.shape == (3 * 716,) and full.dtype == np.float32
        match = e.match
        assert match is not None
        for seat in range(3):
            assert np.array_equal(full[716 * seat : 716 * (seat + 1)], observe(match.view(seat)))
            hand = full[716 * seat : 716 * seat + 65]
            assert {int(c) for c in np.flatnonzero(hand)} == {
                c for c in range(65) if match.hands[seat] >> c & 1}


def test_splitting_later_shows_no_earlier_pack() -> None:
    env = mpz.env(players=4, seed=3)
    env.reset(seed=3)
    first = env.agent_selection
    mask = env.observe(first)["action_mask"]
    env.step(int(np.flatnonzero(mask)[0]))
    assert env.agent_selection == "player_1"
    obs = env.observe("player_1")["observation"]
    view = env.match.view(1) if env.match else None
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
    assert env.match is not None and env.match.is_over
    assert [totals[a] for a in env.possible_agents] == [-t for t in env.match.totals]


@pytest.mark.parametrize("split_mode", ["pack", "sequential"])
def test_the_parallel_split_is_one_step_for_every_seat_and_the_match_adds_up(
        split_mode: str) -> None:
    env = mpz.parallel_env(players=4, partnership=True, split_mode=split_mode)
    obs, _ = env.reset(seed=2)
    rng = np.random.default_rng(1)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    split_steps = 0
    while env.agents:
        acting = [a for a in env.agents if obs[a]["action_mask"].any()]
        match = env.match
        assert match is not None
        if match.phase is Phase.SPLIT:
            assert acting == env.possible_agents  # everyone splits at once
            split_steps += 1
        else:
            assert len(acting) == 1
        actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in acting}
        obs, rewards, _, _, _ = env.step(actions)
        for a, r in rewards.items():
            totals[a] += r
    assert match.is_over
    assert split_steps == len(match.rounds) * (6 if split_mode == "sequential" else 1)
    for p, a in enumerate(env.possible_agents):
        assert totals[a] == -sum(r.team_scores[p % 2] for r in match.rounds)  # type: ignore[index]


def test_the_parallel_env_refuses_a_missing_or_illegal_action_and_changes_nothing() -> None:
    env = mpz.parallel_env(players=3)
    obs, _ = env.reset(seed=1)
    legal = {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in env.agents}
    before = env.state()
    with pytest.raises(IllegalActionError, match="player_2 is to act and gave no action"):
        env.step({"player_0": legal["player_0"], "player_1": legal["player_1"]})
    with pytest.raises(IllegalActionError, match="not legal for player_1"):
        env.step({**legal, "player_1": 5})
    assert np.array_equal(env.state(), before)
    env.step(legal)  # the three packs
    assert env.match is not None and all(env.match.packs)
