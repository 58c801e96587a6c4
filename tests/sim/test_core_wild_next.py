"""The compiled core under ``wild_lead: "next"`` (RULES.md §10), as scripted deals.

A led wild names no suit; until the first non-wild card the trick has no led
suit and every card is legal; that card (``-2H`` counts as a heart) sets the led
suit, and every wild of the trick, those played before it too, counts as that
suit. An all-wild trick goes to the highest value.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from meio.engine import MatchConfig, TableOptions
from meio.engine import cards as C
from meio.sim import core as K
from meio.sim.tables import CoreTables, tables_for
from tests.sim.test_core_specials import MEIO4, codes, legal, play, result
from tests.sim.test_core_specials import deal as deal_declare

NEXT = TableOptions(wild_lead="next")
MEIO2 = tables_for(MatchConfig(players=2, specials=(C.MINUS_ONE, C.A_PLUS),
                                 options=NEXT))
MEIO3 = tables_for(
    MatchConfig(players=3, specials=(C.MINUS_TWO_H, C.PLUS_HALF, C.Q_PLUS), options=NEXT)
)


def deal(t: CoreTables, hands: list[str], *, half: int = 1) -> npt.NDArray[np.int32]:
    """A scripted position (see ``test_core_specials.deal``) played under ``next``."""
    s = deal_declare(t, hands, half=half)
    s[K.WILD_NEXT] = 1
    return s


def test_a_wild_leads_as_a_plain_card_without_a_declared_suit() -> None:
    s = deal(MEIO4, ["-1 Q+ 3S", "4S", "5S", "6S"])
    assert codes(legal(s)) == {"-1", "Q+", "3S"}
    play(MEIO4, s, "Q+")
    assert s[K.LED] == -1
    assert codes(legal(s)) == {"4S"}


def test_a_led_wild_followed_by_a_heart_becomes_a_trump() -> None:
    s = deal(MEIO4, ["Q+ 3D", "3H AS", "JH 4D", "KS 5C"])
    play(MEIO4, s, "Q+")
    assert codes(legal(s)) == {"3H", "AS"}  # no led suit yet: anything goes
    play(MEIO4, s, "3H")
    assert s[K.LED] == C.HEARTS
    assert codes(legal(s)) == {"JH"}  # the follow rule applies after the heart
    play(MEIO4, s, "JH", "KS")
    assert result(s) == (0, 2)  # Q+ is a heart worth 12.5 and sends the trick over


def test_a_led_wild_counting_as_a_plain_suit_loses_to_a_trump() -> None:
    s = deal(MEIO4, ["A+ 3D", "5S 3H", "3H 4D", "KS 5C"])
    play(MEIO4, s, "A+", "5S")
    assert s[K.LED] == C.SPADES
    assert codes(legal(s)) == {"3H", "4D"}  # void in spades
    play(MEIO4, s, "3H", "KS")
    assert result(s) == (2, 1)  # A+ (15) is a spade; the heart trumps it


def test_a_led_wild_then_a_wild_then_a_plain_card() -> None:
    s = deal(MEIO4, ["-1 3D", "A+ 4D", "5S 6H", "KS 3C"])
    play(MEIO4, s, "-1", "A+")
    assert s[K.LED] == -1
    assert codes(legal(s)) == {"5S", "6H"}
    play(MEIO4, s, "5S")
    assert codes(legal(s)) == {"KS"}
    play(MEIO4, s, "KS")
    assert result(s) == (1, 1)  # A+ counts as a spade worth 15


def test_minus_two_hearts_sets_hearts_as_the_led_suit() -> None:
    s = deal(MEIO3, ["Q+ 9S", "-2H 9D", "KH 9C"])
    play(MEIO3, s, "Q+", "-2H")
    assert s[K.LED] == C.HEARTS
    assert codes(legal(s)) == {"KH"}
    play(MEIO3, s, "KH")
    assert result(s) == (2, 1)  # KH (13) beats Q+ (12.5), both hearts


def test_an_all_wild_trick_goes_to_the_highest_value() -> None:
    for half, winner in ((1, 1), (2, 0)):
        s = deal(MEIO2, ["-1 9S", "A+ TS"], half=half)
        play(MEIO2, s, "-1", "A+")
        assert result(s) == (winner, half)


def test_plus_half_after_a_led_wild_then_a_tie_goes_to_the_first_played() -> None:
    s = deal(MEIO4, ["Q+ 3D", "+.5 3C", "KS 4D", "4C 5C"])
    play(MEIO4, s, "Q+", "+.5", "KS", "4C")  # +.5 is 13, a spade; KS ties it later
    assert s[K.PHASE] == K.PILE_PHASE and s[K.PENDING] == 1
    s = deal(MEIO4, ["+.5 3D", "3S 4C", "4D 5D", "5C 6C"])
    play(MEIO4, s, "+.5", "3S", "4D", "5C")  # led, +.5 is worth 0.5
    assert result(s) == (1, 1)


def test_trial_of_a_card_in_an_all_wild_trick_sees_the_suit_it_sets() -> None:
    s = deal(MEIO4, ["Q+ 3D", "3H AS", "JH 4D", "KS 5C"])
    play(MEIO4, s, "Q+")
    s[K.TRICK + 1] = C.parse_card("AS")  # the heuristic tries a card in the free slot
    assert K.trick_winner(s, 2, 1, MEIO4.ruleset) == 1  # A of the suit it sets beats Q+
    s[K.TRICK + 1] = C.parse_card("3H")
    assert K.trick_winner(s, 2, 1, MEIO4.ruleset) == 0


def test_declare_positions_are_unchanged() -> None:
    s = deal_declare(MEIO4, ["-1 3S", "4S", "5S", "6S"])
    assert codes(legal(s)) == {"3S"} | {f"-1={x}" for x in "SHDC"}
