"""OpenSpiel's Python ISMCTS made reproducible, and the same search as a meio bot.

:class:`ISMCTSBot` is OpenSpiel's ``ISMCTSBot`` that ``evaluate_bots`` can play
and a seed replays; :class:`IsmctsPlayer` is a :class:`meio.bots.Bot` (handed a
view, never the state) that runs it, so that ``meio bench`` and tournaments
seat it like any other bot. OpenSpiel's C++ ``pyspiel.ISMCTSBot`` cannot search
Python games (docs/rl.md).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from meio.bots import UnknownBotError
from meio.bots.base import seat_of
from meio.engine import MatchConfig, Phase, View
from meio.engine import actions as A
from meio.engine import cards as C
from meio.openspiel.game import MeioGame
from meio.openspiel.state import state_from_view

#: simulations a decision of the ``ismcts`` bot (``ismcts:N``: N)
DEFAULT_SIMULATIONS = 100


class ISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's Python ``ISMCTSBot``, reproducible from ``seed`` and playable by
    ``evaluate_bots``.

    The stock bot resamples with a ``pyspiel.UniformProbabilitySampler`` made
    anew for each world, seeded from the clock, and has no ``restart_at``; this
    one draws every world from its own ``RandomState(seed)`` and restarts its
    search tree at each ``restart_at``. ``evaluator`` defaults to one random
    rollout, seeded from ``seed`` too; other keyword arguments are the stock
    bot's (``max_world_samples``, ``final_policy_type`` ...).
    """

    def __init__(self, game: pyspiel.Game, *, seed: int, max_simulations: int = 100,
                 uct_c: float = 2.0, evaluator: Any = None, **kwargs: Any) -> None:
        if evaluator is None:
            evaluator = mcts.RandomRolloutEvaluator(
                n_rollouts=1, random_state=np.random.RandomState([seed, 1]))
        super().__init__(game, evaluator, uct_c, max_simulations,
                         random_state=np.random.RandomState([seed, 0]), **kwargs)

    def resample_from_infostate(self, state: pyspiel.State) -> pyspiel.State:
        return state.resample_from_infostate(state.current_player(), self.random_number)

    def restart_at(self, state: pyspiel.State) -> None:
        self.reset()

    def inform_action(self, state: pyspiel.State, player_id: int, action: int) -> None:
        return None  # each step searches afresh from the state it is given


@functools.lru_cache(maxsize=16)
def game_for(config: MatchConfig) -> MeioGame:
    """The OpenSpiel game of the table of ``config`` (a view's public config): whole
    matches, the split as six picks, the specials fixed when they are public."""
    specials = ",".join(C.card_code(c) for c in config.special_cards)
    return MeioGame({"players": config.players, "edition": config.edition,
                     "partnership": config.partnership,
                     "specials": specials if config.specials_known else "",
                     "wild_lead": config.options.wild_lead,
                     "reveal_specials": config.options.reveal_specials,
                     "split_mode": "sequential"})


class IsmctsPlayer:
    """OpenSpiel's ISMCTS (:class:`ISMCTSBot`, ``simulations`` a decision, one random
    rollout to the end of the match at each leaf) playing from a seat's view.

    Each decision rebuilds an OpenSpiel state from the view
    (:func:`meio.openspiel.state.state_from_view`: the rounds before from their
    public results, the hidden cards dealt at random), which the search then
    resamples at every simulation. The split is searched as six picks of one
    card (``split_mode`` sequential), each pick a search of its own: a search
    over the 1,716 packs at once would give each pack less than one simulation.
    Deterministic given ``seed`` and the views it is shown.
    """

    def __init__(self, seed: int, simulations: int = DEFAULT_SIMULATIONS, *,
                 name: str = "ismcts") -> None:
        if simulations < 2:  # after one, OpenSpiel's search has visited no move
            raise ValueError(f"ISMCTS needs at least two simulations a decision, "
                             f"not {simulations}")
        self.name = name
        self.simulations = simulations
        self._seed = seed
        self._rng = random.Random(seed)
        self._bots: dict[MatchConfig, ISMCTSBot] = {}

    def _bot(self, config: MatchConfig) -> tuple[MeioGame, ISMCTSBot]:
        game = game_for(config)
        bot = self._bots.get(config)
        if bot is None:
            bot = self._bots[config] = ISMCTSBot(game, seed=self._seed,
                                                 max_simulations=self.simulations)
        return game, bot

    def choose(self, view: View, legal: Sequence[int]) -> int:
        seat = seat_of(view)
        if len(legal) == 1:
            return int(legal[0])
        game, bot = self._bot(view.config)
        state = state_from_view(game, game.params, view, self._rng)
        if view.phase is not Phase.SPLIT:
            return int(bot.step(state))
        while state.current_player() == seat and not state.engine.packs[seat]:  # type: ignore[union-attr]
            state.apply_action(int(bot.step(state)))
        return A.pack_action(state.engine.packs[seat])  # type: ignore[union-attr]


def ismcts_player(kind: str, seed: int) -> IsmctsPlayer:
    """The bot of kind ``ismcts`` (:data:`DEFAULT_SIMULATIONS` simulations a
    decision) or ``ismcts:N`` (N simulations, 2 or more: OpenSpiel's search has
    visited no move after one).

    >>> ismcts_player("ismcts:25", 7).simulations
    25
    >>> ismcts_player("ismcts:many", 7)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    meio.bots.registry.UnknownBotError: the ISMCTS bot is 'ismcts' or 'ismcts:N' ...
    """
    name, sep, count = kind.partition(":")
    if name != "ismcts" or (sep and not (count.isdigit() and int(count) >= 2)):
        raise UnknownBotError(f"the ISMCTS bot is 'ismcts' or 'ismcts:N' with N simulations "
                              f"a decision (2 or more), not {kind!r}")
    return IsmctsPlayer(seed, int(count) if sep else DEFAULT_SIMULATIONS, name=kind)
