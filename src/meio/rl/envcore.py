"""The compiled kernels of :class:`meio.rl.VectorEnv`: many matches stepped in one call.

Each environment is one core position (:mod:`meio.sim.core`, whose rule and
policy functions are called here, not copied) plus a row of match facts
(``meta``), its random stream, an observation row for each agent seat (one, or
several for self-play: the seats whose moves come from ``step``; the others are
compiled opponents) and the mask row of the agent seat to act. Hands and
packs are kept sorted by card id, so that the position an opponent's policy sees
is exactly the one :func:`meio.sim.convert.state_to_arrays` builds from the
engine: that is what makes a vector game equal to a :class:`meio.rl.MeioEnv` game.

Observations are updated in place as cards are played (a card sets a few
entries; the entries fixed by the table are written once, at reset), and masks
clear only the region they set, so a step writes tens of bytes, not the 3 KB of
an observation and 1.8 KB of a mask.

The step is one compiled call over all environments, and what made it fast is
reference counting, not arithmetic: numba counts references to every array view
and every array passed to a helper with atomic operations, and those were about
a third of a step. So the step (:func:`step_all`) and the action sampler are
compiled without numba's runtime (they allocate nothing: scratch arrays come
from the caller), and the core's play rules and random split, which the core compiles
inline into their callers, are inlined here too: the same code, not a copy. The
match's rules (its end, the next leader, the scores) are the core's own calls.
Together with dealing hands sorted by
reading the shuffled cards off in id order, the step went from about 0.9 to
2.1 million agent steps per CPU second at N = 1024 (A/B in one process).

numba keys its disk cache on this file, and the core's rules and the encodings' offsets
compile into these kernels: :data:`CACHE` (:func:`meio.sim.diskcache.cache_flag`)
renews this file's stamp whenever the core's, the encodings' or the engine's rule files
are newer, so no stale machine code runs.

Over 500 lines in one module on purpose: numba's disk cache keys each kernel on
the file it comes from, so the step, deal and observation kernels, which call one
another, stay in one file (as in :mod:`meio.sim.core`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from meio.bots import attributes as AT
from meio.bots import observation as O
from meio.bots import spaces as S
from meio.engine import tricks
from meio.sim import core as K
from meio.sim.diskcache import cache_flag

#: whether these kernels may use numba's disk cache (the module docstring)
CACHE = cache_flag(__file__, K, O, S, AT, tricks)

# -- the meta row of an environment ----------------------------------------------------------
M_EPISODE = 0
M_ROUND = 1  # round index in the match
M_TOTALS = 2  # [5] each seat's total of (individual) round scores
M_WINS = 7  # [5] victories by seat (2 players) or by team (partnership, slots 0 and 1)
M_PICKED = 12  # sequential split: positions (in the sorted 13 dealt) picked so far
M_ACTING = 13  # the observer row (agent seat) to act
M_COMBO = 14  # which set of specials this match uses
M_MASK_KIND = 15  # what region the mask row has set: 0 none, 1 plays, 2 packs, 3 picks
M_NPICKED = 16
M_LEN = 17

# -- the config row ----------------------------------------------------------------------------
C_PLAYERS = 0
C_PART = 1
C_EDITION = 2
C_ME = 3  # the (first) agent seat
C_POLICY = 4
C_SEQUENTIAL = 5
C_WILD_NEXT = 6
C_REVEAL = 7
C_ROUNDS = 8  # 3 for a match on totals, 0 for one played to victories
C_TO_WIN = 9  # victories that win (0: none counted)
C_NCOMBO = 10  # how many sets of specials to draw from (1: fixed)
C_AGENTS = 11  # bit p: seat p is an agent's (its moves come from step()), else an opponent's
C_NOBS = 12  # how many agent seats, each with an observation row
C_OBS = 13  # [5] the seat of each observation row, in seat order
C_HAND = 18  # cards dealt to each seat
C_FIRST = 19  # cards kept for the first half (its tricks)
C_PACK = 20  # cards in the second-half pack
C_PICK_BASE = 21  # the first sequential pick action (meio.rl.layout)
C_PACKS = 22  # how many packs a hand offers
C_WIDTH = 23  # the flat action space's size (the mask row's)
C_NSPECIALS = 24  # specials in the deck (N)
C_POOL = 25  # the ruleset's special cards (all in the deck: known though not revealed)
C_ANY = 26  # 1: the attribute encoding (a variant table), 0: the standard observation
C_LEN = 27

# -- the attribute encoding's table data (``anyd``, float32: meio.rl.vector builds it) ---------
A_ROWS = 0  # [65][ATTRIBUTES] each card's attribute row, IN_DECK 1 (0 rows: never in the deck)
A_NUMBERS = A_ROWS + 65 * AT.ATTRIBUTES  # [NUMBERS] the ruleset's numbers at this table
A_KIND = A_NUMBERS + AT.NUMBERS  # [65] 1: an ordinary card of the deck, 2: a special of the pool
A_LEN = A_KIND + 65

SPECIAL_ORDER = np.array(O.SPECIAL_ORDER, dtype=np.int32)
#: compile a kernel (cached) without numba's runtime (:data:`meio.sim.core.NO_RUNTIME`): it
#: may not allocate, nor may a core function compiled for the first time through it,
#: unless that function keeps the runtime itself (``K.RUNTIME``, as the editions'
#: heuristic split does)
_runtime_free = K.runtime_free(CACHE)

WORK_LEN = 135  # int32 scratch of a deal: the shuffled deck, each card's seat, hand fills



@njit(cache=CACHE, inline="always")
def _rel(seat: int, me: int, players: int) -> int:
    r = seat - me  # no modulo: it is an integer division, on every card
    return r + players if r < 0 else r


@njit(cache=CACHE, inline="always")
def _sort_row(s: np.ndarray, start: int, n: int) -> None:
    for i in range(1, n):
        x = s[start + i]
        j = i - 1
        while j >= 0 and s[start + j] > x:
            s[start + j + 1] = s[start + j]
            j -= 1
        s[start + j + 1] = x


@njit(cache=CACHE, inline="always")
def _acting(s: np.ndarray) -> int:
    if s[K.PHASE] == K.PILE_PHASE:
        return int(s[K.PENDING])
    return int(s[K.TO_MOVE])


@njit(cache=CACHE, inline="always")
def _agent_to_act(s: np.ndarray, c: np.ndarray) -> int:
    """The observer row of the agent seat to act (during the split: the first agent
    seat still to split), or -1 when a compiled opponent is to act."""
    nobs = c[C_NOBS]
    if s[K.PHASE] == K.SPLIT:
        for k in range(nobs):
            if s[K.PACK_N + c[C_OBS + k]] == 0:
                return k
        return -1
    seat = _acting(s)
    for k in range(nobs):
        if c[C_OBS + k] == seat:
            return k
    return -1


@njit(cache=CACHE, inline="always")
def _note_known(obs: np.ndarray, card: int) -> None:
    """The observer of row ``obs`` now knows that special ``card`` is in the deck."""
    for k in range(5):
        if SPECIAL_ORDER[k] == card:
            obs[O.SPECIALS + k] = 1.0


@njit(cache=CACHE, inline="always")
def _play(s: np.ndarray, c: np.ndarray, ruleset: np.ndarray, obs: np.ndarray,
          action: int) -> None:
    """Apply a play, declare or pile action, keeping the hand sorted and every agent
    seat's observation planes (the rows of ``obs``) up to date."""
    players = c[C_PLAYERS]
    nobs = c[C_NOBS]
    before = s[K.TRICK_NO]
    if s[K.PHASE] == K.PILE_PHASE:
        K.apply_action(s, c, ruleset, action)
    else:
        seat = s[K.TO_MOVE]
        card = K.card_of(action)
        base = K.HAND + K.HAND_MAX * seat
        n = s[K.HAND_N + seat]
        j = 0
        for i in range(n):  # remove the card, keeping the order
            if s[base + i] != card:
                s[base + j] = s[base + i]
                j += 1
        s[base + n - 1] = 0
        s[K.HAND_N + seat] = n - 1
        second = s[K.HALF] == 2
        for k in range(nobs):
            me = c[C_OBS + k]
            o = obs[k]
            o[O.PLAYED + O.NUM_CARDS * _rel(seat, me, players) + card] = 1.0
            o[O.TRICK + card] = 1.0
            if second:
                o[O.SECOND_HALF + card] = 1.0
            if seat == me:
                o[O.HAND + card] = 0.0
            if card >= 60:
                _note_known(o, card)
        K.apply_action(s, c, ruleset, action)
        if s[K.TRICK_NO] != before or s[K.PHASE] == K.PILE_PHASE:
            for k in range(nobs):  # the trick is complete: it leaves the table
                for q in range(players):
                    obs[k, O.TRICK + s[K.TRICK + q]] = 0.0
    first = c[C_FIRST]
    if before == first and s[K.TRICK_NO] == first + 1:
        # the second half has begun: each agent's hand plane shows its new hand
        for k in range(nobs):
            me = c[C_OBS + k]
            for q in range(c[C_PACK]):
                obs[k, O.HAND + s[K.HAND + K.HAND_MAX * me + q]] = 1.0


