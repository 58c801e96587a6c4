"""Shared configurations for the simulation-core tests."""

from __future__ import annotations

from meio.engine import MatchConfig
from meio.engine import cards as C

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


def config_id(cfg: MatchConfig) -> str:
    team = "-team" if cfg.partnership else ""
    specials = "-".join(C.card_code(s) for s in cfg.special_cards)
    return f"{cfg.edition}{cfg.players}{team}{'-' + specials if specials else ''}"
