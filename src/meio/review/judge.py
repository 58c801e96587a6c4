"""Judging one decision from the deciding seat's view.

A decision is judged with nothing but :class:`~meio.engine.View`: the worlds it is
played in are dealt from that view, so what the other seats held (and what happened
later) never enters the verdict. Every legal action is played out in the *same*
worlds, and the verdict is:

* ``value``: the expected round score after the action taken (lower is better; with
  2 players and in partnership, own score minus the other side's, as the search bot
  measures it), ``best_value`` the same for the best action found;
* ``loss``: ``value - best_value``, the points a round the choice gave away;
* ``margin``: the 95% half-width of ``loss`` (1.96 standard errors of the paired
  differences over the worlds);
* ``flag``: the worst of :data:`THRESHOLDS` that ``loss - margin`` still reaches, so a
  flag is raised only when the uncertainty clears it. A forced move is never judged.

Cards, declared suits and pile choices are searched as ``search:4`` searches them
(worlds drawn from a larger pool by inference from the play, played out on the compiled
core). The split is judged as the split advisor judges it
(:func:`~meio.bots.advisor.advise_view`): the packs it ranks above the chosen one, and
what the chosen one cost against its best.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from meio.bots.search import decision_seed, objective
from meio.engine import Phase, View
from meio.engine import actions as A
from meio.engine import cards as C
from meio.engine.errors import MeioError


class ReviewError(MeioError):
    """A match or a position that cannot be reviewed."""


#: loss thresholds (points a round) of the flags, worst first; ``loss - margin`` must
#: reach one for the flag to be raised
THRESHOLDS: tuple[tuple[str, float], ...] = (
    ("blunder", 1.0),
    ("mistake", 0.5),
    ("inaccuracy", 0.25),
)
#: the loss (after its margin) at which a decision's accuracy falls to 1/e (37%)
ACCURACY_SCALE = 1.0
Z95 = 1.96


class Budget(NamedTuple):
    """How much work one judged decision gets."""

    card_worlds: int  #: worlds each card, declare or pile action is played in
    card_playouts: int  #: playouts of each action in each world
    pool: int  #: uniform worlds weighed by inference, of which ``card_worlds`` are kept
    split_worlds: int  #: worlds the split advisor plays each pack in


#: the pass a page shows at once
QUICK = Budget(card_worlds=48, card_playouts=4, pool=160, split_worlds=8)
#: the deeper pass that follows it: ``search:4``'s card budget
DEEP = Budget(card_worlds=240, card_playouts=6, pool=320, split_worlds=24)
#: puzzles: the confirming search (the gap must clear its margin here)
HIGH = Budget(card_worlds=200, card_playouts=4, pool=400, split_worlds=32)
BUDGETS = {"quick": QUICK, "deep": DEEP, "high": HIGH}


@dataclass(frozen=True, slots=True)
class Option:
    """One legal action and its expected result, as the review ranks it."""

    action: str  #: the action's text (``QS``, ``Q+=D``, ``pile=2``, a pack's card codes)
    value: float  #: expected round score (difference in 2-player and partnership games)


@dataclass(frozen=True, slots=True)
class Judgement:
    """The verdict on one decision; see the module docstring for each number."""

    seat: int
    kind: str  #: ``split``, ``card`` or ``pile``
    action: str
    best: str
    value: float
    best_value: float
    loss: float
    margin: float
    worlds: int
    choices: int  #: legal actions (a split: packs raced by the advisor, and the chosen)
    #: expected own round score after the action taken (the team's in partnership)
    expected: float
    #: actions ranked above the one taken, best first (a split: the advisor's packs)
    better: tuple[Option, ...] = field(default=())

    @property
    def forced(self) -> bool:
        return self.choices <= 1

    @property
    def cleared(self) -> float:
        """The loss the uncertainty cannot explain away: ``max(0, loss - margin)``."""
        return max(0.0, self.loss - self.margin)

    @property
    def flag(self) -> str | None:
        """``blunder``, ``mistake``, ``inaccuracy`` or None (:data:`THRESHOLDS`)."""
        if self.forced:
            return None
        for name, threshold in THRESHOLDS:
            if self.cleared >= threshold:
                return name
        return None

    @property
    def accuracy(self) -> float:
        """100 for a move that lost nothing measurable, ``100·exp(-cleared/scale)`` else."""
        return 100.0 * math.exp(-self.cleared / ACCURACY_SCALE)

    def to_json(self) -> dict[str, object]:
        return {
            "seat": self.seat, "kind": self.kind, "action": self.action, "best": self.best,
            "value": round(self.value, 4), "best_value": round(self.best_value, 4),
            "loss": round(self.loss, 4), "margin": round(self.margin, 4),
            "worlds": self.worlds, "choices": self.choices, "forced": self.forced,
            "flag": self.flag, "expected": round(self.expected, 4),
            "better": [{"action": o.action, "value": round(o.value, 4)} for o in self.better],
        }


def judge(view: View, action: int, budget: Budget = DEEP, seed: int = 0) -> Judgement:
    """Judge ``action``, taken by ``view.seat`` at ``view``, from that view alone.

    The answer depends only on the view, the action, the budget and ``seed``.
    """
    if view.seat is None:
        raise ReviewError("a review judges a seat's decision, not a spectator's view")
    if view.config.variant is not None:
        raise ReviewError("reviews are for the meio and classic editions, not for variants")
    legal = list(view.legal_actions())
    if action not in legal:
        raise ReviewError(
            f"{A.action_text(action)} was not legal for seat {view.seat} here"
        )
    if view.phase is Phase.SPLIT:
        return _judge_split(view, action, budget, seed)
    kind = "pile" if view.phase is Phase.PILE else "card"
    if len(legal) == 1:
        return Judgement(view.seat, kind, A.action_text(action), A.action_text(action),
                         0.0, 0.0, 0.0, 0.0, 0, 1, 0.0)
    values, own = play_values(view, legal, budget, seed)
    return verdict(view.seat, kind, legal, action, values, own)


def play_values(view: View, legal: list[int], budget: Budget,
                seed: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Each legal action's objective and own score in each world: two arrays of shape
    ``(len(legal), worlds)``, worlds dealt from ``view`` as ``search:4`` deals them."""
    from meio.bots.inference import infer_positions, infer_worlds
    from meio.sim import evaluate_actions
    from meio.sim.rollout import evaluate_positions

    seat = view.seat
    if seat is None:
        raise ReviewError("a review judges a seat's decision, not a spectator's view")
    rng = random.Random(decision_seed(seed, view))
    count = budget.card_worlds
    values = np.empty((len(legal), count))
    own = np.empty((len(legal), count))
    if view.config.specials_known:
        config, positions = infer_positions(view, count, max(count, budget.pool), rng)
        for w in range(count):
            means = evaluate_positions(config, positions[w:w + 1], legal, seat,
                                       budget.card_playouts, rng.getrandbits(32))
            values[:, w] = objective(means, view)
            own[:, w] = means[:, seat]
    else:
        for w, world in enumerate(infer_worlds(view, count, max(count, budget.pool), rng)):
            means = evaluate_actions([world], legal, budget.card_playouts,
                                     rng.getrandbits(32))
            values[:, w] = objective(means, view)
            own[:, w] = means[:, seat]
    return values, own


