"""Observations: one seat's view as a flat ``float32`` vector of fixed size.

Built from a :class:`meio.engine.View` only, so it never holds a card the seat
could not see at a real table. Seats are *relative*: slot 0 is the observing
seat, slot 1 the next seat in play order, and so on (unused slots of smaller
tables stay 0). Card planes have one entry per card id ``0..64``.

=================  =====  ===================================================
offset             size   what
=================  =====  ===================================================
``HAND``           65     own cards in play now (all 13 during the split, less
                          any cards already picked in a sequential split)
``PACK``           65     own second-half pack (the picks so far while picking)
``RECEIVED``       65     partnership: the pack received from the partner
``PLAYED``         5x65   cards played this round, by relative seat
``SECOND_HALF``    65     cards played this round in the second half
``TRICK``          65     cards on the table in the trick in progress
``SPECIALS``       5      specials known to be in the deck (``-1 A+ -2H +.5 Q+``)
``LED``            4      the led suit (``S H D C``), all 0 when there is none
``PHASE``          4      split, play, pile choice, match over
``TO_MOVE``        5      relative seat to act (all 0 during the split)
``TRICK_LEADER``   5      relative seat that leads (led) the current trick
``PILES``          5x2    H and V of each relative seat this round, / 13
``HAND_SIZES``     5      cards in each relative seat's hand, / 13
``TOTALS``         5      each relative seat's total of round scores, / 39
``VICTORIES``      5      victories of each relative seat (its team's), / 2
``HALF``           1      0 in the first half, 1 in the second
``TRICK_NUMBER``   1      (trick number - 1) / 13 (1 once a match is over)
``ROUND``          1      round number (0-based) / 3
``PLAYERS``        4      table size one-hot (2, 3, 4, 5)
``OPTIONS``        4      classic edition, partnership, ``wild_lead`` next,
                          ``reveal_specials`` on (RULES.md §10)
``SEAT``           5      the observing seat's own number, one-hot
``PENDING``        1      1 when this seat must choose the pile of a ``+.5`` trick
``SPECIAL_COUNT``  1      N, the number of specials in the deck, / 5
=================  =====  ===================================================

>>> from meio.engine import MatchConfig, State
>>> v = State.new(MatchConfig(players=4, seed=3)).view(2)
>>> obs = observe(v)
>>> obs.shape, obs.dtype, int(obs[HAND:HAND + 65].sum()), int(obs[SEAT + 2])
((716,), dtype('float32'), 13, 1)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from meio.engine import Phase, View
from meio.engine import cards as C
from meio.engine.errors import MeioError

F32 = npt.NDArray[np.float32]

NUM_CARDS = 65
MAX_SEATS = 5
HAND = 0
PACK = HAND + NUM_CARDS
RECEIVED = PACK + NUM_CARDS
PLAYED = RECEIVED + NUM_CARDS
SECOND_HALF = PLAYED + MAX_SEATS * NUM_CARDS
TRICK = SECOND_HALF + NUM_CARDS
SPECIALS = TRICK + NUM_CARDS
LED = SPECIALS + 5
PHASE = LED + 4
TO_MOVE = PHASE + 4
TRICK_LEADER = TO_MOVE + MAX_SEATS
PILES = TRICK_LEADER + MAX_SEATS
HAND_SIZES = PILES + 2 * MAX_SEATS
TOTALS = HAND_SIZES + MAX_SEATS
VICTORIES = TOTALS + MAX_SEATS
HALF = VICTORIES + MAX_SEATS
TRICK_NUMBER = HALF + 1
ROUND = TRICK_NUMBER + 1
PLAYERS = ROUND + 1
OPTIONS = PLAYERS + 4
SEAT = OPTIONS + 4
PENDING = SEAT + MAX_SEATS
SPECIAL_COUNT = PENDING + 1
OBS_SIZE = SPECIAL_COUNT + 1

#: the order of the ``SPECIALS`` flags
SPECIAL_ORDER = C.SPECIALS


class ObservationError(MeioError, ValueError):
    """An observation asked of a view that belongs to no seat."""


def known_specials(view: View) -> tuple[int, ...]:
    """The specials ``view``'s seat knows are in the deck (RULES.md §10)."""
    specials: Any = getattr(view, "specials", None)
    if specials is None:
        return view.config.special_cards
    return tuple(int(s) for s in specials)


