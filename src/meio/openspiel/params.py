"""The OpenSpiel game's parameters, checked, and the game type they are declared in."""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass
from typing import Any, Literal

import pyspiel

from meio.engine import ConfigError, MatchConfig, TableOptions
from meio.engine import cards as C
from meio.engine.presets import PRESETS, is_standard, preset
from meio.engine.ruleset import Variant
from meio.engine.ruleset_file import load_variant

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
    "variant": "",
    "reward": "score",
}

#: the most packs a hand may offer: the flat action space numbers C(13, 6) of them
_MAX_PACKS = math.comb(13, 6)

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


def game_type(zero_sum: bool) -> pyspiel.GameType:
    """The game type: :data:`GAME_TYPE`, or the same declared zero-sum (``reward``
    ``"victory"``, where each round is won by one seat or team and lost by the other)."""
    if not zero_sum:
        return GAME_TYPE
    t = GAME_TYPE
    return pyspiel.GameType(
        short_name=t.short_name, long_name=t.long_name, dynamics=t.dynamics,
        chance_mode=t.chance_mode, information=t.information,
        utility=pyspiel.GameType.Utility.ZERO_SUM, reward_model=t.reward_model,
        max_num_players=t.max_num_players, min_num_players=t.min_num_players,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=DEFAULTS,
    )


@dataclass(frozen=True, slots=True)
class GameParameters:
    """The game's parameters as match settings (plain data: states share it).

    ``combos`` are the sets of specials a match may be dealt (the chance node
    that draws them picks an index); ``sequential`` is ``split_mode``
    ``"sequential"``: the split as one pick of a card for each card of the pack.
    ``variant`` is the ruleset of a variant game (None: the edition's own), named
    by ``variant_name`` (a preset or a file); ``hand``, ``first_half`` and ``pack``
    are its sizes (13, 7, 6 in the editions); ``victory`` is ``reward``
    ``"victory"``: a round rewards its winner 1 and its loser -1.
    """

    players: int
    edition: Literal["meio", "classic"]
    partnership: bool
    wild_lead: Literal["declare", "next"]
    reveal_specials: bool
    one_round: bool
    combos: tuple[tuple[int, ...], ...]
    sequential: bool
    variant: Variant | None = None
    variant_name: str = ""
    hand: int = 13
    first_half: int = 7
    victory: bool = False

    @property
    def pack(self) -> int:
        """Cards in the second-half pack."""
        return self.hand - self.first_half

    @property
    def attributes(self) -> bool:
        """Whether the observation is the attribute encoding: a variant that is not an
        edition's preset (:func:`meio.engine.presets.is_standard`)."""
        return self.variant is not None and not is_standard(self.variant)

    def config(self, combo: int, leader: int) -> MatchConfig:
        """The match config with specials ``combos[combo]`` and ``leader`` leading round 1
        (built once for each: a game begins a match with one, and a config is frozen)."""
        return _config(self, combo, leader)

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
    >>> p = parameters_of({"variant": "mini", "players": 2})
    >>> p.hand, p.first_half, p.combos
    (3, 2, ((62, 64),))
    """
    unknown = sorted(set(params) - set(DEFAULTS))
    if unknown:
        raise ConfigError(f"unknown game parameter {', '.join(map(repr, unknown))}; the "
                          f"parameters are {', '.join(DEFAULTS)}")
    p = {**DEFAULTS, **params}
    variant_name = str(p["variant"])
    variant = _variant(variant_name)
    if variant is not None:
        p = _with_variant(p, variant)
    edition, wild_lead, mode = str(p["edition"]), str(p["wild_lead"]), str(p["split_mode"])
    reward = str(p["reward"])
    if edition not in ("meio", "classic"):
        raise ConfigError(f"edition is 'meio' or 'classic', not {edition!r}")
    if wild_lead not in ("declare", "next"):
        raise ConfigError(f"wild_lead is 'declare' or 'next', not {wild_lead!r}")
    if mode not in ("pack", "sequential"):
        raise ConfigError(f"split_mode is 'pack' or 'sequential', not {mode!r}")
    if reward not in ("score", "victory"):
        raise ConfigError(f"reward is 'score' or 'victory', not {reward!r}")
    players = int(p["players"])
    fixed = tuple(C.parse_card(x) for x in str(p["specials"]).split(",") if x.strip())
    probe = MatchConfig(edition=edition, players=players,  # type: ignore[arg-type]
                        partnership=bool(p["partnership"]), specials=fixed or None,
                        first_leader=0,
                        options=TableOptions(wild_lead,  # type: ignore[arg-type]
                                             bool(p["reveal_specials"])),
                        variant=variant)
    if reward == "victory" and not (players == 2 or probe.partnership):
        raise ConfigError(f"reward 'victory' is for two sides (2 players or partnership), "
                          f"not {players} players")
    pool = C.SPECIALS if variant is None else variant.special_pool
    if (probe.edition == "classic" and variant is None) or probe.special_count == 0:
        combos: tuple[tuple[int, ...], ...] = ((),)
    elif fixed:
        combos = (probe.special_cards,)
    else:
        combos = tuple(itertools.combinations(pool, probe.special_count))
    return GameParameters(players, probe.edition, probe.partnership, probe.options.wild_lead,
                          probe.options.reveal_specials, bool(p["one_round"]), combos,
                          mode == "sequential", variant, variant_name, probe.hand_size,
                          probe.first_half_size, reward == "victory")


def _variant(name: str) -> Variant | None:
    """The variant a ``variant`` parameter names: a preset, or a TOML file's path."""
    if not name:
        return None
    if name.endswith(".toml"):
        variant = load_variant(name)
    elif name in PRESETS:
        variant = preset(name)
    else:
        raise ConfigError(f"unknown variant {name!r}: name a preset ({', '.join(PRESETS)}) "
                          f"or a .toml file")
    packs = math.comb(variant.hand, variant.pack)
    if variant.hand > 13 or packs > _MAX_PACKS:
        raise ConfigError(f"the OpenSpiel game plays hands of up to 13 cards with at most "
                          f"{_MAX_PACKS} packs; the variant {variant.name!r} deals "
                          f"{variant.hand} cards with {packs} packs")
    return variant


def _with_variant(p: dict[str, Any], variant: Variant) -> dict[str, Any]:
    """The parameters with the variant's edition and table options (a parameter set
    to something else than its default and the variant's is refused)."""
    own = {"edition": variant.edition, "wild_lead": variant.options.wild_lead,
           "reveal_specials": variant.options.reveal_specials}
    for key, value in own.items():
        if p[key] != value and p[key] != DEFAULTS[key]:
            raise ConfigError(f"{key} is the variant's own: {variant.name!r} plays "
                              f"{key} {value!r}, not {p[key]!r}")
    return {**p, **own}


@functools.lru_cache(maxsize=1024)
def _config(params: GameParameters, combo: int, leader: int) -> MatchConfig:
    return MatchConfig(edition=params.edition, players=params.players,
                       partnership=params.partnership, specials=params.combos[combo] or None,
                       first_leader=leader,
                       options=TableOptions(params.wild_lead, params.reveal_specials),
                       variant=params.variant)
