"""VectorEnv plays the same games as MeioEnv, move for move, seed for seed."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from meio.engine import IllegalActionError
from meio.engine.errors import ConfigError
from meio.rl import VectorEnv
from meio.rl.env import MeioEnv
from meio.sim import core as K

CASES: list[dict[str, Any]] = [
    {"players": 4, "opponents": "random"},
    {"players": 4, "opponents": "heuristic", "split_mode": "sequential"},
    {"players": 2, "opponents": "heuristic"},
    {"players": 3, "opponents": "heuristic", "seat": 1},
    {"players": 5, "opponents": "random", "seat": 4},
    {"players": 4, "partnership": True, "opponents": "heuristic", "seat": 1},
    {"players": 3, "edition": "classic", "opponents": "random"},
    {"players": 2, "edition": "classic", "opponents": "heuristic", "specials": None},
    {"players": 4, "opponents": "heuristic", "specials": ["-1", "A+", "+.5", "Q+"]},
]
if hasattr(K, "WILD_NEXT"):
    CASES += [
        {"players": 4, "opponents": "heuristic", "wild_lead": "next"},
        {"players": 3, "opponents": "random", "wild_lead": "next", "reveal_specials": False},
        {"players": 4, "partnership": True, "opponents": "heuristic", "reveal_specials": False},
    ]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_vector_env_equals_meio_env_game_for_game(case: dict[str, Any]) -> None:
    n, steps = 3, 120
    venv = VectorEnv(num_envs=n, seed=10, **case)
    envs = [MeioEnv(seed=10 + i, strict=True, **case) for i in range(n)]
    vobs, vinfo = venv.reset()
    outs = [e.reset() for e in envs]
    rng = np.random.default_rng(1)
    ends = 0
    for t in range(steps):
        for i, (obs, info) in enumerate(outs):
            assert np.array_equal(obs, vobs[i]), (t, i, np.flatnonzero(obs != vobs[i]))
            assert np.array_equal(info["action_mask"], vinfo["action_mask"][i]), (t, i)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in vinfo["action_mask"]])
        vobs, vrew, vterm, vtrunc, vinfo = venv.step(actions)
        assert not vtrunc.any()
        outs = []
        for i, env in enumerate(envs):
            obs, reward, term, _, info = env.step(actions[i])
            assert (reward, term) == (vrew[i], vterm[i]), (t, i)
            if term:
                ends += 1
                obs, info = env.reset()
            outs.append((obs, info))
    assert ends >= n  # every environment finished at least one match and went on


def test_illegal_actions_are_refused_and_nothing_moves() -> None:
    venv = VectorEnv(num_envs=4, players=4, seed=3)
    obs, _info = venv.reset()
    before = obs.copy()
    actions = venv.sample_actions()
    actions[2] = 0  # a card play during the split
    with pytest.raises(IllegalActionError, match="environment 2"):
        venv.step(actions)
    assert np.array_equal(venv.observations, before)
    with pytest.raises(IllegalActionError, match="4 actions"):
        venv.step(np.zeros(3, dtype=np.int64))


def test_bad_settings_get_clear_errors() -> None:
    with pytest.raises(ConfigError, match="opponents"):
        VectorEnv(num_envs=2, opponents="search")
    with pytest.raises(ConfigError, match="num_envs"):
        VectorEnv(num_envs=0)
    with pytest.raises(ConfigError, match="seat"):
        VectorEnv(num_envs=2, players=3, seat=3)


def test_same_seed_same_games() -> None:
    a = VectorEnv(num_envs=8, players=3, opponents="heuristic", seed=5)
    b = VectorEnv(num_envs=8, players=3, opponents="heuristic", seed=5)
    a.reset()
    b.reset()
    total = np.zeros(8)
    for _ in range(60):
        acts = a.sample_actions(seed=1)
        ra = a.step(acts)[1].copy()
        rb = b.step(acts)[1]
        assert np.array_equal(ra, rb) and np.array_equal(a.observations, b.observations)
        total += ra
    assert (total <= 0).all() and total.sum() < 0


@pytest.mark.parametrize("opponents", ["random", "heuristic"])
def test_many_envs_step_as_each_alone(opponents: str) -> None:
    """The step's scratch is shared by all environments: env ``i`` of a batch must
    play exactly as ``VectorEnv(num_envs=1, seed=seed + i)``, bit for bit."""
    n = 12
    batch = VectorEnv(num_envs=n, players=5, opponents=opponents, seed=4, seat=2)
    alone = [VectorEnv(num_envs=1, players=5, opponents=opponents, seed=4 + i, seat=2)
             for i in range(n)]
    batch.reset()
    for env in alone:
        env.reset()
    ends = 0
    for _ in range(150):
        actions = batch.sample_actions(seed=9)
        obs, rew, term, _, info = batch.step(actions)
        for i, env in enumerate(alone):
            o, r, t, _, inf = env.step(actions[i : i + 1])
            assert np.array_equal(o[0], obs[i]) and np.array_equal(
                inf["action_mask"][0], info["action_mask"][i]
            )
            assert (r[0], t[0]) == (rew[i], term[i])
        ends += int(term.sum())
    assert ends > 0
