"""Who wins a trick, and which pile it goes to (RULES.md §3–4)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from meio.engine import cards as C


class Trick(NamedTuple):
    """A completed trick: its leader, the ``(seat, card)`` plays in order, the suit a
    wild lead declared (-1 otherwise), the winning seat, the pile (1 or 2; 0 while
    a ``+.5`` winner has still to choose) and the led suit it was played to (-1 for
    an all-wild trick under ``wild_lead: next``)."""

    leader: int
    plays: tuple[tuple[int, int], ...]
    declared: int
    winner: int
    pile: int
    led: int = -1

    @property
    def led_suit(self) -> int:
        """The suit led: ``led`` when set, else the declared suit or the first card's."""
        if self.led >= 0 or not self.plays:
            return self.led
        if self.declared >= 0:
            return self.declared
        return C.card_suit(self.plays[0][1])

    @property
    def cards(self) -> tuple[int, ...]:
        return tuple(card for _, card in self.plays)


#: a trick-value entry marking a card worth 0.5 above the card played just before it
#: (0.5 when it leads): a doubled value no card has (they run from -40 to 80)
RELATIVE = -1000

#: a card's pile effect (:func:`pile_for`): its trick goes to the pile of its half, the
#: winner chooses (``+.5``), or the other half's pile (``Q+``)
OWN_HALF, WINNER_CHOOSES, OTHER_HALF = 0, 1, 2


def winning_index(
    cards: Sequence[int], led: int, values: Sequence[int], suit_of: Sequence[int], trump: int
) -> tuple[int, int]:
    """The index in ``cards`` of the winning card, and its doubled value.

    ``led`` is the led suit (a wild lead's declared suit; under ``wild_lead: next``
    the first non-wild card's suit, or -1 when every card is wild: then the highest
    value wins); ``values`` the doubled values of the half being played, card by card
    (:data:`RELATIVE` for a card worth 0.5 above the card before it, 0.5 when it
    leads); ``suit_of`` each card's suit (-1: a wild, which takes the led suit);
    ``trump`` the trump suit (-1: none). A trump beats the led suit, a higher value
    the same kind, and of equal values the first played wins.

    The one statement of the rule for every ruleset (the ruleset's card tables:
    :class:`~meio.engine.ruleset.CardRules`), on plain ints and sequences only, so
    that numba compiles this same function for the compiled core.

    >>> from meio.engine.cards import parse_card as p
    >>> from meio.engine.presets import preset
    >>> r = preset("meio").card_rules
    >>> winning_index([p("KS"), p("Q+"), p("+.5")], 0, r.trick_values[0], r.suit_of, r.trump)
    (0, 26)
    >>> winning_index([p("9S"), p("2H")], 0, r.trick_values[0], r.suit_of, r.trump)  # trumps
    (1, 4)
    >>> winning_index([p("9S"), p("2H")], 0, r.trick_values[0], r.suit_of, -1)  # no trump
    (0, 18)
    >>> winning_index([p("Q+"), p("-1")], -1, r.trick_values[1], r.suit_of, r.trump)  # wilds
    (1, 30)
    """
    best = -1
    best_v = 0
    best_trump = False
    prev = 0
    for i in range(len(cards)):
        card = cards[i]
        v = values[card]
        if v == RELATIVE:
            v = prev + 1
        prev = v
        suit = suit_of[card]
        if suit < 0:
            suit = led
        trump_card = suit == trump and suit >= 0
        if suit != led and not trump_card:
            continue
        if best < 0 or (trump_card and not best_trump) or (
            trump_card == best_trump and v > best_v
        ):
            best, best_v, best_trump = i, v, trump_card
    return best, best_v


def pile_for(winning_card: int, half: int, effects: Sequence[int]) -> int:
    """The pile (1 or 2) a trick won by ``winning_card`` in ``half`` goes to, or 0 when
    its winner must choose; ``effects`` gives each card's pile effect
    (:data:`OWN_HALF`, :data:`WINNER_CHOOSES`, :data:`OTHER_HALF`). The one statement
    of the pile rule, plain Python that numba compiles for the compiled core.

    >>> from meio.engine.cards import Q_PLUS, PLUS_HALF
    >>> from meio.engine.presets import preset
    >>> effects = preset("meio").card_rules.pile
    >>> pile_for(Q_PLUS, 1, effects), pile_for(PLUS_HALF, 2, effects), pile_for(3, 2, effects)
    (2, 0, 2)
    """
    effect = effects[winning_card]
    if effect == OTHER_HALF:
        return 3 - half
    if effect == WINNER_CHOOSES:
        return 0
    return half


def played_mask(
    tricks: Sequence[Trick], current: Sequence[tuple[int, int]] = ()
) -> int:
    """The cards of some tricks and of the trick in progress, as a bitmask."""
    mask = 0
    for t in tricks:
        for _, c in t.plays:
            mask |= 1 << c
    for _, c in current:
        mask |= 1 << c
    return mask


def follow_start(cards: Sequence[int], declares: bool, suit_of: Sequence[int]) -> int:
    """The index of the card that set a trick's led suit: 0 when the leader's card
    (or declared suit) sets it; under ``wild_lead: next`` the first non-wild card,
    ``len(cards)`` while every card is wild. Plays after it had to follow suit.

    >>> from meio.engine.cards import parse_card as p
    >>> from meio.engine.presets import preset
    >>> suit_of = preset("meio").card_rules.suit_of
    >>> follow_start([p("Q+"), p("-1"), p("5D"), p("7D")], False, suit_of)
    2
    """
    if declares:
        return 0
    for i, card in enumerate(cards):
        if suit_of[card] >= 0:
            return i
    return len(cards)
