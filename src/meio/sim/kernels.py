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

A rule variant (docs/variants.md) is played by the ``v_*`` kernels at the end, from
data (``vcfg`` and a ``rules`` table, :func:`meio.sim.tables.variant_tables_for`) on a
wider position (``V_*`` offsets); the standard editions keep the kernels above, whose
machine code the variants left as it was. Over 1,000 lines for the reason above: the
two sets share the random stream, and numba's cache keys on this file.
"""

from __future__ import annotations

import hashlib
import inspect
from collections.abc import Callable

import numpy as np
from numba import njit

from meio.engine.tricks import RELATIVE, winning_index


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
TRICK_RULE_DIGEST = "4de23e73bed47061"
#: the same for the variants' trick rule (:func:`meio.engine.tricks.table_winning_index`)
TABLE_RULE_DIGEST = "4de23e73bed47061"
CACHE = (
    rule_digest(winning_index) == TRICK_RULE_DIGEST
    and rule_digest(winning_index) == TABLE_RULE_DIGEST
)

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
    best, _ = trick_rule(s[TRICK : TRICK + n], led, val2[half - 1], SUIT_OF, 1)  # trump: H
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


# -- variants ------------------------------------------------------------------------------
# A variant (docs/variants.md) is played by the kernels below, from data: ``vcfg`` holds
# its numbers and ``rules`` its card facts, so one compilation plays every variant. Its
# position is wider than a standard one (hands of up to 15 cards, packs of up to 14),
# and its hands and packs are kept sorted by card id, so that its legal actions come
# in the engine's order and the heuristic reads its cards in the engine's order (the
# variant heuristic is :mod:`meio.bots.variant_play`'s rule, move for move, and its
# float sums depend on that order).

#: the trick rule of a variant's card tables (:func:`meio.engine.tricks.table_winning_index`)
#: compiled for the kernels: the same function object, watched by :data:`TABLE_RULE_DIGEST`
table_trick_rule: Callable[..., tuple[int, int]] = njit(cache=CACHE, inline="always")(
    winning_index
)

V_HAND_MAX = 15
V_PACK_MAX = 14
V_HAND = 0  # [5][15] cards in play this half, sorted
V_HAND_N = 75  # [5]
V_PACK = 80  # [5][14] the pack each seat chose, sorted
V_PACK_N = 150  # [5]
V_PILES = 155  # [5][2]
V_TRICK = 165  # [5]
V_TRICK_N = 170
V_PHASE = 171
V_HALF = 172
V_TRICK_NO = 173  # 1..hand
V_TRICK_LEADER = 174
V_TO_MOVE = 175
V_LED = 176
V_PENDING = 177
V_ROUND_LEADER = 178
V_SPLIT_N = 179
V_DEAL = 180  # [5][15]
V_WINNERS = 255  # [15]
V_PILE_OF = 270  # [15]
V_NPLAYS = 285
V_PLAYS = 286  # [V_MAX_PLAYS]
V_MAX_PLAYS = 5 * V_HAND_MAX + V_HAND_MAX  # every card, and a pile choice after each trick
V_STATE_LEN = V_PLAYS + V_MAX_PLAYS

# vcfg: the variant's numbers
VC_PLAYERS = 0
VC_PART = 1
VC_HAND = 2
VC_FIRST = 3  # tricks of the first half
VC_PACK = 4
VC_TRUMP = 5  # -1: none
VC_SCORING = 6  # 0 |H - V|, 1 |H - V| with -bonus for H = V, 2 (H - V)²
VC_BONUS = 7
VC_FORM = 8  # 0 totals, 1 victories
VC_ROUNDS = 9
VC_TO_WIN = 10
VC_SHARED = 11
VC_LEADER = 12  # 0 most points, 1 last trick, 2 rotate
VC_WILD_NEXT = 13
VC_ROUND_LIMIT = 14  # a victories match ends after this many rounds at the latest
VC_LEN = 15

# rules[row, card]: rows 0 and 1 the doubled values of each half (RELATIVE: 0.5 above
# the card before), row 2 the suit (-1 wild), row 3 the flags below
R_SUIT = 2
R_FLAGS = 3
R_ROWS = 4
F_WILD = 1  # follows any suit; led under "declare" it declares one
F_FREE = 2  # may be played on any trick (the wilds, the suited cards that do not follow)
F_PILE_SHIFT = 2  # (flags >> 2) & 3: 0 its half's pile, 1 the winner chooses, 2 the other


@njit(cache=CACHE)
def v_start_round(s: np.ndarray, vcfg: np.ndarray, hands: np.ndarray, leader: int) -> None:
    """Reset ``s`` to the split of a variant round dealt ``hands[seat, :hand]`` (sorted)."""
    s[:] = 0
    k = vcfg[VC_HAND]
    for p in range(vcfg[VC_PLAYERS]):
        for i in range(k):
            s[V_HAND + V_HAND_MAX * p + i] = hands[p, i]
            s[V_DEAL + V_HAND_MAX * p + i] = hands[p, i]
        s[V_HAND_N + p] = k
    s[V_PHASE] = SPLIT
    s[V_HALF] = 1
    s[V_TRICK_NO] = 1
    s[V_TRICK_LEADER] = leader
    s[V_LED] = -1
    s[V_PENDING] = -1
    s[V_ROUND_LEADER] = leader


@njit(cache=CACHE)
def v_legal_actions(s: np.ndarray, vcfg: np.ndarray, rules: np.ndarray, out: np.ndarray) -> int:
    """The legal play or pile actions of the seat to act, in the engine's order."""
    if s[V_PHASE] == PILE_PHASE:
        out[0] = PILE_1
        out[1] = PILE_2
        return 2
    seat = s[V_TO_MOVE]
    base = V_HAND + V_HAND_MAX * seat
    n = s[V_HAND_N + seat]
    k = 0
    led = s[V_LED]
    if s[V_TRICK_N] == 0 and vcfg[VC_WILD_NEXT] == 0:
        for i in range(n):
            c = s[base + i]
            if rules[R_FLAGS, c] & F_WILD:
                for suit in range(4):
                    out[k] = 65 + 4 * WILD_SLOT[c] + suit
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
        c = s[base + i]
        if rules[R_SUIT, c] == led and not rules[R_FLAGS, c] & F_FREE:
            follow = True
            break
    for i in range(n):
        c = s[base + i]
        if not follow or rules[R_FLAGS, c] & F_FREE or rules[R_SUIT, c] == led:
            out[k] = c
            k += 1
    return k


