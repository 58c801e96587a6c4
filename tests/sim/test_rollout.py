"""Rollouts for search: exact where the round is decided, consistent everywhere."""

from __future__ import annotations

import random

import numpy as np
import pytest

from meio.engine import MatchConfig, Phase, State, TableOptions, sample_world
from meio.engine import actions as A
from meio.engine import cards as C
from meio.sim import core as K
from meio.sim import evaluate_actions, state_to_arrays
from meio.sim.tables import tables_for
from tests.sim.conftest import CONFIGS, OPTION_CONFIGS, config_id


def _random_until(cfg: MatchConfig, rng: random.Random, stop: object) -> State:
    state = State.new(cfg)
    while not stop(state):  # type: ignore[operator]
        seat = rng.choice(state.seats_to_act())
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    return state


def _round_scores(state: State) -> list[int]:
    res = state.rounds[-1]
    if res.team_scores is not None:
        return [res.team_scores[p % 2] for p in range(4)]
    return list(res.scores)


@pytest.mark.parametrize("cfg", CONFIGS + OPTION_CONFIGS[:10], ids=config_id)
def test_the_last_card_of_a_round_scores_exactly_what_the_engine_scores(cfg: MatchConfig) -> None:
    rng = random.Random(config_id(cfg))
    for _ in range(6):
        st = _random_until(cfg, rng, lambda s: s.trick_number == 13
                           and len(s.current_trick) == cfg.players - 1)
        (last,) = st.legal_actions()
        means = evaluate_actions([st], [last], playouts=3, seed=1)
        after = st.clone()
        after.apply(last)
        if after.round_index == st.round_index and after.phase is Phase.PILE:
            options = []
            for pile in (A.PILE_1, A.PILE_2):
                done = after.clone()
                done.apply(pile)
                options.append(_round_scores(done))
            assert means.shape == (1, cfg.players)
            assert all(v >= min(o[p] for o in options) for p, v in enumerate(means[0]))
            continue
        assert means.tolist() == [[float(v) for v in _round_scores(after)]]


def test_a_pile_choice_at_the_end_of_the_round_is_scored_exactly() -> None:
    cfg = MatchConfig(players=2, specials=(C.PLUS_HALF, C.Q_PLUS))
    rng = random.Random(7)
    found = 0
    for _ in range(400):
        st = _random_until(
            cfg, rng,
            lambda s: s.round_index > 0 or (s.phase is Phase.PILE and s.trick_number == 13),
        )
        if st.round_index > 0:
            continue
        means = evaluate_actions([st], [A.PILE_1, A.PILE_2], playouts=2, seed=3)
        for row, pile in zip(means, (A.PILE_1, A.PILE_2), strict=True):
            done = st.clone()
            done.apply(pile)
            assert row.tolist() == [float(v) for v in _round_scores(done)]
        found += 1
        if found == 3:
            break
    assert found >= 1


def test_partners_share_their_team_score_and_rows_follow_the_actions() -> None:
    cfg = CONFIGS[4]
    rng = random.Random(5)
    st = _random_until(cfg, rng, lambda s: s.phase is Phase.PLAY and s.trick_number >= 3
                       and len(s.current_trick) == 1 and len(s.legal_actions()) >= 2)
    legal = list(st.legal_actions())
    assert len(legal) >= 2
    means = evaluate_actions([st], legal, playouts=40, seed=2)
    assert np.array_equal(means[:, 0], means[:, 2]) and np.array_equal(means[:, 1], means[:, 3])
    swapped = evaluate_actions([st], legal[::-1], playouts=40, seed=2)
    assert np.array_equal(swapped, means[::-1])  # each action sees the same random streams
    assert np.array_equal(evaluate_actions([st], legal, playouts=40, seed=2), means)
    assert not np.array_equal(evaluate_actions([st], legal, playouts=40, seed=9), means)


def test_worlds_sampled_from_a_view_are_played_out_together() -> None:
    cfg = CONFIGS[5]
    rng = random.Random(11)
    st = _random_until(cfg, rng, lambda s: s.phase is Phase.PLAY and s.trick_number == 4)
    view = st.view(st.current_seat())
    worlds = [sample_world(view, rng) for _ in range(16)]
    legal = list(view.legal_actions())
    means = evaluate_actions(worlds, legal, playouts=10, seed=1, policy="random")
    assert means.shape == (len(legal), cfg.players)
    assert np.all((means >= 0) & (means <= 13))


