"""The flat action space of any ruleset: :mod:`meio.bots.spaces` grown to every hand
and pack size a ruleset may deal.

A ruleset deals ``hand`` cards (2 to 15) and the seat keeps a ``pack`` of them for the
second half, so a split is one of ``C(hand, pack)`` packs, or ``pack`` picks of one card.
The layout keeps the editions' numbers wherever they fit:

==================================  ===============================================
``0 .. 82``                         play, declare and pile actions: the engine's own
                                    ints, the same in every ruleset
``83 .. 83 + packs - 1``            pack number ``k`` of the seat's ``hand`` cards (the
                                    combinations of their positions, sorted by id,
                                    in lexicographic order)
``pick_base .. pick_base + picks``  a sequential pick: the ``i``-th card (by id) of the
                                    seat's dealt cards goes into the pack
==================================  ===============================================

``pick_base`` is ``83 + max(1716, packs)`` and the picks are ``max(13, hand)``: so a
ruleset of hands up to 13 with at most 1,716 packs (the editions, a 6/7 split, ``mini``)
has the editions' 1,812 actions with the same numbers (those of the OpenSpiel game),
and only a ruleset of 14 or 15 cards has a wider space (15 cards split 7/8: 6,435
packs, 6,533 actions). The compact space (``meio-compact-action-v1``) is the 83 play
actions and the picks: 96 actions up to 13 cards.

>>> lay = action_layout(13, 6)
>>> lay.size, lay.packs, lay.pick_base, len(lay.compact)
(1812, 1716, 1799, 96)
>>> lay = action_layout(3, 1)
>>> lay.size, lay.packs, lay.pick_base
(1812, 3, 1799)
>>> action_layout(15, 8).size
6533
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from meio.bots import spaces as S
from meio.engine import Phase, State, View
from meio.engine import cards as C
from meio.engine.errors import ConfigError

I32 = npt.NDArray[np.int32]
BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True, slots=True, eq=False)
class ActionLayout:
    """The flat actions of a ruleset with hands of ``hand`` cards and packs of ``pack``
    (see the module docstring). ``positions[k]`` are the positions (in the hand sorted
    by id) of pack ``k``; ``index[bits]`` the pack number of a set of positions (-1
    unless it has ``pack`` bits)."""

    hand: int
    pack: int
    packs: int
    pick_base: int
    picks: int
    size: int
    positions: I32
    index: I32
    compact: tuple[int, ...]

    def pack_number(self, hand: int, pack: int) -> int:
        """The pack number (``0 .. packs - 1``) of ``pack`` among the packs of ``hand``."""
        cards = C.cards_of(hand)
        if len(cards) != self.hand or pack & ~hand or pack.bit_count() != self.pack:
            raise S.ActionSpaceError(f"a pack is {self.pack} of the seat's {self.hand} "
                                     "dealt cards")
        bits = sum(1 << i for i, c in enumerate(cards) if pack >> c & 1)
        return int(self.index[bits])

    def pack_of_number(self, hand: int, number: int) -> int:
        """The pack bitmask of pack ``number`` of ``hand`` (its ``hand`` dealt cards)."""
        cards = C.cards_of(hand)
        if len(cards) != self.hand or not 0 <= number < self.packs:
            raise S.ActionSpaceError(f"there is no pack number {number} of a "
                                     f"{self.hand}-card hand")
        return C.mask_of(cards[int(p)] for p in self.positions[number])

    def pick_card(self, flat: int, hand: int) -> int:
        """The card that sequential pick ``flat`` takes from the dealt ``hand``."""
        i = int(flat) - self.pick_base
        cards = C.cards_of(hand)
        if not 0 <= i < len(cards):
            raise S.ActionSpaceError(f"{flat!r} is not a sequential split pick here")
        return cards[i]

    def legal_mask(self, source: State | View, seat: int | None = None, *,
                   split_mode: S.SplitMode = "pack", picked: int = 0) -> BoolArray:
        """A ``bool`` array of :attr:`size`: True for each legal flat action (as
        :func:`meio.bots.spaces.legal_mask`, which it equals on the editions)."""
        if split_mode not in ("pack", "sequential"):
            raise S.ActionSpaceError(f"split_mode is 'pack' or 'sequential', not "
                                     f"{split_mode!r}")
        mask = np.zeros(self.size, dtype=np.bool_)
        if isinstance(source, View):
            if source.seat is None:
                return mask
            seat = source.seat
            legal = source.legal_actions()
            hand = source.hand
        else:
            if seat is None:
                seat = source.current_seat()
            if seat < 0:
                return mask
            legal = source.legal_actions(seat)
            hand = source.hands[seat]
        if source.phase is Phase.SPLIT:
            if not legal:
                return mask
            if split_mode == "pack":
                mask[S.PACK_BASE:S.PACK_BASE + self.packs] = True
            else:
                for i, card in enumerate(C.cards_of(hand)):
                    if not picked >> card & 1:
                        mask[self.pick_base + i] = True
            return mask
        for action in legal:
            mask[action] = True
        return mask


#: the most cards a ruleset deals a seat (:data:`meio.engine.ruleset_file.HAND_LIMITS`)
MAX_HAND = 15


@functools.lru_cache(maxsize=64)
def action_layout(hand: int, pack: int) -> ActionLayout:
    """The :class:`ActionLayout` of hands of ``hand`` cards and packs of ``pack``."""
    if not 2 <= hand <= MAX_HAND or not 1 <= pack < hand:
        raise ConfigError(f"no ruleset deals hands of {hand} with packs of {pack} "
                          f"(hands of 2 to {MAX_HAND}, each half at least one card)")
    packs = math.comb(hand, pack)
    positions = np.array(list(itertools.combinations(range(hand), pack)), dtype=np.int32)
    index = np.full(1 << hand, -1, dtype=np.int32)
    for k, pos in enumerate(positions):
        index[sum(1 << int(p) for p in pos)] = k
    positions.setflags(write=False)
    index.setflags(write=False)
    pick_base = S.PACK_BASE + max(S.NUM_PACKS, packs)
    picks = max(13, hand)
    compact = (*range(S.PACK_BASE), *range(pick_base, pick_base + picks))
    return ActionLayout(hand, pack, packs, pick_base, picks, pick_base + picks, positions,
                        index, compact)
