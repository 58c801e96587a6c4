"""``State.redeal``: a round's deal replaced before its first action is the match
dealt that way from the start; anything else is refused and changes nothing."""

from __future__ import annotations

import random

import pytest

from meio.engine import ConfigError, IllegalActionError, MatchConfig, State
from meio.engine import cards as C
from tests.engine.helpers import snapshot


def _finish_round(st: State, rng: random.Random) -> None:
    rounds = len(st.rounds)
    while len(st.rounds) == rounds:
        st.apply(rng.choice(list(st.legal_actions())))


def _deal(config: MatchConfig, rng: random.Random) -> tuple[tuple[int, ...], int]:
    cards = C.cards_of(config.deck)
    rng.shuffle(cards)
    n = config.players
    return tuple(C.mask_of(cards[13 * p : 13 * p + 13]) for p in range(n)), \
        C.mask_of(cards[13 * n :])


@pytest.mark.parametrize("edition,players", [("meio", 4), ("classic", 3)])
def test_a_redealt_round_is_the_match_dealt_that_way(edition: str, players: int) -> None:
    config = MatchConfig(edition=edition, players=players, seed=11)
    rng = random.Random(4)
    st = State.new(config)
    _finish_round(st, rng)
    hands, aside = _deal(config, rng)
    st.redeal(hands, aside, 1)
    first = st.round_starts()[0]
    same = State.new(config, deals=[(first.deal, first.aside, first.leader),
                                    (hands, aside, 1)])
    for seat, action in st.history:
        same.apply_unchecked(action, seat)
    assert snapshot(st)[1:] == snapshot(same)[1:]  # every field but the given deals
    assert st.hands == list(hands) and st.round_leader == 1
    _finish_round(st, rng)  # and the round plays on
    assert len(st.rounds) == 2


def test_a_redeal_is_refused_once_the_round_has_begun_or_when_it_is_no_deal() -> None:
    config = MatchConfig(players=4, seed=2)
    st = State.new(config)
    hands, aside = _deal(config, random.Random(1))
    before = snapshot(st)
    with pytest.raises(ConfigError, match="13 cards"):
        st.redeal((hands[0], hands[0], hands[2], hands[3]), aside, 0)
    with pytest.raises(ConfigError, match="make the deck"):
        st.redeal(hands[:3], aside, 0)
    with pytest.raises(ConfigError, match="no seat 4"):
        st.redeal(hands, aside, 4)
    assert snapshot(st) == before
    st.apply(st.legal_actions()[0])
    with pytest.raises(IllegalActionError, match="before the first action"):
        st.redeal(hands, aside, 0)
