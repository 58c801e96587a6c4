"""What a seat knows, boiled down for quick judgement, and how many tricks cards take.

:class:`Seen` is the small record every heuristic decision reads. It is built
either from a :class:`~meio.engine.View` (a bot at the table) or, inside a
playout, from one seat's side of a sampled world (:func:`seen_from_state`); in
both cases it holds only what that seat may know: its own cards, the public
table and the mask of cards it cannot see.

Trick estimates are deliberately simple and cheap: a card takes a trick with a
probability that falls with the number of unseen cards that could beat it,
each of which sits in an opponent's holding for the same half with a known
probability (see :func:`card_chance`).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from meio.bots.base import seat_of
from meio.engine import MatchConfig, State, View
from meio.engine import cards as C
from meio.engine.presets import preset
from meio.engine.tricks import pile_for

HEARTS = C.HEARTS
_SUIT_OF = C.SUIT_OF
_ORDINARY_SUIT_MASKS = tuple(C.SUIT_MASKS[s] & ((1 << 60) - 1) for s in range(4))
_HEART_MASK = C.SUIT_MASKS[HEARTS]

#: chance that a follower who could trump a side-suit card actually can (is void)
TRUMP_RISK = 0.12
#: chance a top side-suit card survives being led when nobody can beat it on suit
SIDE_SUIT_SAFETY = 0.85


def _tables(edition: str, half: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Doubled values, and for each card the masks of same-suit and wild cards worth more."""
    values = tuple(
        C.value2(c, half, edition, 0) if c != C.PLUS_HALF else 1 for c in range(C.NUM_CARDS)
    )
    higher_suit: list[int] = []
    higher_wild: list[int] = []
    for c in range(C.NUM_CARDS):
        suit = _SUIT_OF[c]
        v = values[c]
        same = C.SUIT_MASKS[suit] if suit >= 0 else 0
        higher_suit.append(C.mask_of(d for d in C.cards_of(same) if values[d] > v))
        higher_wild.append(
            C.mask_of(w for w in C.WILDS if w != c and values[w] > v and w != C.PLUS_HALF)
        )
    return values, tuple(higher_suit), tuple(higher_wild)


_TABLES = {(e, h): _tables(e, h) for e in ("meio", "classic") for h in (1, 2)}


def values_for(edition: str, half: int) -> tuple[int, ...]:
    """Doubled card values in one half (``+.5`` given its lead value 0.5)."""
    return _TABLES[(edition, half)][0]


def _higher_in_suit(suit: int, v2: int, values: Sequence[int]) -> int:
    mask = 0
    for d in C.iter_cards(C.SUIT_MASKS[suit]):
        if values[d] > v2:
            mask |= 1 << d
    return mask


@functools.lru_cache(maxsize=8192)
def beaters(card: int, led: int, v2: int, edition: str, half: int) -> tuple[int, int]:
    """Cards that would beat ``card`` (worth ``v2`` doubled) in a trick led in ``led``.

    Returns ``(sure, trumps)``: cards that beat it whenever their holder plays them
    (higher cards of the led suit, higher wilds, ``+.5``) and side-suit trumps,
    which beat it only from a player void in the led suit.
    """
    values, _, _ = _TABLES[(edition, half)]
    suit = _SUIT_OF[card]
    if suit < 0:
        suit = led
    plus_half = 1 << C.PLUS_HALF if card != C.PLUS_HALF else 0
    wilds = 0
    for w in C.WILDS:
        if w != card and w != C.PLUS_HALF and values[w] > v2:
            wilds |= 1 << w
    if suit == HEARTS:
        sure = _higher_in_suit(HEARTS, v2, values) & ~C.WILD_MASK
        if led == HEARTS:
            sure |= wilds
        return sure | plus_half, 0
    if suit != led:
        return 0, 0  # a discard never wins
    sure = _higher_in_suit(suit, v2, values) | wilds | plus_half
    trumps = _HEART_MASK if led != HEARTS else 0
    return sure, trumps


@dataclass(frozen=True, slots=True)
class Seen:
    """One seat's knowledge, in the form heuristic decisions read.

    ``hand`` is the holding for the half in play; ``future`` the cards this seat
    will play in the second half (first half only: its own pack, or in
    partnership the pack received); ``team_future`` the cards its partner will
    play (partnership, first half: the pack this seat handed over). ``unseen``
    holds every card this seat cannot see that is still to be played or set aside.
    """

    edition: str
    players: int
    partnership: bool
    seat: int
    half: int
    trick_number: int
    hand: int
    future: int
    team_future: int
    #: partnership, second half: the partner's remaining cards (this seat's own pack)
    partner_hand: int
    current_trick: tuple[tuple[int, int], ...]
    led_suit: int
    piles: tuple[tuple[int, int], ...]
    hand_sizes: tuple[int, ...]
    unseen: int

    @property
    def team_piles(self) -> tuple[int, int]:
        """This seat's ``(H, V)``, or its team's in partnership."""
        h, v = self.piles[self.seat]
        if self.partnership:
            ph, pv = self.piles[(self.seat + 2) % 4]
            return h + ph, v + pv
        return h, v

    def is_partner(self, seat: int) -> bool:
        return self.partnership and seat != self.seat and (seat - self.seat) % 2 == 0


