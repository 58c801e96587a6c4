"""Which actions are legal: the phases of a round, the packs of a split, the cards a
hand may play (RULES.md §2–3).

:func:`legal_actions` is the one statement of legality: the state and every view
call it with the facts they hold, so a seat's view lists exactly the actions the
state accepts from that seat.

>>> from meio.engine.actions import action_text
>>> from meio.engine.cards import parse_card as p, mask_of
>>> from meio.engine.presets import preset
>>> hand = mask_of([p("KS"), p("3S"), p("9D"), p("Q+")])
>>> rules = preset("meio").card_rules
>>> [action_text(a) for a in legal_plays(hand, 0, True, True, rules)]
['3S', 'KS', 'Q+']
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence
from enum import IntEnum
from typing import TYPE_CHECKING, Protocol, overload

from meio.engine import actions as A
from meio.engine import cards as C
from meio.engine.config import MatchConfig
from meio.engine.reasons import Reason, reason

if TYPE_CHECKING:
    from meio.engine.ruleset import CardRules
    from meio.engine.tricks import Trick


class Phase(IntEnum):
    """Where a round stands."""

    SPLIT = 0  #: every seat chooses its 6-card second-half pack, secretly
    PLAY = 1  #: a card is to be played
    PILE = 2  #: the winner of a trick taken by ``+.5`` chooses its pile
    OVER = 3  #: the match has ended


#: the choice of a ``+.5`` winner: its trick to the first-half or second-half pile
PILE_ACTIONS = (A.PILE_1, A.PILE_2)

_SPLIT, _PLAY, _PILE, _OVER = Phase.SPLIT, Phase.PLAY, Phase.PILE, Phase.OVER
_DECLARES: tuple[tuple[int, ...], ...] = tuple(
    tuple(A.declare(c, s) for s in range(4)) if c in A.WILD_SLOT else ()
    for c in range(C.NUM_CARDS)
)


def legal_actions(
    phase: Phase,
    seat: int,
    hand: int,
    split_done: bool,
    to_move: int,
    pending_pile: int,
    led: int,
    following: bool,
    declares: bool,
    rules: CardRules,
) -> Sequence[int]:
    """The legal actions of ``seat`` holding ``hand`` (its cards in play now; all 13
    before its split); empty when it is not to act.

    ``split_done`` says the seat has chosen its pack; ``to_move`` and ``pending_pile``
    are the position's (the seat to play, the ``+.5`` winner choosing a pile); ``led``,
    ``following``, ``declares`` and ``rules`` (the ruleset's cards) as for
    :func:`legal_plays`.
    """
    if phase is _PLAY:
        if seat != to_move:
            return []
        return legal_plays(hand, led, declares, following, rules)
    if phase is _SPLIT:
        if split_done:
            return []
        return PackChoices(hand, rules.pack)
    if phase is _PILE:
        return PILE_ACTIONS if seat == pending_pile else []
    return []


class Position(Protocol):
    """What :func:`illegal_reason` reads of a position (a :class:`~meio.engine.State`)."""

    @property
    def config(self) -> MatchConfig: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def half(self) -> int: ...
    @property
    def to_move(self) -> int: ...
    @property
    def pending_pile(self) -> int: ...
    @property
    def led_suit(self) -> int: ...
    @property
    def current_trick(self) -> Sequence[tuple[int, int]]: ...
    @property
    def hands(self) -> Sequence[int]: ...
    @property
    def tricks(self) -> Sequence[Trick]: ...
    @property
    def packs(self) -> Sequence[int]: ...
    def seats_to_act(self) -> tuple[int, ...]: ...
    def current_seat(self) -> int: ...


def illegal_reason(pos: Position, action: int, seat: int | None) -> Reason | None:
    """Why ``action`` by ``seat`` (None: the seat to act) is not allowed in ``pos``, or
    None when it is: the same rules as :func:`legal_actions`, each with its reason."""
    phase = pos.phase
    if not isinstance(action, int) or action < 0:
        return reason("not_an_action", action=repr(action))
    if phase is _OVER:
        return reason("match_over")
    if action >= A.PACK_FLAG:
        if phase is not _SPLIT:
            return reason("split_over")
        if seat is None:
            seat = pos.current_seat()
        if not 0 <= seat < pos.config.players:
            return reason("no_seat", seat=seat)
        if pos.packs[seat]:
            return reason("pack_chosen", seat=seat)
        pack = A.pack_of(action)
        if pack & ~pos.hands[seat]:
            stray = C.codes(pack & ~pos.hands[seat])
            return reason("pack_not_in_hand", cards=stray, seat=seat)
        size = pos.config.pack_size
        if pack.bit_count() != size:
            # the editions' wording names the 6; a ruleset's other sizes are named
            if size == 6:
                return reason("pack_size", n=pack.bit_count())
            return reason("variant_pack_size", n=pack.bit_count(), size=size)
        return None
    if phase is _SPLIT:
        return reason("waiting_for_packs", seats=list(pos.seats_to_act()))
    if action in PILE_ACTIONS:
        if phase is not _PILE:
            return reason("pile_not_now")
        if seat is not None and seat != pos.pending_pile:
            last = pos.tricks[-1]  # the trick whose winner chooses: name its card
            card = next(c for s, c in last.plays if s == last.winner)
            return reason("pile_other_seat", seat=pos.pending_pile, card=C.card_code(card))
        return None
    if phase is _PILE:
        return reason("pile_first", seat=pos.pending_pile)
    if action >= A.NUM_PLAY_ACTIONS:
        return reason("not_an_action", action=repr(action))
    mover = pos.to_move
    if seat is not None and seat != mover:
        return reason("not_your_turn", mover=mover, seat=seat)
    card = A.card_of(action)
    hand = pos.hands[mover]
    if not hand >> card & 1:
        if pos.half == 1 and pos.packs[mover] >> card & 1:
            return reason("in_pack", card=C.card_code(card), seat=mover)
        return reason("not_in_hand", card=C.card_code(card), seat=mover)
    leading = not pos.current_trick
    declares = pos.config.options.declares
    rules = pos.config.rules
    wild, free, suit_of, suit_masks = rules.wild, rules.free, rules.suit_of, rules.suit_masks
    if action >= A.DECLARE_BASE:
        if not declares:
            return reason("no_declare_table", card=C.card_code(card))
        if not leading:
            return reason("declare_only_leading", card=C.card_code(card))
        return None
    if wild >> card & 1:
        if leading and declares:
            return reason("wild_needs_suit", card=C.card_code(card))
        return None
    if free >> card & 1:
        return None
    led = pos.led_suit
    if not leading and led >= 0 and suit_of[card] != led and hand & suit_masks[led]:
        return reason("must_follow", card=C.card_code(card), suit=C.SUITS[led])
    return None


def legal_plays(
    hand: int,
    led: int,
    declares: bool,
    following: bool,
    rules: CardRules,
) -> list[int]:
    """The play actions a hand may make; ``led`` is -1 when leading (and, under
    ``wild_lead: next``, while the trick holds only wilds: then any card goes).

    ``declares`` is False under ``wild_lead: next``, where a wild leads as a plain
    card; ``following`` says the trick already holds a card (so no suit is
    declared even with ``led`` -1). A seat holding the led suit follows it or
    plays a wild; one without it plays anything. ``rules`` are the ruleset's cards
    (its wilds, its suited specials that need not follow:
    :class:`~meio.engine.ruleset.CardRules`).
    """
    wild, free, masks = rules.wild, rules.free, rules.suit_masks
    out: list[int] = []
    if led < 0:
        m = hand
        ask = declares and not following
        while m:
            low = m & -m
            c = low.bit_length() - 1
            m ^= low
            if ask and wild >> c & 1:
                out.extend(_DECLARES[c])
            else:
                out.append(c)
        return out
    follow = hand & masks[led]
    m = (follow | (hand & free)) if follow else hand
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


class PackChoices(Sequence[int]):
    """The 1,716 legal split actions of a 13-card hand (packs of ``size`` cards; a
    variant's may differ), built on demand.

    Supports ``len``, indexing (so ``random.choice`` works), iteration and ``in``.
    """

    __slots__ = ("_cards", "_hand", "_size")

    def __init__(self, hand: int, size: int) -> None:
        self._hand = hand
        self._cards = C.cards_of(hand)
        self._size = size

    def __len__(self) -> int:
        return math.comb(len(self._cards), self._size)

    @overload
    def __getitem__(self, index: int) -> int: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[int]: ...
    def __getitem__(self, index: int | slice) -> int | Sequence[int]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError(index)
        # unrank the index-th 6-combination in lexicographic order
        mask, k, start = 0, self._size, 0
        cards = self._cards
        while k:
            for i in range(start, len(cards)):
                block = math.comb(len(cards) - i - 1, k - 1)
                if index < block:
                    mask |= 1 << cards[i]
                    start = i + 1
                    k -= 1
                    break
                index -= block
        return A.PACK_FLAG | mask

    def __iter__(self) -> Iterator[int]:
        for combo in itertools.combinations(self._cards, self._size):
            yield A.PACK_FLAG | C.mask_of(combo)

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, int) or action < A.PACK_FLAG:
            return False
        pack = A.pack_of(action)
        return pack & ~self._hand == 0 and pack.bit_count() == self._size

    def __repr__(self) -> str:
        return f"PackChoices({C.format_cards(self._hand)})"
