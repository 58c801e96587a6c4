"""Shared helpers of the RL tests: the tables every test walks."""

from __future__ import annotations

from typing import Any

#: (players, edition, partnership) of every table kind
TABLES: list[tuple[int, str, bool]] = [
    (2, "meio", False), (3, "meio", False), (4, "meio", False), (5, "meio", False),
    (4, "meio", True), (2, "classic", False), (3, "classic", False), (4, "classic", True),
]


def option_sets() -> list[dict[str, Any]]:
    """The §10 table options to test: both values of each."""
    return [{}, {"wild_lead": "next"}, {"reveal_specials": False},
            {"wild_lead": "next", "reveal_specials": False}]