def possible_specials(view: View) -> int:
    """The special cards that may be in the deck as far as the seat knows: all N
    when the table reveals them; with hidden specials (RULES.md §10) those it knows
    of and every special it has not seen, since any of them may be among the rest."""
    known = C.mask_of(view.specials)
    if view.special_count > len(view.specials):
        known |= C.mask_of(s for s in C.SPECIALS if s not in view.specials)
    return known


def seen_from_view(view: View) -> Seen:
    """The :class:`Seen` of a seat's view (play or pile phase)."""
    seat = seat_of(view)
    cfg = view.config
    played = view.played
    own = view.hand | view.pack | view.received
    unseen = (cfg.deck | possible_specials(view)) & ~played & ~own
    partner_hand = 0
    if view.half == 1:
        future = view.received if cfg.partnership else view.pack
        team_future = view.pack if cfg.partnership else 0
    else:
        future = team_future = 0
        if cfg.partnership:
            partner_hand = view.pack & ~played
    return Seen(
        edition=cfg.edition,
        players=cfg.players,
        partnership=cfg.partnership,
        seat=seat,
        half=view.half,
        trick_number=view.trick_number,
        hand=view.hand,
        future=future,
        team_future=team_future,
        partner_hand=partner_hand,
        current_trick=view.current_trick,
        led_suit=view.led_suit,
        piles=view.piles,
        hand_sizes=view.hand_sizes,
        unseen=unseen,
    )


def seen_from_state(state: State, seat: int) -> Seen:
    """The :class:`Seen` of ``seat`` in a (sampled) world, holding only what it may know."""
    cfg = state.config
    hands = state.hands
    packs = state.packs
    unplayed = state.aside
    for h in hands:
        unplayed |= h
    half = state.half
    partner = (seat + 2) % 4 if cfg.partnership else -1
    if half == 1:
        for p in packs:
            unplayed |= p
        future = packs[partner] if partner >= 0 else packs[seat]
        team_future = packs[seat] if partner >= 0 else 0
        own = hands[seat] | packs[seat] | future
    else:
        future = team_future = 0
        own = hands[seat] | (hands[partner] if partner >= 0 else 0)
    return Seen(
        edition=cfg.edition,
        players=cfg.players,
        partnership=cfg.partnership,
        seat=seat,
        half=half,
        trick_number=state.trick_number,
        hand=hands[seat],
        future=future,
        team_future=team_future,
        partner_hand=hands[partner] if partner >= 0 and half == 2 else 0,
        current_trick=tuple(state.current_trick),
        led_suit=state.led_suit,
        piles=tuple((p[0], p[1]) for p in state.piles),
        hand_sizes=tuple(h.bit_count() for h in hands),
        unseen=unplayed & ~own,
    )


def card_chance(card: int, half: int, edition: str, unseen: int, share: float) -> float:
    """Chance that ``card``, held for ``half``, takes a trick when it is played.

    ``share`` is the chance that a given unseen card is held by an opponent for
    the same half. A wild is judged with the best declaration for winning.
    """
    values = _TABLES[(edition, half)][0]
    v2 = values[card]
    if card == C.PLUS_HALF:
        return 0.35  # it beats the card before it: often a winner, at its holder's choice
    if card == C.MINUS_TWO_H:
        return 0.05
    suit = _SUIT_OF[card]
    led = HEARTS if suit < 0 else suit
    if suit < 0 and v2 < 2:
        return 0.0  # a wild worth -1 wins only if nothing else follows suit: never
    sure, trumps = beaters(card, led, v2, edition, half)
    k = (sure & unseen).bit_count()
    base = 1.0 if led == HEARTS else SIDE_SUIT_SAFETY
    p = base * (1.0 - share) ** k
    if trumps:
        t = (trumps & unseen).bit_count()
        p *= (1.0 - TRUMP_RISK * share) ** t
    return p


_EDITION_PILES = preset("meio").card_rules.pile  # the editions' specials (classic has none)


def pile_of_win(card: int, half: int) -> int:
    """The pile (1 or 2) a trick won by ``card`` goes to in an edition; 0 for the
    winner's choice (``+.5``): :func:`meio.engine.tricks.pile_for`."""
    return pile_for(card, half, _EDITION_PILES)


def holding_estimate(
    cards: int, half: int, edition: str, unseen: int, share: float
) -> tuple[float, float, float]:
    """Expected tricks ``cards`` add to the first and second pile, and their variance."""
    to1 = to2 = var = 0.0
    for c in C.iter_cards(cards):
        p = card_chance(c, half, edition, unseen, share)
        pile = pile_of_win(c, half)
        if pile == 1:
            to1 += p
        elif pile == 2:
            to2 += p
        var += p * (1.0 - p)
    return to1, to2, var


def expected_abs(mu: float, var: float) -> float:
    """E|X| for X normal with mean ``mu`` and variance ``var`` (``var`` floored)."""
    s = math.sqrt(max(var, 0.05))
    z = mu / s
    return s * math.sqrt(2.0 / math.pi) * math.exp(-0.5 * z * z) + mu * math.erf(z / math.sqrt(2))


def opponents_share(config: MatchConfig, half: int, unseen_count: int) -> float:
    """At the split: chance an unseen card is in one opponent's holding for ``half``."""
    if unseen_count <= 0:
        return 0.0
    held = 7 if half == 1 else 6
    return min(1.0, held * (config.players - 1) / unseen_count)


