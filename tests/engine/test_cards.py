"""Card codes, bitmasks and action texts."""

from __future__ import annotations

import pytest

from meio.engine import CardError
from meio.engine import actions as A
from meio.engine import cards as C


def test_every_card_code_round_trips() -> None:
    for card in range(C.NUM_CARDS):
        assert C.parse_card(C.card_code(card)) == card


@pytest.mark.parametrize(
    ("text", "code"),
    [("10H", "TH"), ("10♥", "TH"), ("q♠", "QS"), ("+0.5", "+.5"), ("-2♥", "-2H"), (" KD ", "KD")],
)
def test_readers_accept_more(text: str, code: str) -> None:
    assert C.card_code(C.parse_card(text)) == code


@pytest.mark.parametrize("text", ["", "1", "ZZ", "QX", "11H", "Q+S", "-3H", "AS AS"])
def test_bad_codes_are_refused(text: str) -> None:
    with pytest.raises(CardError):
        C.parse_card(text)


def test_masks() -> None:
    mask = C.parse_cards("AH, -1 3C")
    assert C.count(mask) == 3 and C.codes(mask) == ["AH", "3C", "-1"]
    assert C.mask_of(C.cards_of(mask)) == mask
    with pytest.raises(CardError, match="twice"):
        C.parse_cards("AH AH")


def test_suits_of_specials() -> None:
    assert C.card_suit(C.MINUS_TWO_H) == C.HEARTS and not C.is_wild(C.MINUS_TWO_H)
    for wild in C.WILDS:
        assert C.card_suit(wild) == -1 and C.is_wild(wild)
    assert C.SUIT_MASKS[C.HEARTS] >> C.MINUS_TWO_H & 1


@pytest.mark.parametrize(
    "text", ["QS", "Q+=D", "-1=H", "+.5=C", "A+=S", "pile=1", "pile=2", "pack:9S,TS,JS,QS,KS,AS"]
)
def test_action_texts_round_trip(text: str) -> None:
    assert A.action_text(A.parse_action(text)) == text


@pytest.mark.parametrize("text", ["pile=3", "QS=D", "Q+=X", "pack:QS,QS", "-2H=H"])
def test_bad_action_texts(text: str) -> None:
    with pytest.raises(CardError):
        A.parse_action(text)


def test_action_space_is_flat_and_small() -> None:
    texts = {A.action_text(a) for a in range(A.NUM_PLAY_ACTIONS)}
    assert len(texts) == A.NUM_PLAY_ACTIONS == 83
    assert A.card_of(A.parse_action("Q+=D")) == C.Q_PLUS
    assert A.declared_suit(A.parse_action("Q+=D")) == C.DIAMONDS
