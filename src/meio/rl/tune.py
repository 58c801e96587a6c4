"""``meio train --variant FILE``: the general network (:mod:`meio.bots.general`) tuned to
one ruleset in a time budget, from games played in the compiled core.

**Data** (:func:`collect`). :class:`~meio.rl.VectorEnv` plays the ruleset with every
seat an agent seat (``seats="all"``, sequential splits), so that each decision comes
with the deciding seat's attribute observation computed in the core (equal to
:func:`~meio.bots.attributes.observe_any` of its view: ``tests/rl/test_tune.py``), the
true position kept apart for the targets. The seats play the ruleset's heuristic
(:mod:`meio.bots.variant_play`, the core's ``POLICY_RULES_HEURISTIC``) and split by the
split teacher below, so the positions are those a heuristic table meets. Targets:

* a play, declare or pile decision with a choice: the result of each legal action with
  the heuristic playing the round out in every seat from the true position
  (:func:`meio.rl.tunecore.card_values`: one step of policy improvement over the
  heuristic, as Deep Monte-Carlo's returns). The network *regresses* those results, so
  it learns each action's value averaged over the hidden cards its own view allows; it
  never sees them.
* a split: the ruleset heuristic's :data:`CANDIDATES` best packs
  (:func:`~meio.bots.variant_play.ranked_packs`) raced over :data:`WORLDS` worlds dealt
  from the seat's own cards (:func:`meio.rl.tunecore.split_values`); the best pack is
  taken as sequential picks in a random order, the target spread evenly over its cards
  not yet picked (as :mod:`meio.rl.general` does).

**Training** (:func:`meio.rl.tunefit.fit`): from the shipped network's weights, an
imitation head (the heuristic's card actions, the teacher's picks) and a head that
regresses each card action's result, saved as one policy layer.

**Budget** (:func:`improve`): about half the minutes collecting (``jobs`` processes),
the rest training; the whole run stays within ``minutes`` of wall time.
"""

from __future__ import annotations

import functools
import itertools
import multiprocessing
import random
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from meio.bots.general import (
    GENERAL_POLICY,
    OUTPUTS,
    PICK_BASE,
    load_general,
)
from meio.bots.variant_play import heuristic_pack
from meio.engine import MatchConfig
from meio.engine import cards as C
from meio.engine.presets import is_standard
from meio.engine.ruleset import Variant
from meio.rl import tunecore as T
from meio.rl.tunefit import CARD, PICK, Examples, Report, TuneError, fit
from meio.rl.vector import VectorEnv
from meio.sim import core as K

F16 = npt.NDArray[np.float16]
F32 = npt.NDArray[np.float32]
#: packs the split teacher races, and the worlds it races them over
CANDIDATES = 8
WORLDS = 24
#: environments stepped together by one collecting process
ENVS = 64
@dataclass(frozen=True, slots=True)
class Table:
    """One table of the ruleset the collector plays: its size and partnership."""

    players: int
    partnership: bool


def tables_of(variant: Variant) -> list[Table]:
    """The tables :func:`gather` collects at, one per slice of its time in turn: 4
    players (no partnership) five slices in six where the ruleset deals them (the
    benchmarks' table, whose decisions need the most data), the ruleset's other sizes
    and its partnership in turn in the sixth."""
    others = [Table(p, False) for p in variant.players if p != 4]
    if 4 in variant.players and variant.partnership:
        others.append(Table(4, True))
    if 4 not in variant.players:
        return others
    out: list[Table] = []
    for other in others or [Table(4, False)]:
        out += [Table(4, False)] * 5 + [other]
    return out


@dataclass(frozen=True, slots=True, eq=False)
class Kept:
    """Where an example of :func:`collect` comes from (for tests): the true core
    position (hidden cards included), the deciding seat, the match's set of specials
    (an index of the table's ``combos``), the cards picked so far in a sequential split
    and the rounds of the match finished before."""

    position: npt.NDArray[np.int32]
    seat: int
    combo: int
    picked: int
    round: int


@dataclass
class _Split:
    order: list[int]  # the best pack's cards, in the order they are picked
    value: float


@dataclass
class _Rows:
    x: list[F16]
    mask: list[npt.NDArray[np.bool_]]
    target: list[F32]
    kind: list[int]
    value: list[float]
    game: list[int]
    chosen: list[int]