def verdict(seat: int, kind: str, legal: list[int], action: int,
            values: npt.NDArray[np.float64], own: npt.NDArray[np.float64]) -> Judgement:
    """The judgement of ``action`` from per-world values of every legal action."""
    means = values.mean(axis=1)
    order = sorted(range(len(legal)), key=lambda i: (float(means[i]), i))
    taken = legal.index(action)
    best = order[0]
    worlds = values.shape[1]
    loss = float(means[taken] - means[best])
    margin = 0.0
    if taken != best and worlds > 1:
        diffs = values[taken] - values[best]
        margin = Z95 * float(diffs.std(ddof=1)) / math.sqrt(worlds)
    better = tuple(Option(A.action_text(legal[i]), float(means[i]))
                   for i in order if means[i] < means[taken])
    return Judgement(seat, kind, A.action_text(action), A.action_text(legal[best]),
                     float(means[taken]), float(means[best]), max(0.0, loss), margin,
                     worlds, len(legal), float(own[taken].mean()), better)


def _judge_split(view: View, action: int, budget: Budget, seed: int) -> Judgement:
    from meio.bots.advisor import advise_view

    seat = view.seat
    assert seat is not None
    chosen = A.pack_of(action)
    advice = advise_view(view, chosen_pack=chosen, worlds=budget.split_worlds,
                         seed=decision_seed(seed, view))
    mine = advice.chosen
    assert mine is not None
    best = advice.best
    # the packs share their worlds: the loss is judged world by world (paired)
    margin = best.ahead_of(mine)[1] if best.pack != chosen else 0.0
    better = tuple(Option(C.format_cards(c.pack), c.mean) for c in advice.candidates
                   if c.mean < mine.mean)
    return Judgement(seat, "split", C.format_cards(chosen), C.format_cards(best.pack),
                     mine.mean, best.mean, max(0.0, mine.mean - best.mean),
                     margin, advice.worlds,
                     len(advice.candidates) + (mine not in advice.candidates), mine.mean,
                     better)
