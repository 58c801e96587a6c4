"""``search:5``: ``search:4`` standing on the learned network (its prior over the moves).

A card decision of ``search:4`` plays every legal action out in every world it
weighs. ``search:5`` asks the network first (:class:`~meio.bots.learned.
LearnedPolicy`, the distilled one that ``learned`` plays): when the network is sure
(its probability of one action at least :data:`SURE`), that action is played without
a search; otherwise only the network's :data:`TOP` most likely actions are searched,
with ``search:4``'s worlds and playouts, and the best of them by search is played.
So the search spends its playouts on the moves a strong player would consider, and
skips the decisions a strong player finds obvious. At the split only the network's
best packs race (:meth:`~meio.bots.learned.LearnedPolicy.top_packs`, a beam over its
six picks): :data:`NET_LEVEL` races eight of them by ``search:4``'s successive
halving over 128 worlds, where ``search:4`` screens all 1,716 packs and races 32 (the
heuristic's best sixteen and the screen's) over 256 worlds for about ten times the CPU.

``search:6`` is ``search:5`` with the network playing the worlds out as well
(:class:`~meio.bots.netcore.NetPlayouts`, every seat of a playout from its own
observation of that world) where ``search:5`` plays them with the heuristic: each
playout costs about ten times as much, so it weighs :data:`NET_PLAYOUT_LEVEL`'s fewer
worlds, each played out by a far stronger player than the heuristic. Measured, that
buys nothing: world for world it is level with ``search:5``, and at equal CPU it is
not ahead of ``search:4`` (docs/history/self-play-runs.md, the eighth run), so it is a kind for
research, not the teacher. Where the compiled core cannot play the network (a
variant, or specials kept hidden) it plays the worlds out as ``search:5`` does.

It reads only its seat's view, like every bot: the network's input is the view's
observation (:mod:`meio.bots.observation`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from meio.bots.base import seat_of
from meio.bots.inference import infer_positions
from meio.bots.learned import DEFAULT_POLICY, LOCAL_ACTIONS, cached_policy
from meio.bots.netcore import MatchSoFar, NetPlayouts
from meio.bots.observation import observe
from meio.bots.search import LEVELS, Level, SearchBot, decision_seed, objective
from meio.engine import MatchConfig, Phase, View, sample_world
from meio.engine import actions as A

#: the network's probability above which its choice is played without a search
SURE = 0.99
#: how many of the network's most likely actions are searched
TOP = 5
#: ``search:4``'s card search; at the split, the network's eight best packs raced over
#: 128 worlds by successive halving (no screen)
NET_LEVEL = LEVELS[4]._replace(split_candidates=8, split_worlds=128, screen_worlds=0)
#: ``search:6``: :data:`NET_LEVEL` with a fifth of the card worlds, each played out by
#: the network (about ``search:4``'s CPU a card decision)
NET_PLAYOUT_LEVEL = NET_LEVEL._replace(card_worlds=48)
#: who plays a search's worlds out
PLAYOUTS = ("heuristic", "network")
_LOCAL = {a: i for i, a in enumerate(LOCAL_ACTIONS)}


def core_plays_network(config: MatchConfig) -> bool:
    """Whether the compiled core can play the network on ``config``'s table: a
    standard edition (no variant) with its specials known."""
    from meio.sim.tables import plays_variant

    return config.specials_known and not plays_variant(config)


class NetSearchBot(SearchBot):
    """``search:4`` with the network's prior over card decisions; see the module."""

    def __init__(self, seed: int = 0, *, path: str | Path = DEFAULT_POLICY,
                 sure: float = SURE, top: int = TOP, name: str = "search:5",
                 budget: Level | None = None, playouts: str = "heuristic") -> None:
        """``budget`` replaces :data:`NET_LEVEL` (a benchmark's scaled or CPU-matched
        level; :data:`NET_PLAYOUT_LEVEL` with ``playouts="network"``)."""
        if playouts not in PLAYOUTS:
            raise ValueError(f"playouts must be one of {', '.join(PLAYOUTS)}, not {playouts!r}")
        default = NET_PLAYOUT_LEVEL if playouts == "network" else NET_LEVEL
        super().__init__(seed, level=4, budget=budget or default, name=name)
        self.network = cached_policy(path)
        self.sure = sure
        self.top = top
        self.playouts = playouts
        self._net_playouts: NetPlayouts | None = None

    def _network_playouts(self, view: View) -> NetPlayouts | None:
        """The network's playouts for this view's table, or None (the heuristic's)."""
        if self.playouts != "network" or not core_plays_network(view.config):
            return None
        if self._net_playouts is None:
            self._net_playouts = NetPlayouts(self.network)
        return self._net_playouts

    def prior(self, view: View, legal: Sequence[int]) -> npt.NDArray[np.float64]:
        """The network's probability of each of ``legal`` (a card, declare or pile)."""
        logits = self.network.logits(observe(view)).astype(np.float64)
        chosen = logits[[_LOCAL[a] for a in legal]]
        p = np.exp(chosen - chosen.max())
        out: npt.NDArray[np.float64] = p / p.sum()
        return out

    def choose_pack(self, view: View, rng: random.Random) -> int:
        """The split: the network's ``split_candidates`` best packs, raced by
        successive halving over ``split_worlds`` worlds."""
        packs = self.network.top_packs(view, self.budget.split_candidates)
        model = self.model if self.budget.pool else None
        net = self._network_playouts(view)
        evaluate = None if net is None else net.evaluator(seat_of(view), MatchSoFar.of(view))
        return A.pack_action(self._halving(view, packs, rng, model, evaluate))

    def choose(self, view: View, legal: Sequence[int]) -> int:
        if view.phase is Phase.SPLIT or len(legal) <= 1:
            return super().choose(view, legal)
        options, scores = self.card_values(view, legal)
        return options[int(np.argmin(scores))]

    def card_values(self, view: View,
                    legal: Sequence[int]) -> tuple[list[int], npt.NDArray[np.float64]]:
        """The searched values of the network's likeliest actions only (a lone action
        when the network is sure, with value 0)."""
        if view.phase is Phase.SPLIT:
            raise ValueError("the split is searched by pack: use choose_pack")
        p = self.prior(view, legal)
        order = np.argsort(-p, kind="stable")
        if p[order[0]] >= self.sure:
            return [legal[int(order[0])]], np.zeros(1)
        kept = [legal[int(i)] for i in order[: self.top]]
        net = self._network_playouts(view)
        if net is None:
            return super().card_values(view, kept)
        rng = random.Random(decision_seed(self.seed, view))
        budget = self.budget
        seat, match = seat_of(view), MatchSoFar.of(view)
        if budget.pool:  # worlds weighed by inference, as search:5's
            config, positions = infer_positions(view, budget.card_worlds,
                                                max(budget.pool, budget.card_worlds), rng,
                                                self.model)
            means = net.positions(config, positions, kept, seat, match)
        else:  # a budget without a pool: uniform worlds
            worlds = [sample_world(view, rng) for _ in range(budget.card_worlds)]
            means = net.states(worlds, kept, seat, match)
        return kept, objective(means, view)


def net_search_bot(seed: int = 0) -> NetSearchBot:
    """The bot of ``"search:5"`` (``"search:5:PATH"`` stands on the policy file at
    ``PATH``: :func:`meio.bots.registry.make_bot`)."""
    return NetSearchBot(seed)


def net_playout_bot(seed: int = 0) -> NetSearchBot:
    """The bot of ``"search:6"`` (``"search:6:PATH"`` stands on the policy file at
    ``PATH``)."""
    return NetSearchBot(seed, name="search:6", playouts="network")