@njit(cache=CACHE, inline="always")
def _v_remove(s: np.ndarray, base: int, count: int, card: int) -> None:
    """Take ``card`` out of the sorted run ``s[base : base + count]``, keeping it sorted."""
    j = 0
    while s[base + j] != card:
        j += 1
    for i in range(j, count - 1):
        s[base + i] = s[base + i + 1]


@njit(cache=CACHE)
def v_apply_split(s: np.ndarray, vcfg: np.ndarray, seat: int, pack: np.ndarray) -> None:
    """Seat keeps the cards of ``pack`` (``vcfg``'s pack size, sorted) for the second
    half (unchecked)."""
    base = V_HAND + V_HAND_MAX * seat
    for j in range(vcfg[VC_PACK]):
        c = pack[j]
        s[V_PACK + V_PACK_MAX * seat + j] = c
        _v_remove(s, base, s[V_HAND_N + seat], c)
        s[V_HAND_N + seat] -= 1
    s[V_PACK_N + seat] = vcfg[VC_PACK]
    s[V_SPLIT_N] += 1
    if s[V_SPLIT_N] == vcfg[VC_PLAYERS]:
        s[V_PHASE] = PLAY
        s[V_TO_MOVE] = s[V_ROUND_LEADER]
        s[V_TRICK_LEADER] = s[V_ROUND_LEADER]