def collect(variant: Variant, table: Table, seconds: float, *, seed: int = 0,
            envs: int = ENVS, worlds: int = WORLDS, candidates: int = CANDIDATES,
            limit: int | None = None, steps: int | None = None,
            keep_positions: bool = False) -> tuple[Examples, list[Kept]]:
    """Play ``variant`` at ``table`` in the core for ``seconds`` (at least one step of
    every environment; at most about ``limit`` examples, or ``steps`` steps of every
    environment) and return its examples (the module docstring). With
    ``keep_positions`` also where each example comes from (:class:`Kept`, for tests)."""
    if is_standard(variant):
        raise TuneError("tuning is for a ruleset other than an edition's (learned-v7 "
                        "plays those)")
    venv = VectorEnv(envs, players=table.players, partnership=table.partnership,
                     ruleset=variant, seats="all", split_mode="sequential",
                     seed=seed * 7919 + 1)
    t = venv.table
    layout = venv.layout
    cfg = t.cfg
    policy = t.heuristic
    hand = t.hand
    rng = random.Random(seed)
    venv.reset()
    plans: dict[int, _Split] = {}
    rows = _Rows([], [], [], [], [], [], [])
    kept: list[Kept] = []
    legal = np.zeros((envs, K.LEGAL_MAX), dtype=np.int32)
    counts = np.zeros(envs, dtype=np.int32)
    values = np.zeros((envs, K.LEGAL_MAX), dtype=np.float64)
    chosen = np.zeros(envs, dtype=np.int32)
    deadline = time.monotonic() + seconds
    first = True
    done = 0
    while first or (time.monotonic() < deadline and (steps is None or done < steps)
                    and (limit is None or len(rows.kind) < limit)):
        first = False
        done += 1
        positions = np.stack([venv.position(i) for i in range(envs)])
        combos = np.array([venv.specials_set(i) for i in range(envs)], dtype=np.int64)
        games = venv.episodes().astype(np.int64) * envs + np.arange(envs)
        seats = venv.seats_to_act()
        obs = venv.observations
        actions = np.zeros(envs, dtype=np.int64)
        splitting = positions[:, K.PHASE] == K.SPLIT
        # -- the splits: a new split is planned by the teacher, then picked card by card
        new = [int(i) for i in np.flatnonzero(splitting) if int(i) not in plans]
        if new:
            _plan_splits(new, positions, seats, combos, venv, worlds, candidates,
                         rng, plans)
        for i in np.flatnonzero(splitting):
            plan = plans[int(i)]
            seat = int(seats[i])
            dealt = sorted(int(c) for c in positions[i, K.DEAL + K.HAND_MAX * seat:
                                                     K.DEAL + K.HAND_MAX * seat + hand])
            n_picked = sum(1 for c in plan.order if obs[i, _pack_plane(c)] > 0)
            picked = C.mask_of(plan.order[:n_picked])
            mask = np.zeros(OUTPUTS, dtype=bool)
            for c in dealt:
                if not picked >> c & 1:
                    mask[PICK_BASE + c] = True
            target = np.zeros(OUTPUTS, dtype=np.float32)
            left = plan.order[n_picked:]
            target[[PICK_BASE + c for c in left]] = 1.0 / len(left)
            _add(rows, obs[i], mask, target, PICK, plan.value, int(games[i]), -1)
            if keep_positions:
                kept.append(Kept(positions[i].copy(), seat, int(combos[i]), picked,
                                 venv.rounds_finished(int(i))))
            card = left[0]
            actions[i] = layout.pick_base + dealt.index(card)
            if len(left) == 1:
                del plans[int(i)]
        # -- the card, declare and pile decisions: every legal action played out
        idx = np.flatnonzero(~splitting)
        if len(idx):
            T.card_values(positions[idx], cfg, t.ruleset, t.strengths, combos[idx], policy,
                          legal, counts, values, chosen)
            for j, i in enumerate(idx):
                n = int(counts[j])
                actions[i] = int(chosen[j])
                if n < 2:
                    continue
                mask = np.zeros(OUTPUTS, dtype=bool)
                target = np.zeros(OUTPUTS, dtype=np.float32)
                acts = legal[j, :n]
                mask[acts] = True
                target[acts] = values[j, :n]
                played = float(values[j, int(np.flatnonzero(acts == chosen[j])[0])])
                _add(rows, obs[i], mask, target, CARD, played, int(games[i]), int(chosen[j]))
                if keep_positions:
                    kept.append(Kept(positions[i].copy(), int(seats[i]), int(combos[i]), 0,
                                     venv.rounds_finished(int(i))))
        venv.step(actions)
    return Examples(np.stack(rows.x), np.stack(rows.mask), np.stack(rows.target),
                    np.array(rows.kind, dtype=np.int8), np.array(rows.value, dtype=np.float32),
                    np.array(rows.game, dtype=np.int64), np.array(rows.chosen, dtype=np.int16),
                    np.full(len(rows.kind), table.players, dtype=np.int8)), kept


