"""The arrays that describe one match configuration to the compiled core."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from meio.engine import MatchConfig
from meio.engine import cards as C
from meio.engine.presets import is_standard
from meio.engine.tricks import RELATIVE

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
    """The core's arrays for a :func:`table_key` config (cached); one line of refusal
    for a variant game, which only :func:`meio.sim.simulate` plays (its kernels take
    other arrays: :func:`variant_tables_for`)."""
    check_standard(config)
    deck = np.array(C.cards_of(config.deck), dtype=np.int32)
    val2 = np.zeros((2, 65), dtype=np.int32)
    for half in (1, 2):
        for card in range(65):
            val2[half - 1, card] = C.value2(card, half, config.edition, 0)
    strength = _strengths(config, deck, val2)
    val2[:, C.PLUS_HALF] = RELATIVE  # as the one trick rule reads it (engine.tricks)
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


@dataclass(frozen=True, slots=True, eq=False)
class VariantTables:
    """A variant game as arrays for the variant kernels (:mod:`meio.sim.kernels`,
    ``v_*``): ``vcfg`` its numbers (the ``VC_*`` slots), ``rules[row, card]`` its card
    facts (rows 0 and 1 the doubled values of each half, ``RELATIVE`` for a card worth
    0.5 above the card before it; row 2 the suit, -1 wild; row 3 the flags: wild,
    free to play, pile effect), ``deck`` the card ids, and ``rounds`` how many rounds a
    match may take at most (the width of a batch's per-round arrays)."""

    config: MatchConfig
    vcfg: I32
    rules: I32
    deck: I32
    rounds: int


#: a match on totals whose tie for the lowest is not shared plays on until it breaks;
#: the core gives up this many rounds after the last scheduled one
TIE_BREAK_ROUNDS = 20


def plays_variant(config: MatchConfig) -> bool:
    """Whether ``config`` is played by the variant kernels: a variant that is not its
    edition's preset (a preset's game is the standard game, played as one)."""
    return config.variant is not None and not is_standard(config.variant)


def check_standard(config: MatchConfig) -> None:
    """Raise ``ValueError`` (one line) for a variant game: the core's positions,
    rollouts and environments play the standard editions; only
    :func:`meio.sim.simulate` plays variants."""
    if config.variant is not None and plays_variant(config):
        raise ValueError(
            f"the compiled core's positions, rollouts and environments play the standard "
            f"editions, not the variant {config.variant.name!r} (meio.sim.simulate plays "
            f"variants)"
        )


def variant_tables_for(config: MatchConfig) -> VariantTables:
    """The variant kernels' arrays for ``config``'s game (cached per game)."""
    return build_variant_tables(table_key(config))


@lru_cache(maxsize=64)
def build_variant_tables(config: MatchConfig) -> VariantTables:
    """The variant kernels' arrays for a :func:`table_key` config with a variant."""
    from meio.engine.ruleset import LEADER_RULES, SCORING_FORMS
    from meio.engine.scoring import VICTORY_ROUND_LIMIT
    from meio.sim import kernels as K

    variant, rules = config.variant, config.rules
    if variant is None or rules is None:
        raise ValueError("the variant kernels play variant games only")
    fmt = variant.format_for(config.players, config.partnership)
    vcfg = np.zeros(K.VC_LEN, dtype=np.int32)
    vcfg[K.VC_PLAYERS] = config.players
    vcfg[K.VC_PART] = int(config.partnership)
    vcfg[K.VC_HAND] = variant.hand
    vcfg[K.VC_FIRST] = variant.first_half
    vcfg[K.VC_PACK] = variant.pack
    vcfg[K.VC_TRUMP] = variant.trump
    vcfg[K.VC_SCORING] = SCORING_FORMS.index(variant.scoring)  # 0 |H-V|, 1 bonus, 2 squared
    vcfg[K.VC_BONUS] = variant.bonus
    vcfg[K.VC_FORM] = 1 if fmt.form == "victories" else 0
    vcfg[K.VC_ROUNDS] = fmt.rounds
    vcfg[K.VC_TO_WIN] = fmt.to_win
    vcfg[K.VC_SHARED] = int(fmt.shared)
    vcfg[K.VC_LEADER] = LEADER_RULES.index(variant.leader)
    vcfg[K.VC_WILD_NEXT] = 0 if config.options.declares else 1
    vcfg[K.VC_ROUND_LIMIT] = VICTORY_ROUND_LIMIT * fmt.to_win
    table = np.zeros((K.R_ROWS, C.NUM_CARDS), dtype=np.int32)
    table[0] = rules.trick_values[0]
    table[1] = rules.trick_values[1]
    table[K.R_SUIT] = rules.suit_of
    for card in range(C.NUM_CARDS):
        flags = rules.pile[card] << K.F_PILE_SHIFT
        if rules.wild >> card & 1:
            flags |= K.F_WILD
        if rules.free >> card & 1:
            flags |= K.F_FREE
        table[K.R_FLAGS, card] = flags
    if fmt.form == "victories":
        rounds = VICTORY_ROUND_LIMIT * fmt.to_win
    else:
        rounds = fmt.rounds + (0 if fmt.shared else TIE_BREAK_ROUNDS)
    deck = np.array(C.cards_of(config.deck), dtype=np.int32)
    for arr in (vcfg, table, deck):
        arr.setflags(write=False)
    return VariantTables(config, vcfg, table, deck, rounds)
