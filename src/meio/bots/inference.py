"""Reading the table: which hidden deals the play so far makes likely.

:func:`~meio.engine.sample_world` deals the unseen cards uniformly: every deal
that fits a view is as likely as any other. At a real table the play says more.
A player who ducked a trick they could have won with the ace of the suit
probably did not hold it; a player who threw a high card early was probably
shedding it. This module weighs sampled worlds by how well each explains what
the other seats did (policy-based inference, as the strong Skat and Bridge
programs do).

**The opponent model** (:class:`OpponentModel`): every other seat splits and
plays like the heuristic (:mod:`meio.bots.policy`), with noise.

* Split: ``P(pack | 13 cards)`` is proportional to ``exp(-cost / T_split)`` over
  the 1,716 packs, ``cost`` being the heuristic's expected ``|H - V|`` of each.
* Card: ``P(card | holding, table)`` is proportional to ``exp(-cost / T_play)``
  over the seat's legal plays, ``cost`` being the heuristic's expected final
  ``|H - V|`` after each (:func:`~meio.bots.policy.play_costs`).
* Both are mixed with a uniform choice (``noise``): nobody plays exactly like
  the model, and one surprising play must not rule a deal out.

The split part is the same model the search bot uses when it imagines the
other seats splitting (:func:`sample_pack`), so the worlds it searches before
and after the split agree.

**Where it applies** (:func:`reads_play`): the model is the editions' heuristic,
so it reads the play of an edition's table (a preset, whatever the table options).
On any other ruleset a search deals uniform worlds (:func:`~meio.engine.sample_world`,
which follows every ruleset) and imagines the other seats splitting with that
ruleset's heuristic (:mod:`meio.bots.variant_play`).

**The weighting** is importance sampling: draw a pool of uniform worlds, give
each the likelihood of every other seat's plays this round (and of its split)
given that world's cards, and resample the worlds to search from the weights.
A world's own cards are the only hidden thing a weight reads; everything else
is the public record of the view. The weights are tempered (raised to a power
at most 1) so that the effective sample size stays at least ``min_ess`` of the
pool: a model that is wrong about a player must not let a handful of worlds
decide.

**Speed.** :meth:`Reader.log_likelihood` is the reference, in plain Python;
:meth:`Reader.log_likelihoods` and :meth:`Reader.log_likelihoods_of` score a whole
pool with the compiled kernel (:mod:`meio.bots.likelihood`), and
:func:`infer_positions` takes its pool from :class:`~meio.bots.pool.WorldPool`
(worlds dealt in bulk, as core positions) rather than from ``sample_world``.

A little over 500 lines on purpose: the opponent model, its plain-Python
reference likelihood (:class:`Reader`) and the resampling built on them change
together whenever the model does; the compiled likelihood is
:mod:`meio.bots.likelihood`.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from meio.bots.features import SIDE_SUIT_SAFETY, TRUMP_RISK, Seen, beaters, values_for
from meio.bots.policy import _PARTNER_VAR_PER_CARD, PackRanking, play_costs, rank_packs
from meio.engine import MatchConfig, Phase, State, View, legal_plays, sample_world
from meio.engine import actions as A
from meio.engine import cards as C
from meio.engine.presets import preset
from meio.engine.tricks import pile_for

F64 = npt.NDArray[np.float64]
U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]
I32 = npt.NDArray[np.int32]


@dataclass(frozen=True, slots=True)
class OpponentModel:
    """How the other seats are assumed to choose (see the module docstring).

    The default temperatures are maximum-likelihood fits to the choices of the
    ``search:1`` bot in twelve 4-player rounds (444 card choices, 48 splits): card
    play is barely predictable this way (the optimum is flat from 0.2 to 0.5), the
    split very much so (searching bots keep to the heuristic's best few packs).
    """

    #: softness of the card model, in units of expected ``|H - V|``
    play_temperature: float = 0.3
    #: softness of the split model, in units of expected ``|H - V|``
    split_temperature: float = 0.003
    #: weight of a uniformly random choice mixed into every decision
    noise: float = 0.1
    #: the least effective sample size kept, as a share of the pool
    min_ess: float = 0.25

    def __post_init__(self) -> None:
        if self.play_temperature <= 0 or self.split_temperature <= 0:
            raise ValueError("temperatures must be positive")
        if not 0 < self.noise <= 1:
            raise ValueError(f"noise must be in (0, 1], not {self.noise}")
        if not 0 < self.min_ess <= 1:
            raise ValueError(f"min_ess must be in (0, 1], not {self.min_ess}")


DEFAULT_MODEL = OpponentModel()


@dataclass(frozen=True, slots=True)
class Decision:
    """One play another seat made this round, with the public table as it stood."""

    index: int
    seat: int
    half: int
    trick_number: int
    current_trick: tuple[tuple[int, int], ...]
    led_suit: int
    action: int
    piles: tuple[tuple[int, int], ...]
    hand_sizes: tuple[int, ...]
    #: every card played this round before this decision
    played_before: int


# -- what was seen ------------------------------------------------------------------------
def _led_before(plays: Sequence[tuple[int, int]], declared: int, wild_lead_next: bool) -> int:
    """The led suit the next player follows, from the plays of a trick so far."""
    if not plays:
        return -1
    if declared >= 0:
        return declared
    for _, card in plays:
        if not C.is_wild(card):
            return C.card_suit(card)
        if not wild_lead_next:
            break
    return -1


def decisions(view: View) -> list[Decision]:
    """Every play of this round by a seat other than ``view.seat`` whose holding this
    seat cannot fully see, in order, with the public table before it."""
    me = view.seat
    cfg = view.config
    n = cfg.players
    nxt = cfg.options.wild_lead == "next"
    out: list[Decision] = []
    piles = [[0, 0] for _ in range(n)]
    played = 0
    tricks: list[tuple[tuple[tuple[int, int], ...], int, int, int]] = [
        (t.plays, t.declared, t.winner, t.pile) for t in view.tricks
    ]
    current = view.current_trick
    if current:
        declared = view.led_suit if C.is_wild(current[0][1]) and not nxt else -1
        tricks.append((current, declared, -1, 0))
    for k, (plays, declared, winner, pile) in enumerate(tricks):
        half = 1 if k < 7 else 2
        start = 7 if half == 1 else 6
        done_in_half = k if half == 1 else k - 7
        for i, (seat, card) in enumerate(plays):
            sizes = tuple(start - done_in_half - (1 if any(s == p for p, _ in plays[:i]) else 0)
                          for s in range(n))
            known = seat == me or (cfg.partnership and me is not None and half == 2
                                   and seat == (me + 2) % 4)
            if not known:
                action = card
                if i == 0 and declared >= 0:
                    action = A.declare(card, declared)
                out.append(Decision(
                    index=len(out), seat=seat, half=half, trick_number=k + 1,
                    current_trick=tuple(plays[:i]),
                    led_suit=_led_before(plays[:i], declared, nxt), action=action,
                    piles=tuple((h, v) for h, v in piles), hand_sizes=sizes,
                    played_before=played,
                ))
            played |= 1 << card
        if winner >= 0 and pile:
            piles[winner][pile - 1] += 1
    return out


# -- likelihoods --------------------------------------------------------------------------
def _log_mix(logit: F64, index: int, temperature: float, noise: float) -> float:
    """log of ``(1 - noise) * softmax(logit / T)[index] + noise / len``."""
    z = logit / temperature
    z = z - z.max()
    p = math.exp(float(z[index])) / float(np.exp(z).sum())
    return math.log((1.0 - noise) * p + noise / len(logit))


class Reader:
    """Scores worlds for one view: ``log_likelihood(world)`` of the other seats' play.

    Built once per decision; it caches the model's answers by what they depend on
    (a seat's holding and the table), so worlds that agree on a seat share the work.
    """

    def __init__(self, view: View, model: OpponentModel = DEFAULT_MODEL) -> None:
        if view.seat is None:
            raise ValueError("inference needs a seat's view, not a spectator's")
        self.view = view
        self.model = model
        self.decisions = decisions(view) if view.phase is not Phase.SPLIT else []
        me = view.seat
        cfg = view.config
        self._split_seats = [] if view.phase is Phase.SPLIT else [
            s for s in range(cfg.players)
            if s != me and not (cfg.partnership and s == (me + 2) % 4 and view.half == 2)
        ]
        self._play_cache: dict[tuple[int, ...], float] = {}
        self._split_cache: dict[int, tuple[PackRanking, F64]] = {}
        self._arrays: tuple[I64, I64, I64, I64, I64, I64, I64, I64, I64, U64] | None = None

    @property
    def has_evidence(self) -> bool:
        """Whether any other seat has done something that tells of its cards."""
        return bool(self.decisions or self._split_seats)

    def log_likelihood(self, world: State) -> float:
        """log P(every other seat's split and plays this round | the cards of ``world``)."""
        total = 0.0
        for seat in self._split_seats:
            total += self._split_term(world.deal[seat], world.packs[seat])
        for d in self.decisions:
            total += self.play_likelihood(world, d)
            if total == -math.inf:
                break
        return total

    def log_likelihoods(self, worlds: Sequence[State]) -> F64:
        """:meth:`log_likelihood` of every world, computed by the compiled kernel
        (:mod:`meio.bots.likelihood`) in one call: the same numbers up to rounding."""
        n = self.view.config.players
        deal = np.zeros((len(worlds), n, 2), dtype=np.uint64)
        packs = np.zeros((len(worlds), n, 2), dtype=np.uint64)
        deck = np.zeros((len(worlds), 2), dtype=np.uint64)
        for w, world in enumerate(worlds):
            for j in range(n):
                deal[w, j] = _words(world.deal[j])
                packs[w, j] = _words(world.packs[j])
            deck[w] = _words(world.config.deck)
        return self.log_likelihoods_of(deal, packs, deck)

    def log_likelihoods_of(self, deal: U64, packs: U64, deck: U64) -> F64:
        """:meth:`log_likelihoods` of worlds given as card sets: ``deal[w, seat]``,
        ``packs[w, seat]`` and ``deck[w]``, each two ``uint64`` words (cards 0..63,
        card 64), as :class:`~meio.bots.pool.WorldPool` holds them."""
        from meio.bots.likelihood import log_likelihoods, split_terms

        cfg = self.view.config
        n = cfg.players
        t = _kernel_tables(cfg)
        m = self.model
        pub_lo, pub_hi = _words(_public_cards(cfg))
        split_ll = np.zeros(len(deal))
        for j in self._split_seats:
            # worlds often agree on a seat's deal and pack (late in a round): once each
            key = np.concatenate([deal[:, j], packs[:, j]], axis=1)
            unique, back = np.unique(key, axis=0, return_inverse=True)
            terms = split_terms(
                n, cfg.partnership, np.ascontiguousarray(unique[:, :2]),
                np.ascontiguousarray(unique[:, 2:]), np.uint64(pub_lo), np.uint64(pub_hi),
                t.combo_bits, t.ruleset, t.pile, t.cc_fixed, t.cc_base, t.cc_sure, t.cc_trump,
                TRUMP_RISK, _PARTNER_VAR_PER_CARD, m.split_temperature, m.noise,
            )
            split_ll += terms[back.reshape(-1)]
        result: F64 = log_likelihoods(
            n, cfg.partnership, t.ruleset, t.fval, t.pile, t.cc_fixed,
            t.cc_base, t.cc_sure, t.cc_trump, TRUMP_RISK, _PARTNER_VAR_PER_CARD,
            m.play_temperature, m.noise, split_ll, *self._evidence(), deal, packs, deck,
        )
        return result

    def _evidence(self) -> tuple[I64, I64, I64, I64, I64, I64, I64, I64, I64, U64]:
        """The decisions as the kernel's arrays (built once per reader)."""
        if self._arrays is None:
            ds = self.decisions
            k = len(ds)
            n = self.view.config.players
            seat = np.array([d.seat for d in ds], dtype=np.int64)
            half = np.array([d.half for d in ds], dtype=np.int64)
            ntrick = np.array([len(d.current_trick) for d in ds], dtype=np.int64)
            t_seats = np.zeros((k, 5), dtype=np.int64)
            t_cards = np.zeros((k, 5), dtype=np.int64)
            piles = np.zeros((k, n, 2), dtype=np.int64)
            sizes = np.zeros((k, n), dtype=np.int64)
            played = np.zeros((k, 2), dtype=np.uint64)
            for i, d in enumerate(ds):
                for p, (s, c) in enumerate(d.current_trick):
                    t_seats[i, p] = s
                    t_cards[i, p] = c
                piles[i] = d.piles
                sizes[i] = d.hand_sizes
                played[i] = _words(d.played_before)
            led = np.array([d.led_suit for d in ds], dtype=np.int64)
            action = np.array([d.action for d in ds], dtype=np.int64)
            self._arrays = (seat, half, ntrick, t_seats, t_cards, led, action, piles, sizes,
                            played)
        return self._arrays

    def _split_term(self, deal: int, pack: int) -> float:
        cached = self._split_cache.get(deal)
        if cached is None:
            ranking = rank_packs(deal, self.view.config)
            cached = (ranking, -ranking.cost)
            self._split_cache[deal] = cached
        ranking, logit = cached
        m = self.model
        return _log_mix(logit, ranking.index_of(pack), m.split_temperature, m.noise)

    def play_likelihood(self, world: State, d: Decision) -> float:
        """log P(decision ``d`` | the cards of ``world``) under the card model."""
        cfg = world.config
        partnership = cfg.partnership
        j = d.seat
        partner = (j + 2) % 4 if partnership else -1
        deal, packs = world.deal, world.packs
        if d.half == 1:
            holding = deal[j] & ~packs[j]
            future = packs[partner] if partnership else packs[j]
            team_future = packs[j] if partnership else 0
            partner_hand = 0
        else:
            holding = packs[partner] if partnership else packs[j]
            future = team_future = 0
            partner_hand = packs[j] & ~d.played_before if partnership else 0
        hand = holding & ~d.played_before
        own = hand | (packs[j] | future if d.half == 1 else partner_hand)
        unseen = cfg.deck & ~d.played_before & ~own
        key = (d.index, hand, future, team_future, partner_hand, unseen)
        cached = self._play_cache.get(key)
        if cached is not None:
            return cached
        legal = legal_plays(hand, d.led_suit, cfg.options.declares, bool(d.current_trick),
                            cfg.rules)
        if d.action not in legal:
            result = -math.inf  # this world's cards could not have made that play
        elif len(legal) == 1:
            result = 0.0
        else:
            seen = Seen(
                edition=cfg.edition, players=cfg.players, partnership=partnership, seat=j,
                half=d.half, trick_number=d.trick_number, hand=hand, future=future,
                team_future=team_future, partner_hand=partner_hand,
                current_trick=d.current_trick, led_suit=d.led_suit, piles=d.piles,
                hand_sizes=d.hand_sizes, unseen=unseen,
            )
            logit = -np.array(play_costs(seen, legal))
            m = self.model
            result = _log_mix(logit, legal.index(d.action), m.play_temperature, m.noise)
        self._play_cache[key] = result
        return result


# -- the compiled kernel's tables --------------------------------------------------------
_LOW64 = (1 << 64) - 1


def _words(mask: int) -> tuple[int, int]:
    """A card set as the kernel's two words: cards 0..63, then card 64."""
    return mask & _LOW64, mask >> 64


@dataclass(frozen=True, slots=True)
class _Tables:
    ruleset: I32
    fval: I64
    pile: I64
    cc_fixed: F64
    cc_base: F64
    cc_sure: U64
    cc_trump: U64
    combos: I64
    combo_bits: I64


def _kernel_tables(config: MatchConfig) -> _Tables:
    """The compiled likelihood's tables for ``config``'s game: the ruleset as the core
    reads it (:func:`meio.sim.tables.tables_for`: suits, trick values, trump, legality,
    hand and pack sizes) and the opponent model's card chances, taken from the Python
    heuristic itself (:func:`~meio.bots.features.card_chance` and
    :func:`~meio.bots.features.beaters`), which are the edition's."""
    from meio.sim.tables import table_key

    return _tables_of(table_key(config))


@functools.lru_cache(maxsize=32)
def _tables_of(config: MatchConfig) -> _Tables:
    from meio.sim.tables import tables_for

    edition = config.edition
    rules = config.rules
    fval = np.array([values_for(edition, h) for h in (1, 2)], dtype=np.int64)
    pile = np.array([[pile_for(c, h, rules.pile) for c in range(C.NUM_CARDS)] for h in (1, 2)],
                    dtype=np.int64)
    cc_fixed = np.full((2, C.NUM_CARDS), -1.0)
    cc_base = np.ones((2, C.NUM_CARDS))
    cc_sure = np.zeros((2, C.NUM_CARDS, 2), dtype=np.uint64)
    cc_trump = np.zeros((2, C.NUM_CARDS, 2), dtype=np.uint64)
    for h in (1, 2):
        for card in range(C.NUM_CARDS):
            v2 = int(fval[h - 1, card])
            suit = C.card_suit(card)
            led = C.HEARTS if suit < 0 else suit
            if card == C.PLUS_HALF:
                cc_fixed[h - 1, card] = 0.35
            elif card == C.MINUS_TWO_H:
                cc_fixed[h - 1, card] = 0.05
            elif suit < 0 and v2 < 2:
                cc_fixed[h - 1, card] = 0.0
            else:
                sure, trumps = beaters(card, led, v2, edition, h)
                cc_base[h - 1, card] = 1.0 if led == C.HEARTS else SIDE_SUIT_SAFETY
                cc_sure[h - 1, card] = _words(sure)
                cc_trump[h - 1, card] = _words(trumps)
    combos = np.array(list(itertools.combinations(range(rules.hand), rules.pack)),
                      dtype=np.int64)
    combo_bits = np.array([sum(1 << int(i) for i in row) for row in combos], dtype=np.int64)
    return _Tables(tables_for(config).ruleset, fval, pile, cc_fixed, cc_base, cc_sure,
                   cc_trump, combos, combo_bits)


# -- weights and resampling ---------------------------------------------------------------
def effective_size(weights: F64) -> float:
    """Kish's effective sample size of (unnormalised) weights."""
    total = float(weights.sum())
    return total * total / float((weights * weights).sum()) if total > 0 else 0.0


def temper(log_weights: F64, min_ess: float, fixed: F64 | None = None) -> F64:
    """Normalised weights ``exp(a * log_weights + fixed)`` with the largest ``a`` in
    [0, 1] whose effective sample size is at least ``min_ess`` of the pool (bisection).

    ``fixed`` (log weights, default 0) is left untempered: a sampling correction
    (:attr:`~meio.bots.pool.WorldPool.log_weight`) must hold whatever the model."""
    base = np.zeros(len(log_weights)) if fixed is None else fixed
    finite = np.isfinite(log_weights) & np.isfinite(base)
    if not finite.any():
        return np.full(len(log_weights), 1.0 / len(log_weights))
    lw = np.where(finite, log_weights, 0.0)
    lw = lw - lw[finite].max()
    fx = np.where(finite, base, 0.0)
    need = min_ess * int(finite.sum())

    def weights(a: float) -> F64:
        z = a * lw + fx
        z = z - z[finite].max()
        w: F64 = np.where(finite, np.exp(z), 0.0)
        return w

    if effective_size(weights(1.0)) >= need:
        best = weights(1.0)
    else:
        lo, hi = 0.0, 1.0
        for _ in range(20):
            mid = (lo + hi) / 2
            if effective_size(weights(mid)) >= need:
                lo = mid
            else:
                hi = mid
        best = weights(lo)
    normalised: F64 = best / best.sum()
    return normalised


def resample_indices(weights: F64, count: int, rng: random.Random) -> I64:
    """``count`` indices drawn by systematic resampling from normalised ``weights``
    (low variance, deterministic given ``rng``)."""
    cumulative = np.cumsum(weights)
    cumulative[-1] = 1.0
    start = rng.random() / count
    picks = np.searchsorted(cumulative, start + np.arange(count) / count, side="right")
    result: I64 = np.minimum(picks, len(weights) - 1).astype(np.int64)
    return result


def resample(worlds: Sequence[State], weights: F64, count: int,
             rng: random.Random) -> list[State]:
    """``count`` worlds drawn by systematic resampling (low variance, deterministic
    given ``rng``); a world drawn twice is the same object twice."""
    return [worlds[int(i)] for i in resample_indices(weights, count, rng)]


def world_weights(view: View, worlds: Sequence[State],
                  model: OpponentModel = DEFAULT_MODEL) -> F64:
    """Normalised, tempered weights of ``worlds`` (drawn for ``view``) under ``model``."""
    reader = Reader(view, model)
    if not reader.has_evidence:
        return np.full(len(worlds), 1.0 / len(worlds))
    return temper(reader.log_likelihoods(worlds), model.min_ess)


def infer_worlds(view: View, count: int, pool: int, rng: random.Random,
                 model: OpponentModel = DEFAULT_MODEL) -> list[State]:
    """``count`` worlds for ``view``, drawn from ``pool`` uniform ones by their
    likelihood under ``model`` (uniform ones when nothing has been seen yet)."""
    if count < 1 or pool < 1:
        raise ValueError(f"count and pool must be at least 1, not {count} and {pool}")
    reader = Reader(view, model)
    if not reader.has_evidence:
        return [sample_world(view, rng) for _ in range(count)]
    candidates = [sample_world(view, rng) for _ in range(pool)]
    return resample(candidates, temper(reader.log_likelihoods(candidates), model.min_ess),
                    count, rng)


def infer_positions(view: View, count: int, pool: int, rng: random.Random,
                    model: OpponentModel = DEFAULT_MODEL) -> tuple[MatchConfig, I32]:
    """:func:`infer_worlds` for the compiled core: ``count`` worlds drawn from a
    :class:`~meio.bots.pool.WorldPool` of ``pool`` by their likelihood, returned as
    core positions with the config of their deck (for
    :func:`meio.sim.rollout.evaluate_positions`). Needs known specials.

    On a ruleset the model does not read (:func:`reads_play`) the worlds are uniform,
    as when nothing has been seen yet: ``count`` pool worlds (resampled by the pool's
    own weights where it dealt by voids), as :func:`~meio.engine.sample_world` would
    deal them, dealt in bulk."""
    from meio.bots.pool import WorldPool

    if count < 1 or pool < 1:
        raise ValueError(f"count and pool must be at least 1, not {count} and {pool}")
    reader = Reader(view, model) if reads_play(view.config) else None
    evidence = reader is not None and reader.has_evidence
    worlds = WorldPool(view, pool if evidence else count, rng)
    if reader is not None and evidence:
        log_w = reader.log_likelihoods_of(worlds.deal, worlds.packs, worlds.deck)
    else:
        log_w = np.zeros(len(worlds.log_weight))
    if not evidence and not worlds.log_weight.any():
        chosen: I64 = np.arange(count, dtype=np.int64)  # uniform worlds, nothing to weigh
    else:
        chosen = resample_indices(temper(log_w, model.min_ess, worlds.log_weight), count,
                                  rng)
    return worlds.template.config, worlds.positions(chosen)


def reads_play(config: MatchConfig) -> bool:
    """Whether the opponent model reads the play of ``config``'s table: where its cards
    and hands are an edition's (deck, specials, values, suits, trump, pile effects,
    hand and pack sizes), whatever its scoring, match format, leader rule and table
    options, since the model is the editions' heuristic, its card chances worked out for
    their cards (see the module docstring). Elsewhere worlds stay uniform.

    >>> from meio.engine.ruleset_file import parse_variant
    >>> rotate = parse_variant('preset = "meio"\\nleader = "rotate"\\n', "rotate.toml")
    >>> split = parse_variant('preset = "meio"\\n[hand]\\nfirst_half = 6\\npack = 7\\n', "6-7")
    >>> reads_play(MatchConfig(players=4, variant=rotate)), reads_play(
    ...     MatchConfig(players=4, variant=split))
    (True, False)
    """
    variant = config.ruleset
    base = preset(variant.edition)
    return dataclasses.replace(variant, name=base.name, options=base.options,
                               scoring=base.scoring, bonus=base.bonus, formats=base.formats,
                               leader=base.leader) == base


def _public_cards(config: MatchConfig) -> int:
    """The cards that may be in play: the deck, and where the specials are hidden every
    special the ruleset may draw."""
    if config.specials_known:
        return config.deck
    return config.deck | C.mask_of(config.ruleset.special_pool)


# -- the split model ----------------------------------------------------------------------
def pack_probabilities(hand: int, config: MatchConfig,
                       model: OpponentModel = DEFAULT_MODEL) -> tuple[PackRanking, F64]:
    """The split model's probability of each of the 1,716 packs of a 13-card ``hand``
    (rows in :class:`~meio.bots.policy.PackRanking` order)."""
    ranking = rank_packs(hand, config)
    z = -ranking.cost / model.split_temperature
    p = np.exp(z - z.max())
    p = (1.0 - model.noise) * p / p.sum() + model.noise / len(p)
    return ranking, p


def sample_pack(hand: int, config: MatchConfig, rng: random.Random,
                model: OpponentModel = DEFAULT_MODEL) -> int:
    """A pack (bitmask) for ``hand`` drawn from the split model."""
    return sample_packs([hand], config, rng, model)[0]


def sample_packs(hands: Sequence[int], config: MatchConfig, rng: random.Random,
                 model: OpponentModel = DEFAULT_MODEL) -> list[int]:
    """A pack for each of ``hands`` (the dealt cards) drawn from the split model, in
    order; the packs' probabilities are those of :func:`pack_probabilities`, computed
    by the compiled kernel for all hands at once."""
    from meio.bots.likelihood import pack_logits_of

    if not hands:
        return []
    dealt = config.rules.hand
    if any(h.bit_count() != dealt for h in hands):
        raise ValueError(f"a split needs the {dealt} dealt cards of each hand")
    t = _kernel_tables(config)
    lo, hi = _words(_public_cards(config))
    deals = np.array([_words(h) for h in hands], dtype=np.uint64)
    z = pack_logits_of(config.players, config.partnership, deals, np.uint64(lo),
                       np.uint64(hi), t.ruleset, t.pile, t.cc_fixed, t.cc_base, t.cc_sure,
                       t.cc_trump, TRUMP_RISK, _PARTNER_VAR_PER_CARD, model.split_temperature)
    p = np.exp(z - z.max(axis=1, keepdims=True))
    p = (1.0 - model.noise) * p / p.sum(axis=1, keepdims=True) + model.noise / p.shape[1]
    cumulative = np.cumsum(p, axis=1)
    out = []
    for k, hand in enumerate(hands):
        u = rng.random() * float(cumulative[k, -1])
        index = min(int(np.searchsorted(cumulative[k], u, side="right")), p.shape[1] - 1)
        cards = C.cards_of(hand)
        out.append(C.mask_of(cards[int(i)] for i in t.combos[index]))
    return out
