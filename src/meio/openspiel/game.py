"""The game OpenSpiel loads as ``"meio"``: its parameters made into match settings."""

from __future__ import annotations

from typing import Any

import pyspiel

from meio.bots import spaces as S
from meio.openspiel.observer import MeioObserver
from meio.openspiel.params import DEFAULTS, GAME_TYPE, parameters_of
from meio.openspiel.state import MeioState


class MeioGame(pyspiel.Game):  # type: ignore[misc]
    """The game: its parameters (:attr:`params`) made into match settings."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**DEFAULTS, **(params or {})}
        self.params = parameters_of(p)
        players = self.params.players
        rounds = 1 if self.params.one_round else 3
        info = pyspiel.GameInfo(
            num_distinct_actions=S.NUM_ACTIONS,
            max_chance_outcomes=max(65, len(self.params.combos)),
            num_players=players,
            min_utility=-13.0 * rounds,
            max_utility=0.0,
            utility_sum=None,
            max_game_length=rounds * ((19 if self.params.sequential else 14) * players + 13),
        )
        super().__init__(GAME_TYPE, info, p)

    def new_initial_state(self) -> MeioState:
        return MeioState(self, self.params)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> MeioObserver:
        perfect = iig_obs_type is None or bool(iig_obs_type.perfect_recall)
        return MeioObserver(perfect)
