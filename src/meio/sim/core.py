"""The compiled MEIO core: one round or match of any ruleset played on a flat ``int32`` array.

There is one set of kernels. A game's rules come in as data: ``cfg`` is the table
(``[players, partnership, edition]``; callers may append slots of their own after
:data:`CFG_LEN`), and ``ruleset[row, card]`` the ruleset (:func:`meio.sim.tables.tables_for`
builds both): rows :data:`R_VALUES` (two rows: the doubled values of each half,
``RELATIVE`` for a card worth 0.5 above the card before it), :data:`R_SUIT` (each
card's suit, -1 wild), :data:`R_FLAGS` (wild, free to play), :data:`R_PILE` (the pile
effect), :data:`R_NUMBERS` (the ruleset's numbers at the ``N_*`` offsets: hand, half
and pack sizes, trump, scoring, match format, leader rule) and, from
:data:`R_RULE_STRENGTH` on, the card numbers of the heuristic of any ruleset, worked out
once per ruleset (:func:`meio.sim.tables.rule_heuristic_rows`). The two editions are presets
of that data (``config.ruleset``: :func:`meio.engine.presets.standard`), not a second
code path.

A *position* is one ``int32`` array of :data:`STATE_LEN` slots (offsets below), wide
enough for every ruleset (hands of up to :data:`HAND_MAX` cards, packs of up to
:data:`PACK_MAX`). Cards are the engine's ids ``0..64`` and play actions the engine's
action ints (``0..82``); a hand is kept in the order it was dealt, a played card's
place taken by the hand's last card. The table option ``wild_lead`` (RULES.md §10)
lives in the position itself (slot :data:`WILD_NEXT`: 0 ``declare``, 1 ``next``), so a
position carries the rules it is played under; under ``next`` the led suit stays -1
while the trick holds only wilds and the first non-wild card sets it.

The trick-winner, pile, scoring, round-victory, leader and match-end rules are the
engine's (:mod:`meio.engine.tricks`, :mod:`meio.engine.scoring`), compiled here: the
same function objects, not copies (:data:`trick_rule`, :data:`pile_rule`,
:data:`balance_rule`, :data:`victory_rule`, :data:`leader_rule`, :data:`match_end_rule`).
numba's disk cache keys a kernel on its own file, so :data:`CACHE`
(:func:`meio.sim.diskcache.cache_flag`) renews this file's stamp whenever one of those
rule files is newer.

Random numbers come from a splitmix64 stream held in a one-slot ``uint64`` array
(:func:`seed_stream`, :func:`below`, :func:`unit`), so results depend on the seed
alone, never on threads or job count.

The playout policies: :data:`POLICY_RANDOM`; :data:`POLICY_HEURISTIC`, the editions'
heuristic (from ``strength[half - 1, card]``, the estimate of how often a card takes
a trick in that half); :data:`POLICY_RULES_HEURISTIC`, the heuristic of any ruleset
(:mod:`meio.bots.variant_play`'s rule, decision for decision), which reads its card
numbers from the ruleset's rows as exact ints, so its hot loop costs what the editions'
does.

The hot rules (:func:`start_round`, :func:`legal_actions`, :func:`apply_action`,
:func:`random_split`) are compiled inline into their callers, the loops here and the
bots' and learning environments' kernels alike. The loops that play cards
(:func:`play_out`, and :func:`evaluate` around it) are compiled without numba's
runtime (:data:`NO_RUNTIME`): they allocate nothing (their callers hand them scratch:
:func:`simulate_games`, :func:`meio.sim.rollout.core_means`), so no array they touch
is reference counted. With the runtime, every inlined call and every row of
``ruleset`` read took and released a reference by atomic operations, about half of a
random round's time (measured with ``perf``, docs/benchmarks.md). A kernel that
allocates and may be reached from them keeps the runtime explicitly
(:data:`RUNTIME`), or numba would compile it without, for its first caller.

One module on purpose: numba's cache keys each kernel on its own file, and the rules,
the policies and the loops that call them compile into one another.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
from numba import njit

from meio.engine import scoring, tricks
from meio.engine.cards import SUIT_OF as CARD_SUITS
from meio.engine.scoring import MOST_POINTS
from meio.sim.diskcache import cache_flag

#: whether the kernels below may use numba's disk cache (see the module docstring)
CACHE = cache_flag(__file__, tricks, scoring)
#: numba's option (private to the pinned numba) that compiles a kernel without its
#: runtime: it may not allocate, and nothing it touches is reference counted
NO_RUNTIME: dict[str, Any] = {"_nrt": False}
#: the option that keeps the runtime for an allocating kernel whoever compiles it
#: first (numba gives a kernel without the option its first caller's choice)
RUNTIME: dict[str, Any] = {"_nrt": True}
_F = TypeVar("_F", bound=Callable[..., Any])


def runtime_free(cache: bool) -> Callable[[_F], _F]:
    """A decorator: compile a kernel without numba's runtime (:data:`NO_RUNTIME`), using
    the disk cache when ``cache`` (its module's :func:`~meio.sim.diskcache.cache_flag`)."""
    def compile_free(fn: _F) -> _F:
        return cast(_F, njit(cache=cache, **NO_RUNTIME)(fn))
    return compile_free


_runtime_free = runtime_free(CACHE)


def _keeps_runtime(fn: _F) -> _F:
    """Compile ``fn`` (cached) with numba's runtime whoever calls it first
    (:data:`RUNTIME`)."""
    return cast(_F, njit(cache=CACHE, **RUNTIME)(fn))


def _compiled(rule: Callable[..., object]) -> Callable[..., object]:
    """An engine rule compiled for the kernels, inline: the same function object."""
    return njit(cache=CACHE, inline="always")(rule)


# the engine's rules compiled for the kernels (typed loosely: the kernels pass them
# arrays where the engine passes sequences)
#: :func:`meio.engine.tricks.winning_index`: the winning card of a trick
trick_rule: Callable[..., tuple[int, int]] = _compiled(tricks.winning_index)  # type: ignore[assignment]
#: :func:`meio.engine.tricks.pile_for`: the pile a trick goes to (0: its winner chooses)
pile_rule: Callable[..., int] = _compiled(tricks.pile_for)  # type: ignore[assignment]
#: :func:`meio.engine.scoring.balance`: the score of a pair of piles
balance_rule: Callable[..., int] = _compiled(scoring.balance)  # type: ignore[assignment]
#: :func:`meio.engine.scoring.round_victory`: who takes a round victory (-1: nobody)
victory_rule: Callable[..., int] = _compiled(scoring.round_victory)  # type: ignore[assignment]
#: :func:`meio.engine.scoring.leader_seats`: the seats that may lead the next round
leader_rule: Callable[..., int] = _compiled(scoring.leader_seats)  # type: ignore[assignment]
#: :func:`meio.engine.scoring.match_over`: whether the match ends
match_end_rule: Callable[..., bool] = _compiled(scoring.match_over)  # type: ignore[assignment]

# -- layout of a position ------------------------------------------------------------------
HAND_MAX = 15  # the most cards a ruleset deals a seat
PACK_MAX = 14  # the largest pack
HAND = 0  # [5][HAND_MAX] cards in play this half (all dealt before the seat's split)
HAND_N = HAND + 5 * HAND_MAX  # [5]
PACK = HAND_N + 5  # [5][PACK_MAX] the pack each seat chose
PACK_N = PACK + 5 * PACK_MAX  # [5] 0 before the split, then the pack size
PILES = PACK_N + 5  # [5][2] H and V
TRICK = PILES + 10  # [5] cards of the trick in progress, in play order
TRICK_N = TRICK + 5
PHASE = TRICK_N + 1
HALF = PHASE + 1
TRICK_NO = HALF + 1  # 1..hand
TRICK_LEADER = TRICK_NO + 1
TO_MOVE = TRICK_LEADER + 1
LED = TO_MOVE + 1
PENDING = LED + 1
ROUND_LEADER = PENDING + 1
SPLIT_N = ROUND_LEADER + 1
SPLIT_ORDER = SPLIT_N + 1  # [5] seats in the order they split
DEAL = SPLIT_ORDER + 5  # [5][HAND_MAX] the dealt cards
WINNERS = DEAL + 5 * HAND_MAX  # [HAND_MAX] winner of each completed trick
PILE_OF = WINNERS + HAND_MAX  # [HAND_MAX] pile (1, 2) of each completed trick
NPLAYS = PILE_OF + HAND_MAX
PLAYS = NPLAYS + 1  # [MAX_PLAYS] the round's play and pile actions
MAX_PLAYS = 6 * HAND_MAX  # every card of five seats, and a pile choice after each trick
WILD_NEXT = PLAYS + MAX_PLAYS  # 1 under wild_lead "next": a led wild declares no suit
STATE_LEN = WILD_NEXT + 1

SPLIT, PLAY, PILE_PHASE, OVER, ROUND_DONE = 0, 1, 2, 3, 4
MINUS_ONE, A_PLUS, MINUS_TWO_H, PLUS_HALF, Q_PLUS = 60, 61, 62, 63, 64
PILE_1, PILE_2 = 81, 82
POLICY_RANDOM, POLICY_HEURISTIC, POLICY_RULES_HEURISTIC = 0, 1, 2
#: a standard match never takes more rounds (3 on totals; 2 victories of 3)
MAX_ROUNDS = 3
#: the legal actions of a seat never number more (hands of 15, four wilds declaring)
LEGAL_MAX = 32

# -- the table (cfg) and the ruleset ---------------------------------------------------------
CFG_PLAYERS = 0
CFG_PART = 1
CFG_EDITION = 2  # 0 meio, 1 classic (the deck's; the rules read the ruleset)
CFG_LEN = 3

R_VALUES = 0  # rows 0 and 1: doubled values by half
R_SUIT = 2
R_FLAGS = 3
R_PILE = 4  # the pile effect (engine.tricks: OWN_HALF, WINNER_CHOOSES, OTHER_HALF)
R_NUMBERS = 5
# the heuristic of any ruleset (meio.bots.variant_play's rule), its card numbers built
# once per ruleset (:func:`meio.sim.tables.rule_heuristic_rows`), each as an exact int:
R_RULE_STRENGTH = 6  # rows 6 and 7: twice a card's strength in each half
R_RULE_CHANCE = 8  # rows 8 and 9: its chance to take a trick, times CHANCE_SCALE
R_RULE_TOWARDS = 10  # rows 10 and 11: +1 a trick it wins adds to H, -1 to V, 0 its winner chooses
R_ROWS = 12
#: a chance of the rule heuristic is a square of a multiple of 1/64: times this, an int
CHANCE_SCALE = 4096
F_WILD = 1  # follows any suit; led under "declare" it declares one
F_FREE = 2  # may be played on any trick (the wilds, the suited cards that do not follow)

# ruleset[R_NUMBERS, N_*]
N_HAND = 0
N_FIRST = 1  # tricks of the first half
N_PACK = 2
N_TRUMP = 3  # -1: none
N_SCORING = 4  # engine.scoring's forms: DIFFERENCE, BALANCE_BONUS, SQUARED
N_BONUS = 5
N_FORM = 6  # 0 totals, 1 victories
N_ROUNDS = 7
N_TO_WIN = 8
N_SHARED = 9
N_LEADER = 10  # engine.scoring's rules: MOST_POINTS, LAST_TRICK, ROTATE
N_ROUND_LIMIT = 11  # a victories match ends after this many rounds at the latest
N_WILD_NEXT = 12
N_HEURISTIC = 13  # the policy that "heuristic" names for this ruleset
N_LEN = 14

SUIT_OF = np.array(CARD_SUITS, dtype=np.int32)
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
def below(rng: np.ndarray, n: int) -> int:
    """A uniform int in ``0..n-1`` (multiply-shift: no division)."""
    return int(((_next(rng) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=CACHE)
def unit(rng: np.ndarray) -> float:
    """A uniform float in ``[0, 1)``."""
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
@njit(cache=CACHE, inline="always")
def start_round(
    s: np.ndarray, cfg: np.ndarray, ruleset: np.ndarray, hands: np.ndarray, leader: int
) -> None:
    """Reset ``s`` to the split of a round dealt ``hands[seat, :hand]``."""
    s[:] = 0
    s[WILD_NEXT] = ruleset[R_NUMBERS, N_WILD_NEXT]
    k = ruleset[R_NUMBERS, N_HAND]
    for p in range(cfg[CFG_PLAYERS]):
        for i in range(k):
            s[HAND + HAND_MAX * p + i] = hands[p, i]
            s[DEAL + HAND_MAX * p + i] = hands[p, i]
        s[HAND_N + p] = k
    s[PHASE] = SPLIT
    s[HALF] = 1
    s[TRICK_NO] = 1
    s[TRICK_LEADER] = leader
    s[LED] = -1
    s[PENDING] = -1
    s[ROUND_LEADER] = leader


@njit(cache=CACHE, inline="always")
def card_of(action: int) -> int:
    """The card of a play or declare action."""
    return action if action < 65 else int(SLOT_WILD[(action - 65) >> 2])


@njit(cache=CACHE, inline="always")
def legal_cards(cards: np.ndarray, base: int, n: int, leading: bool, wild_next: int, led: int,
                ruleset: np.ndarray, out: np.ndarray) -> int:
    """The legality rule: write the play and declare actions of a seat holding
    ``cards[base : base + n]`` into ``out`` (in the order of its cards); return how many.

    ``leading``: the seat leads the trick; ``wild_next``: the table's ``wild_lead`` is
    ``next`` (a led wild declares no suit); ``led``: the led suit (-1: none yet)."""
    k = 0
    flags = ruleset[R_FLAGS]
    if leading and wild_next == 0:
        for i in range(n):
            c = cards[base + i]
            if flags[c] & F_WILD:
                slot = WILD_SLOT[c]
                for suit in range(4):
                    out[k] = 65 + 4 * slot + suit
                    k += 1
            else:
                out[k] = c
                k += 1
        return k
    if led < 0:  # a lead under "next", or a trick of wilds only: any card, as itself
        for i in range(n):
            out[k] = cards[base + i]
            k += 1
        return k
    suits = ruleset[R_SUIT]
    follow = False
    for i in range(n):
        c = cards[base + i]
        if suits[c] == led and not flags[c] & F_FREE:
            follow = True
            break
    for i in range(n):
        c = cards[base + i]
        if not follow or flags[c] & F_FREE or suits[c] == led:
            out[k] = c
            k += 1
    return k


@njit(cache=CACHE, inline="always")
def legal_actions(s: np.ndarray, ruleset: np.ndarray, out: np.ndarray) -> int:
    """Write the legal play or pile actions of the seat to act into ``out`` (in the
    order of its hand); return how many."""
    if s[PHASE] == PILE_PHASE:
        out[0] = PILE_1
        out[1] = PILE_2
        return 2
    seat = s[TO_MOVE]
    return legal_cards(s, HAND + HAND_MAX * seat, s[HAND_N + seat], s[TRICK_N] == 0,
                       s[WILD_NEXT], s[LED], ruleset, out)


@njit(cache=CACHE, inline="always")
def take_card(s: np.ndarray, seat: int, card: int) -> None:
    """Take ``card`` out of ``seat``'s hand: the hand's last card takes its place."""
    base = HAND + HAND_MAX * seat
    n = s[HAND_N + seat]
    for i in range(n):
        if s[base + i] == card:
            s[base + i] = s[base + n - 1]
            s[HAND_N + seat] = n - 1
            return


@njit(cache=CACHE)
def apply_split(s: np.ndarray, cfg: np.ndarray, ruleset: np.ndarray, seat: int,
                pack: np.ndarray) -> None:
    """Seat keeps the cards of ``pack`` (the ruleset's pack size) for the second half
    (unchecked)."""
    size = ruleset[R_NUMBERS, N_PACK]
    for j in range(size):
        s[PACK + PACK_MAX * seat + j] = pack[j]
        take_card(s, seat, pack[j])
    s[PACK_N + seat] = size
    s[SPLIT_ORDER + s[SPLIT_N]] = seat
    s[SPLIT_N] += 1
    if s[SPLIT_N] == cfg[CFG_PLAYERS]:
        s[PHASE] = PLAY
        s[TO_MOVE] = s[ROUND_LEADER]
        s[TRICK_LEADER] = s[ROUND_LEADER]


@njit(cache=CACHE, inline="always")
def _finish_trick(s: np.ndarray, cfg: np.ndarray, ruleset: np.ndarray, pile: int) -> None:
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
    if s[TRICK_NO] == ruleset[R_NUMBERS, N_FIRST] + 1:
        s[HALF] = 2
        size = ruleset[R_NUMBERS, N_PACK]
        for p in range(cfg[CFG_PLAYERS]):
            src = (p + 2) % 4 if cfg[CFG_PART] else p
            for j in range(size):
                s[HAND + HAND_MAX * p + j] = s[PACK + PACK_MAX * src + j]
            s[HAND_N + p] = size
    elif s[TRICK_NO] == ruleset[R_NUMBERS, N_HAND] + 1:
        s[PHASE] = ROUND_DONE


@njit(cache=CACHE, inline="always")
def trick_winner(s: np.ndarray, n: int, half: int, ruleset: np.ndarray) -> int:
    """Index among the first ``n`` cards of the current trick of the card winning so far.

    With no led suit yet (``next``: only wilds so far) the first non-wild card among
    the ``n`` sets it, as it would in play; if there is none every card is wild and
    the highest value wins (ties: the first played): :data:`trick_rule`."""
    led = s[LED]
    suits = ruleset[R_SUIT]
    if led < 0:
        for i in range(n):
            if suits[s[TRICK + i]] >= 0:
                led = suits[s[TRICK + i]]
                break
    best, _ = trick_rule(
        s[TRICK : TRICK + n], led, ruleset[R_VALUES + half - 1], suits,
        ruleset[R_NUMBERS, N_TRUMP],
    )
    return best


@njit(cache=CACHE, inline="always")
def apply_action(s: np.ndarray, cfg: np.ndarray, ruleset: np.ndarray, action: int) -> None:
    """Apply a play, declare or pile action (unchecked) and log it."""
    s[PLAYS + s[NPLAYS]] = action
    s[NPLAYS] += 1
    if s[PHASE] == PILE_PHASE:
        _finish_trick(s, cfg, ruleset, 1 if action == PILE_1 else 2)
        return
    players = cfg[CFG_PLAYERS]
    seat = s[TO_MOVE]
    if action < 65:
        card = action
        suit = ruleset[R_SUIT, card]
    else:
        card = SLOT_WILD[(action - 65) >> 2]
        suit = (action - 65) & 3
    take_card(s, seat, card)
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
    best = trick_winner(s, players, half, ruleset)
    winner = (s[TRICK_LEADER] + best) % players
    s[WINNERS + s[TRICK_NO] - 1] = winner
    pile = pile_rule(s[TRICK + best], half, ruleset[R_PILE])
    if pile == 0:
        s[PHASE] = PILE_PHASE
        s[PENDING] = winner
    else:
        _finish_trick(s, cfg, ruleset, pile)


@njit(cache=CACHE, inline="always")
def balance(ruleset: np.ndarray, first: int, second: int) -> int:
    """The ruleset's score of piles of ``first`` and ``second`` (:data:`balance_rule`)."""
    return balance_rule(ruleset[R_NUMBERS, N_SCORING], ruleset[R_NUMBERS, N_BONUS], first,
                        second)


@njit(cache=CACHE)
def round_scores(s: np.ndarray, cfg: np.ndarray, ruleset: np.ndarray, out: np.ndarray) -> None:
    """Each seat's score in the ruleset's form; in partnership its team's."""
    for p in range(cfg[CFG_PLAYERS]):
        h = s[PILES + 2 * p]
        v = s[PILES + 2 * p + 1]
        if cfg[CFG_PART]:
            q = (p + 2) % 4
            h += s[PILES + 2 * q]
            v += s[PILES + 2 * q + 1]
        out[p] = balance(ruleset, h, v)


@njit(cache=CACHE)
def side_scores(s: np.ndarray, cfg: np.ndarray, ruleset: np.ndarray, out: np.ndarray) -> int:
    """The round's score of each side (a seat, or in partnership a team: 0 = seats 0
    and 2) into ``out``; returns the number of sides."""
    if cfg[CFG_PART]:
        out[0] = balance(ruleset, s[PILES] + s[PILES + 4], s[PILES + 1] + s[PILES + 5])
        out[1] = balance(ruleset, s[PILES + 2] + s[PILES + 6], s[PILES + 3] + s[PILES + 7])
        return 2
    round_scores(s, cfg, ruleset, out)
    return int(cfg[CFG_PLAYERS])


@njit(cache=CACHE)
def next_leader(s: np.ndarray, cfg: np.ndarray, ruleset: np.ndarray, rng: np.ndarray,
                scores: np.ndarray) -> int:
    """The leader of the next round: a seat :data:`leader_rule` allows, drawn at random
    among them under ``most_points`` (one draw, however many they are).

    ``scores`` (at least one slot a seat) is scratch: it gets the round's side scores,
    so that a caller compiled without numba's runtime can use this (it allocates
    nothing)."""
    players = cfg[CFG_PLAYERS]
    rule = ruleset[R_NUMBERS, N_LEADER]
    sides = side_scores(s, cfg, ruleset, scores)
    mask = leader_rule(rule, players, cfg[CFG_PART] != 0, scores[:sides],
                       s[WINNERS + ruleset[R_NUMBERS, N_HAND] - 1], s[ROUND_LEADER])
    n = 0
    for p in range(players):
        n += mask >> p & 1
    pick = below(rng, n) if rule == MOST_POINTS else 0
    for p in range(players):
        if mask >> p & 1:
            if pick == 0:
                return p
            pick -= 1
    return 0


@njit(cache=CACHE)
def count_round(ruleset: np.ndarray, sides: int, scores: np.ndarray, played: int,
                totals: np.ndarray, players: int, wins: np.ndarray) -> bool:
    """After round ``played`` (1-based) with side scores ``scores``: count its victory
    (a match to victories: :data:`victory_rule`) into ``wins`` and say whether the
    match is over (:data:`match_end_rule`). ``totals`` holds each seat's total so far."""
    to_win = 0
    if ruleset[R_NUMBERS, N_FORM] == 1:
        won = victory_rule(scores[:sides])
        if won >= 0:
            wins[won] += 1
        to_win = ruleset[R_NUMBERS, N_TO_WIN]
    return bool(match_end_rule(played, ruleset[R_NUMBERS, N_ROUNDS], to_win,
                               ruleset[R_NUMBERS, N_SHARED] != 0, totals[:players],
                               wins[:sides]))



@njit(cache=CACHE, inline="always")
def score_round(s: np.ndarray, cfg: np.ndarray, ruleset: np.ndarray, played: int,
                totals: np.ndarray, wins: np.ndarray, scores: np.ndarray) -> bool:
    """The match's bookkeeping after round ``played`` (1-based), finished in ``s``: add
    each seat's round score to ``totals`` (the engine's totals: a seat's own piles, in
    partnership too), count the round's victory into ``wins`` and say whether the
    match is over (:func:`count_round`). Leaves the round's side scores in ``scores``."""
    players = cfg[CFG_PLAYERS]
    for p in range(players):
        totals[p] += balance(ruleset, s[PILES + 2 * p], s[PILES + 2 * p + 1])
    sides = side_scores(s, cfg, ruleset, scores)
    return count_round(ruleset, sides, scores, played, totals, players, wins)


@njit(cache=CACHE, inline="always")
def start_match(rng: np.ndarray, seed: int, game: int, players: int, totals: np.ndarray,
                wins: np.ndarray) -> int:
    """Point ``rng`` at game ``game``'s stream, clear the match's ``totals`` and ``wins``
    and return the first round's leader (drawn from that stream)."""
    seed_stream(rng, seed, game, 0)
    totals[:] = 0
    wins[:] = 0
    return below(rng, players)


@njit(cache=CACHE, inline="always")
def close_round(
    s: np.ndarray, cfg: np.ndarray, ruleset: np.ndarray, cards: np.ndarray, g: int, r: int,
    leader: int, record: bool, one_round: bool, leaders: np.ndarray, piles: np.ndarray,
    asides: np.ndarray, deals: np.ndarray, splits: np.ndarray, orders: np.ndarray,
    plays: np.ndarray, nplays: np.ndarray, tricks: np.ndarray, totals: np.ndarray,
    wins: np.ndarray, scores: np.ndarray,
) -> int:
    """Close round ``r`` (0-based) of game ``g``, finished in ``s`` and dealt from
    ``cards`` (:func:`deal_round`): write its leader and piles into row ``g`` and, with
    ``record``, its set-aside cards and :func:`copy_round`; then (unless ``one_round``)
    score it into the match (:func:`score_round`).

    Returns the rounds played once the match is over (1 for ``one_round``), -1 when
    it is not over but the rows are spent (``piles.shape[1]`` rounds: a tie for the
    lowest total that never broke), 0 when the match goes on: then ``scores`` is
    scratch for :func:`next_leader`. The one match loop of :func:`simulate_games` and
    of the bots' compiled games (:mod:`meio.bots.netcore`)."""
    players = cfg[CFG_PLAYERS]
    dealt = ruleset[R_NUMBERS, N_HAND] * players
    leaders[g, r] = leader
    for p in range(players):
        piles[g, r, p, 0] = s[PILES + 2 * p]
        piles[g, r, p, 1] = s[PILES + 2 * p + 1]
    if record:
        for i in range(dealt, cards.shape[0]):
            asides[g, r, i - dealt] = cards[i]
        copy_round(s, cfg, ruleset, g, r, deals, splits, orders, plays, nplays, tricks)
    if one_round:
        return 1
    if score_round(s, cfg, ruleset, r + 1, totals, wins, scores):
        return r + 1
    return -1 if r + 1 == piles.shape[1] else 0


# -- policies: random ------------------------------------------------------------------------
@njit(cache=CACHE, inline="always")
def random_split(s: np.ndarray, ruleset: np.ndarray, seat: int, rng: np.ndarray,
                 pack: np.ndarray) -> None:
    """A uniformly random pack for ``seat``."""
    base = HAND + HAND_MAX * seat  # the order of a hand means nothing: shuffle it in place
    n = s[HAND_N + seat]
    for j in range(ruleset[R_NUMBERS, N_PACK]):
        k = base + j + below(rng, n - j)
        tmp = s[base + j]
        s[base + j] = s[k]
        s[k] = tmp
        pack[j] = s[base + j]


# -- policies: the editions' heuristic -------------------------------------------------------
# A player tuned to the editions (its strengths are worked out for their decks), not a
# second rule path: the trick rule and the trump it reads from the ruleset rows, as any
# kernel does. It names the two cards that move a trick (Q+ to the other half's pile,
# +.5 to the pile its winner chooses) by their ids: reading their pile effect from the
# rows instead cost its playouts 4-5% of their rate (measured A/B, 2026-12-05), and the
# editions are the only rulesets it plays.
@_keeps_runtime
def _heuristic_split(
    s: np.ndarray, ruleset: np.ndarray, seat: int, strength: np.ndarray, rng: np.ndarray,
    pack: np.ndarray,
) -> None:
    """Greedy: strongest cards first, each to the half that keeps the expected tricks
    of the two halves closest (``Q+`` counts for the other half's pile, ``+.5`` for
    neither); a little noise keeps playouts from all being the same."""
    n = s[HAND_N + seat]
    size = ruleset[R_NUMBERS, N_PACK]
    keep = n - size
    cards = s[HAND + HAND_MAX * seat : HAND + HAND_MAX * seat + n].copy()
    key = np.empty(n)
    for i in range(n):
        c = cards[i]
        key[i] = -max(strength[0, c], strength[1, c]) - 0.1 * unit(rng)
    order = np.argsort(key)
    sum_h = 0.0
    sum_v = 0.0
    n_hand = 0
    n_pack = 0
    for i in order:
        c = cards[i]
        to_hand = False
        if n_pack == size:
            to_hand = True
        elif n_hand == keep:
            to_hand = False
        elif c == PLUS_HALF:
            to_hand = keep - n_hand >= size - n_pack
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
def _side_balance(s: np.ndarray, cfg: np.ndarray, ruleset: np.ndarray, strength: np.ndarray,
                  seat: int) -> float:
    """Expected final H - V of the seat's side, from what the seat may know: the
    piles, its own cards, its own pack (and in partnership the pack it received)."""
    players = cfg[CFG_PLAYERS]
    half = s[HALF]
    part = cfg[CFG_PART] != 0
    partner = (seat + 2) % 4 if part else seat
    h = float(s[PILES + 2 * seat])
    v = float(s[PILES + 2 * seat + 1])
    if part:
        h += s[PILES + 2 * partner]
        v += s[PILES + 2 * partner + 1]
    sign = 1.0 if half == 1 else -1.0
    bal = h - v
    for i in range(s[HAND_N + seat]):
        c = s[HAND + HAND_MAX * seat + i]
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
            for j in range(s[PACK_N + p]):
                c = s[PACK + PACK_MAX * p + j]
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
    ruleset: np.ndarray,
    strength: np.ndarray,
    legal: np.ndarray,
    n: int,
) -> int:
    """Choose the play that leaves the side's expected |H - V| smallest.

    Each candidate card stops counting towards the future (``_card_share``) and
    may take this trick: for certain when playing last, with a probability
    estimated from its strength otherwise."""
    players = cfg[CFG_PLAYERS]
    seat = s[TO_MOVE]
    half = s[HALF]
    bal = _side_balance(s, cfg, ruleset, strength, seat)
    k = s[TRICK_N]
    last = k == players - 1
    part = cfg[CFG_PART] != 0
    trump = ruleset[R_NUMBERS, N_TRUMP]
    best = 0
    best_u = -1e18
    best_tie = 0.0
    for i in range(n):
        a = legal[i]
        card = a if a < 65 else SLOT_WILD[(a - 65) >> 2]
        if a >= 65 and (a - 65) & 3 != trump and strength[half - 1, card] > 0.5:
            continue  # a strong wild leads as a trump
        if a >= 65 and (a - 65) & 3 == trump and strength[half - 1, card] <= 0.5:
            continue  # a weak wild leads in a plain suit
        base = bal - _card_share(card, half, strength)
        x = strength[half - 1, card]
        if k == 0:
            p = min(x, 1.0)
            win_card = card
        else:
            s[TRICK + k] = card  # tried in the free slot; TRICK_N is left as it was
            w = trick_winner(s, k + 1, half, ruleset)
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


# -- policies: the heuristic of any ruleset (meio.bots.variant_play's rule) ------------------
# The rule's card numbers are read from the ruleset's rows (built once per ruleset). Its
# float sums are exact (every chance is a multiple of 1/CHANCE_SCALE), so the kernels add
# ints in a hand's dealt order and decide as the engine's bot, which adds floats in
# card-id order; every tie is broken by the engine's order of legal actions (:func:`_rank`).
@njit(cache=CACHE, inline="always")
def _rank(action: int) -> int:
    """The place of a play or declare action in the engine's order of legal actions."""
    if action < 65:
        return 4 * action
    return int(4 * SLOT_WILD[(action - 65) >> 2] + ((action - 65) & 3))


@njit(cache=CACHE, inline="always")
def _r_pull(card: int, half: int, ruleset: np.ndarray) -> int:
    """The card's expected pull on ``H - V`` in ``half``, times :data:`CHANCE_SCALE`."""
    return int(ruleset[R_RULE_CHANCE + half - 1, card] * ruleset[R_RULE_TOWARDS + half - 1, card])


@njit(cache=CACHE, inline="always")
def _r_projection(s: np.ndarray, cfg: np.ndarray, ruleset: np.ndarray, seat: int) -> int:
    """:func:`meio.bots.variant_play._projection` times :data:`CHANCE_SCALE`: the expected
    final ``H - V`` of the seat's team from the piles and the seat's own cards."""
    h = s[PILES + 2 * seat]
    v = s[PILES + 2 * seat + 1]
    if cfg[CFG_PART]:
        q = (seat + 2) % 4
        h += s[PILES + 2 * q]
        v += s[PILES + 2 * q + 1]
    half = s[HALF]
    d = (h - v) * CHANCE_SCALE
    base = HAND + HAND_MAX * seat
    for i in range(s[HAND_N + seat]):
        d += _r_pull(s[base + i], half, ruleset)
    if half == 1:
        base = PACK + PACK_MAX * seat
        for i in range(s[PACK_N + seat]):
            d += _r_pull(s[base + i], 2, ruleset)
    return int(d)


@njit(cache=CACHE, inline="always")
def _r_heuristic_split(s: np.ndarray, ruleset: np.ndarray, seat: int, pack: np.ndarray) -> None:
    """:func:`meio.bots.variant_play.choose_pack`: strongest first (ties: the lower card
    id first, as Python's stable sort of the hand in id order), each card to the half
    expecting fewer tricks. Picks the next card by a scan of the hand (no allocation)."""
    n = s[HAND_N + seat]
    base = HAND + HAND_MAX * seat
    first = ruleset[R_NUMBERS, N_FIRST]
    size = ruleset[R_NUMBERS, N_PACK]
    chance1 = ruleset[R_RULE_CHANCE]
    chance2 = ruleset[R_RULE_CHANCE + 1]
    kept = 0
    packed = 0
    e1 = 0
    e2 = 0
    used = 0  # a bitmask of the hand's places already dealt to a half
    for _ in range(n):
        pick = -1
        pick_card = 0
        pick_key = 0
        for i in range(n):
            if used >> i & 1:
                continue
            c = s[base + i]
            key = max(chance1[c], chance2[c])
            if pick < 0 or key > pick_key or (key == pick_key and c < pick_card):
                pick = i
                pick_card = c
                pick_key = key
        used |= 1 << pick
        room1 = kept < first
        room2 = packed < size
        d1 = _r_pull(pick_card, 1, ruleset)
        d2 = _r_pull(pick_card, 2, ruleset)
        if room1 and (not room2 or abs(e1 + d1 + e2) <= abs(e1 + e2 + d2)):
            kept += 1
            e1 += d1
        else:
            pack[packed] = pick_card
            packed += 1
            e2 += d2


@njit(cache=CACHE, inline="always")
def _r_heuristic_play(
    s: np.ndarray, cfg: np.ndarray, ruleset: np.ndarray, legal: np.ndarray, n: int
) -> int:
    """:func:`meio.bots.variant_play.choose_play`: behind in the pile of the half in
    play, win the trick; ahead, duck; a wild lead declares the suit held most."""
    players = cfg[CFG_PLAYERS]
    seat = s[TO_MOVE]
    half = s[HALF]
    projection = _r_projection(s, cfg, ruleset, seat)
    strength = ruleset[R_RULE_STRENGTH + half - 1]
    k = s[TRICK_N]
    last = k == players - 1
    win_pick = -1
    win_x = 0
    lose_pick = -1
    lose_x = 0
    low_pick = -1
    low_x = 0
    for i in range(n):
        a = legal[i]
        card = a if a < 65 else SLOT_WILD[(a - 65) >> 2]
        x = strength[card]
        rank = _rank(a)
        wins = True
        if k > 0:
            led = s[LED] if s[LED] >= 0 else ruleset[R_SUIT, card]
            s[TRICK + k] = card  # tried in the free slot; TRICK_N is left as it was
            best, _ = trick_rule(
                s[TRICK : TRICK + k + 1], led, ruleset[R_VALUES + half - 1], ruleset[R_SUIT],
                ruleset[R_NUMBERS, N_TRUMP],
            )
            wins = best == k
        towards = ruleset[R_RULE_TOWARDS + half - 1, card]
        helps = towards == 0 or (projection < 0) == (towards > 0)
        if wins and helps and (
            win_pick < 0 or (x < win_x if last else x > win_x)
            or (x == win_x and rank < _rank(win_pick))
        ):
            win_pick = a
            win_x = x
        if not wins and (lose_pick < 0 or x > lose_x
                         or (x == lose_x and rank < _rank(lose_pick))):
            lose_pick = a
            lose_x = x
        if low_pick < 0 or x < low_x or (x == low_x and rank < _rank(low_pick)):
            low_pick = a
            low_x = x
    pick = win_pick if win_pick >= 0 else (lose_pick if lose_pick >= 0 else low_pick)
    if pick >= 65:  # a wild lead: declare the suit it holds most of (the lowest such)
        card_slot = (pick - 65) >> 2
        base = HAND + HAND_MAX * seat
        best_count = -1
        for suit in range(4):  # by the cards' printed suits
            count = 0
            for i in range(s[HAND_N + seat]):
                if SUIT_OF[s[base + i]] == suit:
                    count += 1
            if count > best_count:
                best_count = count
                pick = 65 + 4 * card_slot + suit
    return pick


# -- policies: one call for any -----------------------------------------------------------
@njit(cache=CACHE, inline="always")
def random_action(s: np.ndarray, ruleset: np.ndarray, rng: np.ndarray, legal: np.ndarray) -> int:
    """:data:`POLICY_RANDOM`'s action: a uniformly random legal action of the seat to act
    (``legal``: scratch)."""
    n = legal_actions(s, ruleset, legal)
    return int(legal[below(rng, n)])


@njit(cache=CACHE, inline="always")
def choose_action(s: np.ndarray, cfg: np.ndarray, ruleset: np.ndarray, strength: np.ndarray,
                  policy: int, epsilon: float, rng: np.ndarray, legal: np.ndarray) -> int:
    """The policy's play, declare or pile action for the seat to act (``legal``: scratch
    of :data:`LEGAL_MAX` slots; ``strength`` read by :data:`POLICY_HEURISTIC` only)."""
    if policy == POLICY_RANDOM or unit(rng) < epsilon:
        return random_action(s, ruleset, rng, legal)
    n = legal_actions(s, ruleset, legal)
    if policy == POLICY_RULES_HEURISTIC:
        if s[PHASE] == PILE_PHASE:
            return PILE_1 if _r_projection(s, cfg, ruleset, s[PENDING]) < 0 else PILE_2
        return _r_heuristic_play(s, cfg, ruleset, legal, n)
    if s[PHASE] == PILE_PHASE:
        bal = _side_balance(s, cfg, ruleset, strength, s[PENDING])
        return PILE_1 if abs(bal + 1.0) <= abs(bal - 1.0) else PILE_2
    return _heuristic_play(s, cfg, ruleset, strength, legal, n)


@njit(cache=CACHE)
def choose_split(
    s: np.ndarray, ruleset: np.ndarray, seat: int, strength: np.ndarray, policy: int,
    rng: np.ndarray, pack: np.ndarray,
) -> None:
    """The policy's pack for ``seat``."""
    if policy == POLICY_RANDOM:
        random_split(s, ruleset, seat, rng, pack)
    elif policy == POLICY_RULES_HEURISTIC:
        _r_heuristic_split(s, ruleset, seat, pack)
    else:
        _heuristic_split(s, ruleset, seat, strength, rng, pack)


@_runtime_free
def play_out(s: np.ndarray, cfg: np.ndarray, ruleset: np.ndarray, strength: np.ndarray,
             policy: int, epsilon: float, rng: np.ndarray, legal: np.ndarray,
             pack: np.ndarray) -> None:
    """Play the rest of the round (splits still due included) with the policy."""
    if s[PHASE] == SPLIT:
        for p in range(cfg[CFG_PLAYERS]):
            if s[PACK_N + p] == 0:
                choose_split(s, ruleset, p, strength, policy, rng, pack)
                apply_split(s, cfg, ruleset, p, pack)
    while s[PHASE] != ROUND_DONE:
        a = choose_action(s, cfg, ruleset, strength, policy, epsilon, rng, legal)
        apply_action(s, cfg, ruleset, a)


# -- batches -------------------------------------------------------------------------------
@njit(cache=CACHE)
def deal_round(cfg: np.ndarray, ruleset: np.ndarray, deck: np.ndarray, cards: np.ndarray,
               rng: np.ndarray, hands: np.ndarray) -> None:
    """Shuffle ``deck`` into ``cards`` and deal each seat the ruleset's hand off the
    top into ``hands[seat]``; the cards after the hands are set aside. Each deal
    depends on the stream alone."""
    for i in range(deck.shape[0]):  # a loop: a slice copy would allocate
        cards[i] = deck[i]
    for i in range(deck.shape[0] - 1, 0, -1):
        j = below(rng, i + 1)
        tmp = cards[i]
        cards[i] = cards[j]
        cards[j] = tmp
    k = ruleset[R_NUMBERS, N_HAND]
    for p in range(cfg[CFG_PLAYERS]):
        for i in range(k):
            hands[p, i] = cards[k * p + i]


@njit(cache=CACHE)
def copy_round(s: np.ndarray, cfg: np.ndarray, ruleset: np.ndarray, g: int, r: int,
               deals: np.ndarray, splits: np.ndarray, orders: np.ndarray, plays: np.ndarray,
               nplays: np.ndarray, tricks: np.ndarray) -> None:
    """Keep round ``r`` of game ``g`` (a finished position ``s``): the deal, the packs and
    the order of the splits, every action, each trick's winner and pile."""
    k = ruleset[R_NUMBERS, N_HAND]
    for p in range(cfg[CFG_PLAYERS]):
        for i in range(k):
            deals[g, r, p, i] = s[DEAL + HAND_MAX * p + i]
        for j in range(ruleset[R_NUMBERS, N_PACK]):
            splits[g, r, p, j] = s[PACK + PACK_MAX * p + j]
        orders[g, r, p] = s[SPLIT_ORDER + p]
    nplays[g, r] = s[NPLAYS]
    for i in range(s[NPLAYS]):
        plays[g, r, i] = s[PLAYS + i]
    for t in range(k):
        tricks[g, r, 0, t] = s[WINNERS + t]
        tricks[g, r, 1, t] = s[PILE_OF + t]


@njit(cache=CACHE)
def match_winners(cfg: np.ndarray, ruleset: np.ndarray, totals: np.ndarray, wins: np.ndarray,
                  out: np.ndarray) -> None:
    """``out[seat]``: 1 for the seats that won (or share) a finished match: the most
    victories in a match to victories, else the lowest total."""
    players = cfg[CFG_PLAYERS]
    part = cfg[CFG_PART] != 0
    if ruleset[R_NUMBERS, N_FORM] == 1:
        sides = 2 if part else players
        top = 0
        for q in range(sides):
            top = max(top, wins[q])
        for p in range(players):
            out[p] = 1 if wins[p % 2 if part else p] == top else 0
        return
    low = totals[0]
    for p in range(1, players):
        low = min(low, totals[p])
    for p in range(players):
        out[p] = 1 if totals[p] == low else 0


@njit(cache=CACHE)
def simulate_games(
    cfg: np.ndarray,
    ruleset: np.ndarray,
    strength: np.ndarray,
    deck: np.ndarray,
    first: int,
    count: int,
    seed: int,
    policy: int,
    epsilon: float,
    one_round: bool,
    record: bool,
    rounds_played: np.ndarray,
    piles: np.ndarray,
    leaders: np.ndarray,
    won: np.ndarray,
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

    A match follows the ruleset's format and leader rule. One that has not ended
    after ``piles.shape[1]`` rounds (totals whose tie for the lowest never breaks)
    gets ``rounds_played`` -1. ``won[g, seat]`` is 1 for the seats that won (or share)
    match ``g``."""
    players = cfg[CFG_PLAYERS]
    k = ruleset[R_NUMBERS, N_HAND]
    s = np.zeros(STATE_LEN, dtype=np.int32)
    rng = np.zeros(1, dtype=np.uint64)
    legal = np.zeros(LEGAL_MAX, dtype=np.int32)
    pack = np.zeros(PACK_MAX, dtype=np.int32)
    hands = np.zeros((5, HAND_MAX), dtype=np.int32)
    scores = np.zeros(5, dtype=np.int32)
    totals = np.zeros(5, dtype=np.int32)
    wins = np.zeros(5, dtype=np.int32)
    cards = deck.copy()
    played = 0
    for g in range(count):
        leader = start_match(rng, seed, first + g, players, totals, wins)
        r = 0
        while True:
            deal_round(cfg, ruleset, deck, cards, rng, hands)
            start_round(s, cfg, ruleset, hands, leader)
            play_out(s, cfg, ruleset, strength, policy, epsilon, rng, legal, pack)
            played += k * players
            end = close_round(s, cfg, ruleset, cards, g, r, leader, record, one_round,
                              leaders, piles, asides, deals, splits, orders, plays, nplays,
                              tricks, totals, wins, scores)
            if end != 0:
                rounds_played[g] = end
                break
            leader = next_leader(s, cfg, ruleset, rng, scores)
            r += 1
        if not one_round:
            match_winners(cfg, ruleset, totals, wins, won[g])
    return played


@_runtime_free
def evaluate(
    cfg: np.ndarray,
    ruleset: np.ndarray,
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
    out: np.ndarray,
    s: np.ndarray,
    rng: np.ndarray,
    legal: np.ndarray,
    pack: np.ndarray,
    scores: np.ndarray,
) -> None:
    """Into ``out [actions, players]`` (zeros), the mean final round score of each seat
    after each candidate action.

    ``kinds[a]`` is 1 for a split (the pack ``packs[a]`` for ``seat``), 0 for a
    play, declare or pile action ``values[a]``. Every action is played out on the
    same random streams (one per world and playout), so differences between
    actions are not drowned in the noise of different deals of luck. ``s``, ``rng``,
    ``legal``, ``pack`` and ``scores`` (a slot a seat) are the caller's scratch: this is
    compiled without numba's runtime (:data:`NO_RUNTIME`), like :func:`play_out`
    (:func:`meio.sim.rollout.core_means` allocates them)."""
    players = cfg[CFG_PLAYERS]
    n_actions = kinds.shape[0]
    n_worlds = worlds.shape[0]
    for a in range(n_actions):
        for w in range(n_worlds):
            for k in range(playouts):
                for i in range(worlds.shape[1]):  # a loop: a slice copy would allocate
                    s[i] = worlds[w, i]
                seed_stream(rng, seed, w, k)
                if kinds[a] == 1:
                    apply_split(s, cfg, ruleset, seat, packs[a])
                else:
                    apply_action(s, cfg, ruleset, values[a])
                play_out(s, cfg, ruleset, strength, policy, epsilon, rng, legal, pack)
                round_scores(s, cfg, ruleset, scores)
                for p in range(players):
                    out[a, p] += scores[p]
    total = n_worlds * playouts
    for a in range(n_actions):
        for p in range(players):
            out[a, p] /= total


@njit(cache=CACHE)
def replay_actions(
    s: np.ndarray, cfg: np.ndarray, ruleset: np.ndarray, actions: np.ndarray, seats: np.ndarray,
    packs: np.ndarray
) -> int:
    """Apply scripted actions in order, checking each is legal in the core's own rules.

    ``seats[i]`` is the acting seat, ``actions[i]`` a play/declare/pile action or -1
    for the split ``packs[i]``. Stops at the end of the round. Returns the number of
    actions applied, or ``-(i + 1)`` when action ``i`` is not legal for the core."""
    legal = np.zeros(LEGAL_MAX, dtype=np.int32)
    for i in range(actions.shape[0]):
        if s[PHASE] == ROUND_DONE:
            return i
        if actions[i] < 0:
            if s[PHASE] != SPLIT or s[PACK_N + seats[i]] != 0:
                return -(i + 1)
            apply_split(s, cfg, ruleset, seats[i], packs[i])
            continue
        if s[PHASE] == SPLIT:
            return -(i + 1)
        acting = s[PENDING] if s[PHASE] == PILE_PHASE else s[TO_MOVE]
        if acting != seats[i]:
            return -(i + 1)
        n = legal_actions(s, ruleset, legal)
        ok = False
        for j in range(n):
            if legal[j] == actions[i]:
                ok = True
        if not ok:
            return -(i + 1)
        apply_action(s, cfg, ruleset, actions[i])
    return int(actions.shape[0])
