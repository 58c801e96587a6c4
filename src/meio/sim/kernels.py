"""The compiled MEIO core: one round or match played on a flat ``int32`` array.

Every kernel of the simulator lives in this one module on purpose: numba's disk
cache (``cache=True``) keys a compiled function on the source file it comes
from, not on the files of the functions it calls, so kernels split across
modules could run stale machine code after an edit of a callee. The one rule
compiled from elsewhere, the engine's trick winner (:data:`trick_rule`), is
watched by its digest (:data:`TRICK_RULE_DIGEST`, :data:`CACHE`).

A *position* is one ``int32`` array of :data:`STATE_LEN` slots (offsets below).
Cards are the engine's ids ``0..64`` and play actions the engine's action ints
(``0..82``); a split is six card ids. ``cfg`` is ``[players, partnership,
edition (0 meio, 1 classic)]``; ``val2[half - 1, card]`` the doubled card values
(``+.5`` is relative and worked out in the trick); ``strength[half - 1, card]``
the heuristic's estimate of how often a card takes a trick in that half.
The table option ``wild_lead`` (RULES.md §10) lives in the position itself
(slot :data:`WILD_NEXT`: 0 ``declare``, 1 ``next``), so a position carries the
rules it is played under; under ``next`` the led suit stays -1 while the trick
holds only wilds and the first non-wild card sets it.
Random numbers come from a splitmix64 stream held in a one-slot ``uint64``
array, so results depend on the seed alone, never on threads or job count.
"""

from __future__ import annotations

import hashlib
import inspect
from collections.abc import Callable

import numpy as np
from numba import njit

from meio.engine.tricks import winning_index


