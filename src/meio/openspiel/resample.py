"""Resampling a variant game: the hidden cards of the round dealt anew, at random.

The standard editions resample through :func:`meio.engine.sample_world`, which
knows their 7/6 halves; a variant may have any sizes, so its game draws worlds
here. Everything a seat knows is kept: its own hand and pack (in partnership the
pack it received), every card played and in which half, and every public action.
The other cards are dealt at random into what is left of each other seat's
first-half hand and pack and the set-aside cards, and the round is replayed with
the engine's checks: a world where a seat would not have followed suit as it did
is drawn again (rejection: uniform over the worlds the seat cannot rule out).
Rounds before the current one are public (every card dealt in them was played),
so they are kept as they were.

The state is read through :class:`Infostate`, the public accessors of
:class:`~meio.openspiel.state.MeioState` (a protocol: the state module imports this
one), and the world drawn comes back as a :class:`World` the state takes in.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from meio.engine import ConfigError, MatchConfig, MeioError, State
from meio.engine import actions as A
from meio.engine import cards as C
from meio.openspiel.params import GameParameters

#: worlds drawn before giving up (the true world always fits, so this is only reached
#: when the fitting worlds are a tiny share of the deals)
MAX_TRIES = 10_000


#: a round's deal as the engine takes it: the hands, the set-aside cards, the leader
Deal = tuple[tuple[int, ...], int, int]


class Infostate(Protocol):
    """What :func:`resample_variant` reads of a state: the public, read-only accessors
    of :class:`~meio.openspiel.state.MeioState`."""

    @property
    def params(self) -> GameParameters: ...
    @property
    def config(self) -> MatchConfig | None: ...
    @property
    def engine(self) -> State | None: ...
    @property
    def deals(self) -> Sequence[Deal]: ...
    @property
    def orders(self) -> Sequence[tuple[int, ...]]: ...
    @property
    def picks(self) -> Sequence[int]: ...
    def current_player(self) -> int: ...


@dataclass(frozen=True, slots=True)
class World:
    """A world drawn for a seat: every round's deal, the engine state replayed on it, and
    (sequential split) the picks of each pack in order and those of the seat to act."""

    deals: list[Deal]
    engine: State
    orders: list[tuple[int, ...]]
    picks: list[int]


def resample_variant(state: Infostate, player: int, rng: random.Random) -> World:
    """A world ``player`` cannot tell from ``state``'s, the cards it has not seen dealt
    at random from ``rng`` (see the module docstring)."""
    params = state.params
    st, cfg = state.engine, state.config
    assert st is not None and cfg is not None
    if not params.reveal_specials and len(params.combos) > 1:
        raise ConfigError("a variant game with hidden specials cannot be resampled: "
                          "set reveal_specials")
    n = params.players
    view = st.view(player)
    start = st.round_starts()[-1]
    own = start.deal[player]
    received = view.received

    def pack_player(j: int) -> int:
        return (j + 2) % 4 if params.partnership else j

    played = [[0, 0] for _ in range(n)]  # by seat, by half
    for k, trick in enumerate(view.tricks):
        for seat, card in trick.plays:
            played[seat][0 if k < params.first_half else 1] |= 1 << card
    for seat, card in view.current_trick:
        played[seat][view.half - 1] |= 1 << card
    unseen = C.cards_of(cfg.deck & ~own & ~received & ~view.played)
    # the slots of each other seat: (seat, part, known cards, size); part 0 the
    # first-half hand, 1 the pack it chose, 2 its whole hand before it splits
    slots: list[tuple[int, int, int, int]] = []
    for j in range(n):
        if j == player:
            continue
        if not view.split_done[j]:
            slots.append((j, 2, 0, params.hand))
            continue
        slots.append((j, 0, played[j][0], params.first_half))
        plays_it = pack_player(j)
        known = received if plays_it == player else played[plays_it][1]
        slots.append((j, 1, known, params.pack))
    aside = cfg.deck.bit_count() - params.hand * n
    free = [size - known.bit_count() for _, _, known, size in slots]
    assert sum(free) + aside == len(unseen), "the unseen cards fill the hidden places"
    before = st.history[: start.history_len]
    now = st.history[start.history_len :]
    for _ in range(MAX_TRIES):
        cards = unseen.copy()
        rng.shuffle(cards)
        hands = list(start.deal)
        hands[player] = own
        packs = list(st.packs)
        for j in range(n):
            if j != player:
                hands[j] = 0
        at = 0
        for (j, part, known, _), count in zip(slots, free, strict=True):
            drawn = known | C.mask_of(cards[at : at + count])
            at += count
            hands[j] |= drawn
            if part == 1:
                packs[j] = drawn
        deals = [*state.deals[:-1], (tuple(hands), C.mask_of(cards[at:]), start.leader)]
        engine = State.new(cfg, deals=deals)
        for seat, action in before:
            engine.apply_unchecked(action, seat)
        try:
            for seat, action in now:
                if A.is_pack(action) and seat != player:
                    action = A.pack_action(packs[seat])
                engine.apply(action, seat)
        except MeioError:
            continue  # a seat would not have played so here: draw again
        break
    else:
        raise MeioError(f"no deal of the {len(unseen)} unseen cards fits what seat "
                        f"{player} has seen in {MAX_TRIES} draws")
    orders: list[tuple[int, ...]] = []
    picks: list[int] = []
    if params.sequential:  # a seat's own picks in their order; the others' unseen
        seats = [seat for seat, action in st.history if A.is_pack(action)]
        in_order = [tuple(C.cards_of(A.pack_of(a))) for _, a in engine.history
                    if A.is_pack(a)]
        orders = [real if seat == player else mine
                  for seat, real, mine in zip(seats, state.orders, in_order, strict=True)]
        picks = list(state.picks)
        to_act = state.current_player()
        if picks and to_act != player:
            picks = rng.sample(C.cards_of(engine.hands[to_act]), len(picks))
    return World(deals, engine, orders, picks)
