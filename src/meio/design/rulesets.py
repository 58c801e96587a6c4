"""The rulesets a designer names: a preset (``meio``, ``classic``, ``mini``) or a
variant file, and the engine configuration of one deal of one of them.

>>> ruleset("classic").edition
'classic'
>>> config(ruleset("meio"), players=4, seed=7, first_leader=2).first_leader
2
"""

from __future__ import annotations

from pathlib import Path

from meio.engine import MatchConfig
from meio.engine.errors import MeioError
from meio.engine.presets import PRESETS, is_standard, preset
from meio.engine.ruleset import Variant
from meio.engine.ruleset_file import load_variant


class DesignError(MeioError, ValueError):
    """A report or a tuning run that cannot be made as asked (the message says why)."""


def ruleset(name: str) -> Variant:
    """The ruleset named ``name``: a preset's name, or the path of a variant file
    (:class:`~meio.engine.ruleset_file.VariantError` lists a file's problems)."""
    if name in PRESETS:
        return preset(name)
    path = Path(name)
    if not path.suffix and not path.exists():
        raise DesignError(f"{name!r} is neither a preset ({', '.join(PRESETS)}) nor a "
                          f"variant file")
    return load_variant(path)


def config(variant: Variant, players: int, seed: int, first_leader: int | None = None,
           partnership: bool = False) -> MatchConfig:
    """One deal of ``variant`` (its cards drawn from ``seed``). A preset named by its name
    (``meio``, ``classic``) is played as the standard game (``variant=None``), so every
    bot, the network included, sits at it; any other ruleset, a file or a tuning trial
    whose rules happen to equal an edition's included, as a variant game. Which player
    a bot runs there is the bots' choice (an edition's rules get the editions' players);
    a report that mixes an edition with another ruleset, and every tuning run, seat the
    general players (the ``-any`` bots) so that one player plays every ruleset."""
    if players not in variant.players:
        sizes = ", ".join(str(n) for n in variant.players)
        raise DesignError(f"{variant.name} is played by {sizes} players, not {players}")
    if partnership and not (variant.partnership and players == 4):
        raise DesignError(f"{variant.name} has no partnership game")
    if variant.name in PRESETS and variant == preset(variant.name) and is_standard(variant):
        return MatchConfig(edition=variant.edition, players=players, partnership=partnership,
                           seed=seed, first_leader=first_leader, options=variant.options)
    return MatchConfig(edition=variant.edition, players=players, partnership=partnership,
                       seed=seed, first_leader=first_leader, options=variant.options,
                       variant=variant)
