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


def value_table(edition: str, half: int) -> tuple[int, ...]:
    """Doubled values of every card id in one half (``+.5`` gets 0 here; it is relative)."""
    return tuple(
        C.value2(c, half, edition, -1) if c != C.PLUS_HALF else 0 for c in range(C.NUM_CARDS)
    )


_SUIT_OF = tuple(C.card_suit(c) for c in range(C.NUM_CARDS))


def winning_index(cards: Sequence[int], led: int, values: Sequence[int]) -> tuple[int, int]:
    """The index in ``cards`` of the winning card, and its doubled value.

    ``led`` is the led suit (a wild lead's declared suit; under ``wild_lead: next``
    the first non-wild card's suit, or -1 when every card is wild: then the highest
    value wins); ``values`` a :func:`value_table` for the half being played. A heart
    beats the led suit, a higher value the same kind, and of equal values the first
    played wins; ``+.5`` is worth half a point more than the card before it.

    The one statement of the rule: on plain ints and sequences only, so that numba
    compiles this same function for the compiled core and the search bot's
    likelihoods (:data:`meio.sim.kernels.trick_rule`). Changing it changes its
    digest (:data:`meio.sim.kernels.TRICK_RULE_DIGEST`).

    >>> from meio.engine.cards import parse_card as p
    >>> vt = value_table("meio", 1)
    >>> winning_index([p("KS"), p("Q+"), p("+.5")], 0, vt)   # +.5 ties the K: first wins
    (0, 26)
    >>> winning_index([p("9S"), p("2H")], 0, vt)             # a heart trumps
    (1, 4)
    >>> winning_index([p("Q+"), p("-1")], -1, value_table("meio", 2))   # all wild
    (1, 30)
    """
    best = -1
    best_v = 0
    best_trump = False
    prev = 0
    for i, card in enumerate(cards):
        v = prev + 1 if card == C.PLUS_HALF else values[card]
        prev = v
        suit = _SUIT_OF[card]
        if suit < 0:
            suit = led
        trump = suit == C.HEARTS
        if suit != led and not trump:
            continue
        if best < 0 or (trump and not best_trump) or (trump == best_trump and v > best_v):
            best, best_v, best_trump = i, v, trump
    return best, best_v


#: a value-table entry (:func:`table_winning_index`) marking a card worth 0.5 above the
#: card played just before it (a doubled value no card has: they run from -40 to 80)
RELATIVE = -1000


def table_winning_index(
    cards: Sequence[int], led: int, values: Sequence[int], suit_of: Sequence[int], trump: int
) -> tuple[int, int]:
    """:func:`winning_index` with the card facts as tables: ``values`` the doubled
    values of one half (:data:`RELATIVE` for a card worth 0.5 above the card before it,
    0.5 when it leads), ``suit_of`` each card's suit (-1: wild, it takes the led suit)
    and ``trump`` the trump suit (-1: none). The one statement of a variant's rule,
    on plain ints and sequences so that numba compiles this same function for the
    compiled core (:data:`meio.sim.kernels.table_trick_rule`).

    >>> from meio.engine.cards import parse_card as p
    >>> vt = list(value_table("meio", 1)); vt[p("+.5")] = RELATIVE
    >>> suits = [c // 15 for c in range(60)] + [-1, -1, 1, -1, -1]
    >>> table_winning_index([p("KS"), p("Q+"), p("+.5")], 0, vt, suits, 1)
    (0, 26)
    >>> table_winning_index([p("9S"), p("2H")], 0, vt, suits, -1)   # no trump: 9S wins
    (0, 18)
    """
    best = -1
    best_v = 0
    best_trump = False
    prev = 0
    for i, card in enumerate(cards):
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


def follow_start(
    cards: Sequence[int], declares: bool, suit_of: Sequence[int] | None = None
) -> int:
    """The index of the card that set a trick's led suit: 0 when the leader's card
    (or declared suit) sets it; under ``wild_lead: next`` the first non-wild card,
    ``len(cards)`` while every card is wild. Plays after it had to follow suit.

    >>> from meio.engine.cards import parse_card as p
    >>> follow_start([p("Q+"), p("-1"), p("5D"), p("7D")], declares=False)
    2
    """
    if declares:
        return 0
    suits = _SUIT_OF if suit_of is None else suit_of
    for i, card in enumerate(cards):
        if suits[card] >= 0:
            return i
    return len(cards)


def pile_for(winning_card: int, half: int) -> int:
    """The pile a trick goes to: 0 when the winner must choose (``+.5``)."""
    if winning_card == C.Q_PLUS:
        return 3 - half
    if winning_card == C.PLUS_HALF:
        return 0
    return half
