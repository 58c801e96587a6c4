"""The compiled targets of ``meio train --variant`` (:mod:`meio.rl.tune`): what each
action of a decision is worth when the ruleset's heuristic plays on, worked out in the
compiled core (:mod:`meio.sim.core`, whose rules and policies are called here, not
copied).

* :func:`card_values`: for a play, declare or pile decision of a position, each legal
  action is applied and the round played out by the ruleset's heuristic in every seat
  (deterministic: no random moves), once. The position is the true one of a game in
  the core, hidden cards included: these are *targets* (the Monte-Carlo return of the
  action, as Deep Monte-Carlo learns from), never inputs. A network that reads only the
  deciding seat's view and regresses them learns each action's value averaged over the
  hidden cards its view leaves possible (:mod:`meio.rl.tune`).
* :func:`split_values`: the split is worth its candidates' mean result over worlds
  dealt from the splitting seat's own cards alone (every card it does not hold is
  dealt at random to the other seats and the set-aside): at the split a seat has seen
  nothing else, so these are exactly the worlds its view allows, and no hidden card of
  the true deal enters the split's target.

A result is the round's score of the deciding seat, minus its opponent's (two
players) or the other team's (partnership): lower is better, as
:func:`meio.rl.general.objective` judges it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from meio.engine import tricks
from meio.sim import core as K
from meio.sim.diskcache import cache_flag

#: whether these kernels may use numba's disk cache (:func:`meio.sim.diskcache.cache_flag`)
CACHE = cache_flag(__file__, K, tricks)


@njit(cache=CACHE)
def _result(scores: np.ndarray, seat: int, players: int, partnership: int) -> float:
    own = float(scores[seat])
    if players == 2 or partnership != 0:
        return own - float(scores[(seat + 1) % players])
    return own


@njit(cache=CACHE)
def card_values(
    positions: np.ndarray, cfg: np.ndarray, ruleset: np.ndarray, strengths: np.ndarray,
    combos: np.ndarray, policy: int, legal: np.ndarray, counts: np.ndarray,
    values: np.ndarray, chosen: np.ndarray,
) -> None:
    """For each position ``positions[i]`` (a play, declare or pile decision; its
    specials the set ``combos[i]`` of ``strengths``): its legal actions into
    ``legal[i, :counts[i]]``, the result of each played on by ``policy`` in every seat
    into ``values[i]``, and ``policy``'s own action into ``chosen[i]``."""
    players = cfg[K.CFG_PLAYERS]
    part = cfg[K.CFG_PART]
    s = np.zeros(K.STATE_LEN, dtype=np.int32)
    rng = np.zeros(1, dtype=np.uint64)
    scratch = np.zeros(K.LEGAL_MAX, dtype=np.int32)
    pack = np.zeros(K.PACK_MAX, dtype=np.int32)
    scores = np.zeros(5, dtype=np.int32)
    for i in range(positions.shape[0]):
        pos = positions[i]
        strength = strengths[combos[i]]
        seat = pos[K.PENDING] if pos[K.PHASE] == K.PILE_PHASE else pos[K.TO_MOVE]
        n = K.legal_actions(pos, ruleset, legal[i])
        counts[i] = n
        s[:] = pos
        chosen[i] = K.choose_action(s, cfg, ruleset, strength, policy, 0.0, rng, scratch)
        for a in range(n):
            s[:] = pos
            K.apply_action(s, cfg, ruleset, legal[i, a])
            K.play_out(s, cfg, ruleset, strength, policy, 0.0, rng, scratch, pack)
            K.round_scores(s, cfg, ruleset, scores)
            values[i, a] = _result(scores, seat, players, part)


@njit(cache=CACHE)
def split_values(
    positions: np.ndarray, seats: np.ndarray, cfg: np.ndarray, ruleset: np.ndarray,
    strengths: np.ndarray, combos: np.ndarray, policy: int, decks: np.ndarray,
    deck_sizes: np.ndarray, candidates: np.ndarray, counts: np.ndarray, worlds: int,
    seed: int, values: np.ndarray,
) -> None:
    """For each split position ``positions[i]`` of seat ``seats[i]``: the mean result
    of each candidate pack ``candidates[i, k]`` (``k < counts[i]``) over ``worlds``
    worlds, each dealing the cards of ``decks[i, :deck_sizes[i]]`` that the seat does
    not hold at random to the other seats (the rest set aside), the other seats
    splitting and everyone playing by ``policy``. Every candidate meets the same
    worlds. World ``w`` of position ``i`` draws from stream ``(seed, i, w)``."""
    players = cfg[K.CFG_PLAYERS]
    part = cfg[K.CFG_PART]
    hand = ruleset[K.R_NUMBERS, K.N_HAND]
    s = np.zeros(K.STATE_LEN, dtype=np.int32)
    world = np.zeros(K.STATE_LEN, dtype=np.int32)
    rng = np.zeros(1, dtype=np.uint64)
    scratch = np.zeros(K.LEGAL_MAX, dtype=np.int32)
    pack = np.zeros(K.PACK_MAX, dtype=np.int32)
    scores = np.zeros(5, dtype=np.int32)
    hands = np.zeros((5, K.HAND_MAX), dtype=np.int32)
    unseen = np.zeros(65, dtype=np.int32)
    for i in range(positions.shape[0]):
        pos = positions[i]
        seat = seats[i]
        strength = strengths[combos[i]]
        own = pos[K.DEAL + K.HAND_MAX * seat: K.DEAL + K.HAND_MAX * seat + hand]
        n = 0
        for j in range(deck_sizes[i]):
            card = decks[i, j]
            held = False
            for q in range(hand):
                if own[q] == card:
                    held = True
            if not held:
                unseen[n] = card
                n += 1
        for k in range(counts[i]):
            values[i, k] = 0.0
        for w in range(worlds):
            K.seed_stream(rng, seed, i, w)
            for j in range(n - 1, 0, -1):
                r = K.below(rng, j + 1)
                tmp = unseen[j]
                unseen[j] = unseen[r]
                unseen[r] = tmp
            at = 0
            for p in range(players):
                for q in range(hand):
                    if p == seat:
                        hands[p, q] = own[q]
                    else:
                        hands[p, q] = unseen[at]
                        at += 1
            K.start_round(world, cfg, ruleset, hands, pos[K.ROUND_LEADER])
            for k in range(counts[i]):
                s[:] = world
                K.apply_split(s, cfg, ruleset, seat, candidates[i, k])
                K.play_out(s, cfg, ruleset, strength, policy, 0.0, rng, scratch, pack)
                K.round_scores(s, cfg, ruleset, scores)
                values[i, k] += _result(scores, seat, players, part)
        for k in range(counts[i]):
            values[i, k] /= worlds


__all__ = ["card_values", "split_values"]