@njit(cache=CACHE, inline="always")
def _split(s: np.ndarray, c: np.ndarray, ruleset: np.ndarray, obs: np.ndarray, seat: int,
           pack: np.ndarray) -> None:
    """Seat keeps ``pack`` for the second half; hand and pack stay sorted."""
    K.apply_split(s, c, ruleset, seat, pack)
    npack = c[C_PACK]
    _sort_row(s, K.HAND + K.HAND_MAX * seat, c[C_FIRST])
    _sort_row(s, K.PACK + K.PACK_MAX * seat, npack)
    received = s[K.PHASE] == K.PLAY and c[C_PART] != 0
    for k in range(c[C_NOBS]):
        me = c[C_OBS + k]
        if seat == me:
            for q in range(npack):
                card = s[K.PACK + K.PACK_MAX * me + q]
                obs[k, O.HAND + card] = 0.0
                obs[k, O.PACK + card] = 1.0
        if received:
            partner = (me + 2) % 4
            for q in range(npack):
                card = s[K.PACK + K.PACK_MAX * partner + q]
                obs[k, O.RECEIVED + card] = 1.0
                if card >= 60:
                    _note_known(obs[k], card)


@njit(cache=CACHE, inline="always")
def _deal(rng: np.ndarray, deck: np.ndarray, nd: int, players: int, hand: int,
          hands: np.ndarray, work: np.ndarray) -> None:
    """Shuffle the first ``nd`` cards of ``deck`` (a copy, in ``work[:65]``) from the
    stream and deal ``hand`` to each seat, each hand sorted by card id (read off in id
    order through ``work[65:130]``, each card's seat)."""
    for i in range(nd):
        work[i] = deck[i]
    for i in range(nd - 1, 0, -1):
        j = np.int64(K.below(rng, i + 1))
        tmp = work[i]
        work[i] = work[j]
        work[j] = tmp
    for c in range(65):
        work[65 + c] = -1
    for i in range(hand * players):
        work[65 + work[i]] = i // hand
    count = work[130:135]
    count[:] = 0
    for c in range(65):
        p = work[65 + c]
        if p >= 0:
            hands[p, count[p]] = c
            count[p] += 1


