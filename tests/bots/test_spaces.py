"""The flat action space: the mask says legal exactly when the engine accepts."""

from __future__ import annotations

import math
import random
import zlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.rl.conftest import TABLES, option_sets

from meio.bots import spaces as S
from meio.engine import MatchConfig, PackChoices, Phase, State
from meio.engine import actions as A
from meio.engine import cards as C
from meio.engine.wire import config_from_json, config_json
from meio.rl.table import _config


def _reseed(cfg: MatchConfig, seed: int) -> MatchConfig:
    data = config_json(cfg)
    data["seed"] = seed
    data["specials"] = None
    data["first_leader"] = None
    return config_from_json(data)


def _check_mask(state: State, rng: random.Random) -> None:
    seat = state.current_seat()
    mask = S.legal_mask(state)
    assert mask.dtype == np.bool_ and mask.shape == (S.NUM_ACTIONS,)
    for a in range(S.PACK_BASE):
        assert bool(mask[a]) == state.is_legal(a, seat), (A.action_text(a), state)
    assert not mask[S.PICK_BASE :].any()
    if state.phase is Phase.SPLIT:
        assert mask[S.PACK_BASE : S.PICK_BASE].all()
        view = state.view(seat)
        for k in rng.sample(range(S.NUM_PACKS), 5):
            assert state.is_legal(S.to_engine_action(S.PACK_BASE + k, view), seat)
        seq = S.legal_mask(state, split_mode="sequential", picked=0)
        assert seq[S.PICK_BASE :].all() and seq[: S.PICK_BASE].sum() == 0
    else:
        assert not mask[S.PACK_BASE :].any()


@pytest.mark.parametrize("options", option_sets(), ids=str)
@pytest.mark.parametrize("table", TABLES, ids=str)
def test_mask_is_legal_exactly_when_the_engine_accepts(
    table: tuple[int, str, bool], options: dict[str, object]
) -> None:
    rng = random.Random(zlib.crc32(repr((table, options)).encode()))
    state = State.new(_reseed(_config(table[1], table[0], table[2], None, None,
                                      str(options.get("wild_lead", "declare")),
                                      bool(options.get("reveal_specials", True))), 7))
    phases = set()
    while not state.is_over and len(state.rounds) < 2:
        _check_mask(state, rng)
        phases.add(state.phase)
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))], state.current_seat())
    assert {Phase.SPLIT, Phase.PLAY} <= phases


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), table=st.sampled_from(TABLES), steps=st.integers(0, 60))
def test_mask_matches_engine_in_random_positions(
    seed: int, table: tuple[int, str, bool], steps: int
) -> None:
    rng = random.Random(seed)
    state = State.new(_reseed(_config(table[1], table[0], table[2], None, None, "declare",
                                      True), seed))
    for _ in range(steps):
        if state.is_over:
            break
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))], state.current_seat())
    if not state.is_over:
        _check_mask(state, rng)


def test_pack_numbers_follow_pack_choices_order() -> None:
    hand = C.parse_cards("2S 5S 9S KS 3H 7H AH 4D TD QD 6C JC -1")
    choices = PackChoices(hand, 6)
    assert len(choices) == S.NUM_PACKS == math.comb(13, 6)
    for k in (0, 1, 500, 1715):
        pack = A.pack_of(choices[k])
        assert S.pack_number(hand, pack) == k
        assert S.pack_of_number(hand, k) == pack


def test_plays_are_engine_actions_and_errors_are_clear() -> None:
    state = State.new(MatchConfig(players=3, seed=2))
    view = state.view(0)
    assert S.to_engine_action(12, view) == 12
    assert S.from_engine_action(A.PILE_2, view) == A.PILE_2
    with pytest.raises(S.ActionSpaceError, match="not a flat action"):
        S.to_engine_action(S.NUM_ACTIONS, view)
    with pytest.raises(S.ActionSpaceError, match="pick_card"):
        S.to_engine_action(S.PICK_BASE, view)
    with pytest.raises(S.ActionSpaceError, match="split_mode"):
        S.legal_mask(state, split_mode="halves")  # type: ignore[arg-type]


def test_a_view_masks_only_its_own_turn() -> None:
    state = State.new(MatchConfig(players=4, seed=4))
    for seat in range(4):
        state.apply(state.legal_actions(seat)[0], seat)
    mover = state.current_seat()
    for seat in range(4):
        mask = S.legal_mask(state.view(seat))
        assert mask.any() == (seat == mover)
        if seat == mover:
            assert np.array_equal(mask, S.legal_mask(state))


def test_pile_choice_mask_is_the_two_piles() -> None:
    rng = random.Random(5)
    for seed in range(200):
        state = State.new(MatchConfig(players=4, seed=seed, specials=(60, 61, 63, 64)))
        while not state.is_over and state.phase is not Phase.PILE:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))], state.current_seat())
        if state.phase is Phase.PILE:
            mask = S.legal_mask(state)
            assert [int(a) for a in np.flatnonzero(mask)] == [A.PILE_1, A.PILE_2]
            _check_mask(state, rng)
            return
    raise AssertionError("no trick taken by +.5 in 200 random matches")
