"""The opponent model's likelihoods, compiled: every pool world scored in one call.

This is :meth:`meio.bots.inference.Reader.log_likelihood` (the reference, in plain
Python) written for numba, so that a card decision of ``search:4`` spends its time
on playouts rather than on weighing worlds. It computes the same numbers — the
heuristic's card costs (:func:`meio.bots.policy.play_costs`) and pack costs
(:func:`meio.bots.policy.rank_packs`) — step for step in the same order, so the
two agree to rounding (tests/bots/test_likelihood.py compares them on random
histories). The one shortcut: in a softmax a choice whose logit is more than 60
below the best one adds nothing (``exp(-60)`` is 1e-26 of the best), and its
``exp`` is not computed.

Card sets are two ``uint64`` words, ``lo`` for cards 0..63 and ``hi`` for card 64
(``Q+``). The rules are the compiled core's, read from its ruleset rows
(``ruleset``: :func:`meio.sim.tables.tables_for`), not restated here: legality
(:func:`meio.sim.core.legal_cards`), a play's card (:func:`~meio.sim.core.card_of`),
the trick (:data:`meio.sim.core.trick_rule`, the engine's) on the ruleset's trick
values, suits and trump; the hand, first-half and pack sizes; which card is relative
(worth 0.5 above the card before it). numba's disk cache keys a function on its own
source file, so :data:`CACHE` (:func:`meio.sim.diskcache.cache_flag`) renews this
file's stamp whenever the files those rules come from are newer.

The model's own tables (built in :mod:`meio.bots.inference` from the Python heuristic
itself, so the model lives in one place) are, by half ``h`` (row ``h - 1``) and card
``c``:

* ``fval[h, c]``: doubled values as :mod:`meio.bots.features` reads them
  (``+.5`` counted 1);
* ``pile[h, c]``: the pile a trick won by ``c`` goes to (0: the winner chooses);
* ``cc_fixed[h, c]``: a card's fixed chance to take a trick (``+.5``, ``-2H``, a
  losing wild), or -1 when it follows from the unseen cards: then ``cc_base``
  times ``(1 - share)`` to the number of unseen ``cc_sure`` cards, times
  ``(1 - TRUMP_RISK * share)`` to the number of unseen ``cc_trump`` cards.

Those chances are the editions' heuristic's, so the model applies where a ruleset's
cards and hands are an edition's (:func:`meio.bots.inference.reads_play`).

Over 500 lines in one module on purpose: numba's disk cache keys each kernel on
the file it comes from, so kernels that call one another stay in one file (as in
:mod:`meio.sim.core`) and an edit of a callee can never leave stale machine code
behind.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from meio.engine import tricks
from meio.engine.tricks import RELATIVE
from meio.sim import core
from meio.sim.core import (
    LEGAL_MAX,
    N_FIRST,
    N_HAND,
    N_PACK,
    N_TRUMP,
    N_WILD_NEXT,
    R_NUMBERS,
    R_SUIT,
    R_VALUES,
    card_of,
    legal_cards,
    trick_rule,
)
from meio.sim.diskcache import cache_flag

U0 = np.uint64(0)
U1 = np.uint64(1)
_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)
_S1 = np.uint64(1)
_S2 = np.uint64(2)
_S4 = np.uint64(4)
_S56 = np.uint64(56)

SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
SQRT2 = math.sqrt(2.0)
#: a softmax term this far below the best logit is left out (exp(-60) ~ 1e-26)
_NEGLIGIBLE = 60.0

#: whether these kernels may use numba's disk cache (the module docstring)
CACHE = cache_flag(__file__, tricks, core)


@njit(cache=CACHE, inline="always")
def _pc(x: np.uint64) -> int:
    """Number of set bits of a ``uint64``."""
    x = x - ((x >> _S1) & _M1)
    x = (x & _M2) + ((x >> _S2) & _M2)
    x = (x + (x >> _S4)) & _M4
    return int((x * _H01) >> _S56)


@njit(cache=CACHE, inline="always")
def _has(lo: np.uint64, hi: np.uint64, card: int) -> bool:
    if card < 64:
        return bool((lo >> np.uint64(card)) & U1 != U0)
    return bool(hi & U1 != U0)


@njit(cache=CACHE)
def expected_abs(mu: float, var: float) -> float:
    """E|X| for X normal (``meio.bots.features.expected_abs``)."""
    s = math.sqrt(max(var, 0.05))
    z = mu / s
    return s * SQRT_2_OVER_PI * math.exp(-0.5 * z * z) + mu * math.erf(z / SQRT2)


@njit(cache=CACHE, inline="always")
def _normal_expected_abs(mu: float, s: float) -> float:
    """The split ranking's E|X| (``policy._normal_expected_abs``, the same polynomial),
    given ``s = sqrt(max(var, 0.05))``; ``exp(-x * x)`` serves for ``exp(-z * z / 2)``."""
    z = mu / s
    x = abs(z) / SQRT2
    t = 1.0 / (1.0 + 0.3275911 * x)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027
                                                                         + t * 1.061405429))))
    e = math.exp(-x * x)
    sign = 1.0 if z > 0 else (-1.0 if z < 0 else 0.0)
    return s * SQRT_2_OVER_PI * e + mu * (sign * (1.0 - poly * e))


@njit(cache=CACHE, inline="always")
def _card_chance(card: int, half: int, u_lo: np.uint64, u_hi: np.uint64, share: float,
                 cc_fixed: np.ndarray, cc_base: np.ndarray, cc_sure: np.ndarray,
                 cc_trump: np.ndarray, trump_risk: float) -> float:
    h = half - 1
    fixed = cc_fixed[h, card]
    if fixed >= 0.0:
        return float(fixed)
    k = _pc(cc_sure[h, card, 0] & u_lo) + _pc(cc_sure[h, card, 1] & u_hi)
    p = cc_base[h, card] * (1.0 - share) ** k
    if cc_trump[h, card, 0] != U0 or cc_trump[h, card, 1] != U0:
        t = _pc(cc_trump[h, card, 0] & u_lo) + _pc(cc_trump[h, card, 1] & u_hi)
        p *= (1.0 - trump_risk * share) ** t
    return float(p)


@njit(cache=CACHE)
def _holding(c_lo: np.uint64, c_hi: np.uint64, half: int, u_lo: np.uint64, u_hi: np.uint64,
             share: float, pile: np.ndarray, cc_fixed: np.ndarray, cc_base: np.ndarray,
             cc_sure: np.ndarray, cc_trump: np.ndarray, trump_risk: float,
             out: np.ndarray) -> None:
    """``features.holding_estimate``: expected tricks to piles 1 and 2, and variance."""
    to1 = 0.0
    to2 = 0.0
    var = 0.0
    for c in range(65):
        if not _has(c_lo, c_hi, c):
            continue
        p = _card_chance(c, half, u_lo, u_hi, share, cc_fixed, cc_base, cc_sure, cc_trump,
                         trump_risk)
        where = pile[half - 1, c]
        if where == 1:
            to1 += p
        elif where == 2:
            to2 += p
        var += p * (1.0 - p)
    out[0] = to1
    out[1] = to2
    out[2] = var


@njit(cache=CACHE)
def _win_chance(card: int, v2: int, led: int, half: int, u_lo: np.uint64, u_hi: np.uint64,
                share: float, ruleset: np.ndarray, fval: np.ndarray, trump_risk: float) -> float:
    """``policy._win_chance``: the chance ``card`` (worth ``v2``) holds the trick."""
    if led < 0:
        total = 0.0
        for suit in range(4):
            total += _win_chance(card, v2, suit, half, u_lo, u_hi, share, ruleset, fval,
                                 trump_risk)
        return total / 4.0
    # features.beaters, counted over the unseen cards directly
    h = half - 1
    suit_of = ruleset[R_SUIT]
    trump = ruleset[R_NUMBERS, N_TRUMP]
    relative = ruleset[R_VALUES + h]
    suit = suit_of[card]
    if suit < 0:
        suit = led
    if suit != trump and suit != led:
        # no beaters counted, as in the reference (play_costs never asks about a discard)
        return 1.0
    k = 0
    t = 0
    for d in range(65):
        if not _has(u_lo, u_hi, d):
            continue
        ds = suit_of[d]
        if relative[d] == RELATIVE:  # it may top whatever was played before it
            if d != card:
                k += 1
        elif ds < 0:  # another wild
            if d != card and fval[h, d] > v2 and (suit != trump or led == trump):
                k += 1
        elif ds == suit and fval[h, d] > v2:
            k += 1
        elif suit != trump and led != trump and ds == trump:
            t += 1
    p = (1.0 - share) ** k
    if suit != trump and led != trump:
        p *= (1.0 - trump_risk * share) ** t
    return p


@njit(cache=CACHE)
def _legal(hand_lo: np.uint64, hand_hi: np.uint64, led: int, following: bool,
           ruleset: np.ndarray, cards: np.ndarray, out: np.ndarray) -> int:
    """The core's legality rule (:func:`meio.sim.core.legal_cards`) for a hand given
    as a card set, its cards in id order (``cards``: scratch); return how many actions."""
    n = 0
    for c in range(65):
        if _has(hand_lo, hand_hi, c):
            cards[n] = c
            n += 1
    return legal_cards(cards, 0, n, not following, ruleset[R_NUMBERS, N_WILD_NEXT], led,
                       ruleset, out)


@njit(cache=CACHE)
def play_costs(players: int, partnership: bool, seat: int, half: int,
               hand_lo: np.uint64, hand_hi: np.uint64, fut_lo: np.uint64, fut_hi: np.uint64,
               team_lo: np.uint64, team_hi: np.uint64, ph_lo: np.uint64, ph_hi: np.uint64,
               u_lo: np.uint64, u_hi: np.uint64,
               trick_seats: np.ndarray, trick_cards: np.ndarray, ntrick: int, led: int,
               piles: np.ndarray, sizes: np.ndarray, legal: np.ndarray, nlegal: int,
               ruleset: np.ndarray, fval: np.ndarray, pile: np.ndarray,
               cc_fixed: np.ndarray, cc_base: np.ndarray, cc_sure: np.ndarray,
               cc_trump: np.ndarray, trump_risk: float, partner_var: float,
               costs: np.ndarray) -> None:
    """``policy.play_costs`` of one seat's ``legal[:nlegal]``, written to ``costs``; the
    trick, the trump and the sizes are the ruleset's (``ruleset``: the core's rows)."""
    n = players
    suit_of = ruleset[R_SUIT]
    tval = ruleset[R_VALUES + half - 1]
    trump = ruleset[R_NUMBERS, N_TRUMP]
    unseen_count = _pc(u_lo) + _pc(u_hi)
    partner = (seat + 2) % 4 if partnership else -1
    # _share_now: the followers still to play this trick who are not the partner
    share_now = 0.0
    if unseen_count:
        held = 0
        for k in range(1, n - ntrick):
            s = (seat + k) % n
            if s != partner:
                held += sizes[s]
        share_now = min(1.0, held / unseen_count)
    opp = 0
    for s in range(n):
        if s != seat and s != partner:
            opp += sizes[s]
    share_hand = min(1.0, opp / unseen_count) if unseen_count else 0.0
    h = piles[seat, 0]
    v = piles[seat, 1]
    if partnership:
        h += piles[partner, 0]
        v += piles[partner, 1]
    d_now = float(h - v)
    est = np.zeros(3)
    # _future
    fut_mu = 0.0
    fut_var = 0.0
    if half == 1 and unseen_count:
        opp_packs = ruleset[R_NUMBERS, N_PACK] * (n - 1 - (1 if partnership else 0))
        share2 = min(1.0, opp_packs / unseen_count)
        for which in range(2):
            c_lo = fut_lo if which == 0 else team_lo
            c_hi = fut_hi if which == 0 else team_hi
            if c_lo != U0 or c_hi != U0:
                _holding(c_lo, c_hi, 2, u_lo, u_hi, share2, pile, cc_fixed, cc_base, cc_sure,
                         cc_trump, trump_risk, est)
                fut_mu += est[0] - est[1]
                fut_var += est[2]
    if partnership:
        left = sizes[partner]
        if half == 1:
            fut_mu += left / n
            fut_var += left * partner_var
    if ph_lo != U0 or ph_hi != U0:
        _holding(ph_lo, ph_hi, half, u_lo, u_hi, share_hand, pile, cc_fixed, cc_base, cc_sure,
                 cc_trump, trump_risk, est)
        fut_mu += est[0] - est[1]
        fut_var += est[2]
    # what each card of the hand would still take if kept
    row1 = np.zeros(65)
    row2 = np.zeros(65)
    rowv = np.zeros(65)
    rest1 = 0.0
    rest2 = 0.0
    rest_var = 0.0
    for c in range(65):
        if not _has(hand_lo, hand_hi, c):
            continue
        p = _card_chance(c, half, u_lo, u_hi, share_hand, cc_fixed, cc_base, cc_sure,
                         cc_trump, trump_risk)
        where = pile[half - 1, c]
        row1[c] = p if where == 1 else 0.0
        row2[c] = p if where == 2 else 0.0
        rowv[c] = p * (1.0 - p)
        rest1 += row1[c]
        rest2 += row2[c]
        rest_var += rowv[c]
    partner_winning = 0.0
    partner_pile = half
    cards = np.zeros(6, dtype=np.int64)
    for i in range(ntrick):
        cards[i] = trick_cards[i]
    if ntrick:
        best_i, best_v = trick_rule(cards[:ntrick], led, tval, suit_of, trump)
        best_seat = trick_seats[best_i]
        best_card = trick_cards[best_i]
        if partnership and best_seat != seat and (best_seat - seat) % 2 == 0:
            partner_winning = _win_chance(best_card, best_v, led, half, u_lo, u_hi, share_now,
                                          ruleset, fval, trump_risk)
            partner_pile = pile[half - 1, best_card]
    last = ntrick == n - 1  # no follower after this seat
    for a in range(nlegal):
        action = legal[a]
        card = card_of(action)
        if ntrick:
            this_led = suit_of[card] if led < 0 else led
            cards[ntrick] = card
            index, v2 = trick_rule(cards[: ntrick + 1], this_led, tval, suit_of, trump)
            if index != ntrick:
                p_me = 0.0
            elif last:
                p_me = 1.0
            else:
                p_me = _win_chance(card, v2, this_led, half, u_lo, u_hi, share_now, ruleset,
                                   fval, trump_risk)
        else:
            this_led = (action - 65) & 3 if action != card else suit_of[card]
            v2 = tval[card] if tval[card] != RELATIVE else 1  # a relative card leads at 0.5
            p_me = _win_chance(card, v2, this_led, half, u_lo, u_hi, share_now, ruleset, fval,
                               trump_risk)
        base = d_now + (rest1 - row1[card]) - (rest2 - row2[card]) + fut_mu
        var = rest_var - rowv[card] + fut_var
        lose = expected_abs(base, var)
        where = pile[half - 1, card]
        if where == 0:
            win = min(expected_abs(base + 1, var), expected_abs(base - 1, var))
        else:
            win = expected_abs(base + (1 if where == 1 else -1), var)
        if partner_winning != 0.0 and p_me == 0.0:
            team = partner_winning
            if partner_pile:
                team_win = expected_abs(base + (1 if partner_pile == 1 else -1), var)
            else:
                team_win = win
            costs[a] = team * team_win + (1.0 - team) * lose
        else:
            costs[a] = p_me * win + (1.0 - p_me) * lose


@njit(cache=CACHE)
def _log_mix(z: np.ndarray, n: int, index: int, noise: float) -> float:
    """log of ``(1 - noise) * softmax(z[:n])[index] + noise / n`` (``z`` already scaled)."""
    top = z[0]
    for i in range(1, n):
        if z[i] > top:
            top = z[i]
    total = 0.0
    for i in range(n):
        if z[i] - top > -_NEGLIGIBLE:
            total += math.exp(z[i] - top)
    p = math.exp(z[index] - top) / total if z[index] - top > -_NEGLIGIBLE else 0.0
    return math.log((1.0 - noise) * p + noise / n)


@njit(cache=CACHE)
def pack_count(ruleset: np.ndarray) -> int:
    """How many packs a dealt hand of the ruleset has: ``C(hand, pack)``."""
    n = ruleset[R_NUMBERS, N_HAND]
    k = ruleset[R_NUMBERS, N_PACK]
    count = 1
    for i in range(k):
        count = count * (n - i) // (i + 1)
    return count


@njit(cache=CACHE)
def pack_logits(players: int, partnership: bool, deal_lo: np.uint64, deal_hi: np.uint64,
                pub_lo: np.uint64, pub_hi: np.uint64, ruleset: np.ndarray, pile: np.ndarray,
                cc_fixed: np.ndarray, cc_base: np.ndarray, cc_sure: np.ndarray,
                cc_trump: np.ndarray, trump_risk: float, partner_var: float,
                temperature: float, z: np.ndarray) -> None:
    """``z[r] = -cost / temperature`` of every pack ``r`` of a dealt hand (the ruleset's
    hand and pack sizes), ``cost`` being ``rank_packs``' expected ``|H - V|``, rows in
    ``itertools.combinations`` order of the positions of the deal's cards (lowest card
    first)."""
    hand = int(ruleset[R_NUMBERS, N_HAND])
    size = int(ruleset[R_NUMBERS, N_PACK])
    u_lo = pub_lo & ~deal_lo
    u_hi = pub_hi & ~deal_hi
    u = _pc(u_lo) + _pc(u_hi)
    share1 = min(1.0, ruleset[R_NUMBERS, N_FIRST] * (players - 1) / u) if u > 0 else 0.0
    share2 = min(1.0, size * (players - 1) / u) if u > 0 else 0.0
    delta_d = np.zeros(hand)
    delta_v = np.zeros(hand)
    keep_d = 0.0
    keep_v = 0.0
    i = 0
    for c in range(65):
        if not _has(deal_lo, deal_hi, c):
            continue
        p1 = _card_chance(c, 1, u_lo, u_hi, share1, cc_fixed, cc_base, cc_sure, cc_trump,
                          trump_risk)
        p2 = _card_chance(c, 2, u_lo, u_hi, share2, cc_fixed, cc_base, cc_sure, cc_trump,
                          trump_risk)
        w1 = pile[0, c]
        w2 = pile[1, c]
        d1 = (p1 if w1 == 1 else 0.0) - (p1 if w1 == 2 else 0.0)
        d2 = (p2 if w2 == 1 else 0.0) - (p2 if w2 == 2 else 0.0)
        keep_d += d1
        keep_v += p1 * (1.0 - p1)
        delta_d[i] = d2 - d1
        delta_v[i] = p2 * (1.0 - p2) - p1 * (1.0 - p1)
        i += 1
    extra = hand * partner_var if partnership else 0.0
    # every pack in combinations order, the sums of D and of its variance built up one
    # position at a time: ``mean[j]`` holds the sum over the pack's first j cards; the
    # last position runs over every card after the one before it
    last = size - 1
    at = np.empty(size, dtype=np.int64)
    mean = np.empty(size)
    var = np.empty(size)
    mean[0] = keep_d
    var[0] = keep_v
    for j in range(last):
        at[j] = j
        mean[j + 1] = mean[j] + delta_d[j]
        var[j + 1] = var[j] + delta_v[j]
    r = 0
    while True:
        m = mean[last]
        v = var[last]
        for f in range(at[last - 1] + 1 if last > 0 else 0, hand):
            s = math.sqrt(max(v + delta_v[f] + extra, 0.05))
            z[r] = -_normal_expected_abs(m + delta_d[f], s) / temperature
            r += 1
        j = last - 1
        while j >= 0 and at[j] == hand - size + j:
            j -= 1
        if j < 0:
            return
        at[j] += 1
        for q in range(j, last):
            if q > j:
                at[q] = at[q - 1] + 1
            mean[q + 1] = mean[q] + delta_d[at[q]]
            var[q + 1] = var[q] + delta_v[at[q]]


@njit(cache=CACHE)
def pack_logits_of(players: int, partnership: bool, deals: np.ndarray, pub_lo: np.uint64,
                   pub_hi: np.uint64, ruleset: np.ndarray, pile: np.ndarray,
                   cc_fixed: np.ndarray, cc_base: np.ndarray, cc_sure: np.ndarray,
                   cc_trump: np.ndarray, trump_risk: float, partner_var: float,
                   temperature: float) -> np.ndarray:
    """:func:`pack_logits` of every deal ``deals[k]`` (two words), as rows."""
    out = np.zeros((deals.shape[0], pack_count(ruleset)))
    for k in range(deals.shape[0]):
        pack_logits(players, partnership, deals[k, 0], deals[k, 1], pub_lo, pub_hi, ruleset,
                    pile, cc_fixed, cc_base, cc_sure, cc_trump, trump_risk, partner_var,
                    temperature, out[k])
    return out


@njit(cache=CACHE)
def split_term(players: int, partnership: bool, deal_lo: np.uint64, deal_hi: np.uint64,
               pack_lo: np.uint64, pack_hi: np.uint64, pub_lo: np.uint64, pub_hi: np.uint64,
               combo_bits: np.ndarray, ruleset: np.ndarray, pile: np.ndarray,
               cc_fixed: np.ndarray, cc_base: np.ndarray, cc_sure: np.ndarray,
               cc_trump: np.ndarray, trump_risk: float, partner_var: float,
               temperature: float, noise: float, z: np.ndarray) -> float:
    """log P(pack | the dealt cards) under the split model (``rank_packs``)."""
    chosen = 0
    i = 0
    for c in range(65):
        if _has(deal_lo, deal_hi, c):
            if _has(pack_lo, pack_hi, c):
                chosen |= 1 << i
            i += 1
    rows = combo_bits.shape[0]
    index = -1
    for r in range(rows):
        if combo_bits[r] == chosen:
            index = r
            break
    if index < 0:
        return -math.inf  # not a pack of this deal
    pack_logits(players, partnership, deal_lo, deal_hi, pub_lo, pub_hi, ruleset, pile,
                cc_fixed, cc_base, cc_sure, cc_trump, trump_risk, partner_var, temperature, z)
    return _log_mix(z, rows, index, noise)


@njit(cache=CACHE)
def split_terms(players: int, partnership: bool, deals: np.ndarray, packs: np.ndarray,
                pub_lo: np.uint64, pub_hi: np.uint64, combo_bits: np.ndarray,
                ruleset: np.ndarray, pile: np.ndarray, cc_fixed: np.ndarray,
                cc_base: np.ndarray, cc_sure: np.ndarray, cc_trump: np.ndarray,
                trump_risk: float, partner_var: float, temperature: float,
                noise: float) -> np.ndarray:
    """:func:`split_term` of every ``(deals[k], packs[k])`` (two words each)."""
    out = np.zeros(deals.shape[0])
    z = np.zeros(combo_bits.shape[0])
    for k in range(deals.shape[0]):
        out[k] = split_term(players, partnership, deals[k, 0], deals[k, 1], packs[k, 0],
                            packs[k, 1], pub_lo, pub_hi, combo_bits, ruleset, pile, cc_fixed,
                            cc_base, cc_sure, cc_trump, trump_risk, partner_var,
                            temperature, noise, z)
    return out


@njit(cache=CACHE)
def log_likelihoods(
    players: int, partnership: bool, ruleset: np.ndarray, fval: np.ndarray, pile: np.ndarray,
    cc_fixed: np.ndarray, cc_base: np.ndarray, cc_sure: np.ndarray, cc_trump: np.ndarray,
    trump_risk: float, partner_var: float,
    play_temperature: float, noise: float, split_ll: np.ndarray,
    d_seat: np.ndarray, d_half: np.ndarray, d_ntrick: np.ndarray, d_trick_seats: np.ndarray,
    d_trick_cards: np.ndarray, d_led: np.ndarray, d_action: np.ndarray, d_piles: np.ndarray,
    d_sizes: np.ndarray, d_played: np.ndarray,
    deal: np.ndarray, packs: np.ndarray, deck: np.ndarray,
) -> np.ndarray:
    """log P(the other seats' splits and plays | world) for every world.

    ``split_ll[w]`` is the log likelihood of the other seats' splits in world ``w``
    (:func:`split_terms`, summed over seats); the plays' is added to it.
    ``deal[w, seat]``, ``packs[w, seat]`` and ``deck[w]`` are card sets (``[lo, hi]``)
    of world ``w``; ``d_*`` describe the decisions (see :class:`meio.bots.inference.
    Decision`), ``d_played[d]`` the cards played before decision ``d``."""
    n_worlds = deal.shape[0]
    out = np.zeros(n_worlds)
    z = np.zeros(LEGAL_MAX)
    legal = np.zeros(LEGAL_MAX, dtype=np.int64)
    cards = np.zeros(LEGAL_MAX, dtype=np.int64)
    costs = np.zeros(LEGAL_MAX)
    for w in range(n_worlds):
        total = split_ll[w]
        for d in range(d_seat.shape[0]):
            if total == -math.inf:
                break
            j = d_seat[d]
            half = d_half[d]
            pl_lo = d_played[d, 0]
            pl_hi = d_played[d, 1]
            partner = (j + 2) % 4 if partnership else -1
            if half == 1:
                hold_lo = deal[w, j, 0] & ~packs[w, j, 0]
                hold_hi = deal[w, j, 1] & ~packs[w, j, 1]
                q = partner if partnership else j
                fut_lo = packs[w, q, 0]
                fut_hi = packs[w, q, 1]
                team_lo = packs[w, j, 0] if partnership else U0
                team_hi = packs[w, j, 1] if partnership else U0
                ph_lo = U0
                ph_hi = U0
            else:
                q = partner if partnership else j
                hold_lo = packs[w, q, 0]
                hold_hi = packs[w, q, 1]
                fut_lo = U0
                fut_hi = U0
                team_lo = U0
                team_hi = U0
                ph_lo = packs[w, j, 0] & ~pl_lo if partnership else U0
                ph_hi = packs[w, j, 1] & ~pl_hi if partnership else U0
            hand_lo = hold_lo & ~pl_lo
            hand_hi = hold_hi & ~pl_hi
            if half == 1:
                own_lo = hand_lo | packs[w, j, 0] | fut_lo
                own_hi = hand_hi | packs[w, j, 1] | fut_hi
            else:
                own_lo = hand_lo | ph_lo
                own_hi = hand_hi | ph_hi
            u_lo = deck[w, 0] & ~pl_lo & ~own_lo
            u_hi = deck[w, 1] & ~pl_hi & ~own_hi
            ntrick = d_ntrick[d]
            led = d_led[d]
            nlegal = _legal(hand_lo, hand_hi, led, ntrick > 0, ruleset, cards, legal)
            action = d_action[d]
            index = -1
            for a in range(nlegal):
                if legal[a] == action:
                    index = a
            if index < 0:
                total = -math.inf  # this world's cards could not have made that play
                break
            if nlegal == 1:
                continue
            play_costs(players, partnership, j, half, hand_lo, hand_hi, fut_lo, fut_hi,
                       team_lo, team_hi, ph_lo, ph_hi, u_lo, u_hi, d_trick_seats[d],
                       d_trick_cards[d], ntrick, led, d_piles[d], d_sizes[d], legal, nlegal,
                       ruleset, fval, pile, cc_fixed, cc_base, cc_sure, cc_trump,
                       trump_risk, partner_var, costs)
            for a in range(nlegal):
                z[a] = -costs[a] / play_temperature
            total += _log_mix(z, nlegal, index, noise)
        out[w] = total
    return out