def special_count(view: View) -> int:
    """N: how many specials the deck holds (known even when they are not revealed)."""
    count: Any = getattr(view, "special_count", None)
    return len(view.config.special_cards) if count is None else int(count)


def table_options(view: View) -> tuple[bool, bool]:
    """``(wild_lead == "next", reveal_specials)`` of the view's table."""
    options = view.config.options
    return not options.declares, options.reveal_specials


def _set_cards(out: F32, offset: int, mask: int) -> None:
    while mask:
        low = mask & -mask
        out[offset + low.bit_length() - 1] = 1.0
        mask ^= low


def observe(view: View, *, picked: int = 0, out: F32 | None = None) -> F32:
    """The ``float32`` observation (:data:`OBS_SIZE` entries) of a seat's view.

    ``picked`` is the set of cards already chosen in a sequential split (shown
    in the pack plane, taken out of the hand plane). ``out``, when given, is
    filled instead of a new array.
    """
    if view.seat is None:
        raise ObservationError("an observation is taken from a seat's view, not a spectator's")
    if out is None:
        out = np.zeros(OBS_SIZE, dtype=np.float32)
    else:
        out[:] = 0.0
    me = view.seat
    n = view.config.players

    def rel(seat: int) -> int:
        return (seat - me) % n

    _set_cards(out, HAND, view.hand & ~picked)
    _set_cards(out, PACK, view.pack | picked)
    _set_cards(out, RECEIVED, view.received)
    first_half = view.config.first_half_size  # 7, or a variant's own
    for t, trick in enumerate(view.tricks):
        for seat, card in trick.plays:
            out[PLAYED + NUM_CARDS * rel(seat) + card] = 1.0
            if t >= first_half:
                out[SECOND_HALF + card] = 1.0
    for seat, card in view.current_trick:
        out[PLAYED + NUM_CARDS * rel(seat) + card] = 1.0
        out[TRICK + card] = 1.0
        if view.half == 2:
            out[SECOND_HALF + card] = 1.0
    for i, special in enumerate(SPECIAL_ORDER):
        if special in known_specials(view):
            out[SPECIALS + i] = 1.0
    if view.led_suit >= 0:
        out[LED + view.led_suit] = 1.0
    out[PHASE + int(view.phase)] = 1.0
    if view.to_move >= 0:
        out[TO_MOVE + rel(view.to_move)] = 1.0
    out[TRICK_LEADER + rel(view.trick_leader)] = 1.0
    for seat in range(n):
        r = rel(seat)
        out[PILES + 2 * r] = view.piles[seat][0] / 13.0
        out[PILES + 2 * r + 1] = view.piles[seat][1] / 13.0
        out[HAND_SIZES + r] = view.hand_sizes[seat] / 13.0
        out[TOTALS + r] = view.totals[seat] / 39.0
        if view.victories is not None:
            side = seat % 2 if view.config.partnership else seat
            out[VICTORIES + r] = view.victories[side] / 2.0
    out[HALF] = 1.0 if view.half == 2 else 0.0
    out[TRICK_NUMBER] = (view.trick_number - 1) / 13.0
    out[ROUND] = view.round_index / 3.0
    out[PLAYERS + n - 2] = 1.0
    wild_next, reveal = table_options(view)
    out[OPTIONS] = 1.0 if view.config.edition == "classic" else 0.0
    out[OPTIONS + 1] = 1.0 if view.config.partnership else 0.0
    out[OPTIONS + 2] = 1.0 if wild_next else 0.0
    out[OPTIONS + 3] = 1.0 if reveal else 0.0
    out[SEAT + me] = 1.0
    out[PENDING] = 1.0 if view.phase is Phase.PILE and view.pending_pile == me else 0.0
    out[SPECIAL_COUNT] = special_count(view) / 5.0
    return out