def _pack_plane(card: int) -> int:
    from meio.bots import observation as O

    return O.PACK + card


def _add(rows: _Rows, x: F32, mask: npt.NDArray[np.bool_], target: F32, kind: int,
         value: float, game: int, chosen: int) -> None:
    rows.x.append(x.astype(np.float16))
    rows.mask.append(mask)
    rows.target.append(target)
    rows.kind.append(kind)
    rows.value.append(value)
    rows.game.append(game)
    rows.chosen.append(chosen)


def _plan_splits(new: list[int], positions: npt.NDArray[np.int32],
                 seats: npt.NDArray[np.int64], combos: npt.NDArray[np.int64],
                 venv: VectorEnv, worlds: int, candidates: int, rng: random.Random,
                 plans: dict[int, _Split]) -> None:
    """The split teacher for the environments ``new`` (each at a seat's first pick)."""
    t = venv.table
    hand, pack_size = t.hand, t.pack
    m = len(new)
    cand = np.zeros((m, candidates, K.PACK_MAX), dtype=np.int32)
    counts = np.zeros(m, dtype=np.int32)
    decks = np.zeros((m, 65), dtype=np.int32)
    sizes = np.zeros(m, dtype=np.int32)
    used = np.zeros(m, dtype=np.int64)
    packs: list[list[int]] = []
    for j, i in enumerate(new):
        seat = int(seats[i])
        own = [int(c) for c in positions[i, K.DEAL + K.HAND_MAX * seat:
                                         K.DEAL + K.HAND_MAX * seat + hand]]
        combo = _combo_seen(venv, int(combos[i]), C.mask_of(own), rng)
        used[j] = combo
        deck = t.deck(combo)
        decks[j, :len(deck)] = deck
        sizes[j] = len(deck)
        config = t.config(combo, int(positions[i, K.ROUND_LEADER]))
        ranked = candidate_packs(C.mask_of(own), config, t.ruleset, candidates)
        packs.append(ranked)
        counts[j] = len(ranked)
        for k, p in enumerate(ranked):
            cand[j, k, :pack_size] = C.cards_of(p)
    values = np.zeros((m, candidates), dtype=np.float64)
    T.split_values(positions[new], seats[new].astype(np.int64), t.cfg, t.ruleset,
                   t.strengths, used, t.heuristic, decks, sizes, cand, counts, worlds,
                   rng.getrandbits(62), values)
    for j, i in enumerate(new):
        best = int(np.argmin(values[j, :counts[j]]))
        order = C.cards_of(packs[j][best])
        rng.shuffle(order)
        plans[int(i)] = _Split(order, float(values[j, best]))


@functools.lru_cache(maxsize=16)
def _positions(hand: int, pack: int) -> npt.NDArray[np.int64]:
    return np.array(list(itertools.combinations(range(hand), pack)), dtype=np.int64)


def candidate_packs(hand: int, config: MatchConfig, ruleset: npt.NDArray[np.int32],
                    count: int) -> list[int]:
    """:func:`~meio.bots.variant_play.ranked_packs` of ``hand`` (a bitmask) at a
    ruleset's table, the same packs in the same order, reading each card's expected
    pull on ``H - V`` from the core's rows of the ruleset (``ruleset``, exact ints)
    and the packs' positions from a cache: a hundred times faster, for the teacher's
    thousands of splits."""
    cards = np.array(C.cards_of(hand), dtype=np.int64)
    pack = config.pack_size
    keep = (ruleset[K.R_RULE_CHANCE, cards].astype(np.int64)
            * ruleset[K.R_RULE_TOWARDS, cards])
    packed = (ruleset[K.R_RULE_CHANCE + 1, cards].astype(np.int64)
              * ruleset[K.R_RULE_TOWARDS + 1, cards])
    combos = _positions(len(cards), pack)
    cost = np.abs(keep.sum() + (packed - keep)[combos].sum(axis=1))
    first = heuristic_pack(hand, config)
    out = [first]
    for row in np.argsort(cost, kind="stable")[:count]:
        if len(out) >= count:
            break
        mask = C.mask_of(int(c) for c in cards[combos[int(row)]])
        if mask != first:
            out.append(mask)
    return out


def _combo_seen(venv: VectorEnv, combo: int, own: int, rng: random.Random) -> int:
    """The set of specials a split's worlds deal: the match's when the table shows
    them, else one drawn among the sets holding the specials the seat was dealt (it
    knows no more of them)."""
    t = venv.table
    if t.reveal_specials or len(t.combos) == 1:
        return combo
    mine = {c for c in C.cards_of(own) if c >= 60}
    fits = [k for k, row in enumerate(t.combos) if mine <= {int(c) for c in row}]
    return rng.choice(fits)


