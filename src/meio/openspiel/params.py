"""The OpenSpiel game's parameters, checked, and the game type they are declared in."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Literal

import pyspiel

from meio.engine import ConfigError, MatchConfig, TableOptions
from meio.engine import cards as C

#: every parameter of the game with its default (OpenSpiel's parameter specification)
DEFAULTS: dict[str, Any] = {
    "players": 4,
    "edition": "meio",
    "partnership": False,
    "specials": "",
    "wild_lead": "declare",
    "reveal_specials": True,
    "one_round": False,
    "split_mode": "pack",
}

GAME_TYPE = pyspiel.GameType(
    short_name="meio",
    long_name="MEIO",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.REWARDS,
    max_num_players=5,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)


@dataclass(frozen=True, slots=True)
class GameParameters:
    """The game's parameters as match settings (plain data: states share it).

    ``combos`` are the sets of specials a match may be dealt (the chance node
    that draws them picks an index); ``sequential`` is ``split_mode``
    ``"sequential"``: the split as six picks of one card each.
    """

    players: int
    edition: Literal["meio", "classic"]
    partnership: bool
    wild_lead: Literal["declare", "next"]
    reveal_specials: bool
    one_round: bool
    combos: tuple[tuple[int, ...], ...]
    sequential: bool

    def config(self, combo: int, leader: int) -> MatchConfig:
        """The match config with specials ``combos[combo]`` and ``leader`` leading round 1."""
        return MatchConfig(edition=self.edition, players=self.players,
                           partnership=self.partnership, specials=self.combos[combo] or None,
                           first_leader=leader,
                           options=TableOptions(self.wild_lead, self.reveal_specials))

    def as_dict(self) -> dict[str, Any]:
        """The OpenSpiel parameters that make this game (``specials`` fixed when there
        is one set of them)."""
        fixed = len(self.combos) == 1 and self.edition == "meio"
        return {"players": self.players, "edition": self.edition,
                "partnership": self.partnership,
                "specials": ",".join(C.card_code(c) for c in self.combos[0]) if fixed else "",
                "wild_lead": self.wild_lead, "reveal_specials": self.reveal_specials,
                "one_round": self.one_round,
                "split_mode": "sequential" if self.sequential else "pack"}

    def __deepcopy__(self, memo: dict[int, Any]) -> GameParameters:
        return self  # frozen: a state's clone shares it


def parameters_of(params: dict[str, Any]) -> GameParameters:
    """Check game parameters (a clear :class:`meio.engine.ConfigError` if wrong).

    >>> parameters_of({"players": 3}).combos[:2]
    ((60, 61, 62), (60, 61, 63))
    >>> parameters_of({"wild_lead": "first"})
    Traceback (most recent call last):
    ...
    meio.engine.errors.ConfigError: wild_lead is 'declare' or 'next', not 'first'
    """
    unknown = sorted(set(params) - set(DEFAULTS))
    if unknown:
        raise ConfigError(f"unknown game parameter {', '.join(map(repr, unknown))}; the "
                          f"parameters are {', '.join(DEFAULTS)}")
    p = {**DEFAULTS, **params}
    edition, wild_lead, mode = str(p["edition"]), str(p["wild_lead"]), str(p["split_mode"])
    if edition not in ("meio", "classic"):
        raise ConfigError(f"edition is 'meio' or 'classic', not {edition!r}")
    if wild_lead not in ("declare", "next"):
        raise ConfigError(f"wild_lead is 'declare' or 'next', not {wild_lead!r}")
    if mode not in ("pack", "sequential"):
        raise ConfigError(f"split_mode is 'pack' or 'sequential', not {mode!r}")
    players = int(p["players"])
    fixed = tuple(C.parse_card(x) for x in str(p["specials"]).split(",") if x.strip())
    probe = MatchConfig(edition=edition, players=players,  # type: ignore[arg-type]
                        partnership=bool(p["partnership"]), specials=fixed or None,
                        first_leader=0,
                        options=TableOptions(wild_lead,  # type: ignore[arg-type]
                                             bool(p["reveal_specials"])))
    if probe.edition == "classic":
        combos: tuple[tuple[int, ...], ...] = ((),)
    elif fixed:
        combos = (probe.special_cards,)
    else:
        combos = tuple(itertools.combinations(C.SPECIALS, players))
    return GameParameters(players, probe.edition, probe.partnership, probe.options.wild_lead,
                          probe.options.reveal_specials, bool(p["one_round"]), combos,
                          mode == "sequential")
