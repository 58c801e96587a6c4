"""Self-play in the compiled core: several agent seats of one VectorEnv, each seeing
exactly what the engine shows it, moving in turn, rewarded at each round's end."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from meio.bots import spaces as S
from meio.engine import IllegalActionError, State
from meio.engine import cards as C
from meio.engine.errors import ConfigError
from meio.rl import VectorEnv, legal_mask, observe
from meio.rl.compiled import MatchRecord
from meio.sim import core as K

CASES: list[dict[str, Any]] = [
    {"players": 2, "seats": "all"},
    {"players": 3, "seats": "all", "split_mode": "sequential"},
    {"players": 4, "seats": "all", "opponents": "heuristic"},
    {"players": 5, "seats": [1, 3], "opponents": "heuristic"},
    {"players": 4, "partnership": True, "seats": "all"},
    {"players": 4, "partnership": True, "seats": [0, 2], "opponents": "heuristic"},
    {"players": 3, "edition": "classic", "seats": [0, 2], "split_mode": "sequential"},
    {"players": 4, "seats": "all", "wild_lead": "next", "reveal_specials": False},
]


def _record(venv: VectorEnv, i: int) -> MatchRecord:
    """The engine's record of env ``i``'s match, rebuilt from the core's position."""
    combo = venv.specials_set(i)
    live = venv.position(i)
    config = venv.table.config(combo, int(live[K.ROUND_LEADER]))
    return MatchRecord(config, C.mask_of(int(c) for c in venv.table.deck(combo)), live)


def _side_score(state: State, seat: int) -> int:
    result = state.rounds[-1]
    if state.config.partnership:
        assert result.team_scores is not None
        return result.team_scores[seat % 2]
    return result.scores[seat]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_every_agent_seat_sees_its_engine_view(case: dict[str, Any]) -> None:
    n = 2
    venv = VectorEnv(num_envs=n, seed=6, **case)
    seats = venv.seats
    assert len(seats) >= 2
    obs, info = venv.reset()
    records = [_record(venv, i) for i in range(n)]
    picked = [0] * n
    rng = np.random.default_rng(len(seats))
    ends, round_ends, movers = 0, 0, set()
    for t in range(300):
        for i in range(n):
            state = records[i].state_at(records[i].mark())
            seat = int(info["seat"][i])
            movers.add(seat)
            assert seat in seats and seat in state.seats_to_act(), (t, i)
            view = state.view(seat)
            assert np.array_equal(obs[i], observe(view, picked=picked[i])), (t, i)
            assert np.array_equal(info["action_mask"][i], legal_mask(
                state, seat, split_mode=venv.split_mode, picked=picked[i])), (t, i)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in info["action_mask"]])
        acting = info["seat"].copy()
        rounds = [venv.rounds_finished(i) for i in range(n)]
        for i in range(n):  # a sequential pick: the test keeps the picks as MeioEnv does
            if actions[i] >= S.PICK_BASE:
                hand = records[i].state_at(records[i].mark()).view(int(acting[i])).hand
                picked[i] |= 1 << S.pick_card(int(actions[i]), hand)
                if picked[i].bit_count() == 6:
                    picked[i] = 0
        obs, acting_reward, term, _, info = venv.step(actions)
        reward = info["seat_rewards"]
        assert reward.shape == (n, len(seats)) and acting_reward.shape == (n,)
        # the reward returned is the one of the seat whose move the step applied
        assert acting_reward.tolist() == [
            reward[i, list(seats).index(int(acting[i]))] for i in range(n)]
        for i in range(n):
            finished = bool(term[i]) or venv.rounds_finished(i) != rounds[i]
            if finished:
                records[i].finish_round(venv.last_rounds[i], over=bool(term[i]))
                state = records[i].state_at(records[i].mark())
                expected = [-_side_score(state, p) for p in seats]
                assert reward[i].tolist() == expected, (t, i)
                round_ends += 1
            else:
                assert not reward[i].any(), (t, i)
            if term[i]:
                ends += 1
                assert state.is_over
                for k, p in enumerate(seats):
                    assert np.array_equal(info["final_obs"][i, k], observe(state.view(p)))
                records[i] = _record(venv, i)
    assert ends >= 1 and round_ends >= 3 and movers == set(seats)


def test_an_illegal_move_names_the_seat_and_nothing_moves() -> None:
    venv = VectorEnv(num_envs=2, players=3, seats="all", seed=2)
    obs, info = venv.reset()
    before = obs.copy()
    actions = venv.sample_actions()
    actions[1] = 0  # a card during the split
    with pytest.raises(IllegalActionError, match="environment 1"):
        venv.step(actions)
    assert np.array_equal(venv.observations, before)
    assert list(info["seat"]) == [0, 0]  # the split is made seat after seat


def test_bad_seat_lists_get_clear_errors() -> None:
    with pytest.raises(ConfigError, match="distinct seats"):
        VectorEnv(num_envs=1, players=3, seats=[0, 0])
    with pytest.raises(ConfigError, match="distinct seats"):
        VectorEnv(num_envs=1, players=3, seats=[3])
    with pytest.raises(ConfigError, match="'all'"):
        VectorEnv(num_envs=1, players=3, seats="every")