@njit(cache=CACHE, inline="always")
def _start_round(
    s: np.ndarray, c: np.ndarray, ruleset: np.ndarray, strength: np.ndarray, deck: np.ndarray,
    nd: int,
    rng: np.ndarray, meta: np.ndarray, obs: np.ndarray, leader: int, hands: np.ndarray,
    pack: np.ndarray, work: np.ndarray
) -> None:
    """Deal a round from the stream, clear the agents' card planes, let every
    opponent split (seat order) and leave the agents to split."""
    players = c[C_PLAYERS]
    _deal(rng, deck, nd, players, ruleset[K.R_NUMBERS, K.N_HAND], hands, work)
    K.start_round(s, c, ruleset, hands, leader)
    for k in range(c[C_NOBS]):
        me = c[C_OBS + k]
        obs[k, : O.SPECIALS] = 0.0
        for i in range(c[C_HAND]):
            card = hands[me, i]
            obs[k, O.HAND + card] = 1.0
            if card >= 60:
                _note_known(obs[k], card)
    meta[M_PICKED] = 0
    meta[M_NPICKED] = 0
    agents = c[C_AGENTS]
    for p in range(players):
        if not agents >> p & 1:
            if c[C_POLICY] == K.POLICY_RANDOM:  # K.choose_split's own branch
                K.random_split(s, ruleset, p, rng, pack)
            else:
                K.choose_split(s, ruleset, p, strength, c[C_POLICY], rng, pack)
            _split(s, c, ruleset, obs, p, pack)


