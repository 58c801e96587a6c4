"""The game OpenSpiel loads as ``"meio"``: its parameters made into match settings."""

from __future__ import annotations

from typing import Any

import pyspiel

from meio.bots import spaces as S
from meio.openspiel.observer import MeioObserver
from meio.openspiel.params import DEFAULTS, game_type, parameters_of
from meio.openspiel.state import MeioState


class MeioGame(pyspiel.Game):  # type: ignore[misc]
    """The game: its parameters (:attr:`params`) made into match settings."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**DEFAULTS, **(params or {})}
        self.params = parameters_of(p)
        gp = self.params
        players = gp.players
        rounds = 1 if gp.one_round else 3
        if gp.variant is not None and not gp.one_round:
            fmt = gp.variant.format_for(players, gp.partnership)
            rounds = fmt.rounds if fmt.form == "totals" else 2 * fmt.to_win - 1
        # a round: the split (one action, or a pick per pack card), every card, a pile
        # choice at most per trick
        per_round = (gp.pack if gp.sequential else 1) * players \
            + gp.hand * (players + 1)
        info = pyspiel.GameInfo(
            num_distinct_actions=S.NUM_ACTIONS,
            max_chance_outcomes=max(65, len(gp.combos)),
            num_players=players,
            min_utility=-float(rounds) if gp.victory else -float(gp.hand * rounds),
            max_utility=float(rounds) if gp.victory else 0.0,
            utility_sum=0.0 if gp.victory else None,
            max_game_length=rounds * per_round,
        )
        super().__init__(game_type(gp.victory), info, p)

    def new_initial_state(self) -> MeioState:
        return MeioState(self, self.params)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> MeioObserver:
        perfect = iig_obs_type is None or bool(iig_obs_type.perfect_recall)
        return MeioObserver(perfect, attributes=self.params.attributes)
