"""Engine states to core positions and back.

The core plays one round on a flat array (see :mod:`meio.sim.core`). A
:class:`CorePosition` adds what the array leaves out, so that
:func:`arrays_to_state` rebuilds exactly the engine state it came from: the
configuration, the set-aside cards and how the earlier rounds went.

>>> from meio.engine import MatchConfig, State
>>> st = State.new(MatchConfig(players=3, seed=5))
>>> pos = state_to_arrays(st)
>>> back = arrays_to_state(pos)
>>> back.deal == st.deal and back.history == st.history
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from meio.engine import MatchConfig, Phase, State
from meio.engine import actions as A
from meio.engine import cards as C
from meio.sim import core as K
from meio.sim.tables import I32, tables_for

RoundDeal = tuple[tuple[int, ...], int, int]


@dataclass(frozen=True, slots=True, eq=False)
class CorePosition:
    """A position of the current round as the core's ``int32`` array, plus the
    match context needed to turn it back into an engine :class:`State`.

    ``earlier_deals`` are ``(hands, aside, leader)`` of the rounds before this one
    and ``earlier_history`` the ``(seat, action)`` pairs that played them.
    """

    config: MatchConfig
    array: I32
    aside: int
    earlier_deals: tuple[RoundDeal, ...] = ()
    earlier_history: tuple[tuple[int, int], ...] = ()

    @property
    def phase(self) -> int:
        """The core's phase number (0 split, 1 play, 2 pile, 4 round over)."""
        return int(self.array[K.PHASE])

    def piles(self) -> list[tuple[int, int]]:
        """``(H, V)`` of each seat in this round."""
        a = self.array
        return [
            (int(a[K.PILES + 2 * p]), int(a[K.PILES + 2 * p + 1]))
            for p in range(self.config.players)
        ]

    def to_state(self) -> State:
        """The engine state of this position (see :func:`arrays_to_state`)."""
        return arrays_to_state(self)


def _cards_array(mask: int, size: int) -> list[int]:
    cards = C.cards_of(mask)
    return cards + [0] * (size - len(cards))


def state_to_arrays(state: State) -> CorePosition:
    """The core position of an engine state in its current round.

    Raises ``ValueError`` when the match is over: there is no round left to play.
    """
    if state.phase is Phase.OVER:
        raise ValueError("the match is over: there is no round in progress to convert")
    cfg = state.config
    dealt = cfg.hand_size
    s = np.zeros(K.STATE_LEN, dtype=np.int32)
    s[K.WILD_NEXT] = 1 if cfg.options.wild_lead == "next" else 0
    for p in range(cfg.players):
        s[K.DEAL + K.HAND_MAX * p : K.DEAL + K.HAND_MAX * p + dealt] = _cards_array(
            state.deal[p], dealt)
        hand = C.cards_of(state.hands[p])
        s[K.HAND + K.HAND_MAX * p : K.HAND + K.HAND_MAX * p + len(hand)] = hand
        s[K.HAND_N + p] = len(hand)
        if state.packs[p]:
            pack = C.cards_of(state.packs[p])
            s[K.PACK + K.PACK_MAX * p : K.PACK + K.PACK_MAX * p + len(pack)] = pack
            s[K.PACK_N + p] = len(pack)
        s[K.PILES + 2 * p] = state.piles[p][0]
        s[K.PILES + 2 * p + 1] = state.piles[p][1]
    for i, (_, card) in enumerate(state.current_trick):
        s[K.TRICK + i] = card
    s[K.TRICK_N] = len(state.current_trick)
    s[K.PHASE] = int(state.phase)
    s[K.HALF] = state.half
    s[K.TRICK_NO] = state.trick_number
    s[K.TRICK_LEADER] = state.trick_leader
    s[K.TO_MOVE] = state.to_move if state.phase is Phase.PLAY else 0
    s[K.LED] = state.led_suit
    s[K.PENDING] = state.pending_pile
    s[K.ROUND_LEADER] = state.round_leader
    starts = state.round_starts()
    begin = starts[-1].history_len
    plays: list[int] = []
    for seat, action in state.history[begin:]:
        if A.is_pack(action):
            s[K.SPLIT_ORDER + s[K.SPLIT_N]] = seat
            s[K.SPLIT_N] += 1
        else:
            plays.append(action)
    s[K.NPLAYS] = len(plays)
    s[K.PLAYS : K.PLAYS + len(plays)] = plays
    for t, trick in enumerate(state.tricks):
        s[K.WINNERS + t] = trick.winner
        s[K.PILE_OF + t] = trick.pile
    return CorePosition(
        config=cfg,
        array=s,
        aside=state.aside,
        earlier_deals=tuple((st.deal, st.aside, st.leader) for st in starts[:-1]),
        earlier_history=tuple(state.history[:begin]),
    )


def round_actions(position: CorePosition) -> list[tuple[int, int]]:
    """The ``(seat, action)`` pairs of the position's round so far: the splits in
    the order they were made, then the plays (seat -1: the seat to act then)."""
    s = position.array
    out: list[tuple[int, int]] = []
    for i in range(int(s[K.SPLIT_N])):
        seat = int(s[K.SPLIT_ORDER + i])
        start = K.PACK + K.PACK_MAX * seat
        pack = C.mask_of(int(c) for c in s[start : start + int(s[K.PACK_N + seat])])
        out.append((seat, A.pack_action(pack)))
    out.extend((-1, int(a)) for a in s[K.PLAYS : K.PLAYS + int(s[K.NPLAYS])])
    return out


def arrays_to_state(position: CorePosition) -> State:
    """The engine state of a core position, rebuilt through the engine itself.

    The earlier rounds are replayed as they were, then this round's splits and
    plays are applied with full rule checks, so a position the core got wrong
    raises :class:`meio.engine.IllegalActionError` instead of giving a bad state.
    A round the core has finished ends in the engine too (next round dealt from
    the config's seed, or the match over).
    """
    cfg = position.config
    s = position.array
    hand = cfg.hand_size
    deal = tuple(
        C.mask_of(int(c) for c in s[K.DEAL + K.HAND_MAX * p : K.DEAL + K.HAND_MAX * p + hand])
        for p in range(cfg.players)
    )
    deals: list[RoundDeal] = [*position.earlier_deals, (deal, position.aside,
                                                        int(s[K.ROUND_LEADER]))]
    state = State.new(cfg, deals=deals)
    for seat, action in position.earlier_history:
        state.apply_unchecked(action, seat)
    for seat, action in round_actions(position):
        state.apply(action, seat if seat >= 0 else None)
    return state


def position_of_round(
    config: MatchConfig,
    hands: Sequence[int],
    leader: int,
    aside: int = 0,
) -> CorePosition:
    """A core position at the split of a round dealt ``hands`` (bitmasks by seat)."""
    size = config.hand_size
    if len(hands) != config.players or any(h.bit_count() != size for h in hands):
        raise ValueError(f"a {config.players}-seat round needs {config.players} hands of "
                         f"{size}")
    arr = np.zeros((5, K.HAND_MAX), dtype=np.int32)
    for p, h in enumerate(hands):
        arr[p, :size] = C.cards_of(h)
    s = np.zeros(K.STATE_LEN, dtype=np.int32)
    t = tables_for(config)
    K.start_round(s, t.cfg, t.ruleset, arr, leader)
    return CorePosition(config=config, array=s, aside=aside)