def test_a_balanced_split_beats_keeping_the_strong_cards_together() -> None:
    """At the split, the heuristic's balanced pack must score better for its seat, over
    a few deals, than packing the six weakest or the six strongest cards."""
    cfg = CONFIGS[3]
    t = tables_for(cfg)
    means = np.zeros(3)
    for seed in range(10):
        st = State.new(MatchConfig(players=4, specials=cfg.specials, seed=seed))
        s = state_to_arrays(st).array
        rng = np.zeros(1, dtype=np.uint64)
        pack = np.zeros(6, dtype=np.int32)
        K.choose_split(s, t.ruleset, 0, t.strength, K.POLICY_HEURISTIC, rng, pack)
        by_strength = sorted(C.cards_of(st.hands[0]), key=lambda c: t.strength[0, c])
        packs = [C.mask_of(int(c) for c in pack), C.mask_of(by_strength[:6]),
                 C.mask_of(by_strength[-6:])]
        means += evaluate_actions([st], [A.pack_action(p) for p in packs], 60, seed)[:, 0]
    assert means[0] < 0.8 * means[1] and means[0] < 0.8 * means[2]


def test_bad_calls_are_refused_clearly() -> None:
    cfg = CONFIGS[3]
    st = State.new(MatchConfig(players=4, specials=cfg.specials, seed=1))
    for seat in range(4):
        st.apply(st.legal_actions(seat)[0], seat)
    legal = list(st.legal_actions())
    illegal = next(a for a in range(65) if a not in legal)
    with pytest.raises(ValueError, match="at least one state"):
        evaluate_actions([], legal, 1, 0)
    with pytest.raises(ValueError, match="at least one candidate"):
        evaluate_actions([st], [], 1, 0)
    with pytest.raises(ValueError, match="playouts"):
        evaluate_actions([st], legal, 0, 0)
    with pytest.raises(ValueError, match="not legal"):
        evaluate_actions([st], [illegal], 1, 0)
    with pytest.raises(ValueError, match="unknown playout policy"):
        evaluate_actions([st], legal, 1, 0, policy="oracle")
    other = State.new(MatchConfig(players=3, seed=1))
    with pytest.raises(ValueError, match="another game"):
        evaluate_actions([st, other], legal, 1, 0)


def test_worlds_with_different_hidden_specials_are_each_played_with_their_own_deck() -> None:
    cfg = MatchConfig(players=4, seed=6, options=TableOptions("next", reveal_specials=False))
    rng = random.Random(4)
    st = _random_until(cfg, rng, lambda s: s.phase is Phase.PLAY and s.trick_number == 2)
    view = st.view(st.current_seat())
    assert len(view.specials) < 4
    worlds = [sample_world(view, rng) for _ in range(24)]
    groups: dict[tuple[int, ...], list[int]] = {}
    for w, world in enumerate(worlds):
        groups.setdefault(world.config.special_cards, []).append(w)
    assert len(groups) >= 2  # the view does not know which specials are in the deck
    legal = list(view.legal_actions())
    means = evaluate_actions(worlds, legal, playouts=3, seed=5)
    # the same as each group of worlds evaluated alone, weighted by its size
    expected = np.zeros_like(means)
    for members in groups.values():
        part = evaluate_actions([worlds[w] for w in members], legal, playouts=3,
                                seed=5 + members[0])
        expected += part * len(members)
    assert np.allclose(means, expected / len(worlds))
    # with the specials revealed, worlds of different specials are different games
    shown = State.new(MatchConfig(players=3, seed=6, specials=(C.MINUS_ONE, C.A_PLUS, C.Q_PLUS)))
    other = State.new(MatchConfig(players=3, seed=6, specials=(C.MINUS_ONE, C.A_PLUS,
                                                               C.PLUS_HALF)))
    for state in (shown, other):
        for seat in range(3):
            state.apply(state.legal_actions(seat)[0], seat)
    first = shown.legal_actions()[0]
    assert first in other.legal_actions()
    with pytest.raises(ValueError, match="another game"):
        evaluate_actions([shown, other], [first], 1, 0)
