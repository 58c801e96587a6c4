"""The search bot: determinized Monte Carlo (PIMC) over sampled worlds.

For each decision it deals the cards it cannot see at random, consistently with
its view (:func:`~meio.engine.sample_world`), a number of times; in every such
world it tries each legal action and plays the round out with the heuristic
policy; it takes the action with the best mean result over the worlds. All
actions are tried in the *same* worlds (common random numbers), so differences
between actions are measured far more precisely than the values themselves.

The split is searched the same way, but not over all 1,716 packs: the
heuristic ranks every pack (:func:`~meio.bots.policy.rank_packs`) and only the
best few are simulated. Other seats' packs are secret, so in each world every
other seat splits with the heuristic before play starts.

The objective is the seat's own expected round score (its team's in
partnership); with 2 players and in partnership, where a round is won by
scoring lower than the other side, it is the expected *difference* of scores.
Levels fix the work per decision (never a clock), so the bot is deterministic
given its seed: ``search:1`` (quick), ``search:2`` (the default, ``search``),
``search:3`` (strong, slow) and ``search:4`` (``expert``).

``search:4`` reads the table (:mod:`meio.bots.inference`): its worlds are drawn
from a larger uniform pool by how well they explain the other seats' splits
and plays, and it imagines the other seats splitting with the same model. Its
split starts from a compiled screen of all 1,716 packs (as the split advisor
does) and spends the rest of its budget by successive halving on the packs that
survive the screen.

Every level plays any ruleset (docs/variants.md): the worlds come from
:func:`~meio.engine.sample_world`, which deals by the ruleset's sizes, deck and
suits; the playouts run in the compiled core, which reads the ruleset as data; the
split's candidates are that ruleset's heuristic's (:func:`~meio.bots.variant_play.
ranked_packs`) and its screen covers every pack of any hand and pack size. Where the
opponent model does not apply (:func:`~meio.bots.inference.reads_play`: off the
editions) ``search:4`` searches uniform worlds instead of weighed ones. There every
level deals its card worlds in bulk with the same :class:`~meio.bots.pool.WorldPool`
as the weighed ones (a table that hides its specials deals them one by one with
``sample_world``, as the editions' levels 1 to 3 do).

The general switch: ``SearchBot(general=True)`` (the bots ``search:K-any`` and
``expert-any``) searches every ruleset, the editions included, as it searches a
variant: the split's candidates and the other seats' imagined packs are the heuristic
of any ruleset's, and so are its playouts (the core's ``heuristic-any``); its worlds
are weighed wherever :func:`~meio.bots.inference.reads_play` holds, as on a variant.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from meio.bots.base import seat_of
from meio.bots.inference import (
    DEFAULT_MODEL,
    OpponentModel,
    infer_positions,
    infer_worlds,
    reads_play,
    sample_packs,
)
from meio.bots.playout import Evaluator
from meio.bots.variant_play import heuristic_pack, ranked_packs
from meio.engine import PackChoices, Phase, State, View, sample_world
from meio.engine import actions as A


class Level(NamedTuple):
    """How much work one decision gets."""

    card_worlds: int  #: sampled worlds per card or pile decision
    card_playouts: int  #: playouts of each action in each world
    split_candidates: int  #: packs simulated at the split (the heuristic's best)
    split_worlds: int  #: sampled worlds for the split
    split_playouts: int
    #: uniform worlds weighed by inference, of which ``card_worlds`` are kept (0: none)
    pool: int = 0
    #: worlds of the compiled screen of all 1,716 packs at the split (0: no screen)
    screen_worlds: int = 0


LEVELS = {
    1: Level(card_worlds=24, card_playouts=2, split_candidates=8, split_worlds=40,
             split_playouts=1),
    2: Level(card_worlds=80, card_playouts=4, split_candidates=16, split_worlds=120,
             split_playouts=2),
    3: Level(card_worlds=200, card_playouts=8, split_candidates=30, split_worlds=300,
             split_playouts=3),
    4: Level(card_worlds=240, card_playouts=6, split_candidates=32, split_worlds=256,
             split_playouts=2, pool=320, screen_worlds=10),
}
DEFAULT_LEVEL = 2


def decision_seed(seed: int, view: View) -> int:
    """A seed for one decision, fixed by the bot's seed and what the view shows."""
    key = (seed, view.round_index, view.phase.value, view.half, view.trick_number,
           len(view.current_trick), view.hand, view.pack, view.seat)
    return hash(key) & 0xFFFFFFFFFFFF