def rule_digest(rule: Callable[..., object]) -> str:
    """A short digest of an engine rule compiled into the kernels: its source and the
    values of the constants it reads (numba freezes a global's value into the machine
    code: a tuple of its module, or a constant of a module it reads, such as
    ``C.HEARTS``)."""
    code = rule.__code__
    found: dict[str, object] = getattr(rule, "__globals__", {})
    modules = [v for v in found.values() if inspect.ismodule(v)]
    parts = [inspect.getsource(rule)]
    for name in code.co_names:
        value = found.get(name)
        if value is None:
            value = next((getattr(m, name) for m in modules if hasattr(m, name)), None)
        if isinstance(value, (int, tuple)):
            parts.append(f"{name}={value!r}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


#: numba caches a kernel keyed on its own file, so the machine code cached for this
#: file holds the engine's trick rule as it was when this file last changed. This is
#: the digest (:func:`rule_digest`) of that rule's source; after an edit of
#: :func:`meio.engine.tricks.winning_index`, tests/sim/test_trick_rule.py names the new
#: digest to write here (and in :mod:`meio.bots.likelihood`), and until then
#: :data:`CACHE` is False: the kernels compile afresh rather than run stale code.
TRICK_RULE_DIGEST = "848953b28dd3ae52"
CACHE = rule_digest(winning_index) == TRICK_RULE_DIGEST

#: the engine's trick rule (:func:`meio.engine.tricks.winning_index`) compiled for the
#: kernels: the same function object, not a copy
#: (typed loosely: the kernels pass it arrays where the engine passes sequences)
trick_rule: Callable[..., tuple[int, int]] = njit(cache=CACHE, inline="always")(winning_index)

# -- layout of a position ------------------------------------------------------------------
HAND = 0  # [5][13] cards in play this half (all 13 before the seat's split)
HAND_N = 65  # [5]
PACK = 70  # [5][6] the pack each seat chose
PACK_N = 100  # [5] 0 before the split, then 6
PILES = 105  # [5][2] H and V
TRICK = 115  # [5] cards of the trick in progress, in play order
TRICK_N = 120
PHASE = 121
HALF = 122
TRICK_NO = 123  # 1..13
TRICK_LEADER = 124
TO_MOVE = 125
LED = 126
PENDING = 127
ROUND_LEADER = 128
SPLIT_N = 129
SPLIT_ORDER = 130  # [5] seats in the order they split
DEAL = 135  # [5][13] the dealt cards
WINNERS = 200  # [13] winner of each completed trick
PILE_OF = 213  # [13] pile (1, 2) of each completed trick
NPLAYS = 226
PLAYS = 227  # [MAX_PLAYS] the round's play and pile actions
MAX_PLAYS = 80
WILD_NEXT = PLAYS + MAX_PLAYS  # 1 under wild_lead "next": a led wild declares no suit
STATE_LEN = WILD_NEXT + 1

SPLIT, PLAY, PILE_PHASE, OVER, ROUND_DONE = 0, 1, 2, 3, 4
MINUS_ONE, A_PLUS, MINUS_TWO_H, PLUS_HALF, Q_PLUS = 60, 61, 62, 63, 64
PILE_1, PILE_2 = 81, 82
POLICY_RANDOM, POLICY_HEURISTIC = 0, 1
MAX_ROUNDS = 3

SUIT_OF = np.array([c // 15 for c in range(60)] + [-1, -1, 1, -1, -1], dtype=np.int32)
SLOT_WILD = np.array([MINUS_ONE, A_PLUS, PLUS_HALF, Q_PLUS], dtype=np.int32)
WILD_SLOT = np.array([-1] * 60 + [0, 1, -1, 2, 3], dtype=np.int32)

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


# -- random numbers ------------------------------------------------------------------------
@njit(cache=CACHE)
def _next(rng: np.ndarray) -> np.uint64:
    rng[0] += _GOLDEN
    z = rng[0]
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return np.uint64(z ^ (z >> np.uint64(31)))


@njit(cache=CACHE)
def _below(rng: np.ndarray, n: int) -> int:
    """A uniform int in ``0..n-1`` (multiply-shift: no division)."""
    return int(((_next(rng) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=CACHE)
def _unit(rng: np.ndarray) -> float:
    return float(_next(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=CACHE)
def seed_stream(rng: np.ndarray, seed: int, a: int, b: int) -> None:
    """Point ``rng`` at the stream of ``(seed, a, b)``; streams do not overlap in use."""
    rng[0] = np.uint64(seed & 0x7FFFFFFFFFFFFFFF)
    _next(rng)
    rng[0] ^= np.uint64(a & 0x7FFFFFFFFFFFFFFF) * _MIX1
    _next(rng)
    rng[0] ^= np.uint64(b & 0x7FFFFFFFFFFFFFFF) * _MIX2
    _next(rng)


# -- rules ---------------------------------------------------------------------------------
@njit(cache=CACHE)
def start_round(
    s: np.ndarray, players: int, hands: np.ndarray, leader: int, wild_next: int = 0
) -> None:
    """Reset ``s`` to the split of a round dealt ``hands[seat, 0..12]``, played
    under ``wild_lead`` ``next`` when ``wild_next`` is 1."""
    s[:] = 0
    s[WILD_NEXT] = wild_next
    for p in range(players):
        for i in range(13):
            s[HAND + 13 * p + i] = hands[p, i]
            s[DEAL + 13 * p + i] = hands[p, i]
        s[HAND_N + p] = 13
    s[PHASE] = SPLIT
    s[HALF] = 1
    s[TRICK_NO] = 1
    s[TRICK_LEADER] = leader
    s[LED] = -1
    s[PENDING] = -1
    s[ROUND_LEADER] = leader


@njit(cache=CACHE)
def legal_actions(s: np.ndarray, out: np.ndarray) -> int:
    """Write the legal play or pile actions of the seat to act into ``out``; return how many."""
    if s[PHASE] == PILE_PHASE:
        out[0] = PILE_1
        out[1] = PILE_2
        return 2
    seat = s[TO_MOVE]
    base = HAND + 13 * seat
    n = s[HAND_N + seat]
    k = 0
    led = s[LED]
    if s[TRICK_N] == 0 and s[WILD_NEXT] == 0:
        for i in range(n):
            c = s[base + i]
            slot = WILD_SLOT[c]
            if slot >= 0:
                for suit in range(4):
                    out[k] = 65 + 4 * slot + suit
                    k += 1
            else:
                out[k] = c
                k += 1
        return k
    if led < 0:  # a lead under "next", or a trick of wilds only: any card, as itself
        for i in range(n):
            out[k] = s[base + i]
            k += 1
        return k
    follow = False
    for i in range(n):
        if SUIT_OF[s[base + i]] == led:
            follow = True
            break
    for i in range(n):
        c = s[base + i]
        if not follow or SUIT_OF[c] == led or SUIT_OF[c] < 0:
            out[k] = c
            k += 1
    return k


@njit(cache=CACHE)
def apply_split(s: np.ndarray, players: int, seat: int, pack: np.ndarray) -> None:
    """Seat keeps the six cards of ``pack`` for the second half (unchecked)."""
    base = HAND + 13 * seat
    for j in range(6):
        c = pack[j]
        s[PACK + 6 * seat + j] = c
        n = s[HAND_N + seat]
        for i in range(n):
            if s[base + i] == c:
                s[base + i] = s[base + n - 1]
                s[HAND_N + seat] = n - 1
                break
    s[PACK_N + seat] = 6
    s[SPLIT_ORDER + s[SPLIT_N]] = seat
    s[SPLIT_N] += 1
    if s[SPLIT_N] == players:
        s[PHASE] = PLAY
        s[TO_MOVE] = s[ROUND_LEADER]
        s[TRICK_LEADER] = s[ROUND_LEADER]


@njit(cache=CACHE)
def _finish_trick(s: np.ndarray, cfg: np.ndarray, pile: int) -> None:
    players = cfg[0]
    t = s[TRICK_NO] - 1
    winner = s[WINNERS + t]
    s[PILE_OF + t] = pile
    s[PILES + 2 * winner + pile - 1] += 1
    s[TRICK_N] = 0
    s[LED] = -1
    s[PENDING] = -1
    s[PHASE] = PLAY
    s[TRICK_NO] += 1
    s[TO_MOVE] = winner
    s[TRICK_LEADER] = winner
    if s[TRICK_NO] == 8:
        s[HALF] = 2
        for p in range(players):
            src = (p + 2) % 4 if cfg[1] else p
            for j in range(6):
                s[HAND + 13 * p + j] = s[PACK + 6 * src + j]
            s[HAND_N + p] = 6
    elif s[TRICK_NO] == 14:
        s[PHASE] = ROUND_DONE


@njit(cache=CACHE)
def trick_winner(s: np.ndarray, n: int, half: int, val2: np.ndarray) -> int:
    """Index among the first ``n`` cards of the current trick of the card winning so far.

    With no led suit yet (``next``: only wilds so far) the first non-wild card among
    the ``n`` sets it, as it would in play; if there is none every card is wild and
    the highest value wins (ties: the first played): :data:`trick_rule`."""
    led = s[LED]
    if led < 0:
        for i in range(n):
            if SUIT_OF[s[TRICK + i]] >= 0:
                led = SUIT_OF[s[TRICK + i]]
                break
    best, _ = trick_rule(s[TRICK : TRICK + n], led, val2[half - 1])
    return best


@njit(cache=CACHE)
def apply_action(s: np.ndarray, cfg: np.ndarray, val2: np.ndarray, action: int) -> None:
    """Apply a play, declare or pile action (unchecked) and log it."""
    s[PLAYS + s[NPLAYS]] = action
    s[NPLAYS] += 1
    if s[PHASE] == PILE_PHASE:
        _finish_trick(s, cfg, 1 if action == PILE_1 else 2)
        return
    players = cfg[0]
    seat = s[TO_MOVE]
    if action < 65:
        card = action
        suit = SUIT_OF[card]
    else:
        card = SLOT_WILD[(action - 65) >> 2]
        suit = (action - 65) & 3
    base = HAND + 13 * seat
    n = s[HAND_N + seat]
    for i in range(n):
        if s[base + i] == card:
            s[base + i] = s[base + n - 1]
            s[HAND_N + seat] = n - 1
            break
    if s[TRICK_N] == 0:
        s[LED] = suit  # -1 for a wild led under "next"
        s[TRICK_LEADER] = seat
    elif s[LED] < 0:
        s[LED] = suit  # "next": the first non-wild card sets the led suit
    s[TRICK + s[TRICK_N]] = card
    s[TRICK_N] += 1
    if s[TRICK_N] < players:
        s[TO_MOVE] = (seat + 1) % players
        return
    half = s[HALF]
    best = trick_winner(s, players, half, val2)
    winner = (s[TRICK_LEADER] + best) % players
    s[WINNERS + s[TRICK_NO] - 1] = winner
    wcard = s[TRICK + best]
    if wcard == PLUS_HALF:
        s[PHASE] = PILE_PHASE
        s[PENDING] = winner
    else:
        _finish_trick(s, cfg, 3 - half if wcard == Q_PLUS else half)


@njit(cache=CACHE)
def round_scores(s: np.ndarray, cfg: np.ndarray, out: np.ndarray) -> None:
    """Each seat's |H - V|; in partnership each seat gets its team's score."""
    players = cfg[0]
    for p in range(players):
        h = s[PILES + 2 * p]
        v = s[PILES + 2 * p + 1]
        if cfg[1]:
            q = (p + 2) % 4
            h += s[PILES + 2 * q]
            v += s[PILES + 2 * q + 1]
        out[p] = abs(h - v)


# -- policies ------------------------------------------------------------------------------
@njit(cache=CACHE)
def _random_split(s: np.ndarray, seat: int, rng: np.ndarray, pack: np.ndarray) -> None:
    base = HAND + 13 * seat  # the order of a hand means nothing: shuffle it in place
    for j in range(6):
        k = base + j + _below(rng, 13 - j)
        tmp = s[base + j]
        s[base + j] = s[k]
        s[k] = tmp
        pack[j] = s[base + j]


@njit(cache=CACHE)
def _heuristic_split(
    s: np.ndarray, seat: int, strength: np.ndarray, rng: np.ndarray, pack: np.ndarray
) -> None:
    """Greedy: strongest cards first, each to the half that keeps the expected tricks
    of the two halves closest (``Q+`` counts for the other half's pile, ``+.5`` for
    neither); a little noise keeps playouts from all being the same."""
    cards = s[HAND + 13 * seat : HAND + 13 * seat + 13].copy()
    key = np.empty(13)
    for i in range(13):
        c = cards[i]
        key[i] = -max(strength[0, c], strength[1, c]) - 0.1 * _unit(rng)
    order = np.argsort(key)
    sum_h = 0.0
    sum_v = 0.0
    n_hand = 0
    n_pack = 0
    for i in order:
        c = cards[i]
        to_hand = False
        if n_pack == 6:
            to_hand = True
        elif n_hand == 7:
            to_hand = False
        elif c == PLUS_HALF:
            to_hand = 7 - n_hand >= 6 - n_pack
        else:
            a = strength[0, c]
            b = strength[1, c]
            if c == Q_PLUS:
                gap_hand = abs(sum_h - (sum_v + a))
                gap_pack = abs(sum_h + b - sum_v)
            else:
                gap_hand = abs(sum_h + a - sum_v)
                gap_pack = abs(sum_h - (sum_v + b))
            to_hand = gap_hand <= gap_pack
            if to_hand:
                if c == Q_PLUS:
                    sum_v += a
                else:
                    sum_h += a
            elif c == Q_PLUS:
                sum_h += b
            else:
                sum_v += b
        if to_hand:
            n_hand += 1
        else:
            pack[n_pack] = c
            n_pack += 1


@njit(cache=CACHE, inline="always")
def _side_balance(s: np.ndarray, cfg: np.ndarray, strength: np.ndarray, seat: int) -> float:
    """Expected final H - V of the seat's side, from what the seat may know: the
    piles, its own cards, its own pack (and in partnership the pack it received)."""
    players = cfg[0]
    half = s[HALF]
    part = cfg[1] != 0
    partner = (seat + 2) % 4 if part else seat
    h = float(s[PILES + 2 * seat])
    v = float(s[PILES + 2 * seat + 1])
    if part:
        h += s[PILES + 2 * partner]
        v += s[PILES + 2 * partner + 1]
    sign = 1.0 if half == 1 else -1.0
    bal = h - v
    for i in range(s[HAND_N + seat]):
        c = s[HAND + 13 * seat + i]
        if c != PLUS_HALF:
            x = strength[half - 1, c]
            bal += -sign * x if c == Q_PLUS else sign * x
    if part:
        # the partner's cards of this half are unknown: an average share of tricks
        bal += sign * s[HAND_N + partner] / players
    if half == 1:
        seats = 2 if part else 1
        for k in range(seats):
            p = seat if k == 0 else partner
            for j in range(6):
                c = s[PACK + 6 * p + j]
                if c != PLUS_HALF:
                    x = strength[1, c]
                    bal += x if c == Q_PLUS else -x
    return bal


@njit(cache=CACHE, inline="always")
def _card_share(c: int, half: int, strength: np.ndarray) -> float:
    """A card's signed contribution to the side's expected H - V in ``half``."""
    if c == PLUS_HALF:
        return 0.0
    x = strength[half - 1, c]
    if c == Q_PLUS:
        x = -x
    return float(x) if half == 1 else -float(x)


@njit(cache=CACHE, inline="always")
def _heuristic_play(
    s: np.ndarray,
    cfg: np.ndarray,
    val2: np.ndarray,
    strength: np.ndarray,
    legal: np.ndarray,
    n: int,
) -> int:
    """Choose the play that leaves the side's expected |H - V| smallest.

    Each candidate card stops counting towards the future (``_card_share``) and
    may take this trick: for certain when playing last, with a probability
    estimated from its strength otherwise."""
    players = cfg[0]
    seat = s[TO_MOVE]
    half = s[HALF]
    bal = _side_balance(s, cfg, strength, seat)
    k = s[TRICK_N]
    last = k == players - 1
    part = cfg[1] != 0
    best = 0
    best_u = -1e18
    best_tie = 0.0
    for i in range(n):
        a = legal[i]
        card = a if a < 65 else SLOT_WILD[(a - 65) >> 2]
        if a >= 65 and (a - 65) & 3 != 1 and strength[half - 1, card] > 0.5:
            continue  # a strong wild leads as a trump
        if a >= 65 and (a - 65) & 3 == 1 and strength[half - 1, card] <= 0.5:
            continue  # a weak wild leads in a plain suit
        base = bal - _card_share(card, half, strength)
        x = strength[half - 1, card]
        if k == 0:
            p = min(x, 1.0)
            win_card = card
        else:
            s[TRICK + k] = card  # tried in the free slot; TRICK_N is left as it was
            w = trick_winner(s, k + 1, half, val2)
            wseat = (s[TRICK_LEADER] + w) % players
            mine = wseat == seat or (part and wseat == (seat + 2) % 4)
            win_card = s[TRICK + w]
            if not mine:
                p = 0.0
            elif last:
                p = 1.0
            else:
                p = max(min(strength[half - 1, win_card], 1.0), 0.5)
        if win_card == PLUS_HALF:
            gain = min(abs(base + 1.0), abs(base - 1.0))
        elif (win_card == Q_PLUS) == (half == 1):
            gain = abs(base - 1.0)
        else:
            gain = abs(base + 1.0)
        u = -(p * gain + (1.0 - p) * abs(base))
        tie = -x if p > 0.0 else x
        if u > best_u + 1e-9 or (abs(u - best_u) <= 1e-9 and tie > best_tie):
            best = a
            best_u = u
            best_tie = tie
    return best


@njit(cache=CACHE, inline="always")
def choose_action(
    s: np.ndarray,
    cfg: np.ndarray,
    val2: np.ndarray,
    strength: np.ndarray,
    policy: int,
    epsilon: float,
    rng: np.ndarray,
    legal: np.ndarray,
) -> int:
    """The policy's play, declare or pile action for the seat to act."""
    n = legal_actions(s, legal)
    if policy == POLICY_RANDOM or _unit(rng) < epsilon:
        return int(legal[_below(rng, n)])
    if s[PHASE] == PILE_PHASE:
        bal = _side_balance(s, cfg, strength, s[PENDING])
        return PILE_1 if abs(bal + 1.0) <= abs(bal - 1.0) else PILE_2
    return _heuristic_play(s, cfg, val2, strength, legal, n)


@njit(cache=CACHE)
def choose_split(
    s: np.ndarray, seat: int, strength: np.ndarray, policy: int, rng: np.ndarray, pack: np.ndarray
) -> None:
    """The policy's six-card pack for ``seat``."""
    if policy == POLICY_RANDOM:
        _random_split(s, seat, rng, pack)
    else:
        _heuristic_split(s, seat, strength, rng, pack)


@njit(cache=CACHE)
def play_out(
    s: np.ndarray,
    cfg: np.ndarray,
    val2: np.ndarray,
    strength: np.ndarray,
    policy: int,
    epsilon: float,
    rng: np.ndarray,
    legal: np.ndarray,
    pack: np.ndarray,
) -> None:
    """Play the rest of the round (splits still due included) with the policy."""
    players = cfg[0]
    if s[PHASE] == SPLIT:
        for p in range(players):
            if s[PACK_N + p] == 0:
                choose_split(s, p, strength, policy, rng, pack)
                apply_split(s, players, p, pack)
    if policy == POLICY_RANDOM:
        # the same draws as choose_action, without its call: passing its arrays costs
        # reference counting on every card, which doubled the time of a random round
        while s[PHASE] != ROUND_DONE:
            n = legal_actions(s, legal)
            apply_action(s, cfg, val2, int(legal[_below(rng, n)]))
        return
    while s[PHASE] != ROUND_DONE:
        a = choose_action(s, cfg, val2, strength, policy, epsilon, rng, legal)
        apply_action(s, cfg, val2, a)


# -- batches -------------------------------------------------------------------------------
@njit(cache=CACHE)
def _next_leader(s: np.ndarray, cfg: np.ndarray, rng: np.ndarray, scores: np.ndarray) -> int:
    """A seat allowed to lead the next round, drawn at random among the allowed.

    ``scores`` (at least one slot a seat) is scratch: it gets the round's scores, so
    that a caller compiled without numba's runtime can use this (it allocates nothing)."""
    players = cfg[0]
    round_scores(s, cfg, scores)
    top = scores[0]
    for p in range(1, players):
        top = max(top, scores[p])
    n = 0
    for p in range(players):
        if scores[p] == top:
            n += 1
    pick = _below(rng, n)
    for p in range(players):
        if scores[p] == top:
            if pick == 0:
                return p
            pick -= 1
    return 0


@njit(cache=CACHE)
def _copy_round(s: np.ndarray, players: int, g: int, r: int, deals: np.ndarray,
                splits: np.ndarray, orders: np.ndarray, plays: np.ndarray, nplays: np.ndarray,
                tricks: np.ndarray) -> None:
    for p in range(players):
        for i in range(13):
            deals[g, r, p, i] = s[DEAL + 13 * p + i]
        for j in range(6):
            splits[g, r, p, j] = s[PACK + 6 * p + j]
        orders[g, r, p] = s[SPLIT_ORDER + p]
    nplays[g, r] = s[NPLAYS]
    for i in range(s[NPLAYS]):
        plays[g, r, i] = s[PLAYS + i]
    for t in range(13):
        tricks[g, r, 0, t] = s[WINNERS + t]
        tricks[g, r, 1, t] = s[PILE_OF + t]


@njit(cache=CACHE)
def simulate_games(
    cfg: np.ndarray,
    val2: np.ndarray,
    strength: np.ndarray,
    deck: np.ndarray,
    first: int,
    count: int,
    seed: int,
    policy: int,
    epsilon: float,
    one_round: bool,
    record: bool,
    wild_next: int,
    rounds_played: np.ndarray,
    piles: np.ndarray,
    leaders: np.ndarray,
    deals: np.ndarray,
    asides: np.ndarray,
    splits: np.ndarray,
    orders: np.ndarray,
    plays: np.ndarray,
    nplays: np.ndarray,
    tricks: np.ndarray,
) -> int:
    """Play games ``first .. first + count - 1`` (a whole match each, or one round);
    game ``i`` draws from its own stream, so a batch split over jobs gives the same
    games. Writes row ``i - first`` of each output; returns the cards played.

    A match is 3 rounds on totals, except in partnership and with 2 players in
    the ``meio`` edition (``cfg[2] == 0``), which run until a side has 2 victories;
    2-player ``classic`` is 3 rounds on totals (RULES.md §6)."""
    players = cfg[0]
    part = cfg[1] != 0
    s = np.zeros(STATE_LEN, dtype=np.int32)
    rng = np.zeros(1, dtype=np.uint64)
    legal = np.zeros(32, dtype=np.int32)
    pack = np.zeros(6, dtype=np.int32)
    hands = np.zeros((5, 13), dtype=np.int32)
    scores = np.zeros(5, dtype=np.int32)
    cards = deck.copy()
    nd = deck.shape[0]
    played = 0
    for g in range(count):
        seed_stream(rng, seed, first + g, 0)
        leader = _below(rng, players)
        wins = np.zeros(players, dtype=np.int32)
        r = 0
        while True:
            cards[:] = deck  # each deal depends on the game's stream alone
            for i in range(nd - 1, 0, -1):
                j = _below(rng, i + 1)
                tmp = cards[i]
                cards[i] = cards[j]
                cards[j] = tmp
            for p in range(players):
                for i in range(13):
                    hands[p, i] = cards[13 * p + i]
            start_round(s, players, hands, leader, wild_next)
            play_out(s, cfg, val2, strength, policy, epsilon, rng, legal, pack)
            played += 13 * players
            leaders[g, r] = leader
            for p in range(players):
                piles[g, r, p, 0] = s[PILES + 2 * p]
                piles[g, r, p, 1] = s[PILES + 2 * p + 1]
            if record:
                for i in range(13 * players, nd):
                    asides[g, r, i - 13 * players] = cards[i]
                _copy_round(s, players, g, r, deals, splits, orders, plays, nplays, tricks)
            r += 1
            if one_round:
                break
            if part:
                t0 = abs(s[PILES] + s[PILES + 4] - s[PILES + 1] - s[PILES + 5])
                t1 = abs(s[PILES + 2] + s[PILES + 6] - s[PILES + 3] - s[PILES + 7])
                wins[0 if t0 < t1 else 1] += 1
                if wins.max() >= 2:
                    break
            elif players == 2 and cfg[2] == 0:  # 2-player classic: 3 rounds on totals
                s0 = abs(s[PILES] - s[PILES + 1])
                s1 = abs(s[PILES + 2] - s[PILES + 3])
                wins[0 if s0 < s1 else 1] += 1
                if wins.max() >= 2:
                    break
            elif r == MAX_ROUNDS:
                break
            leader = _next_leader(s, cfg, rng, scores)
        rounds_played[g] = r
    return played


@njit(cache=CACHE)
def evaluate(
    cfg: np.ndarray,
    val2: np.ndarray,
    strength: np.ndarray,
    worlds: np.ndarray,
    kinds: np.ndarray,
    values: np.ndarray,
    packs: np.ndarray,
    seat: int,
    playouts: int,
    seed: int,
    policy: int,
    epsilon: float,
) -> np.ndarray:
    """Mean final round score of each seat after each candidate action.

    ``kinds[a]`` is 1 for a split (the six cards ``packs[a]`` for ``seat``), 0 for a
    play, declare or pile action ``values[a]``. Every action is played out on the
    same random streams (one per world and playout), so differences between
    actions are not drowned in the noise of different deals of luck."""
    players = cfg[0]
    n_actions = kinds.shape[0]
    n_worlds = worlds.shape[0]
    out = np.zeros((n_actions, players))
    s = np.zeros(STATE_LEN, dtype=np.int32)
    rng = np.zeros(1, dtype=np.uint64)
    legal = np.zeros(32, dtype=np.int32)
    pack = np.zeros(6, dtype=np.int32)
    scores = np.zeros(players, dtype=np.int32)
    for a in range(n_actions):
        for w in range(n_worlds):
            for k in range(playouts):
                s[:] = worlds[w]
                seed_stream(rng, seed, w, k)
                if kinds[a] == 1:
                    apply_split(s, players, seat, packs[a])
                else:
                    apply_action(s, cfg, val2, values[a])
                play_out(s, cfg, val2, strength, policy, epsilon, rng, legal, pack)
                round_scores(s, cfg, scores)
                for p in range(players):
                    out[a, p] += scores[p]
    total = n_worlds * playouts
    for a in range(n_actions):
        for p in range(players):
            out[a, p] /= total
    return out


@njit(cache=CACHE)
def replay_actions(
    s: np.ndarray, cfg: np.ndarray, val2: np.ndarray, actions: np.ndarray, seats: np.ndarray,
    packs: np.ndarray
) -> int:
    """Apply scripted actions in order, checking each is legal in the core's own rules.

    ``seats[i]`` is the acting seat, ``actions[i]`` a play/declare/pile action or -1
    for the split ``packs[i]``. Stops at the end of the round. Returns the number of
    actions applied, or ``-(i + 1)`` when action ``i`` is not legal for the core."""
    players = cfg[0]
    legal = np.zeros(32, dtype=np.int32)
    for i in range(actions.shape[0]):
        if s[PHASE] == ROUND_DONE:
            return i
        if actions[i] < 0:
            if s[PHASE] != SPLIT or s[PACK_N + seats[i]] != 0:
                return -(i + 1)
            apply_split(s, players, seats[i], packs[i])
            continue
        if s[PHASE] == SPLIT:
            return -(i + 1)
        acting = s[PENDING] if s[PHASE] == PILE_PHASE else s[TO_MOVE]
        if acting != seats[i]:
            return -(i + 1)
        n = legal_actions(s, legal)
        ok = False
        for j in range(n):
            if legal[j] == actions[i]:
                ok = True
        if not ok:
            return -(i + 1)
        apply_action(s, cfg, val2, actions[i])
    return int(actions.shape[0])