@njit(cache=CACHE, inline="always")
def _start_match(
    s: np.ndarray, c: np.ndarray, ruleset: np.ndarray, strengths: np.ndarray, deck: np.ndarray,
    nbase: int,
    combos: np.ndarray, seed: int, rng: np.ndarray, meta: np.ndarray, obs: np.ndarray,
    hands: np.ndarray, pack: np.ndarray, work: np.ndarray
) -> None:
    players = c[C_PLAYERS]
    K.seed_stream(rng, seed, meta[M_EPISODE], 0)
    combo = 0
    if c[C_NCOMBO] > 1:
        combo = int(np.int64(K.below(rng, c[C_NCOMBO])))
    meta[M_COMBO] = combo
    nd = nbase
    for k in range(combos.shape[1]):
        deck[nd] = combos[combo, k]
        nd += 1
    leader = int(np.int64(K.below(rng, players)))
    for k in range(M_TOTALS, M_WINS + 5):
        meta[k] = 0
    meta[M_ROUND] = 0
    for k in range(c[C_NOBS]):
        obs[k, O.SPECIALS : O.SPECIALS + 5] = 0.0
        if c[C_REVEAL] != 0 or combos.shape[1] == c[C_POOL]:  # all in: known, shown or not
            for q in range(combos.shape[1]):
                _note_known(obs[k], combos[combo, q])
    _start_round(s, c, ruleset, strengths[combo], deck, nd, rng, meta, obs, leader, hands,
                 pack, work)


@njit(cache=CACHE, inline="always")
def _end_round(s: np.ndarray, c: np.ndarray, ruleset: np.ndarray, meta: np.ndarray,
               scores: np.ndarray) -> bool:
    """Score the finished round into ``meta`` (the match's rules are the core's); True
    when the match is over. Leaves each seat's round score in ``scores``."""
    meta[M_ROUND] += 1
    # the sides' scores (2 players: by seat; partnership: by team) into scores[0:2]
    over = K.score_round(s, c, ruleset, meta[M_ROUND], meta[M_TOTALS:M_TOTALS + 5],
                         meta[M_WINS:M_WINS + 5], scores)
    K.round_scores(s, c, ruleset, scores)
    return bool(over)


@njit(cache=CACHE)
def _write_constants(c: np.ndarray, obs: np.ndarray, me: int) -> None:
    """The entries of seat ``me``'s observation fixed by the table: written once, at reset."""
    players = c[C_PLAYERS]
    obs[O.PLAYERS + players - 2] = 1.0
    obs[O.OPTIONS] = 1.0 if c[C_EDITION] == 1 else 0.0
    obs[O.OPTIONS + 1] = 1.0 if c[C_PART] != 0 else 0.0
    obs[O.OPTIONS + 2] = 1.0 if c[C_WILD_NEXT] != 0 else 0.0
    obs[O.OPTIONS + 3] = 1.0 if c[C_REVEAL] != 0 else 0.0
    obs[O.SEAT + me] = 1.0
    obs[O.SPECIAL_COUNT] = float(c[C_NSPECIALS]) / 5.0


@njit(cache=CACHE, inline="always")
def _write_scalars(s: np.ndarray, c: np.ndarray, meta: np.ndarray, obs: np.ndarray,
                   me: int) -> None:
    """The small part of seat ``me``'s observation that may change on any step: one-hot
    groups are cleared and set, numbers overwritten (seats beyond the table's stay 0)."""
    players = c[C_PLAYERS]
    obs[O.LED : O.PILES] = 0.0  # led suit, phase, seat to move, trick leader
    phase = s[K.PHASE]
    if phase == K.PLAY and s[K.TRICK_N] > 0 and s[K.LED] >= 0:
        obs[O.LED + s[K.LED]] = 1.0
    pending = 0.0
    if phase == K.SPLIT:
        obs[O.PHASE] = 1.0
    elif phase == K.PLAY:
        obs[O.PHASE + 1] = 1.0
        obs[O.TO_MOVE + _rel(s[K.TO_MOVE], me, players)] = 1.0
    else:
        obs[O.PHASE + 2] = 1.0
        obs[O.TO_MOVE + _rel(s[K.PENDING], me, players)] = 1.0
        if s[K.PENDING] == me:
            pending = 1.0
    obs[O.PENDING] = pending
    obs[O.TRICK_LEADER + _rel(s[K.TRICK_LEADER], me, players)] = 1.0
    to_win = c[C_TO_WIN] > 0
    part = c[C_PART] != 0
    for r in range(players):  # relative seat r is seat q
        q = me + r
        if q >= players:
            q -= players
        obs[O.PILES + 2 * r] = float(s[K.PILES + 2 * q]) / 13.0
        obs[O.PILES + 2 * r + 1] = float(s[K.PILES + 2 * q + 1]) / 13.0
        obs[O.HAND_SIZES + r] = float(s[K.HAND_N + q]) / 13.0
        obs[O.TOTALS + r] = float(meta[M_TOTALS + q]) / 39.0
        if to_win:
            side = q & 1 if part else q
            obs[O.VICTORIES + r] = float(meta[M_WINS + side]) * 0.5
    obs[O.HALF] = 1.0 if s[K.HALF] == 2 else 0.0
    obs[O.TRICK_NUMBER] = float(s[K.TRICK_NO] - 1) / 13.0
    obs[O.ROUND] = float(meta[M_ROUND]) / 3.0