@njit(cache=CACHE)
def _v_finish_trick(s: np.ndarray, vcfg: np.ndarray, pile: int) -> None:
    t = s[V_TRICK_NO] - 1
    winner = s[V_WINNERS + t]
    s[V_PILE_OF + t] = pile
    s[V_PILES + 2 * winner + pile - 1] += 1
    s[V_TRICK_N] = 0
    s[V_LED] = -1
    s[V_PENDING] = -1
    s[V_PHASE] = PLAY
    s[V_TRICK_NO] += 1
    s[V_TO_MOVE] = winner
    s[V_TRICK_LEADER] = winner
    if s[V_TRICK_NO] == vcfg[VC_FIRST] + 1:
        s[V_HALF] = 2
        pack = vcfg[VC_PACK]
        for p in range(vcfg[VC_PLAYERS]):
            src = (p + 2) % 4 if vcfg[VC_PART] else p
            for j in range(pack):
                s[V_HAND + V_HAND_MAX * p + j] = s[V_PACK + V_PACK_MAX * src + j]
            s[V_HAND_N + p] = pack
    elif s[V_TRICK_NO] == vcfg[VC_HAND] + 1:
        s[V_PHASE] = ROUND_DONE


@njit(cache=CACHE)
def v_trick_winner(s: np.ndarray, n: int, half: int, vcfg: np.ndarray, rules: np.ndarray) -> int:
    """Index among the first ``n`` cards of the current variant trick of the card winning
    so far (no led suit yet: the first non-wild card sets it, as in play)."""
    led = s[V_LED]
    if led < 0:
        for i in range(n):
            if rules[R_SUIT, s[V_TRICK + i]] >= 0:
                led = rules[R_SUIT, s[V_TRICK + i]]
                break
    best, _ = table_trick_rule(
        s[V_TRICK : V_TRICK + n], led, rules[half - 1], rules[R_SUIT], vcfg[VC_TRUMP]
    )
    return best


@njit(cache=CACHE)
def v_apply_action(s: np.ndarray, vcfg: np.ndarray, rules: np.ndarray, action: int) -> None:
    """Apply a play, declare or pile action of a variant round (unchecked) and log it."""
    s[V_PLAYS + s[V_NPLAYS]] = action
    s[V_NPLAYS] += 1
    if s[V_PHASE] == PILE_PHASE:
        _v_finish_trick(s, vcfg, 1 if action == PILE_1 else 2)
        return
    players = vcfg[VC_PLAYERS]
    seat = s[V_TO_MOVE]
    if action < 65:
        card = action
        suit = rules[R_SUIT, card]
    else:
        card = SLOT_WILD[(action - 65) >> 2]
        suit = (action - 65) & 3
    _v_remove(s, V_HAND + V_HAND_MAX * seat, s[V_HAND_N + seat], card)
    s[V_HAND_N + seat] -= 1
    if s[V_TRICK_N] == 0:
        s[V_LED] = suit
        s[V_TRICK_LEADER] = seat
    elif s[V_LED] < 0:
        s[V_LED] = suit
    s[V_TRICK + s[V_TRICK_N]] = card
    s[V_TRICK_N] += 1
    if s[V_TRICK_N] < players:
        s[V_TO_MOVE] = (seat + 1) % players
        return
    half = s[V_HALF]
    best = v_trick_winner(s, players, half, vcfg, rules)
    winner = (s[V_TRICK_LEADER] + best) % players
    s[V_WINNERS + s[V_TRICK_NO] - 1] = winner
    effect = (rules[R_FLAGS, s[V_TRICK + best]] >> F_PILE_SHIFT) & 3
    if effect == 1:
        s[V_PHASE] = PILE_PHASE
        s[V_PENDING] = winner
    else:
        _v_finish_trick(s, vcfg, 3 - half if effect == 2 else half)


@njit(cache=CACHE, inline="always")
def _v_balance(vcfg: np.ndarray, first: int, second: int) -> int:
    """:func:`meio.engine.scoring.balance_score` of piles of ``first`` and ``second``."""
    diff = abs(first - second)
    if vcfg[VC_SCORING] == 2:
        return diff * diff
    if vcfg[VC_SCORING] == 1 and diff == 0:
        return -int(vcfg[VC_BONUS])
    return diff


