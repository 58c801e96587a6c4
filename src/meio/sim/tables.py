"""The arrays that describe one match configuration to the compiled core."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from meio.engine import MatchConfig
from meio.engine import cards as C

I32 = npt.NDArray[np.int32]
F64 = npt.NDArray[np.float64]

POLICIES = {"random": 0, "heuristic": 1}
#: how often the heuristic playout policy plays a uniformly random action instead,
#: so that repeated playouts of one world explore different lines
HEURISTIC_EPSILON = 0.05


@dataclass(frozen=True, slots=True, eq=False)
class CoreTables:
    """One configuration as arrays: ``cfg`` (players, partnership, edition), the
    deck's card ids, doubled card values and the heuristic's trick strengths,
    each by half (row 0: first half)."""

    config: MatchConfig
    cfg: I32
    deck: I32
    val2: I32
    strength: F64


def policy_code(policy: str) -> int:
    """The core's number for a policy name; a clear error for an unknown one."""
    try:
        return POLICIES[policy]
    except KeyError:
        known = ", ".join(sorted(POLICIES))
        raise ValueError(f"unknown playout policy {policy!r}; choose one of: {known}") from None


def table_key(config: MatchConfig) -> MatchConfig:
    """``config`` without what the tables do not depend on (the seed, the first
    leader), so every sampled world of one game shares one set of tables."""
    return dataclasses.replace(config, seed=0, first_leader=0)


def tables_for(config: MatchConfig) -> CoreTables:
    """The core's arrays for ``config``'s game. Built once per game and shared:
    search samples a world with a fresh seed for every playout position, so the
    cache is keyed on the game (:func:`table_key`), not on the whole config."""
    return build_tables(table_key(config))


@lru_cache(maxsize=64)
def build_tables(config: MatchConfig) -> CoreTables:
    """The core's arrays for a :func:`table_key` config (cached)."""
    deck = np.array(C.cards_of(config.deck), dtype=np.int32)
    val2 = np.zeros((2, 65), dtype=np.int32)
    for half in (1, 2):
        for card in range(65):
            val2[half - 1, card] = C.value2(card, half, config.edition, 0)
    strength = _strengths(config, deck, val2)
    cfg = np.array(
        [config.players, int(config.partnership), 0 if config.edition == "meio" else 1],
        dtype=np.int32,
    )
    for arr in (cfg, deck, val2, strength):
        arr.setflags(write=False)
    return CoreTables(config, cfg, deck, val2, strength)


def _strengths(config: MatchConfig, deck: I32, val2: I32) -> F64:
    """How often each card may be expected to take a trick, by half.

    A rough model for playouts: within a suit a card's chance grows with the cube
    of its place in the suit's ladder, hearts (trumps) get a floor, the wild that
    is worth 15 in a half nearly always wins there and the one worth -1 never
    does. Each half's row is scaled so the whole deck shares the 13 tricks.
    """
    out = np.zeros((2, 65))
    plain = [int(c) for c in deck if c < 60]
    for half in (1, 2):
        row = out[half - 1]
        for card in plain:
            suit_vals = sorted(val2[half - 1, c] for c in plain if c // 15 == card // 15)
            place = suit_vals.index(val2[half - 1, card]) / max(1, len(suit_vals) - 1)
            row[card] = 0.15 + 0.85 * place**2 if card // 15 == C.HEARTS else place**3
        for card in (int(c) for c in deck if c >= 60):
            if card == C.MINUS_TWO_H:
                row[card] = 0.1
            elif card in (C.MINUS_ONE, C.A_PLUS):
                row[card] = 1.0 if val2[half - 1, card] > 0 else 0.0
            elif card == C.Q_PLUS:
                row[card] = 0.8
            else:  # +.5: takes a trick only when the card before it was winning
                row[card] = 0.3
        row *= 13.0 / row.sum()
        np.clip(row, 0.0, 1.0, out=row)
    return out