@njit(cache=CACHE)
def _add_row(o: np.ndarray, at: int, card: int) -> None:
    """Add card ``card``'s attribute row (as written in ``o``'s table) to the sums at ``at``."""
    src = AT.ATTRS + card * AT.ATTRIBUTES
    for j in range(AT.ATTRIBUTES):
        o[at + j] += o[src + j]


@njit(cache=CACHE)
def _write_any(c: np.ndarray, anyd: np.ndarray, o: np.ndarray) -> None:
    """The attribute encoding's entries of an observation row past the standard ones
    (:func:`meio.bots.attributes.observe_any`), read from the row's own planes: the
    table of the cards as the seat knows the deck (a special it has not seen, while some
    are hidden, with the chance that it is in), the ruleset's numbers, and each plane's
    sum of its cards' rows (added in card order, in float32, as NumPy sums them), / 13.
    Not inlined (a call, at a variant table only): inlined at its three call sites it
    made the step's compilation several times longer."""
    na = AT.ATTRIBUTES
    known = 0
    unseen = 0
    for card in range(60, 65):
        if anyd[A_KIND + card] == 2.0:
            if o[O.SPECIALS + card - 60] != 0.0:
                known += 1
            else:
                unseen += 1
    missing = c[C_NSPECIALS] - known
    chance = np.float32(0.0)
    if unseen > 0 and missing > 0:
        chance = np.float32(missing / unseen)
    for card in range(65):
        kind = anyd[A_KIND + card]
        at = AT.ATTRS + card * na
        src = A_ROWS + card * na
        if kind == 1.0 or (kind == 2.0 and o[O.SPECIALS + card - 60] != 0.0):
            for j in range(na):
                o[at + j] = anyd[src + j]
        elif kind == 2.0 and chance > 0.0:
            for j in range(na):
                o[at + j] = anyd[src + j]
            o[at + AT.IN_DECK] = chance
        else:
            for j in range(na):
                o[at + j] = 0.0
    for j in range(AT.NUMBERS):
        o[AT.NUMBERS_AT + j] = anyd[A_NUMBERS + j]
    pooled = AT.POOLED
    for j in range(len(AT.POOL_PLANES) * na):
        o[pooled + j] = 0.0
    for card in range(65):
        seen = False
        if o[O.HAND + card] != 0.0:
            seen = True
            _add_row(o, pooled + AT.POOL_HAND * na, card)
        if o[O.PACK + card] != 0.0:
            seen = True
            _add_row(o, pooled + AT.POOL_PACK * na, card)
        if o[O.RECEIVED + card] != 0.0:
            seen = True
            _add_row(o, pooled + AT.POOL_RECEIVED * na, card)
        for r in range(O.MAX_SEATS):
            if o[O.PLAYED + O.NUM_CARDS * r + card] != 0.0:
                seen = True
                _add_row(o, pooled + (AT.POOL_PLAYED + r) * na, card)
        if o[O.TRICK + card] != 0.0:
            _add_row(o, pooled + AT.POOL_TRICK * na, card)
        kind = anyd[A_KIND + card]
        if not seen and (kind == 1.0 or (kind == 2.0 and o[O.SPECIALS + card - 60] != 0.0)):
            _add_row(o, pooled + AT.POOL_UNSEEN * na, card)
    scale = np.float32(AT.POOL_SCALE)
    for j in range(len(AT.POOL_PLANES) * na):
        o[pooled + j] = o[pooled + j] / scale


@njit(cache=CACHE, inline="always")
def _write_final(s: np.ndarray, c: np.ndarray, anyd: np.ndarray, meta: np.ndarray,
                 obs: np.ndarray, final: np.ndarray, me: int) -> None:
    """Seat ``me``'s observation of its finished match, as :func:`meio.rl.observe`
    gives it from the engine's view then: phase over, nobody to act or led suit,
    no trick on the table, trick number one past the last (14 in the editions), the
    last round's index."""
    for k in range(obs.shape[0]):
        final[k] = obs[k]
    _write_scalars(s, c, meta, final, me)
    final[O.TRICK : O.TRICK + O.NUM_CARDS] = 0.0
    final[O.LED : O.PILES] = 0.0
    final[O.PHASE + 3] = 1.0
    final[O.TRICK_LEADER + _rel(s[K.TRICK_LEADER], me, c[C_PLAYERS])] = 1.0
    final[O.PENDING] = 0.0
    final[O.TRICK_NUMBER] = float(c[C_HAND]) / 13.0  # trick number hand + 1 once over
    final[O.ROUND] = float(meta[M_ROUND] - 1) / 3.0
    if c[C_ANY] != 0:
        _write_any(c, anyd, final)