@njit(cache=CACHE)
def v_round_scores(s: np.ndarray, vcfg: np.ndarray, out: np.ndarray) -> None:
    """Each seat's score in the variant's form; in partnership its team's."""
    for p in range(vcfg[VC_PLAYERS]):
        h = s[V_PILES + 2 * p]
        v = s[V_PILES + 2 * p + 1]
        if vcfg[VC_PART]:
            q = (p + 2) % 4
            h += s[V_PILES + 2 * q]
            v += s[V_PILES + 2 * q + 1]
        out[p] = _v_balance(vcfg, h, v)


# the variant heuristic: meio.bots.variant_play's rule, written for the core
@njit(cache=CACHE, inline="always")
def _v_strength(card: int, half: int, vcfg: np.ndarray, rules: np.ndarray) -> float:
    if rules[half - 1, card] == RELATIVE:
        return 7.0
    value = float(rules[half - 1, card]) / 2
    suit = rules[R_SUIT, card]
    if suit >= 0 and suit == vcfg[VC_TRUMP]:
        value += 15.0
    elif suit < 0:
        value += 5.0
    return value


@njit(cache=CACHE, inline="always")
def _v_chance(card: int, half: int, vcfg: np.ndarray, rules: np.ndarray) -> float:
    x = (_v_strength(card, half, vcfg, rules) + 2.0) / 32.0
    x = min(1.0, max(0.0, x))
    return x * x


@njit(cache=CACHE, inline="always")
def _v_towards(card: int, half: int, rules: np.ndarray) -> int:
    effect = (rules[R_FLAGS, card] >> F_PILE_SHIFT) & 3
    if effect == 1:
        return 0
    pile = 3 - half if effect == 2 else half
    return 1 if pile == 1 else -1


@njit(cache=CACHE)
def _v_heuristic_split(
    s: np.ndarray, vcfg: np.ndarray, rules: np.ndarray, seat: int, pack: np.ndarray
) -> None:
    """:func:`meio.bots.variant_play.choose_pack`: strongest first (a stable order over
    the sorted hand), each card to the half expecting fewer tricks."""
    n = s[V_HAND_N + seat]
    base = V_HAND + V_HAND_MAX * seat
    order = np.empty(n, dtype=np.int32)
    key = np.empty(n)
    for i in range(n):
        c = s[base + i]
        key[i] = -max(_v_chance(c, 1, vcfg, rules), _v_chance(c, 2, vcfg, rules))
        j = i  # insertion sort: stable, as Python's sorted
        while j > 0 and key[order[j - 1]] > key[i]:
            order[j] = order[j - 1]
            j -= 1
        order[j] = i
    first = vcfg[VC_FIRST]
    size = vcfg[VC_PACK]
    kept = 0
    packed = 0
    e1 = 0.0
    e2 = 0.0
    for i in range(n):
        c = s[base + order[i]]
        room1 = kept < first
        room2 = packed < size
        d1 = _v_chance(c, 1, vcfg, rules) * _v_towards(c, 1, rules)
        d2 = _v_chance(c, 2, vcfg, rules) * _v_towards(c, 2, rules)
        if room1 and (not room2 or abs(e1 + d1 + e2) <= abs(e1 + e2 + d2)):
            kept += 1
            e1 += d1
        else:
            pack[packed] = c
            packed += 1
            e2 += d2
    for i in range(1, size):  # the pack, sorted
        c = pack[i]
        j = i
        while j > 0 and pack[j - 1] > c:
            pack[j] = pack[j - 1]
            j -= 1
        pack[j] = c


@njit(cache=CACHE)
def _v_projection(s: np.ndarray, vcfg: np.ndarray, rules: np.ndarray, seat: int) -> float:
    """:func:`meio.bots.variant_play._projection`: the expected final ``H - V`` of the
    seat's team from the piles and the seat's own cards."""
    h = s[V_PILES + 2 * seat]
    v = s[V_PILES + 2 * seat + 1]
    if vcfg[VC_PART]:
        q = (seat + 2) % 4
        h += s[V_PILES + 2 * q]
        v += s[V_PILES + 2 * q + 1]
    half = s[V_HALF]
    d = float(h - v)
    for i in range(s[V_HAND_N + seat]):
        c = s[V_HAND + V_HAND_MAX * seat + i]
        d += _v_chance(c, half, vcfg, rules) * _v_towards(c, half, rules)
    if half == 1:
        for j in range(s[V_PACK_N + seat]):
            c = s[V_PACK + V_PACK_MAX * seat + j]
            d += _v_chance(c, 2, vcfg, rules) * _v_towards(c, 2, rules)
    return d