def split_worlds(view: View, count: int, rng: random.Random,
                 model: OpponentModel | None = None, general: bool = False) -> list[State]:
    """Worlds for judging ``view.seat``'s split: every other seat has split, so this
    seat is the one to act. The others split with the heuristic (``general``: the
    heuristic of any ruleset, on an edition too), or with packs drawn from ``model``
    (:func:`~meio.bots.inference.sample_pack`) when one is given."""
    seat = seat_of(view)
    n = view.config.players
    fresh = dataclasses.replace(
        view, split_done=(False,) * n, seats_to_act=tuple(range(n)), pack=0
    )
    worlds = [sample_world(fresh, rng) for _ in range(count)]
    others = [other for other in range(n) if other != seat]
    if model is None or not reads_play(view.config):
        packs = [heuristic_pack(w.hands[other], w.config, general) for w in worlds
                 for other in others]
    else:
        packs = sample_packs([w.hands[other] for w in worlds for other in others],
                             view.config, rng, model)
    drawn = iter(packs)
    for world in worlds:
        for other in others:
            world.apply_unchecked(A.pack_action(next(drawn)), other)
    return worlds


def objective(means: npt.NDArray[np.float64], view: View) -> npt.NDArray[np.float64]:
    """Lower is better: own mean score, or own minus the other side's (2 players, teams)."""
    seat = seat_of(view)
    cfg = view.config
    own = means[:, seat]
    if cfg.players == 2 or cfg.partnership:
        other = means[:, (seat + 1) % cfg.players]
        result: npt.NDArray[np.float64] = own - other
        return result
    return own