@njit(cache=CACHE, inline="always")
def _write_mask(s: np.ndarray, c: np.ndarray, ruleset: np.ndarray, meta: np.ndarray,
                mask: np.ndarray, legal: np.ndarray) -> None:
    kind = meta[M_MASK_KIND]
    pick_base = c[C_PICK_BASE]
    if kind == 1:
        mask[: S.PACK_BASE] = False
    elif kind == 2:
        mask[S.PACK_BASE : pick_base] = False
    elif kind == 3:
        mask[pick_base :] = False
    if s[K.PHASE] == K.SPLIT:
        if c[C_SEQUENTIAL] != 0:
            for i in range(c[C_HAND]):
                if not meta[M_PICKED] >> i & 1:
                    mask[pick_base + i] = True
            meta[M_MASK_KIND] = 3
        else:
            mask[S.PACK_BASE : S.PACK_BASE + c[C_PACKS]] = True
            meta[M_MASK_KIND] = 2
        return
    n = K.legal_actions(s, ruleset, legal)
    for k in range(n):
        mask[legal[k]] = True
    meta[M_MASK_KIND] = 1


@njit(cache=CACHE, inline="always")
def _show(s: np.ndarray, c: np.ndarray, ruleset: np.ndarray, anyd: np.ndarray,
          meta: np.ndarray, obs: np.ndarray, mask: np.ndarray, out: np.ndarray,
          legal: np.ndarray) -> None:
    """Write what the agent to act sees: its scalars and the mask, and with several
    agent seats its observation row copied into ``out``. At a variant table every
    agent seat's attribute entries are written anew (:func:`_write_any`)."""
    k = _agent_to_act(s, c)
    meta[M_ACTING] = k
    _write_scalars(s, c, meta, obs[k], c[C_OBS + k])
    if c[C_ANY] != 0:
        for q in range(c[C_NOBS]):
            _write_any(c, anyd, obs[q])
    _write_mask(s, c, ruleset, meta, mask, legal)
    if c[C_NOBS] > 1:
        for q in range(obs.shape[1]):
            out[q] = obs[k, q]


@njit(cache=CACHE, inline="always")
def _advance(
    s: np.ndarray, c: np.ndarray, ruleset: np.ndarray, anyd: np.ndarray, strengths: np.ndarray,
    deck: np.ndarray, nbase: int, combos: np.ndarray, seed: int, rng: np.ndarray,
    meta: np.ndarray, obs: np.ndarray, hands: np.ndarray, pack: np.ndarray, legal: np.ndarray,
    scores: np.ndarray, work: np.ndarray, final: np.ndarray, last: np.ndarray,
    reward: np.ndarray
) -> bool:
    """Let the opponents act until an agent seat must; adds each agent seat's reward
    into ``reward`` and returns whether the match is over.

    A finished round's position is kept in ``last`` before the next is dealt. A
    finished match leaves each agent seat's final observation in ``final`` and is
    replaced by the next one (same step), whose first decision (an agent's split)
    is then waiting."""
    nobs = c[C_NOBS]
    strength = strengths[meta[M_COMBO]]
    while True:
        phase = s[K.PHASE]
        if phase == K.ROUND_DONE:
            for k in range(s.shape[0]):
                last[k] = s[k]
            over = _end_round(s, c, ruleset, meta, scores)
            for k in range(nobs):
                reward[k] -= scores[c[C_OBS + k]]
            if over:
                for k in range(nobs):
                    _write_final(s, c, anyd, meta, obs[k], final[k], c[C_OBS + k])
                meta[M_EPISODE] += 1
                _start_match(s, c, ruleset, strengths, deck, nbase, combos, seed, rng, meta,
                             obs, hands, pack, work)
                return True
            leader = K.next_leader(s, c, ruleset, rng, scores)  # into scratch: no allocation
            nd = nbase + combos.shape[1]
            _start_round(s, c, ruleset, strength, deck, nd, rng, meta, obs, leader, hands, pack,
                         work)
            return False
        if phase == K.SPLIT or _agent_to_act(s, c) >= 0:
            return False
        a = K.choose_action(s, c, ruleset, strength, c[C_POLICY], 0.0, rng, legal)
        _play(s, c, ruleset, obs, a)
    return False