@njit(cache=CACHE)
def _v_heuristic_play(
    s: np.ndarray, vcfg: np.ndarray, rules: np.ndarray, legal: np.ndarray, n: int
) -> int:
    """:func:`meio.bots.variant_play.choose_play`: behind in the pile of the half in
    play, win the trick; ahead, duck; a wild lead declares the suit held most."""
    players = vcfg[VC_PLAYERS]
    seat = s[V_TO_MOVE]
    half = s[V_HALF]
    projection = _v_projection(s, vcfg, rules, seat)
    k = s[V_TRICK_N]
    last = k == players - 1
    win_pick = -1
    win_x = 0.0
    lose_pick = -1
    lose_x = 0.0
    low_pick = -1
    low_x = 0.0
    for i in range(n):
        a = legal[i]
        card = a if a < 65 else SLOT_WILD[(a - 65) >> 2]
        x = _v_strength(card, half, vcfg, rules)
        wins = True
        if k > 0:
            led = s[V_LED] if s[V_LED] >= 0 else rules[R_SUIT, card]
            s[V_TRICK + k] = card  # tried in the free slot; V_TRICK_N is left as it was
            best, _ = table_trick_rule(
                s[V_TRICK : V_TRICK + k + 1], led, rules[half - 1], rules[R_SUIT],
                vcfg[VC_TRUMP],
            )
            wins = best == k
        towards = _v_towards(card, half, rules)
        helps = towards == 0 or (projection < 0) == (towards > 0)
        if wins and helps and (win_pick < 0 or (x < win_x if last else x > win_x)):
            win_pick = a
            win_x = x
        if not wins and (lose_pick < 0 or x > lose_x):
            lose_pick = a
            lose_x = x
        if low_pick < 0 or x < low_x:
            low_pick = a
            low_x = x
    pick = win_pick if win_pick >= 0 else (lose_pick if lose_pick >= 0 else low_pick)
    if pick >= 65:  # a wild lead: declare the suit it holds most of (the first such)
        held = np.zeros(5, dtype=np.int32)  # by the cards' printed suits; slot 4: none
        for i in range(s[V_HAND_N + seat]):
            suit = SUIT_OF[s[V_HAND + V_HAND_MAX * seat + i]]
            held[suit if suit >= 0 else 4] += 1
        card_slot = (pick - 65) >> 2
        best_count = -1
        for i in range(n):
            a = legal[i]
            if a >= 65 and (a - 65) >> 2 == card_slot and held[(a - 65) & 3] > best_count:
                best_count = held[(a - 65) & 3]
                pick = a
    return pick


@njit(cache=CACHE, inline="always")
def v_choose_action(
    s: np.ndarray, vcfg: np.ndarray, rules: np.ndarray, policy: int, rng: np.ndarray,
    legal: np.ndarray,
) -> int:
    """The policy's play, declare or pile action for the seat to act in a variant round."""
    n = v_legal_actions(s, vcfg, rules, legal)
    if policy == POLICY_RANDOM:
        return int(legal[_below(rng, n)])
    if s[V_PHASE] == PILE_PHASE:
        return PILE_1 if _v_projection(s, vcfg, rules, s[V_PENDING]) < 0 else PILE_2
    return _v_heuristic_play(s, vcfg, rules, legal, n)


@njit(cache=CACHE)
def v_choose_split(
    s: np.ndarray, vcfg: np.ndarray, rules: np.ndarray, seat: int, policy: int,
    rng: np.ndarray, pack: np.ndarray, cards: np.ndarray,
) -> None:
    """The policy's pack (sorted) for ``seat`` in a variant round (``cards``: scratch of
    at least 15 slots)."""
    if policy != POLICY_RANDOM:
        _v_heuristic_split(s, vcfg, rules, seat, pack)
        return
    n = s[V_HAND_N + seat]
    for i in range(n):
        cards[i] = s[V_HAND + V_HAND_MAX * seat + i]
    size = vcfg[VC_PACK]
    for j in range(size):
        k = j + _below(rng, n - j)
        tmp = cards[j]
        cards[j] = cards[k]
        cards[k] = tmp
    for i in range(size):
        c = cards[i]
        j = i
        while j > 0 and pack[j - 1] > c:
            pack[j] = pack[j - 1]
            j -= 1
        pack[j] = c


