"""The state of one match as fixed-shape JAX arrays (a pytree: jit, vmap and scan take it).

Shapes depend on the table alone (``n`` seats, a hand of ``k`` cards), so a batch of
matches of one table stacks into one state with a leading batch axis. Fields marked
*hidden* must never reach a seat: an agent gets :meth:`JaxGame.observe` instead.
"""

from __future__ import annotations

from typing import NamedTuple

import jax

#: phases (the engine's :class:`~meio.engine.Phase` numbers)
SPLIT, PLAY, PILE, OVER = 0, 1, 2, 3


class GameState(NamedTuple):
    """One match (or a batch of them: every field then has a leading batch axis)."""

    #: hidden: int32[R, n, k] every round's deal, drawn when the match begins (R: the
    #: most rounds the match can last), each seat's cards lowest id first
    deals: jax.Array
    #: hidden: float32[R] each round's draw of its leader among the seats allowed to lead
    leader_draws: jax.Array
    #: bool[65]: the match's deck (its ordinary cards and its special cards)
    deck: jax.Array
    #: hidden: int32[n, k] each seat's dealt cards this round, lowest id first
    dealt: jax.Array
    #: hidden: bool[n, 65] the cards each seat holds for the half in play
    hand: jax.Array
    #: hidden: bool[n, 65] the pack each seat picked (its picks so far in the split)
    pack: jax.Array
    #: int32[n]: cards each seat has picked for its pack this round (public: done or not)
    picks: jax.Array
    phase: jax.Array  #: int32: SPLIT, PLAY, PILE or OVER
    current: jax.Array  #: int32: the seat to act (the lowest seat still to split); -1 at the end
    round_index: jax.Array  #: int32, from 0
    round_leader: jax.Array  #: int32
    half: jax.Array  #: int32: 1 or 2
    trick_number: jax.Array  #: int32: 1.. hand size
    trick_leader: jax.Array  #: int32
    #: int32: the led suit; -1 before the lead (under ``wild_lead: next``, while all are wild)
    led: jax.Array
    declared: jax.Array  #: int32: the suit a wild lead declared, -1 otherwise
    trick: jax.Array  #: int32[n]: cards of the trick in play order, -1 not yet played
    trick_len: jax.Array  #: int32
    piles: jax.Array  #: int32[n, 2]: each seat's first-half and second-half piles (H, V)
    played: jax.Array  #: bool[65]: the cards played this round
    last_winner: jax.Array  #: int32: the winner of the last completed trick, -1 none
    last_pile: jax.Array  #: int32: its pile (0 while a ``+.5`` winner chooses)
    round_scores: jax.Array  #: int32[n]: each seat's score of the last finished round
    team_scores: jax.Array  #: int32[2]: partnership: the teams' scores of that round
    totals: jax.Array  #: int32[n]: sums of the round scores
    wins: jax.Array  #: int32[n]: round victories by seat (by team in slots 0, 1 in partnership)
    rounds_done: jax.Array  #: int32
    terminal: jax.Array  #: bool: the match has ended
    winners: jax.Array  #: bool[n]: the winning seats, once it has
    #: float32[n]: what the last step gave each seat: minus its round score (its team's in
    #: partnership) on the step that ends a round, else 0
    rewards: jax.Array
    #: bool: the last action was not legal; it changed nothing else
    illegal: jax.Array