@njit(cache=CACHE)
def reset_all(
    states: np.ndarray, cfg: np.ndarray, ruleset: np.ndarray, anyd: np.ndarray,
    strengths: np.ndarray,
    decks: np.ndarray, nbase: int, combos: np.ndarray, seed: int, rngs: np.ndarray,
    metas: np.ndarray, obs: np.ndarray, masks: np.ndarray, out: np.ndarray
) -> None:
    """Start match 0 of every environment (env ``i`` plays seed ``seed + i``)."""
    for i in range(states.shape[0]):
        start_episode(states, cfg, ruleset, anyd, strengths, decks, nbase, combos, seed, rngs,
                      metas,
                      obs, masks, out, i, 0)


@njit(cache=CACHE)
def start_episode(
    states: np.ndarray, cfg: np.ndarray, ruleset: np.ndarray, anyd: np.ndarray,
    strengths: np.ndarray,
    decks: np.ndarray, nbase: int, combos: np.ndarray, seed: int, rngs: np.ndarray,
    metas: np.ndarray, obs: np.ndarray, masks: np.ndarray, out: np.ndarray, i: int,
    episode: int
) -> None:
    """Start match ``episode`` of environment ``i`` (of seed ``seed + i``)."""
    hands = np.zeros((5, K.HAND_MAX), dtype=np.int32)
    pack = np.zeros(K.PACK_MAX, dtype=np.int32)
    legal = np.zeros(K.LEGAL_MAX, dtype=np.int32)
    rng = np.zeros(1, dtype=np.uint64)
    work = np.zeros(WORK_LEN, dtype=np.int32)
    metas[i, :] = 0
    metas[i, M_EPISODE] = episode
    obs[i] = 0.0
    masks[i, :] = False
    for k in range(cfg[C_NOBS]):
        _write_constants(cfg, obs[i, k], cfg[C_OBS + k])
    _start_match(states[i], cfg, ruleset, strengths, decks[i], nbase, combos, seed + i, rng,
                 metas[i], obs[i], hands, pack, work)
    rngs[i] = rng[0]
    _show(states[i], cfg, ruleset, anyd, metas[i], obs[i], masks[i], out[i], legal)


@_runtime_free
def step_all(
    states: np.ndarray, cfg: np.ndarray, ruleset: np.ndarray, anyd: np.ndarray,
    strengths: np.ndarray,
    decks: np.ndarray, nbase: int, combos: np.ndarray, seed: int, rngs: np.ndarray,
    metas: np.ndarray, obs: np.ndarray, masks: np.ndarray, actions: np.ndarray,
    rewards: np.ndarray, terminated: np.ndarray, positions: np.ndarray, hands: np.ndarray,
    pack: np.ndarray, legal: np.ndarray, rng: np.ndarray, scores: np.ndarray, work: np.ndarray,
    finals: np.ndarray, lasts: np.ndarray, out: np.ndarray
) -> int:
    """Apply ``actions[i]`` (flat), the move of env ``i``'s agent seat to act, and
    advance it to an agent seat's next decision. Returns -1, or the first env whose
    action is not legal (then no env has moved).

    ``obs`` is ``[N, agent seats, OBS_SIZE]`` (each agent seat's observation, kept
    up to date), ``rewards`` ``[N, agent seats]``, ``finals`` like ``obs`` (each agent
    seat's final observation when env ``i``'s match ends), ``lasts[i]`` the
    position of each round env ``i`` finishes, ``out`` ``[N, OBS_SIZE]`` the
    observation of the agent seat to act (written only with several agent seats:
    with one, ``obs[:, 0]`` is it). ``anyd`` is the attribute encoding's table data
    (``A_ROWS``...; read at a variant table only). ``hands`` ``[5, 15]``, ``pack`` ``[14]``,
    ``legal`` ``[32]`` (int32), ``rng`` ``[1]`` (uint64), ``scores`` ``[5]`` and
    ``work`` ``[WORK_LEN]`` (int32) are scratch.

    Compiled without numba's runtime (``_nrt=False``): the step allocates
    nothing, so no array it touches needs reference counting, whose atomic
    operations on every view and every inlined call were a third of a step."""
    n_env = states.shape[0]
    width = cfg[C_WIDTH]
    for i in range(n_env):
        a = actions[i]
        if a < 0 or a >= width or not masks[i, a]:
            return i
    nobs = cfg[C_NOBS]
    pick_base = cfg[C_PICK_BASE]
    npack = cfg[C_PACK]
    for i in range(n_env):
        s = states[i]
        meta = metas[i]
        o = obs[i]
        rng[0] = rngs[i]
        a = actions[i]
        k = meta[M_ACTING]
        me = cfg[C_OBS + k]
        for q in range(nobs):
            rewards[i, q] = 0.0
        moved = True
        if a < S.PACK_BASE:
            _play(s, cfg, ruleset, o, a)
        elif a < pick_base:
            for q in range(npack):
                pack[q] = s[K.DEAL + K.HAND_MAX * me + positions[a - S.PACK_BASE, q]]
            _split(s, cfg, ruleset, o, me, pack)
        else:
            pos = a - pick_base
            card = s[K.DEAL + K.HAND_MAX * me + pos]
            meta[M_PICKED] |= 1 << pos
            meta[M_NPICKED] += 1
            o[k, O.HAND + card] = 0.0
            o[k, O.PACK + card] = 1.0
            moved = meta[M_NPICKED] == npack
            if moved:
                j = 0
                for q in range(cfg[C_HAND]):
                    if meta[M_PICKED] >> q & 1:
                        pack[j] = s[K.DEAL + K.HAND_MAX * me + q]
                        j += 1
                meta[M_PICKED] = 0
                meta[M_NPICKED] = 0
                _split(s, cfg, ruleset, o, me, pack)
        done = False
        if moved:
            done = _advance(s, cfg, ruleset, anyd, strengths, decks[i], nbase, combos,
                            seed + i, rng,
                            meta, o, hands, pack, legal, scores, work, finals[i], lasts[i],
                            rewards[i])
        rngs[i] = rng[0]
        terminated[i] = done
        _show(s, cfg, ruleset, anyd, meta, o, masks[i], out[i], legal)
    return -1