class SearchBot:
    """PIMC search with heuristic playouts; see the module docstring."""

    def __init__(self, seed: int = 0, level: int = DEFAULT_LEVEL, *,
                 budget: Level | None = None, evaluate: Evaluator | None = None,
                 policy: str = "heuristic", model: OpponentModel = DEFAULT_MODEL,
                 name: str | None = None, general: bool = False) -> None:
        """``level`` picks a budget from :data:`LEVELS`; ``budget`` overrides it;
        ``evaluate`` replaces the playout engine (default: ``meio.sim``);
        ``model`` is the opponent model of inference (levels with a ``pool``);
        ``general`` the general switch (the module docstring: the playout policy
        ``heuristic`` becomes ``heuristic-any``)."""
        if level not in LEVELS:
            choices = ", ".join(str(k) for k in LEVELS)
            raise ValueError(f"search level {level} does not exist; choose one of {choices}")
        self.seed = seed
        self.level = level
        self.budget = budget or LEVELS[level]
        self.general = general
        self.name = name or (f"search:{level}-any" if general else
                             "search" if level == DEFAULT_LEVEL else f"search:{level}")
        self._evaluate = evaluate
        #: the compiled core plays the worlds (so they may stay core positions)
        self._compiled = evaluate is None
        self.policy = "heuristic-any" if general and policy == "heuristic" else policy
        self.model = model

    @property
    def evaluate(self) -> Evaluator:
        """The playout engine (``meio.sim.evaluate_actions`` unless one was given)."""
        if self._evaluate is None:
            # imported on first use: building a bot does not load the compiled core
            from meio.sim import evaluate_actions

            self._evaluate = evaluate_actions
        return self._evaluate

    def choose(self, view: View, legal: Sequence[int]) -> int:
        if not legal:
            raise ValueError("no legal action to choose from")
        if len(legal) == 1:
            return legal[0]
        if view.phase is Phase.SPLIT:
            return self.choose_pack(view, random.Random(decision_seed(self.seed, view)))
        options, scores = self.card_values(view, legal)
        return options[int(np.argmin(scores))]

    def card_values(self, view: View,
                    legal: Sequence[int]) -> tuple[list[int], npt.NDArray[np.float64]]:
        """Each legal card, declare or pile action and its searched objective (lower
        is better): what :meth:`choose` minimises, and the soft targets of self-play
        (:mod:`meio.rl.selfplay`). Not for the split, which is searched by pack."""
        if view.phase is Phase.SPLIT:
            raise ValueError("the split is searched by pack: use choose_pack")
        rng = random.Random(decision_seed(self.seed, view))
        options = list(legal)
        budget = self.budget
        pool = max(budget.pool, budget.card_worlds)
        reads = reads_play(view.config)
        if self._compiled and view.config.specials_known and (budget.pool or not reads):
            # the fast path: worlds dealt in bulk and played as core positions, weighed
            # by inference where the level reads the table and the model reads the
            # ruleset's play, else uniform (an edition's levels without a pool keep
            # sample_world's worlds, which their recorded decisions were made in)
            from meio.sim.rollout import evaluate_positions

            config, positions = infer_positions(view, budget.card_worlds, pool, rng,
                                                self.model)
            means = evaluate_positions(config, positions, options, seat_of(view),
                                       budget.card_playouts, rng.getrandbits(32), self.policy)
            return options, objective(means, view)
        if budget.pool and reads:
            worlds = infer_worlds(view, budget.card_worlds, pool, rng, self.model)
        else:
            worlds = [sample_world(view, rng) for _ in range(budget.card_worlds)]
        means = self.evaluate(worlds, options, budget.card_playouts, rng.getrandbits(32),
                              self.policy)
        return options, objective(means, view)

    def choose_pack(self, view: View, rng: random.Random) -> int:
        """The split: simulate the most promising packs, keep the best on average.

        Without a screen the candidates are the heuristic's best packs, all played
        in the same worlds. With one (``screen_worlds``), half the candidates come
        from a quick compiled playout of every pack, and the split worlds are
        spent by successive halving: each round plays the packs still in the race
        in fresh worlds and drops the worse half, so the best few get most worlds.
        """
        budget = self.budget
        hand = view.hand | view.pack
        model = self.model if budget.pool else None
        heuristic = ranked_packs(hand, view.config, budget.split_candidates, self.general)
        if not budget.screen_worlds:
            packs = [A.pack_action(p) for p in heuristic]
            worlds = split_worlds(view, budget.split_worlds, rng, model, self.general)
            means = self.evaluate(worlds, packs, budget.split_playouts, rng.getrandbits(32),
                                  self.policy)
            return packs[int(np.argmin(objective(means, view)))]
        screen = split_worlds(view, budget.screen_worlds, rng, model, self.general)
        every = list(PackChoices(hand, view.config.pack_size))
        screened = objective(self.evaluate(screen, every, 1, rng.getrandbits(32), self.policy),
                             view)
        candidates = heuristic[: (budget.split_candidates + 1) // 2]
        for i in np.argsort(screened, kind="stable"):
            if len(candidates) >= budget.split_candidates:
                break
            pack = A.pack_of(every[int(i)])
            if pack not in candidates:
                candidates.append(pack)
        return A.pack_action(self._halving(view, candidates, rng, model))

    def _halving(self, view: View, packs: list[int], rng: random.Random,
                 model: OpponentModel | None, evaluate: Evaluator | None = None) -> int:
        """Successive halving over ``packs`` with ``split_worlds`` worlds in all, played
        out by ``evaluate`` (the bot's own playout engine by default)."""
        budget = self.budget
        evaluate = evaluate or self.evaluate
        if len(packs) == 1:
            return packs[0]
        alive = list(packs)
        totals = dict.fromkeys(packs, 0.0)
        counts = dict.fromkeys(packs, 0)
        rounds = max(1, math.ceil(math.log2(len(alive))))
        # every round gets the same number of playouts: fewer packs, more worlds each
        per_round = budget.split_worlds * len(packs) // (2 * rounds)
        while True:
            count = max(1, per_round // len(alive))
            worlds = split_worlds(view, count, rng, model, self.general)
            actions = [A.pack_action(p) for p in alive]
            scores = objective(evaluate(worlds, actions, budget.split_playouts,
                                        rng.getrandbits(32), self.policy), view)
            for pack, score in zip(alive, scores, strict=True):
                totals[pack] += float(score) * count
                counts[pack] += count
            alive.sort(key=lambda p: (totals[p] / counts[p], packs.index(p)))
            if len(alive) <= 2:
                return alive[0]
            alive = alive[: (len(alive) + 1) // 2]

