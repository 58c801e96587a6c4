"""Engine states to core arrays and back."""

from __future__ import annotations

import random

import pytest

from meio.engine import MatchConfig, Phase, State, sample_world
from meio.sim import arrays_to_state, position_of_round, state_to_arrays
from meio.sim import core as K
from tests.sim.conftest import CONFIGS, config_id


def _same(a: State, b: State) -> None:
    assert (a.round_index, a.phase, a.half, a.trick_number, a.to_move) == (
        b.round_index, b.phase, b.half, b.trick_number, b.to_move)
    assert (a.deal, a.hands, a.packs, a.piles, a.aside) == (b.deal, b.hands, b.packs, b.piles,
                                                           b.aside)
    assert (a.current_trick, a.tricks, a.rounds, a.pending_pile) == (
        b.current_trick, b.tricks, b.rounds, b.pending_pile)
    assert a.history == b.history


@pytest.mark.parametrize("cfg", CONFIGS, ids=config_id)
def test_every_position_of_a_match_survives_the_round_trip(cfg: MatchConfig) -> None:
    rng = random.Random(config_id(cfg))
    state = State.new(cfg)
    steps = 0
    while not state.is_over:
        if steps % 7 == 0:
            _same(arrays_to_state(state_to_arrays(state)), state)
        seat = rng.choice(state.seats_to_act())
        state.apply(rng.choice(state.legal_actions(seat)), seat)
        steps += 1
    with pytest.raises(ValueError, match="match is over"):
        state_to_arrays(state)


def test_sampled_worlds_convert_without_their_past_rounds() -> None:
    cfg = CONFIGS[3]
    rng = random.Random(3)
    state = State.new(cfg)
    while state.round_index < 1 or state.trick_number < 5:
        seat = rng.choice(state.seats_to_act())
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    world = sample_world(state.view(state.current_seat()), rng)
    back = arrays_to_state(state_to_arrays(world))
    assert (back.hands, back.packs, back.piles, back.current_trick) == (
        world.hands, world.packs, world.piles, world.current_trick)


def test_position_of_round_starts_at_the_split() -> None:
    cfg = MatchConfig(players=2, seed=1)
    state = State.new(cfg)
    pos = position_of_round(cfg, state.deal, state.round_leader)
    assert pos.phase == K.SPLIT and pos.piles() == [(0, 0), (0, 0)]
    back = pos.to_state()
    assert back.deal == state.deal and back.phase is Phase.SPLIT
    with pytest.raises(ValueError, match="hands of 13"):
        position_of_round(cfg, state.deal[:1], 0)
