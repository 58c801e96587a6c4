"""Shared configurations for the simulation-core tests."""

from __future__ import annotations

import dataclasses

from meio.engine import MatchConfig, TableOptions
from meio.engine import cards as C
from meio.engine.wire import options_json

#: every table size, edition and partnership, with each special card in play somewhere
CONFIGS: list[MatchConfig] = [
    MatchConfig(edition="meio", players=2, specials=(C.PLUS_HALF, C.Q_PLUS)),
    MatchConfig(edition="meio", players=2, specials=(C.MINUS_ONE, C.A_PLUS)),
    MatchConfig(edition="meio", players=3, specials=(C.MINUS_TWO_H, C.PLUS_HALF, C.Q_PLUS)),
    MatchConfig(edition="meio", players=4, specials=(C.MINUS_ONE, C.A_PLUS, C.PLUS_HALF, C.Q_PLUS)),
    MatchConfig(
        edition="meio", players=4, partnership=True,
        specials=(C.MINUS_ONE, C.MINUS_TWO_H, C.PLUS_HALF, C.Q_PLUS),
    ),
    MatchConfig(edition="meio", players=5),
    MatchConfig(edition="classic", players=2),
    MatchConfig(edition="classic", players=3),
    MatchConfig(edition="classic", players=4),
    MatchConfig(edition="classic", players=4, partnership=True),
]


#: the table options of RULES.md §10 on every table size and edition: ``wild_lead: next``
#: everywhere, and hidden specials (which change no rule, only what players are told)
#: with each value of ``wild_lead`` on half the tables
OPTION_CONFIGS: list[MatchConfig] = [
    *(dataclasses.replace(c, options=TableOptions(wild_lead="next")) for c in CONFIGS),
    *(dataclasses.replace(c, options=TableOptions(reveal_specials=False)) for c in CONFIGS[0::2]),
    *(dataclasses.replace(c, options=TableOptions("next", False)) for c in CONFIGS[1::2]),
]


def config_id(cfg: MatchConfig) -> str:
    team = "-team" if cfg.partnership else ""
    specials = "-".join(C.card_code(s) for s in cfg.special_cards)
    options = "".join(f"-{k}={v}" for k, v in sorted(options_json(cfg.options).items()))
    return f"{cfg.edition}{cfg.players}{team}{'-' + specials if specials else ''}{options}"