def _collect_job(args: tuple[Variant, Table, float, int, int, str]) -> str:
    variant, table, end, seed, limit, folder = args
    # ``end`` is on the monotonic clock, which every process of the machine shares
    data, _ = collect(variant, table, max(end - time.monotonic(), 0.0), seed=seed,
                      limit=limit)
    path = Path(folder) / f"part-{seed}.npz"
    data.save(path)
    return str(path)


def warm(variant: Variant) -> None:
    """Compile (or load from numba's disk cache) every kernel :func:`collect` calls."""
    collect(variant, tables_of(variant)[0], 0.0, envs=2, worlds=1, candidates=2)


#: the most examples :func:`gather` keeps (about 5 GB with the training's copy)
MAX_EXAMPLES = 600_000


def gather(variant: Variant, seconds: float, *, jobs: int = 2, seed: int = 0,
           limit: int = MAX_EXAMPLES, log: Callable[[str], None] = lambda _: None
           ) -> Examples:
    """:func:`collect` on ``jobs`` processes for about ``seconds`` of wall time, in
    slices of a third of it each, the tables of :func:`tables_of` in turn; at most
    about ``limit`` examples in all."""
    if jobs < 1 or seconds <= 0:
        raise TuneError("seconds must be positive and jobs at least 1")
    tables = tables_of(variant)
    slices = 3 * jobs
    warm(variant)  # compiled once, before the processes fork
    begin = time.monotonic()
    # slice k ends at its third of the time (each process plays three slices in turn)
    work = [(variant, tables[k % len(tables)], begin + seconds * (k // jobs + 1) / 3,
             seed * 1000 + k,
             max(limit // slices, 1)) for k in range(slices)]
    parts: list[Examples] = []
    with tempfile.TemporaryDirectory() as folder:
        if jobs == 1:
            paths = [_collect_job((*w, folder)) for w in work]
        else:
            ctx = multiprocessing.get_context("fork" if sys.platform == "linux" else "spawn")
            with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
                paths = list(pool.map(_collect_job, [(*w, folder) for w in work]))
        for k, path in enumerate(paths):
            part = Examples.load(Path(path))
            # each slice's games numbered apart from the others'
            parts.append(Examples(part.x, part.mask, part.target, part.kind, part.value,
                                  part.game + (k << 40), part.chosen, part.players))
            log(f"slice {k + 1}/{len(paths)} ({work[k][1].players} players"
                f"{', partnership' if work[k][1].partnership else ''}): {len(part)} examples")
    return Examples.join(parts)


#: the share of :func:`improve`'s minutes spent collecting (the rest trains)
COLLECT_SHARE = 0.5


def improve(variant: Variant, out: Path, *, minutes: float = 15.0, jobs: int = 2,
            init: Path = GENERAL_POLICY, seed: int = 0,
            log: Callable[[str], None] = lambda _: None) -> Report:
    """``meio train --variant``: the network at ``init`` tuned for ``variant`` in about
    ``minutes`` of wall time (:data:`COLLECT_SHARE` of it collecting on ``jobs``
    processes, the rest training), saved at ``out``."""
    if minutes <= 0:
        raise TuneError(f"minutes must be positive, not {minutes}")
    if jobs < 1:
        raise TuneError(f"jobs must be at least 1, not {jobs}")
    if is_standard(variant):
        raise TuneError("tuning is for a ruleset other than an edition's (learned-v7 "
                        "plays those)")
    load_general(init)  # a clear error before any work
    begin = time.monotonic()
    log(f"compiling (or loading) the core's kernels for {variant.name}")
    warm(variant)
    left = 60 * minutes - (time.monotonic() - begin)
    log(f"playing {variant.name} in the core for {COLLECT_SHARE * left / 60:.1f} minutes "
        f"on {jobs} process(es)")
    data = gather(variant, max(COLLECT_SHARE * left, 1.0), jobs=jobs, seed=seed, log=log)
    left = 60 * minutes - (time.monotonic() - begin)
    log(f"{len(data)} examples; training for {max(left, 6.0) / 60:.1f} minutes")
    return fit(data, out, init=init, minutes=max(left - 5.0, 1.0) / 60, seed=seed, log=log)


__all__ = [
    "CANDIDATES",
    "CARD",
    "COLLECT_SHARE",
    "ENVS",
    "MAX_EXAMPLES",
    "PICK",
    "WORLDS",
    "Examples",
    "Kept",
    "Report",
    "Table",
    "TuneError",
    "candidate_packs",
    "collect",
    "fit",
    "gather",
    "improve",
    "tables_of",
    "warm",
]