# -- entry points shared with MeioEnv (called from Python) ------------------------------------
@njit(cache=CACHE)
def deal(rng: np.ndarray, deck: np.ndarray, players: int, hand: int,
         hands: np.ndarray) -> None:
    """Shuffle ``deck`` from the stream and deal ``hand`` cards (sorted) to each seat,
    exactly as a vector environment deals."""
    work = np.zeros(WORK_LEN, dtype=np.int32)
    _deal(rng, deck, deck.shape[0], players, hand, hands, work)


@njit(cache=CACHE)
def policy_action(
    s: np.ndarray, cfg: np.ndarray, ruleset: np.ndarray, strength: np.ndarray, policy: int,
    rng: np.ndarray
) -> int:
    """The compiled opponent's play, declare or pile action in position ``s``."""
    legal = np.zeros(K.LEGAL_MAX, dtype=np.int32)
    return int(K.choose_action(s, cfg, ruleset, strength, policy, 0.0, rng, legal))


@njit(cache=CACHE)
def policy_split(
    s: np.ndarray, ruleset: np.ndarray, seat: int, strength: np.ndarray, policy: int,
    rng: np.ndarray, pack: np.ndarray
) -> None:
    """The compiled opponent's pack for ``seat`` in position ``s``."""
    K.choose_split(s, ruleset, seat, strength, policy, rng, pack)


@njit(cache=CACHE)
def below(rng: np.ndarray, n: int) -> int:
    """A uniform int in ``0..n-1`` from the stream (the core's draw)."""
    return int(K.below(rng, n))


@_runtime_free
def sample_legal(
    metas: np.ndarray, masks: np.ndarray, rng: np.ndarray, out: np.ndarray, found: np.ndarray,
    packs: int, pick_base: int
) -> None:
    """A uniformly random legal flat action for each environment, reading only the
    mask region its kind says is set (a baseline agent, and the benchmark's).
    ``found`` is int64 scratch of at least 83 entries: the legal actions of one env,
    gathered without a branch, of which the draw takes one. ``packs`` and ``pick_base``:
    the table's number of packs and first pick action (:mod:`meio.rl.layout`)."""
    for i in range(masks.shape[0]):
        kind = metas[i, M_MASK_KIND]
        if kind == 2:
            out[i] = S.PACK_BASE + np.int64(K.below(rng, packs))
            continue
        lo = 0 if kind == 1 else pick_base
        hi = S.PACK_BASE if kind == 1 else masks.shape[1]
        n = 0
        for a in range(lo, hi):
            found[n] = a
            n += int(masks[i, a])
        out[i] = found[np.int64(K.below(rng, n))]
