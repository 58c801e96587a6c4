"""Observations: their layout, and that no hidden card of another seat ever shows."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.rl.conftest import TABLES, option_sets

from meio.bots import observation as O
from meio.engine import MatchConfig, Phase, State, sample_world
from meio.engine import cards as C
from meio.engine.wire import config_from_json, config_json
from meio.rl.table import _config


def _cards(obs: np.ndarray, offset: int) -> int:
    return C.mask_of(int(i) for i in np.flatnonzero(obs[offset : offset + 65]))


def _random_state(seed: int, table: tuple[int, str, bool], steps: int,
                  options: dict[str, Any] | None = None) -> State:
    players, edition, partnership = table
    opts = options or {}
    base = _config(edition, players, partnership, None, None,
                   str(opts.get("wild_lead", "declare")), bool(opts.get("reveal_specials", True)))
    data = config_json(base)
    data.update(seed=seed, specials=None, first_leader=None)
    state = State.new(config_from_json(data))
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))], state.current_seat())
    return state


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31), table=st.sampled_from(TABLES), steps=st.integers(0, 120),
       options=st.sampled_from(option_sets()))
def test_no_hidden_card_of_another_seat_appears(
    seed: int, table: tuple[int, str, bool], steps: int, options: dict[str, Any]
) -> None:
    state = _random_state(seed, table, steps, options)
    if state.is_over:
        return
    for seat in range(state.config.players):
        view = state.view(seat)
        obs = O.observe(view)
        seen = view.hand | view.pack | view.received | view.played
        specials = {O.SPECIAL_ORDER[i] for i in np.flatnonzero(obs[O.SPECIALS : O.SPECIALS + 5])}
        if not options.get("reveal_specials", True):
            assert specials == set(view.specials)  # only those the seat has seen
            assert all(s in state.config.special_cards for s in specials)
        for plane in (O.HAND, O.PACK, O.RECEIVED, O.TRICK, O.SECOND_HALF,
                      *(O.PLAYED + 65 * r for r in range(5))):
            assert _cards(obs, plane) & ~seen == 0
        # a world dealt from the view differs only in hidden cards: same observation
        world = sample_world(view, random.Random(seed + seat))
        assert np.array_equal(O.observe(world.view(seat)), obs)


def test_layout_of_a_position_in_play() -> None:
    state = State.new(MatchConfig(players=4, seed=11))
    for seat in range(4):
        state.apply(state.legal_actions(seat)[0], seat)
    for _ in range(6):  # a trick and a half
        state.apply(state.legal_actions()[0])
    me = state.current_seat()
    view = state.view(me)
    obs = O.observe(view)
    assert obs.shape == (O.OBS_SIZE,) and obs.dtype == np.float32
    assert _cards(obs, O.HAND) == view.hand
    assert _cards(obs, O.PACK) == view.pack
    assert _cards(obs, O.TRICK) == C.mask_of(c for _, c in view.current_trick)
    for seat, card in view.tricks[0].plays:
        assert obs[O.PLAYED + 65 * ((seat - me) % 4) + card] == 1.0
    assert obs[O.PHASE + int(Phase.PLAY)] == 1.0
    assert obs[O.TO_MOVE] == 1.0  # the observing seat is to act: relative seat 0
    assert obs[O.LED + view.led_suit] == 1.0
    assert obs[O.SEAT + me] == 1.0 and obs[O.PLAYERS + 2] == 1.0
    specials = [O.SPECIAL_ORDER[i] for i in np.flatnonzero(obs[O.SPECIALS : O.SPECIALS + 5])]
    assert tuple(specials) == state.config.special_cards
    assert obs[O.TRICK_NUMBER] == np.float32(1 / 13)
    assert obs.min() >= 0.0 and obs.max() <= 1.0


def test_sequential_picks_move_cards_from_hand_to_pack() -> None:
    state = State.new(MatchConfig(players=3, seed=3))
    view = state.view(1)
    picked = C.mask_of(C.cards_of(view.hand)[:2])
    obs = O.observe(view, picked=picked)
    assert _cards(obs, O.PACK) == picked
    assert _cards(obs, O.HAND) == view.hand & ~picked
