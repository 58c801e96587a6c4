"""One flat action space for learning agents, with a fixed-size legal mask.

==============================  ===============================================
``0..64``                       play that card id (as in :mod:`meio.engine.actions`)
``65..80``                      lead a wild and declare a suit (``65 + 4*slot + suit``)
``81`` / ``82``                 ``pile=1`` / ``pile=2`` after a trick taken by ``+.5``
``83 .. 83+1715``               the split: pack number ``k`` among the
                                C(13, 6) = 1,716 packs of the seat's 13 cards, in
                                lexicographic order of the cards sorted by id
``1799 .. 1811``                a sequential split pick: the ``i``-th card (by id)
                                of the seat's 13 dealt cards goes into the pack
==============================  ===============================================

Play, declare and pile actions are the engine's own ints, so a flat action below
:data:`PACK_BASE` *is* the engine action. A split is offered in one of two modes:
``"pack"`` (one action out of 1,716) or ``"sequential"`` (six picks of 13, for
agents that cannot handle 1,716 outputs); the record is the same either way.

>>> from meio.engine import MatchConfig, State
>>> st = State.new(MatchConfig(players=4, seed=3))
>>> mask = legal_mask(st)
>>> NUM_ACTIONS, int(mask.sum()), bool(mask[PACK_BASE])
(1812, 1716, True)
>>> to_engine_action(PACK_BASE, st.view(0)) == st.legal_actions(0)[0]
True
"""

from __future__ import annotations

import itertools
from typing import Literal

import numpy as np
import numpy.typing as npt

from meio.engine import Phase, State, View
from meio.engine import actions as A
from meio.engine import cards as C
from meio.engine.errors import MeioError

SplitMode = Literal["pack", "sequential"]

PACK_BASE = A.NUM_PLAY_ACTIONS  # 83
NUM_PACKS = 1716
PICK_BASE = PACK_BASE + NUM_PACKS  # 1799
NUM_ACTIONS = PICK_BASE + 13  # 1812

#: ``PACK_POSITIONS[k]``: the six positions (0..12, in the sorted hand) of pack ``k``
PACK_POSITIONS: npt.NDArray[np.int32] = np.array(
    list(itertools.combinations(range(13), 6)), dtype=np.int32
)
#: pack number of a 13-bit set of positions (-1 unless it has exactly six bits)
PACK_INDEX: npt.NDArray[np.int32] = np.full(1 << 13, -1, dtype=np.int32)
for _k, _pos in enumerate(PACK_POSITIONS):
    PACK_INDEX[sum(1 << int(p) for p in _pos)] = _k
PACK_POSITIONS.setflags(write=False)
PACK_INDEX.setflags(write=False)

BoolArray = npt.NDArray[np.bool_]

#: the compact action space (``meio-compact-action-v1``): the flat action of each of its
#: 96 actions, the play, declare and pile actions and then the 13 split picks
COMPACT_ACTIONS: tuple[int, ...] = (*range(PACK_BASE), *range(PICK_BASE, NUM_ACTIONS))


class ActionSpaceError(MeioError, ValueError):
    """A flat action number that is not an action here, or not legal now."""


def _check_mode(split_mode: str) -> None:
    if split_mode not in ("pack", "sequential"):
        raise ActionSpaceError(f"split_mode is 'pack' or 'sequential', not {split_mode!r}")


def pack_number(hand: int, pack: int) -> int:
    """The flat index (0..1715) of ``pack`` among the packs of the 13-card ``hand``."""
    cards = C.cards_of(hand)
    if len(cards) != 13 or pack & ~hand or pack.bit_count() != 6:
        raise ActionSpaceError("a pack is 6 of the seat's 13 dealt cards")
    bits = sum(1 << i for i, c in enumerate(cards) if pack >> c & 1)
    return int(PACK_INDEX[bits])


def pack_of_number(hand: int, number: int) -> int:
    """The pack bitmask of pack ``number`` (0..1715) of the 13-card ``hand``."""
    cards = C.cards_of(hand)
    if len(cards) != 13 or not 0 <= number < NUM_PACKS:
        raise ActionSpaceError(f"there is no pack number {number} of a 13-card hand")
    return C.mask_of(cards[int(p)] for p in PACK_POSITIONS[number])


def _split_hand(source: State | View, seat: int) -> int:
    """The 13 cards ``seat`` splits: its hand during the split."""
    if isinstance(source, View):
        return source.hand
    return source.hands[seat]


def legal_mask(
    source: State | View,
    seat: int | None = None,
    *,
    split_mode: SplitMode = "pack",
    picked: int = 0,
) -> BoolArray:
    """A ``bool`` array of :data:`NUM_ACTIONS`: True for each legal flat action.

    ``source`` is a state (``seat`` defaults to the seat to act, the lowest seat
    still to split during the split) or a seat's view (its own seat; all False
    when it is not its turn). In ``"sequential"`` split mode ``picked`` is the
    set of cards chosen so far (a bitmask); the picks still open are legal.
    """
    _check_mode(split_mode)
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    if isinstance(source, View):
        if source.seat is None:
            return mask
        seat = source.seat
        legal = source.legal_actions()
    else:
        if seat is None:
            seat = source.current_seat()
        if seat < 0:
            return mask
        legal = source.legal_actions(seat)
    if source.phase is Phase.SPLIT:
        if not legal:
            return mask
        if split_mode == "pack":
            mask[PACK_BASE:PICK_BASE] = True
        else:
            hand = _split_hand(source, seat)
            for i, card in enumerate(C.cards_of(hand)):
                if not picked >> card & 1:
                    mask[PICK_BASE + i] = True
        return mask
    for action in legal:
        mask[action] = True
    return mask


def to_engine_action(flat: int, view: View) -> int:
    """The engine action of flat action ``flat`` for the seat of ``view``.

    A sequential pick has no engine action of its own (six picks make one
    pack): use :func:`pick_card` for it.
    """
    flat = int(flat)
    if 0 <= flat < PACK_BASE:
        return flat
    if PACK_BASE <= flat < PICK_BASE:
        return A.pack_action(pack_of_number(view.hand, flat - PACK_BASE))
    if PICK_BASE <= flat < NUM_ACTIONS:
        raise ActionSpaceError(
            "a sequential split pick is one card of six: turn it into a card with pick_card"
        )
    raise ActionSpaceError(f"{flat!r} is not a flat action (0 to {NUM_ACTIONS - 1})")


def pick_card(flat: int, hand: int) -> int:
    """The card chosen by sequential pick ``flat`` from the 13-card ``hand``."""
    i = int(flat) - PICK_BASE
    cards = C.cards_of(hand)
    if not 0 <= i < len(cards):
        raise ActionSpaceError(f"{flat!r} is not a sequential split pick")
    return cards[i]


def from_engine_action(action: int, view: View) -> int:
    """The flat action of engine action ``action`` for the seat of ``view``."""
    if A.is_pack(action):
        return PACK_BASE + pack_number(view.hand, A.pack_of(action))
    if 0 <= action < PACK_BASE:
        return action
    raise ActionSpaceError(f"{action!r} is not an engine action")
