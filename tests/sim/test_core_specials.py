"""Each special card and trick rule in the compiled core, as scripted deals (RULES.md §3–4)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from meio.engine import MatchConfig
from meio.engine import actions as A
from meio.engine import cards as C
from meio.sim import core as K
from meio.sim.tables import CoreTables, tables_for

MEIO4 = tables_for(MatchConfig(players=4, specials=(C.MINUS_ONE, C.A_PLUS, C.PLUS_HALF, C.Q_PLUS)))
CLASSIC4 = tables_for(MatchConfig(edition="classic", players=4))


def deal(
    t: CoreTables, hands: list[str], *, half: int = 1, leader: int = 0
) -> npt.NDArray[np.int32]:
    """A position in the play phase of ``half`` with these cards in hand (a few each)."""
    s = np.zeros(K.STATE_LEN, dtype=np.int32)
    for p, text in enumerate(hands):
        cards = C.cards_of(C.parse_cards(text))
        s[K.HAND + K.HAND_MAX * p : K.HAND + K.HAND_MAX * p + len(cards)] = cards
        s[K.HAND_N + p] = len(cards)
        s[K.PACK_N + p] = 6
    s[K.PHASE] = K.PLAY
    s[K.HALF] = half
    s[K.TRICK_NO] = 1 if half == 1 else 8
    s[K.TRICK_LEADER] = s[K.TO_MOVE] = s[K.ROUND_LEADER] = leader
    s[K.LED] = s[K.PENDING] = -1
    s[K.SPLIT_N] = int(t.cfg[0])
    return s


def play(t: CoreTables, s: npt.NDArray[np.int32], *texts: str) -> None:
    for text in texts:
        action = A.parse_action(text)
        assert action in legal(s), f"{text} should be legal"
        K.apply_action(s, t.cfg, t.ruleset, action)


def legal(s: npt.NDArray[np.int32]) -> set[int]:
    out = np.zeros(32, dtype=np.int32)
    return set(out[: K.legal_actions(s, MEIO4.ruleset, out)].tolist())


def codes(actions: set[int]) -> set[str]:
    return {A.action_text(a) for a in actions}


def result(s: npt.NDArray[np.int32], trick: int = 0) -> tuple[int, int]:
    """(winner, pile) of the first trick played from the scripted position."""
    t = int(s[K.TRICK_NO]) - 1 - (1 if s[K.PHASE] != K.PILE_PHASE else 0) + trick
    return int(s[K.WINNERS + t]), int(s[K.PILE_OF + t])


@pytest.mark.parametrize(("half", "winner", "pile"), [(1, 3, 1), (2, 1, 2)])
def test_minus_one_and_a_plus_swap_values_between_halves(half: int, winner: int, pile: int) -> None:
    s = deal(MEIO4, ["KS 3D", "-1 3C", "AS 4D", "A+ 4C"], half=half)
    play(MEIO4, s, "KS", "-1", "AS", "A+")
    assert result(s) == (winner, pile)
    assert s[K.PILES + 2 * winner + pile - 1] == 1


def test_minus_two_hearts_is_a_heart_that_must_follow_and_trumps() -> None:
    s = deal(MEIO4, ["5H AS", "-2H 3S", "6H 4C", "7H 4D"])
    play(MEIO4, s, "5H")
    assert codes(legal(s)) == {"-2H"}
    t = tables_for(MatchConfig(players=3, specials=(C.MINUS_TWO_H, C.PLUS_HALF, C.Q_PLUS)))
    s = deal(t, ["AS 6H", "-2H 7D", "KS 7C"])
    play(t, s, "AS", "-2H", "KS")
    assert result(s) == (1, 1)  # the lowest heart still trumps a plain suit


def test_plus_half_is_the_previous_value_plus_half_and_its_winner_chooses_the_pile() -> None:
    s = deal(MEIO4, ["9S 3D", "KS 3C", "+.5 4D", "QS 4C"], half=2)
    play(MEIO4, s, "9S", "KS", "+.5", "QS")
    assert s[K.PHASE] == K.PILE_PHASE and s[K.PENDING] == 2
    assert legal(s) == {A.PILE_1, A.PILE_2}
    play(MEIO4, s, "pile=1")
    assert s[K.PHASE] == K.PLAY and s[K.TO_MOVE] == 2
    assert [s[K.PILES + 4], s[K.PILES + 5]] == [1, 0]  # first-half pile, in the second half


def test_plus_half_leads_at_half_a_point_in_its_declared_suit() -> None:
    s = deal(MEIO4, ["+.5 3D", "3S 4C", "4D 5D", "5C 6C"])
    play(MEIO4, s, "+.5=S")
    assert s[K.LED] == C.SPADES
    assert codes(legal(s)) == {"3S"}
    play(MEIO4, s, "3S", "4D", "5C")
    assert result(s) == (1, 1)


@pytest.mark.parametrize(("half", "pile"), [(1, 2), (2, 1)])
def test_q_plus_sends_its_trick_to_the_other_half(half: int, pile: int) -> None:
    s = deal(MEIO4, ["JS 3D", "Q+ 3C", "3S 4D", "4S 4C"], half=half)
    play(MEIO4, s, "JS", "Q+", "3S", "4S")
    assert result(s) == (1, pile)


def test_q_plus_is_below_a_king() -> None:
    s = deal(MEIO4, ["KS 3D", "Q+ 3C", "3S 4D", "QS 4C"])
    play(MEIO4, s, "KS", "Q+", "3S", "QS")
    assert result(s) == (0, 1)


def test_tie_after_q_plus_goes_to_the_card_played_first() -> None:
    s = deal(MEIO4, ["KS 3D", "Q+ 3C", "+.5 4D", "3S 4C"])
    play(MEIO4, s, "KS", "Q+", "+.5", "3S")  # +.5 = 12.5 + 0.5 = 13 ties the K
    assert result(s) == (0, 1)
    s = deal(MEIO4, ["Q+ 3D", "+.5 3C", "3S 4D", "4S 4C"])
    play(MEIO4, s, "Q+=S", "+.5", "3S", "4S")  # 13 beats 12.5: +.5 wins, no tie
    assert s[K.PHASE] == K.PILE_PHASE and s[K.PENDING] == 1


def test_a_wild_lead_declares_the_led_suit_and_hearts_make_it_a_trump() -> None:
    s = deal(MEIO4, ["A+ 3D", "3H AS", "KH 4D", "4C 5C"])
    play(MEIO4, s, "A+=H")
    assert codes(legal(s)) == {"3H"}  # must follow the declared hearts
    play(MEIO4, s, "3H", "KH", "4C")
    assert result(s) == (0, 1)
    s = deal(MEIO4, ["5S 3D", "A+ 6S", "3H 4D", "4C 5C"])
    play(MEIO4, s, "5S")
    assert codes(legal(s)) == {"A+", "6S"}  # a wild may always be played
    play(MEIO4, s, "A+", "3H", "4C")
    assert result(s) == (2, 1)  # on a spade lead the wild is a spade; a heart trumps it


def test_wild_leads_offer_every_declared_suit() -> None:
    s = deal(MEIO4, ["-1 Q+ 3S", "4S", "5S", "6S"])
    assert codes(legal(s)) == {"3S"} | {f"{w}={x}" for w in ("-1", "Q+") for x in "SHDC"}


def test_classic_ace_is_low() -> None:
    s = deal(CLASSIC4, ["2S 3D", "AS 3C", "3S 4D", "4C 5C"])
    play(CLASSIC4, s, "2S", "AS", "3S", "4C")
    assert result(s) == (2, 1)


def test_second_half_plays_the_packs_and_partners_swap_them() -> None:
    team = tables_for(MatchConfig(players=4, partnership=True,
                                  specials=(C.MINUS_ONE, C.A_PLUS, C.PLUS_HALF, C.Q_PLUS)))
    for t, source in ((MEIO4, [0, 1, 2, 3]), (team, [2, 3, 0, 1])):
        s = deal(t, ["3S", "4S", "5S", "6S"])
        s[K.TRICK_NO] = 7
        packs = [C.cards_of(C.parse_cards(x)) for x in (
            "7S 8S 9S TS JS QS", "7H 8H 9H TH JH QH", "7D 8D 9D TD JD QD", "7C 8C 9C TC JC QC")]
        for p in range(4):
            s[K.PACK + K.PACK_MAX * p : K.PACK + K.PACK_MAX * p + 6] = packs[p]
        play(t, s, "3S", "4S", "5S", "6S")
        assert s[K.HALF] == 2 and s[K.TO_MOVE] == 3
        for p in range(4):
            hand = K.HAND + K.HAND_MAX * p
            assert sorted(s[hand : hand + 6].tolist()) == packs[source[p]]