@njit(cache=CACHE)
def v_play_out(
    s: np.ndarray, vcfg: np.ndarray, rules: np.ndarray, policy: int, rng: np.ndarray,
    legal: np.ndarray, pack: np.ndarray,
) -> None:
    """Play the rest of a variant round (splits still due included) with the policy."""
    if s[V_PHASE] == SPLIT:
        for p in range(vcfg[VC_PLAYERS]):
            if s[V_PACK_N + p] == 0:
                v_choose_split(s, vcfg, rules, p, policy, rng, pack, legal)
                v_apply_split(s, vcfg, p, pack)
    if policy == POLICY_RANDOM:  # as play_out: no policy call on every card
        while s[V_PHASE] != ROUND_DONE:
            n = v_legal_actions(s, vcfg, rules, legal)
            v_apply_action(s, vcfg, rules, int(legal[_below(rng, n)]))
        return
    while s[V_PHASE] != ROUND_DONE:
        v_apply_action(s, vcfg, rules, v_choose_action(s, vcfg, rules, policy, rng, legal))


@njit(cache=CACHE)
def _v_next_leader(s: np.ndarray, vcfg: np.ndarray, rng: np.ndarray, scores: np.ndarray) -> int:
    """The leader of the next round by the variant's rule (drawn among the allowed)."""
    players = vcfg[VC_PLAYERS]
    if vcfg[VC_LEADER] == 1:
        return int(s[V_WINNERS + vcfg[VC_HAND] - 1])
    if vcfg[VC_LEADER] == 2:
        return int((s[V_ROUND_LEADER] + 1) % players)
    if vcfg[VC_PART]:  # the higher team score; on a tie team 1 (scoring.eligible_leaders)
        team = 0 if scores[0] > scores[1] else 1
        return team + 2 * _below(rng, 2)
    top = scores[0]
    for p in range(1, players):
        top = max(top, scores[p])
    n = 0
    for p in range(players):
        if scores[p] == top:
            n += 1
    pick = _below(rng, n) if n > 1 else 0
    for p in range(players):
        if scores[p] == top:
            if pick == 0:
                return p
            pick -= 1
    return 0


