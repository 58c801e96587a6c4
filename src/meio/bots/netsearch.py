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

**Any ruleset.** On an edition's table (a preset, whatever its table options) it
stands on the editions' network (``learned-v7``), as above, decision for decision. On
any other ruleset it stands on the network ``learned`` plays there, the network for any
ruleset (:mod:`meio.bots.general`, ``learned-any-v1``): its prior over the card
decisions is that network's logits of the legal actions (its play, declare and pile
outputs are the flat action ids), and the split races :data:`NET_LEVEL`'s eight packs,
half of them the network's (its greedy pack, then a beam over its picks by card id,
:func:`general_top_packs`) and half the ruleset heuristic's best
(:func:`~meio.bots.variant_play.ranked_packs`). Half and half because the network for
any ruleset is still behind the variant heuristic on rulesets it never saw (about half
a point a round, docs/bots.md): its packs alone would leave its split errors no
rival, while the race, over 128 worlds, keeps whichever half holds the better pack.
The worlds and the heuristic's playouts are ``search:4``'s on a variant: uniform worlds
dealt in bulk by :class:`~meio.bots.pool.WorldPool` (the opponent model reads the
editions' cards only).

``search:6`` is ``search:5`` with the network playing the worlds out as well
(:class:`~meio.bots.netcore.NetPlayouts`, every seat of a playout from its own
observation of that world) where ``search:5`` plays them with the heuristic: each
playout costs about ten times as much, so it weighs :data:`NET_PLAYOUT_LEVEL`'s fewer
worlds, each played out by a far stronger player than the heuristic. Measured, that
buys nothing: world for world it is level with ``search:5``, and at equal CPU it is
not ahead of ``search:4`` (docs/history/self-play-runs.md, the eighth run), so it is a kind for
research, not the teacher. On a ruleset that is not an edition's the network for any
ruleset plays the worlds out in the core (its first layer folded for the table,
:func:`~meio.bots.netcore.fold_general`). Where the compiled core cannot play a network
(specials kept hidden) it plays the worlds out as ``search:5`` does.

It reads only its seat's view, like every bot: the network's input is the view's
observation (:mod:`meio.bots.observation`, or :func:`~meio.bots.attributes.observe_any`
for the network for any ruleset).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from meio.bots.attributes import observe_any
from meio.bots.base import seat_of
from meio.bots.general import GENERAL_POLICY, PICK_BASE, GeneralPolicy, cached_general
from meio.bots.inference import infer_positions
from meio.bots.learned import (
    DEFAULT_POLICY,
    LOCAL_ACTIONS,
    LearnedPolicy,
    beam_packs,
    cached_policy,
)
from meio.bots.netcore import MatchSoFar, NetPlayouts
from meio.bots.observation import observe
from meio.bots.search import LEVELS, Level, SearchBot, decision_seed, objective
from meio.bots.variant_play import ranked_packs
from meio.engine import MatchConfig, Phase, View, sample_world
from meio.engine import actions as A
from meio.engine import cards as C
from meio.engine.errors import ConfigError
from meio.engine.presets import is_standard

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
    """Whether the compiled core can play the network on ``config``'s table: one whose
    specials are known (the editions' network on an edition, the network for any
    ruleset on any other ruleset)."""
    return config.specials_known


def general_top_packs(policy: GeneralPolicy, view: View, count: int) -> list[int]:
    """The ``count`` packs (bitmasks) the network for any ruleset likes best at this
    split, best first: its greedy pack (the one :meth:`~meio.bots.general.GeneralPolicy.
    pack` plays), then a beam over its picks by card id, ``count`` partial packs wide,
    each scored by the sum of its picks' log-probabilities (as :meth:`~meio.bots.learned.
    LearnedPolicy.top_packs` for the editions' network)."""
    cards = C.cards_of(view.hand)
    columns = [PICK_BASE + c for c in cards]
    beam = beam_packs(view, count, view.config.pack_size,
                      lambda picked: policy.logits(observe_any(view, picked=picked))[columns])
    greedy = 0  # the network's own pack: at each pick its best card (lowest id on a tie)
    for _ in range(view.config.pack_size):
        picks = policy.logits(observe_any(view, picked=greedy))
        greedy |= 1 << max((c for c in cards if not greedy >> c & 1),
                           key=lambda c: (float(picks[PICK_BASE + c]), -c))
    packs = [greedy, *(pack for pack in beam if pack != greedy)]
    return packs[:count]


class NetSearchBot(SearchBot):
    """``search:4`` with the network's prior over card decisions; see the module."""

    def __init__(self, seed: int = 0, *, path: str | Path = DEFAULT_POLICY,
                 general: str | Path | None = GENERAL_POLICY,
                 sure: float = SURE, top: int = TOP, name: str = "search:5",
                 budget: Level | None = None, playouts: str = "heuristic") -> None:
        """``path`` is the editions' network (played on an edition's table), ``general``
        the network for any ruleset (played on any other; None: the bot refuses one).
        ``budget`` replaces :data:`NET_LEVEL` (a benchmark's scaled or CPU-matched
        level; :data:`NET_PLAYOUT_LEVEL` with ``playouts="network"``)."""
        if playouts not in PLAYOUTS:
            raise ValueError(f"playouts must be one of {', '.join(PLAYOUTS)}, not {playouts!r}")
        default = NET_PLAYOUT_LEVEL if playouts == "network" else NET_LEVEL
        super().__init__(seed, level=4, budget=budget or default, name=name)
        self.network = cached_policy(path)
        self.general_path = None if general is None else str(general)
        self.sure = sure
        self.top = top
        self.playouts = playouts
        self._net_playouts: dict[bool, NetPlayouts] = {}

    def _standard(self, view: View) -> bool:
        """Whether ``view``'s table is an edition's (the editions' network plays it)."""
        return is_standard(view.config.ruleset)

    def general_network(self, config: MatchConfig) -> GeneralPolicy:
        """The network for any ruleset this bot stands on off the editions (read once a
        process); :class:`ConfigError` where it was built without one."""
        if self.general_path is None:
            raise ConfigError(
                f"the {self.name} bot does not play variants (its network reads the "
                f"editions' cards), not {config.ruleset.name!r}", field="bots")
        return cached_general(self.general_path)

    def _network_playouts(self, view: View) -> NetPlayouts | None:
        """The network's playouts for this view's table, or None (the heuristic's)."""
        if self.playouts != "network" or not core_plays_network(view.config):
            return None
        standard = self._standard(view)
        if standard not in self._net_playouts:
            policy: LearnedPolicy | GeneralPolicy = (
                self.network if standard else self.general_network(view.config))
            self._net_playouts[standard] = NetPlayouts(policy)
        return self._net_playouts[standard]

    def prior(self, view: View, legal: Sequence[int]) -> npt.NDArray[np.float64]:
        """The network's probability of each of ``legal`` (a card, declare or pile)."""
        if self._standard(view):
            logits = self.network.logits(observe(view)).astype(np.float64)
            chosen = logits[[_LOCAL[a] for a in legal]]
        else:  # the general network's play, declare and pile outputs are the flat ids
            general = self.general_network(view.config)
            chosen = general.logits(observe_any(view)).astype(np.float64)[list(legal)]
        p = np.exp(chosen - chosen.max())
        out: npt.NDArray[np.float64] = p / p.sum()
        return out

    def candidate_packs(self, view: View) -> list[int]:
        """The packs (bitmasks) the split races, best first: the editions' network's
        ``split_candidates`` best on an edition; on any other ruleset half of them the
        network for any ruleset's (:func:`general_top_packs`), the rest the ruleset
        heuristic's best (:func:`~meio.bots.variant_play.ranked_packs`) not already in."""
        count = self.budget.split_candidates
        if self._standard(view):
            return self.network.top_packs(view, count)
        own = general_top_packs(self.general_network(view.config), view, (count + 1) // 2)
        packs = list(own)
        for pack in ranked_packs(view.hand, view.config, count):
            if len(packs) >= count:
                break
            if pack not in packs:
                packs.append(pack)
        return packs

    def choose_pack(self, view: View, rng: random.Random) -> int:
        """The split: the network's ``split_candidates`` best packs (on a variant, with
        the ruleset heuristic's: :meth:`candidate_packs`), raced by successive halving
        over ``split_worlds`` worlds."""
        packs = self.candidate_packs(view)
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
