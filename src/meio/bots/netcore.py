"""The learned network inside the compiled core: whole games of network play in numba.

:func:`features` reads a seat's observation (:mod:`meio.bots.observation`, the same
716 entries) straight off a core position (:mod:`meio.sim.core`) as the list
of its non-zero entries: the cards of the seat's hand and pack, the partner's
pack once all have split (partnership), who played which card this round (rebuilt
from the position's log of plays and trick winners), the trick in progress and the
public counters. It reads nothing the seat could not see: the other seats' hands
are never touched. The forward pass of the policy (:class:`~meio.bots.learned.
LearnedPolicy`) is written for that sparsity: the first layer adds one weight row
per non-zero input, the second skips the hidden units ReLU set to 0, and only the
legal actions' logits are computed; the split is six sequential picks, as in the
Python bot. The Python bot and this path choose the same action on the same input
(``tests/bots/test_net.py``).

:func:`simulate_net` plays a batch of matches in one call, each seat with the
network or the ruleset's heuristic, and fills the arrays of
:func:`meio.sim.simulate` (``record=True``), so ``meio analyze --policy learned``
builds its tables from them exactly as it does from heuristic self-play. Its match
loop is the core's (:func:`meio.sim.core.start_match`, ``deal_round``,
``start_round``, ``close_round``: the round's rows, the totals the engine keeps, the
victories, the match end and the tie limit; ``next_leader``), as in
:func:`meio.sim.core.simulate_games`; only the choice of each seat's action is its own.

**The network for any ruleset** (:mod:`meio.bots.general`) plays here too, on any
ruleset whose specials are known: its input is :func:`meio.bots.attributes.observe_any`,
whose extra blocks are linear in the observation's card planes, so
:func:`fold_general` folds them into the first layer once per table (the attribute
table, the ruleset numbers and the deck's unseen sum into the bias; each plane's
pooled attributes into that plane's rows; the unseen plane into one row per seen card,
:func:`seen_entries`). The kernels then run the same sparse pass as for the editions'
network, and compute exactly ``observe_any(view) @ w1 + b1``
(``tests/bots/test_net_general.py``).

numba keys its disk cache on this file alone, and the core's rules (and the engine's,
through the core) compile into these kernels, as do the observation's offsets: at
import, :data:`CACHE` (:func:`meio.sim.diskcache.cache_flag`) gives this file the stamp
of :mod:`meio.sim.core` or :mod:`meio.bots.observation` when one is newer (the core has
first taken the stamp of the engine's rule files the same way), so numba's own check
drops the stale machine code: editing the core recompiles these kernels with no step by
hand (``tests/bots/test_net.py``).

Over 500 lines in one module on purpose: numba's disk cache keys each kernel on
the file it comes from, so the feature, forward-pass and game kernels, which call
one another, stay in one file (as in :mod:`meio.sim.core`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from meio.bots import attributes as T
from meio.bots import observation as O
from meio.bots.general import GeneralPolicy
from meio.bots.learned import LearnedPolicy
from meio.bots.playout import Evaluator
from meio.engine import MatchConfig, State, View, scoring, tricks
from meio.sim import core as K
from meio.sim.batch import batch_arrays, check_ended
from meio.sim.convert import state_to_arrays
from meio.sim.diskcache import cache_flag
from meio.sim.rollout import encode_actions
from meio.sim.tables import check_standard, epsilon_for, plays_variant, tables_for

#: whether these kernels may use numba's disk cache (the module docstring)
CACHE = cache_flag(__file__, K, O, tricks, scoring)
I32 = npt.NDArray[np.int32]
F32 = npt.NDArray[np.float32]
#: the most non-zero entries an observation can have (cards seen, counters), and the
#: general network's seen cards (:func:`seen_entries`)
MAX_FEATURES = 384
#: the first local output of a sequential split pick
PICK_OUT = 83
#: the general network's first pick output (its picks are by card id)
GENERAL_PICK = 83

_HAND, _PACK, _RECEIVED, _PLAYED = O.HAND, O.PACK, O.RECEIVED, O.PLAYED
_SECOND_HALF, _TRICK, _LED, _PHASE = O.SECOND_HALF, O.TRICK, O.LED, O.PHASE
_TO_MOVE, _TRICK_LEADER, _PILES, _HAND_SIZES = O.TO_MOVE, O.TRICK_LEADER, O.PILES, O.HAND_SIZES
_TOTALS, _VICTORIES, _HALF, _TRICK_NUMBER = O.TOTALS, O.VICTORIES, O.HALF, O.TRICK_NUMBER
_ROUND, _SEAT, _PENDING, _OBS_SIZE = O.ROUND, O.SEAT, O.PENDING, O.OBS_SIZE


@njit(cache=CACHE)
def features(s: np.ndarray, players: int, partnership: int, seat: int, picked: np.ndarray,
             table_idx: np.ndarray, table_val: np.ndarray, totals: np.ndarray,
             wins: np.ndarray, counted: int, round_index: int, idx: np.ndarray,
             val: np.ndarray, first: int = 7) -> int:
    """Write the non-zero entries of ``seat``'s observation into ``idx``/``val``; return
    how many. ``picked[c]`` marks cards already picked in a sequential split;
    ``table_idx``/``table_val`` are the entries fixed by the table (specials, size,
    options); ``totals``/``wins`` the match so far (``counted``: victories are kept);
    ``first`` the tricks of the first half (the ruleset's)."""
    k = 0
    for j in range(table_idx.shape[0]):
        idx[k] = table_idx[j]
        val[k] = table_val[j]
        k += 1
    for i in range(s[K.HAND_N + seat]):
        c = s[K.HAND + K.HAND_MAX * seat + i]
        if not picked[c]:
            idx[k] = _HAND + c
            val[k] = 1.0
            k += 1
    for c in range(65):
        if picked[c]:
            idx[k] = _PACK + c
            val[k] = 1.0
            k += 1
    if s[K.PACK_N + seat]:
        for j in range(s[K.PACK_N + seat]):
            idx[k] = _PACK + s[K.PACK + K.PACK_MAX * seat + j]
            val[k] = 1.0
            k += 1
    phase = s[K.PHASE]
    if partnership and phase != K.SPLIT and s[K.SPLIT_N] == players:
        partner = (seat + 2) % 4
        for j in range(s[K.PACK_N + partner]):
            idx[k] = _RECEIVED + s[K.PACK + K.PACK_MAX * partner + j]
            val[k] = 1.0
            k += 1
    # the round's plays, by relative seat, rebuilt from the log and the trick winners
    order = 0
    for i in range(s[K.NPLAYS]):
        a = s[K.PLAYS + i]
        if a >= K.PILE_1:
            continue
        card = a if a < 65 else K.SLOT_WILD[(a - 65) >> 2]
        t = order // players
        if t + 1 < s[K.TRICK_NO] or (t + 1 == s[K.TRICK_NO] and phase == K.PILE_PHASE):
            leader = s[K.ROUND_LEADER] if t == 0 else s[K.WINNERS + t - 1]
            who = (leader + order % players) % players
            r = who - seat
            if r < 0:
                r += players
            idx[k] = _PLAYED + 65 * r + card
            val[k] = 1.0
            k += 1
            if t >= first:
                idx[k] = _SECOND_HALF + card
                val[k] = 1.0
                k += 1
        order += 1
    if phase != K.PILE_PHASE:  # a trick waiting for its pile is complete, not in progress
        for j in range(s[K.TRICK_N]):
            card = s[K.TRICK + j]
            who = (s[K.TRICK_LEADER] + j) % players
            r = who - seat
            if r < 0:
                r += players
            idx[k] = _PLAYED + 65 * r + card
            val[k] = 1.0
            idx[k + 1] = _TRICK + card
            val[k + 1] = 1.0
            k += 2
            if s[K.HALF] == 2:
                idx[k] = _SECOND_HALF + card
                val[k] = 1.0
                k += 1
    # a trick waiting for its pile is over: the view shows no trick and no led suit
    # (the kernel keeps both until the pile is chosen)
    if s[K.LED] >= 0 and phase != K.PILE_PHASE:
        idx[k] = _LED + s[K.LED]
        val[k] = 1.0
        k += 1
    idx[k] = _PHASE + phase
    val[k] = 1.0
    k += 1
    if phase != K.SPLIT:
        mover = s[K.PENDING] if phase == K.PILE_PHASE else s[K.TO_MOVE]
        r = mover - seat
        if r < 0:
            r += players
        idx[k] = _TO_MOVE + r
        val[k] = 1.0
        k += 1
    r = s[K.TRICK_LEADER] - seat
    if r < 0:
        r += players
    idx[k] = _TRICK_LEADER + r
    val[k] = 1.0
    k += 1
    for p in range(players):
        r = p - seat
        if r < 0:
            r += players
        for h in range(2):
            if s[K.PILES + 2 * p + h]:
                idx[k] = _PILES + 2 * r + h
                val[k] = s[K.PILES + 2 * p + h] / 13.0
                k += 1
        if s[K.HAND_N + p]:
            idx[k] = _HAND_SIZES + r
            val[k] = s[K.HAND_N + p] / 13.0
            k += 1
        if totals[p]:
            idx[k] = _TOTALS + r
            val[k] = totals[p] / 39.0
            k += 1
        if counted:
            side = p % 2 if partnership else p
            if wins[side]:
                idx[k] = _VICTORIES + r
                val[k] = wins[side] / 2.0
                k += 1
    if s[K.HALF] == 2:
        idx[k] = _HALF
        val[k] = 1.0
        k += 1
    if s[K.TRICK_NO] > 1:
        idx[k] = _TRICK_NUMBER
        val[k] = (s[K.TRICK_NO] - 1) / 13.0
        k += 1
    if round_index:
        idx[k] = _ROUND
        val[k] = round_index / 3.0
        k += 1
    idx[k] = _SEAT + seat
    val[k] = 1.0
    k += 1
    if phase == K.PILE_PHASE and s[K.PENDING] == seat:
        idx[k] = _PENDING
        val[k] = 1.0
        k += 1
    return k


@njit(cache=CACHE)
def seen_entries(idx: np.ndarray, val: np.ndarray, n: int, seen: np.ndarray) -> int:
    """After :func:`features`' ``n`` entries, append one entry (row ``OBS_SIZE + c``) for
    each card the seat has seen: the union of its hand, pack, received and played planes
    (what the general network's unseen plane leaves out: :func:`fold_general`). Returns
    the new count."""
    seen[:] = False
    for m in range(n):
        j = idx[m]
        if _HAND <= j < _SECOND_HALF:  # the hand, pack, received and played planes
            seen[(j - _HAND) % 65] = True
    k = n
    for c in range(65):
        if seen[c]:
            idx[k] = _OBS_SIZE + c
            val[k] = 1.0
            k += 1
    return k


@njit(cache=CACHE, fastmath=True)
def _trunk(idx: np.ndarray, val: np.ndarray, n: int, w1: np.ndarray, b1: np.ndarray,
           w2: np.ndarray, b2: np.ndarray, h1: np.ndarray, h2: np.ndarray) -> None:
    """Both hidden layers of a sparse observation into ``h2`` (``h1`` is scratch)."""
    hidden = b1.shape[0]
    for j in range(hidden):
        h1[j] = b1[j]
    for m in range(n):
        row = idx[m]
        x = val[m]
        for j in range(hidden):
            h1[j] += x * w1[row, j]
    for j in range(hidden):
        h2[j] = b2[j]
    for i in range(hidden):
        x = h1[i]
        if x > 0.0:
            for j in range(hidden):
                h2[j] += x * w2[i, j]
    for j in range(hidden):
        if h2[j] < 0.0:
            h2[j] = 0.0


@njit(cache=CACHE, fastmath=True)
def _logit(h2: np.ndarray, w3t: np.ndarray, b3: np.ndarray, out: int) -> float:
    acc = 0.0
    for j in range(h2.shape[0]):
        acc += h2[j] * w3t[out, j]
    return float(acc + b3[out])


@njit(cache=CACHE)
def net_action(s: np.ndarray, cfg: np.ndarray, ruleset: np.ndarray, seat: int,
               table_idx: np.ndarray,
               table_val: np.ndarray, totals: np.ndarray, wins: np.ndarray, counted: int,
               round_index: int, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray,
               b2: np.ndarray, w3t: np.ndarray, b3: np.ndarray, legal: np.ndarray,
               picked: np.ndarray, idx: np.ndarray, val: np.ndarray, h1: np.ndarray,
               h2: np.ndarray, general: bool = False, seen: np.ndarray | None = None) -> int:
    """The network's play, declare or pile action for ``seat`` (the seat to act);
    ``general``: the network for any ruleset, its weights folded (:func:`fold_general`)."""
    n = K.legal_actions(s, ruleset, legal)
    if n == 1:
        return int(legal[0])
    picked[:] = False
    m = features(s, cfg[0], cfg[1], seat, picked, table_idx, table_val, totals, wins,
                 counted, round_index, idx, val, ruleset[K.R_NUMBERS, K.N_FIRST])
    if general and seen is not None:
        m = seen_entries(idx, val, m, seen)
    _trunk(idx, val, m, w1, b1, w2, b2, h1, h2)
    best = int(legal[0])
    best_v = -np.inf
    for i in range(n):
        v = _logit(h2, w3t, b3, legal[i])
        if v > best_v:
            best_v = v
            best = int(legal[i])
    return best


@njit(cache=CACHE)
def net_split(s: np.ndarray, cfg: np.ndarray, seat: int, table_idx: np.ndarray,
              table_val: np.ndarray, totals: np.ndarray, wins: np.ndarray, counted: int,
              round_index: int, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray,
              b2: np.ndarray, w3t: np.ndarray, b3: np.ndarray, pack: np.ndarray,
              picked: np.ndarray, idx: np.ndarray, val: np.ndarray, h1: np.ndarray,
              h2: np.ndarray, hand: np.ndarray) -> None:
    """The network's six-card pack for ``seat``: six picks among its 13 cards by id."""
    for i in range(13):
        hand[i] = s[K.HAND + K.HAND_MAX * seat + i]
    hand.sort()
    picked[:] = False
    for j in range(6):
        m = features(s, cfg[0], cfg[1], seat, picked, table_idx, table_val, totals, wins,
                     counted, round_index, idx, val)
        _trunk(idx, val, m, w1, b1, w2, b2, h1, h2)
        best = -1
        best_v = -np.inf
        for i in range(13):
            if not picked[hand[i]]:
                v = _logit(h2, w3t, b3, PICK_OUT + i)
                if v > best_v:
                    best_v = v
                    best = i
        picked[hand[best]] = True
        pack[j] = hand[best]


@njit(cache=CACHE)
def general_split(s: np.ndarray, cfg: np.ndarray, ruleset: np.ndarray, seat: int,
                  table_idx: np.ndarray, table_val: np.ndarray, totals: np.ndarray,
                  wins: np.ndarray, counted: int, round_index: int, w1: np.ndarray,
                  b1: np.ndarray, w2: np.ndarray, b2: np.ndarray, w3t: np.ndarray,
                  b3: np.ndarray, pack: np.ndarray, picked: np.ndarray, idx: np.ndarray,
                  val: np.ndarray, h1: np.ndarray, h2: np.ndarray, hand: np.ndarray,
                  seen: np.ndarray) -> None:
    """The general network's pack for ``seat``: the ruleset's pack size of picks among
    its dealt cards, each the card with the highest pick output (lowest id on a tie)."""
    k = ruleset[K.R_NUMBERS, K.N_HAND]
    first = ruleset[K.R_NUMBERS, K.N_FIRST]
    for i in range(k):
        hand[i] = s[K.HAND + K.HAND_MAX * seat + i]
    hand[:k].sort()
    picked[:] = False
    for j in range(ruleset[K.R_NUMBERS, K.N_PACK]):
        m = features(s, cfg[0], cfg[1], seat, picked, table_idx, table_val, totals, wins,
                     counted, round_index, idx, val, first)
        m = seen_entries(idx, val, m, seen)
        _trunk(idx, val, m, w1, b1, w2, b2, h1, h2)
        best = -1
        best_v = -np.inf
        for i in range(k):
            c = hand[i]
            if not picked[c]:
                v = _logit(h2, w3t, b3, GENERAL_PICK + c)
                if v > best_v:
                    best_v = v
                    best = c
        picked[best] = True
        pack[j] = best


@njit(cache=CACHE)
def simulate_net(
    cfg: np.ndarray, ruleset: np.ndarray, strength: np.ndarray, deck: np.ndarray, first: int,
    count: int, seed: int, epsilon: float, net_seats: int,
    table_idx: np.ndarray, table_val: np.ndarray, w1: np.ndarray, b1: np.ndarray,
    w2: np.ndarray, b2: np.ndarray, w3t: np.ndarray, b3: np.ndarray,
    rounds_played: np.ndarray, piles: np.ndarray, leaders: np.ndarray, deals: np.ndarray,
    asides: np.ndarray, splits: np.ndarray, orders: np.ndarray, plays: np.ndarray,
    nplays: np.ndarray, tricks: np.ndarray, policy: int = K.POLICY_HEURISTIC,
    general: bool = False,
) -> int:
    """Play matches ``first .. first + count - 1``: seat ``p`` with the network when bit
    ``p`` of ``net_seats`` is set, else with the core's ``policy`` (the ruleset's
    heuristic). Game ``i`` draws its deals from its own stream, as
    :func:`meio.sim.core.simulate_games` does, and the match is the core's one match
    loop (:func:`~meio.sim.core.start_match`, :func:`~meio.sim.core.deal_round`,
    :func:`~meio.sim.core.close_round`, :func:`~meio.sim.core.next_leader`) around this
    kernel's choosers. ``general``: the network for any ruleset
    (folded weights, :func:`fold_general`). Writes row ``i - first`` of each output
    (``rounds_played`` -1 for a match whose tie never broke within the rows); returns
    the cards played."""
    players = cfg[K.CFG_PLAYERS]
    k = ruleset[K.R_NUMBERS, K.N_HAND]
    counted = 1 if ruleset[K.R_NUMBERS, K.N_FORM] == 1 else 0
    s = np.zeros(K.STATE_LEN, dtype=np.int32)
    rng = np.zeros(1, dtype=np.uint64)
    legal = np.zeros(K.LEGAL_MAX, dtype=np.int32)
    pack = np.zeros(K.PACK_MAX, dtype=np.int32)
    hands = np.zeros((5, K.HAND_MAX), dtype=np.int32)
    hand = np.zeros(13, dtype=np.int32)
    scores = np.zeros(5, dtype=np.int32)
    totals = np.zeros(5, dtype=np.int32)
    wins = np.zeros(5, dtype=np.int32)
    picked = np.zeros(65, dtype=np.bool_)
    seen = np.zeros(65, dtype=np.bool_)
    hand_any = np.zeros(K.HAND_MAX, dtype=np.int32)
    idx = np.zeros(MAX_FEATURES, dtype=np.int32)
    val = np.zeros(MAX_FEATURES, dtype=np.float32)
    h1 = np.zeros(b1.shape[0], dtype=np.float32)
    h2 = np.zeros(b1.shape[0], dtype=np.float32)
    cards = deck.copy()
    played = 0
    for g in range(count):
        leader = K.start_match(rng, seed, first + g, players, totals, wins)
        r = 0
        while True:
            K.deal_round(cfg, ruleset, deck, cards, rng, hands)
            K.start_round(s, cfg, ruleset, hands, leader)
            for p in range(players):
                if net_seats >> p & 1 and general:
                    general_split(s, cfg, ruleset, p, table_idx, table_val, totals, wins,
                                  counted, r, w1, b1, w2, b2, w3t, b3, pack, picked, idx, val,
                                  h1, h2, hand_any, seen)
                elif net_seats >> p & 1:
                    net_split(s, cfg, p, table_idx, table_val, totals, wins, counted, r,
                              w1, b1, w2, b2, w3t, b3, pack, picked, idx, val, h1, h2, hand)
                else:
                    K.choose_split(s, ruleset, p, strength, policy, rng, pack)
                K.apply_split(s, cfg, ruleset, p, pack)
            while s[K.PHASE] != K.ROUND_DONE:
                seat = s[K.PENDING] if s[K.PHASE] == K.PILE_PHASE else s[K.TO_MOVE]
                if net_seats >> seat & 1:
                    a = net_action(s, cfg, ruleset, seat, table_idx, table_val, totals, wins,
                                   counted, r, w1, b1, w2, b2, w3t, b3, legal, picked, idx,
                                   val, h1, h2, general, seen)
                else:
                    a = K.choose_action(s, cfg, ruleset, strength, policy,
                                        epsilon, rng, legal)
                K.apply_action(s, cfg, ruleset, a)
            played += k * players
            end = K.close_round(s, cfg, ruleset, cards, g, r, leader, True, False, leaders,
                                piles, asides, deals, splits, orders, plays, nplays, tricks,
                                totals, wins, scores)
            if end != 0:
                rounds_played[g] = end
                break
            leader = K.next_leader(s, cfg, ruleset, rng, scores)
            r += 1
    return played


@njit(cache=CACHE)
def evaluate_net(
    cfg: np.ndarray, ruleset: np.ndarray, worlds: np.ndarray, kinds: np.ndarray,
    values: np.ndarray, packs: np.ndarray, seat: int, table_idx: np.ndarray,
    table_val: np.ndarray, totals: np.ndarray, wins: np.ndarray, counted: int,
    round_index: int, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray,
    w3t: np.ndarray, b3: np.ndarray, general: bool = False,
) -> np.ndarray:
    """:func:`meio.sim.core.evaluate` with the network in every seat of the playouts:
    the mean final round score of each seat after each candidate action, each world
    played out once (the network's play is deterministic). ``kinds[a]`` is 1 for the
    split ``packs[a]`` of ``seat``, 0 for the play, declare or pile action ``values[a]``.
    Splits still due after it are the network's; each seat of a playout reads only
    its own observation of the world. ``general``: the network for any ruleset, its
    weights folded for the table (:func:`fold_general`)."""
    players = cfg[K.CFG_PLAYERS]
    n_actions = kinds.shape[0]
    n_worlds = worlds.shape[0]
    out = np.zeros((n_actions, players))
    s = np.zeros(K.STATE_LEN, dtype=np.int32)
    legal = np.zeros(K.LEGAL_MAX, dtype=np.int32)
    pack = np.zeros(K.PACK_MAX, dtype=np.int32)
    hand = np.zeros(13, dtype=np.int32)
    hand_any = np.zeros(K.HAND_MAX, dtype=np.int32)
    scores = np.zeros(5, dtype=np.int32)
    picked = np.zeros(65, dtype=np.bool_)
    seen = np.zeros(65, dtype=np.bool_)
    idx = np.zeros(MAX_FEATURES, dtype=np.int32)
    val = np.zeros(MAX_FEATURES, dtype=np.float32)
    h1 = np.zeros(b1.shape[0], dtype=np.float32)
    h2 = np.zeros(b1.shape[0], dtype=np.float32)
    for a in range(n_actions):
        for w in range(n_worlds):
            s[:] = worlds[w]
            if kinds[a] == 1:
                K.apply_split(s, cfg, ruleset, seat, packs[a])
            else:
                K.apply_action(s, cfg, ruleset, values[a])
            if s[K.PHASE] == K.SPLIT:
                for p in range(players):
                    if s[K.PACK_N + p] == 0 and general:
                        general_split(s, cfg, ruleset, p, table_idx, table_val, totals, wins,
                                      counted, round_index, w1, b1, w2, b2, w3t, b3, pack,
                                      picked, idx, val, h1, h2, hand_any, seen)
                        K.apply_split(s, cfg, ruleset, p, pack)
                    elif s[K.PACK_N + p] == 0:
                        net_split(s, cfg, p, table_idx, table_val, totals, wins, counted,
                                  round_index, w1, b1, w2, b2, w3t, b3, pack, picked, idx,
                                  val, h1, h2, hand)
                        K.apply_split(s, cfg, ruleset, p, pack)
            while s[K.PHASE] != K.ROUND_DONE:
                mover = s[K.PENDING] if s[K.PHASE] == K.PILE_PHASE else s[K.TO_MOVE]
                act = net_action(s, cfg, ruleset, mover, table_idx, table_val, totals, wins,
                                 counted, round_index, w1, b1, w2, b2, w3t, b3, legal, picked,
                                 idx, val, h1, h2, general, seen)
                K.apply_action(s, cfg, ruleset, act)
            K.round_scores(s, cfg, ruleset, scores)
            for p in range(players):
                out[a, p] += scores[p]
    for a in range(n_actions):
        for p in range(players):
            out[a, p] /= n_worlds
    return out


# -- the Python side ------------------------------------------------------------------------
@dataclass(frozen=True, slots=True, eq=False)
class CoreNet:
    """A policy's weights laid out for the kernels (float32, output rows contiguous)."""

    w1: F32
    b1: F32
    w2: F32
    b2: F32
    w3t: F32
    b3: F32

    @classmethod
    def of(cls, policy: LearnedPolicy) -> CoreNet:
        w1, b1, w2, b2, w3, b3 = (np.ascontiguousarray(w, dtype=np.float32)
                                  for w in policy.weights)
        return cls(w1, b1, w2, b2, np.ascontiguousarray(w3.T), b3)


def table_entries(config: MatchConfig) -> tuple[I32, F32]:
    """The observation entries fixed by the table: specials in the deck, the table size,
    the options and the number of specials (those of :func:`meio.bots.observation.observe`
    in any view of a table whose specials are shown)."""
    obs = O.observe(State.new(config).view(0))
    keep = np.zeros(O.OBS_SIZE, dtype=bool)
    keep[O.SPECIALS:O.SPECIALS + 5] = True
    keep[O.PLAYERS:O.PLAYERS + 4] = True
    keep[O.OPTIONS:O.OPTIONS + 4] = True
    keep[O.SPECIAL_COUNT] = True
    where = np.flatnonzero(keep & (obs != 0)).astype(np.int32)
    return where, obs[where].astype(np.float32)


@dataclass(frozen=True, slots=True)
class MatchSoFar:
    """The match around a core position: each seat's total, the victories (by seat at
    2 players, by team in partnership) and the round number."""

    totals: tuple[int, ...] = (0, 0, 0, 0, 0)
    wins: tuple[int, ...] = (0, 0, 0, 0, 0)
    round_index: int = 0

    @classmethod
    def of(cls, view: View) -> MatchSoFar:
        """The match around ``view`` (what every seat sees of it alike)."""
        return cls(tuple(view.totals), tuple(view.victories or ()), view.round_index)

    def arrays(self) -> tuple[I32, I32]:
        return (np.array((*self.totals, 0, 0, 0, 0, 0)[:5], dtype=np.int32),
                np.array((*self.wins, 0, 0, 0, 0, 0)[:5], dtype=np.int32))


def _counted(config: MatchConfig) -> int:
    """1 where the match counts round victories (its observation shows them)."""
    return 1 if config.match_format.form == "victories" else 0


def fold_general(policy: GeneralPolicy, config: MatchConfig) -> CoreNet:
    """The general network's weights for the kernels at ``config``'s table (its specials
    known): the first layer folded so that the sparse entries of :func:`features` and
    :func:`seen_entries` give exactly its input layer's sum.

    The attribute table, the ruleset numbers and the whole deck's unseen sum are the same
    at every decision of the table: they go into the bias. Each card plane's pooled
    block is linear in the plane's entries: card ``c`` in plane ``p`` adds
    ``attrs[c] / 13 @ w1[pooled p]`` to that entry's row. The unseen plane is the deck
    less the union of the seen planes: each seen card's row ``OBS_SIZE + c`` subtracts
    its share."""
    if not config.specials_known:
        raise ValueError("the network in the core needs the specials known (reveal_specials)")
    w1, b1, w2, b2, w3, b3 = (np.asarray(w, dtype=np.float64) for w in policy.weights)
    attrs = T.card_attributes(config.rules, config.deck).astype(np.float64)
    share = attrs / T.POOL_SCALE

    def block(plane: int) -> npt.NDArray[np.float64]:
        at = T.POOLED + plane * T.ATTRIBUTES
        return w1[at:at + T.ATTRIBUTES]

    rows = np.zeros((O.OBS_SIZE + 65, w1.shape[1]))
    rows[:O.OBS_SIZE] = w1[:O.OBS_SIZE]
    planes = [(O.HAND, T.POOL_HAND), (O.PACK, T.POOL_PACK), (O.RECEIVED, T.POOL_RECEIVED),
              *((O.PLAYED + 65 * r, T.POOL_PLAYED + r) for r in range(O.MAX_SEATS)),
              (O.TRICK, T.POOL_TRICK)]
    for base, plane in planes:
        rows[base:base + 65] += share @ block(plane)
    unseen = block(T.POOL_UNSEEN)
    rows[O.OBS_SIZE:] = -(share @ unseen)
    bias = (b1 + attrs.reshape(-1) @ w1[T.ATTRS:T.NUMBERS_AT]
            + T.table_numbers(config).astype(np.float64) @ w1[T.NUMBERS_AT:T.POOLED]
            + share.sum(axis=0) @ unseen)
    f32 = np.float32
    return CoreNet(np.ascontiguousarray(rows, dtype=f32), bias.astype(f32),
                   np.ascontiguousarray(w2, dtype=f32), b2.astype(f32),
                   np.ascontiguousarray(w3.T, dtype=f32), b3.astype(f32))


def _net_for(policy: LearnedPolicy | GeneralPolicy, config: MatchConfig) -> tuple[CoreNet, bool]:
    if isinstance(policy, GeneralPolicy):
        return fold_general(policy, config), True
    if plays_variant(config):
        raise ValueError(f"the editions' network does not play the variant "
                         f"{config.ruleset.name!r}: play it with the network for any ruleset "
                         f"(meio.bots.general)")
    return CoreNet.of(policy), False


def general_preactivation(array: I32, config: MatchConfig, seat: int,
                          policy: GeneralPolicy, *, picked: int = 0,
                          match: MatchSoFar | None = None) -> F32:
    """The general network's first layer before ReLU as the kernels compute it from a core
    position (:func:`features`, :func:`seen_entries`, :func:`fold_general`): for tests,
    against ``observe_any(view) @ w1 + b1``."""
    net = fold_general(policy, config)
    idx, val, n = _sparse(array, config, seat, picked, match)
    n = seen_entries(idx, val, n, np.zeros(65, dtype=np.bool_))
    out: F32 = net.b1 + (val[:n, None] * net.w1[idx[:n]]).sum(axis=0)
    return out


def _sparse(array: I32, config: MatchConfig, seat: int, picked: int,
            match: MatchSoFar | None) -> tuple[I32, F32, int]:
    """:func:`features` of ``seat`` at a core position, called from Python: the
    entries and their count."""
    t = tables_for(config)
    table_idx, table_val = table_entries(config)
    marks = np.array([bool(picked >> c & 1) for c in range(65)])
    match = match or MatchSoFar()
    totals, wins = match.arrays()
    idx = np.zeros(MAX_FEATURES, dtype=np.int32)
    val = np.zeros(MAX_FEATURES, dtype=np.float32)
    n = features(array, int(t.cfg[0]), int(t.cfg[1]), seat, marks, table_idx, table_val,
                 totals, wins, _counted(config), match.round_index, idx, val,
                 int(t.ruleset[K.R_NUMBERS, K.N_FIRST]))
    return idx, val, int(n)


def observe_position(array: I32, config: MatchConfig, seat: int, *, picked: int = 0,
                     match: MatchSoFar | None = None) -> F32:
    """The dense observation :func:`features` reads off a core position (for tests and
    tools; the kernels use the sparse entries)."""
    idx, val, n = _sparse(array, config, seat, picked, match)
    out = np.zeros(O.OBS_SIZE, dtype=np.float32)
    out[idx[:n]] = val[:n]
    return out


def core_action(array: I32, config: MatchConfig, policy: LearnedPolicy | GeneralPolicy,
                match: MatchSoFar | None = None) -> int:
    """The network's action for the seat to act in a core position (play phase)."""
    t = tables_for(config)
    table_idx, table_val = table_entries(config)
    seat = int(array[K.PENDING] if array[K.PHASE] == K.PILE_PHASE else array[K.TO_MOVE])
    net, general = _net_for(policy, config)
    hidden = net.b1.shape[0]
    match = match or MatchSoFar()
    totals, wins = match.arrays()
    return int(net_action(array.copy(), t.cfg, t.ruleset, seat, table_idx, table_val, totals,
                          wins,
                          _counted(config), match.round_index,
                          net.w1, net.b1, net.w2, net.b2, net.w3t, net.b3,
                          np.zeros(K.LEGAL_MAX, dtype=np.int32),
                          np.zeros(65, dtype=np.bool_), np.zeros(MAX_FEATURES, dtype=np.int32),
                          np.zeros(MAX_FEATURES, dtype=np.float32),
                          np.zeros(hidden, dtype=np.float32), np.zeros(hidden, dtype=np.float32),
                          general, np.zeros(65, dtype=np.bool_)))


def core_split(array: I32, config: MatchConfig, seat: int,
               policy: LearnedPolicy | GeneralPolicy,
               match: MatchSoFar | None = None) -> list[int]:
    """The network's pack (card ids) for ``seat`` in a core position at the split."""
    t = tables_for(config)
    table_idx, table_val = table_entries(config)
    net, general = _net_for(policy, config)
    hidden = net.b1.shape[0]
    match = match or MatchSoFar()
    totals, wins = match.arrays()
    pack = np.zeros(K.PACK_MAX, dtype=np.int32)
    if general:
        general_split(array.copy(), t.cfg, t.ruleset, seat, table_idx, table_val, totals, wins,
                      _counted(config), match.round_index, net.w1, net.b1, net.w2, net.b2,
                      net.w3t, net.b3, pack, np.zeros(65, dtype=np.bool_),
                      np.zeros(MAX_FEATURES, dtype=np.int32),
                      np.zeros(MAX_FEATURES, dtype=np.float32),
                      np.zeros(hidden, dtype=np.float32), np.zeros(hidden, dtype=np.float32),
                      np.zeros(K.HAND_MAX, dtype=np.int32), np.zeros(65, dtype=np.bool_))
        return sorted(int(c) for c in pack[:config.pack_size])
    net_split(array.copy(), t.cfg, seat, table_idx, table_val, totals, wins, _counted(config),
              match.round_index, net.w1, net.b1, net.w2, net.b2, net.w3t, net.b3, pack,
              np.zeros(65, dtype=np.bool_),
              np.zeros(MAX_FEATURES, dtype=np.int32), np.zeros(MAX_FEATURES, dtype=np.float32),
              np.zeros(hidden, dtype=np.float32), np.zeros(hidden, dtype=np.float32),
              np.zeros(13, dtype=np.int32))
    return sorted(int(c) for c in pack[:6])


def simulate(config: MatchConfig, first: int, count: int, seed: int,
             policy: LearnedPolicy | GeneralPolicy,
             net_seats: int | None = None) -> dict[str, Any]:
    """Play matches ``first .. first + count - 1`` of ``config`` (its specials and table
    options; each game draws its deals from ``(seed, i)``) with the network in the seats
    of ``net_seats`` (a bit mask; all seats by default) and the ruleset's heuristic in the
    others. The editions' network plays the editions; the network for any ruleset
    (:class:`~meio.bots.general.GeneralPolicy`) plays any. Returns the arrays of
    :func:`meio.sim.simulate` with ``record=True`` (a standard game's widths, or a
    variant's, as there)."""
    t = tables_for(config)
    players = config.players
    if net_seats is None:
        net_seats = (1 << players) - 1
    table_idx, table_val = table_entries(config)
    net, general = _net_for(policy, config)
    out: dict[str, Any] = batch_arrays(config, count, t.rounds, count)
    del out["won"]  # the lab reads a network's winners off its totals
    out["cards_played"] = simulate_net(
        t.cfg, t.ruleset, t.strength, t.deck, first, count, int(seed) & 0x7FFFFFFFFFFFFFFF,
        epsilon_for(t.heuristic), net_seats, table_idx, table_val,
        net.w1, net.b1, net.w2, net.b2, net.w3t, net.b3,
        out["rounds_played"], out["piles"], out["leaders"],
        out["deals"], out["asides"], out["splits"], out["split_orders"], out["plays"],
        out["nplays"], out["tricks"], t.heuristic, general)
    check_ended(out["rounds_played"], first, t.rounds)
    return out


class NetPlayouts:
    """The network playing out a search's worlds in the compiled core (every seat of
    every playout, from that seat's own observation): :func:`evaluate_net` behind the
    two forms of worlds a search has, core positions and engine states. The editions'
    network (:class:`~meio.bots.learned.LearnedPolicy`) plays the standard editions;
    the network for any ruleset (:class:`~meio.bots.general.GeneralPolicy`) plays any
    ruleset, its weights folded once per table (:func:`fold_general`). Both need the
    specials known (what :func:`table_entries` reads)."""

    def __init__(self, policy: LearnedPolicy | GeneralPolicy) -> None:
        self.policy = policy
        self.general = isinstance(policy, GeneralPolicy)
        self.net = None if isinstance(policy, GeneralPolicy) else CoreNet.of(policy)
        self._tables: dict[MatchConfig, tuple[I32, F32, CoreNet]] = {}

    def _table(self, config: MatchConfig) -> tuple[I32, F32, CoreNet]:
        if config not in self._tables:
            if isinstance(self.policy, GeneralPolicy):
                net = fold_general(self.policy, config)
            else:
                check_standard(config)
                assert self.net is not None
                net = self.net
            self._tables[config] = (*table_entries(config), net)
        return self._tables[config]

    def positions(self, config: MatchConfig, positions: I32, actions: Sequence[int],
                  seat: int, match: MatchSoFar) -> npt.NDArray[np.float64]:
        """Mean final round score of each seat after each of ``actions`` (legal for
        ``seat`` in every one of ``positions``, worlds of ``config``): shape
        ``(len(actions), players)``, in partnership each seat's team score."""
        if len(positions) == 0 or not actions:
            raise ValueError("network playouts need at least one position and one action")
        if not config.specials_known:
            raise ValueError("network playouts need the specials known (reveal_specials)")
        table_idx, table_val, net = self._table(config)
        t = tables_for(config)
        kinds, values, packs = encode_actions(actions)
        totals, wins = match.arrays()
        means = evaluate_net(t.cfg, t.ruleset, np.ascontiguousarray(positions, dtype=np.int32),
                             kinds, values, packs, seat, table_idx, table_val, totals, wins,
                             _counted(config), match.round_index,
                             net.w1, net.b1, net.w2, net.b2, net.w3t, net.b3, self.general)
        return np.asarray(means, dtype=np.float64)

    def states(self, states: Sequence[State], actions: Sequence[int], seat: int,
               match: MatchSoFar) -> npt.NDArray[np.float64]:
        """:meth:`positions` for worlds that are engine states (of one config)."""
        if not states:
            raise ValueError("network playouts need at least one world")
        arrays = np.stack([state_to_arrays(state).array for state in states])
        return self.positions(states[0].config, arrays, actions, seat, match)

    def evaluator(self, seat: int, match: MatchSoFar) -> Evaluator:
        """:meth:`states` for ``seat``'s decision in ``match`` as a search's playout
        engine (:data:`meio.bots.playout.Evaluator`: the playouts, seed and policy it
        is given do not apply: the network plays each world once, as it would)."""
        def evaluate(states: Sequence[State], actions: Sequence[int], playouts: int,
                     seed: int, policy: str = "network") -> npt.NDArray[np.float64]:
            return self.states(states, actions, seat, match)

        return evaluate