@njit(cache=CACHE)
def v_simulate_games(
    vcfg: np.ndarray,
    rules: np.ndarray,
    deck: np.ndarray,
    first: int,
    count: int,
    seed: int,
    policy: int,
    one_round: bool,
    record: bool,
    rounds_played: np.ndarray,
    piles: np.ndarray,
    leaders: np.ndarray,
    won: np.ndarray,
    deals: np.ndarray,
    asides: np.ndarray,
    splits: np.ndarray,
    plays: np.ndarray,
    nplays: np.ndarray,
    tricks: np.ndarray,
) -> int:
    """:func:`simulate_games` for a variant: its deal, its match format and its leader
    rule. A match that has not ended after ``piles.shape[1]`` rounds (totals whose tie
    for the lowest never breaks) gets ``rounds_played`` -1. ``won[g, seat]`` is 1 for
    the seats that won (or share) match ``g``. Returns the cards played."""
    players = vcfg[VC_PLAYERS]
    part = vcfg[VC_PART] != 0
    k = vcfg[VC_HAND]
    limit = piles.shape[1]
    s = np.zeros(V_STATE_LEN, dtype=np.int32)
    rng = np.zeros(1, dtype=np.uint64)
    legal = np.zeros(64, dtype=np.int32)
    pack = np.zeros(V_PACK_MAX, dtype=np.int32)
    hands = np.zeros((5, V_HAND_MAX), dtype=np.int32)
    scores = np.zeros(5, dtype=np.int32)
    totals = np.zeros(5, dtype=np.int64)
    wins = np.zeros(5, dtype=np.int32)
    cards = deck.copy()
    nd = deck.shape[0]
    played = 0
    for g in range(count):
        seed_stream(rng, seed, first + g, 0)
        leader = _below(rng, players)
        totals[:] = 0
        wins[:] = 0
        r = 0
        done = False
        while True:
            cards[:] = deck
            for i in range(nd - 1, 0, -1):
                j = _below(rng, i + 1)
                tmp = cards[i]
                cards[i] = cards[j]
                cards[j] = tmp
            for p in range(players):
                for i in range(k):  # sorted: insertion of the seat's cards
                    c = cards[k * p + i]
                    j = i
                    while j > 0 and hands[p, j - 1] > c:
                        hands[p, j] = hands[p, j - 1]
                        j -= 1
                    hands[p, j] = c
            v_start_round(s, vcfg, hands, leader)
            v_play_out(s, vcfg, rules, policy, rng, legal, pack)
            played += k * players
            leaders[g, r] = leader
            for p in range(players):
                piles[g, r, p, 0] = s[V_PILES + 2 * p]
                piles[g, r, p, 1] = s[V_PILES + 2 * p + 1]
            if record:
                for i in range(k * players, nd):
                    asides[g, r, i - k * players] = cards[i]
                for p in range(players):
                    for i in range(k):
                        deals[g, r, p, i] = s[V_DEAL + V_HAND_MAX * p + i]
                    for j in range(vcfg[VC_PACK]):
                        splits[g, r, p, j] = s[V_PACK + V_PACK_MAX * p + j]
                nplays[g, r] = s[V_NPLAYS]
                for i in range(s[V_NPLAYS]):
                    plays[g, r, i] = s[V_PLAYS + i]
                for t in range(k):
                    tricks[g, r, 0, t] = s[V_WINNERS + t]
                    tricks[g, r, 1, t] = s[V_PILE_OF + t]
            r += 1
            if one_round:
                break
            if part:
                scores[0] = _v_balance(vcfg, s[V_PILES] + s[V_PILES + 4],
                                       s[V_PILES + 1] + s[V_PILES + 5])
                scores[1] = _v_balance(vcfg, s[V_PILES + 2] + s[V_PILES + 6],
                                       s[V_PILES + 3] + s[V_PILES + 7])
                sides = 2
            else:
                v_round_scores(s, vcfg, scores)
                sides = players
            for p in range(players):
                h = s[V_PILES + 2 * p]
                v = s[V_PILES + 2 * p + 1]
                totals[p] += _v_balance(vcfg, h, v)
            if vcfg[VC_FORM] == 1:  # a round victory: the one lowest score
                low = scores[0]
                for q in range(1, sides):
                    low = min(low, scores[q])
                n_low = 0
                who = 0
                for q in range(sides):
                    if scores[q] == low:
                        n_low += 1
                        who = q
                if n_low == 1:
                    wins[who] += 1
                top = 0
                for q in range(sides):
                    top = max(top, wins[q])
                done = top >= vcfg[VC_TO_WIN] or r >= vcfg[VC_ROUND_LIMIT]
            elif r >= vcfg[VC_ROUNDS]:
                low_t = totals[0]
                for p in range(1, players):
                    low_t = min(low_t, totals[p])
                n_low = 0
                for p in range(players):
                    if totals[p] == low_t:
                        n_low += 1
                done = vcfg[VC_SHARED] != 0 or n_low == 1
            if done or r == limit:
                break
            leader = _v_next_leader(s, vcfg, rng, scores)
        if one_round:
            rounds_played[g] = r
            continue
        rounds_played[g] = r if done else -1
        if vcfg[VC_FORM] == 1:  # the most victories (the first to K is alone at the top)
            sides = 2 if part else players
            top = 0
            for q in range(sides):
                top = max(top, wins[q])
            for p in range(players):
                won[g, p] = 1 if wins[p % 2 if part else p] == top else 0
        else:
            low_t = totals[0]
            for p in range(1, players):
                low_t = min(low_t, totals[p])
            for p in range(players):
                won[g, p] = 1 if totals[p] == low_t else 0
    return played
