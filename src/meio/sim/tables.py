"""The arrays that describe one match configuration, its table and its ruleset, to the
compiled core."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from meio.engine import MatchConfig
from meio.engine import cards as C
from meio.engine.presets import is_standard
from meio.engine.ruleset import CardRules
from meio.engine.scoring import VICTORY_ROUND_LIMIT
from meio.engine.tricks import pile_for
from meio.sim import core as K
from meio.sim.core import POLICY_HEURISTIC, POLICY_RANDOM

I32 = npt.NDArray[np.int32]
F64 = npt.NDArray[np.float64]

#: the playout policies by name: ``heuristic`` is the ruleset's (the editions' tuned
#: heuristic on an edition, the heuristic of any ruleset elsewhere); ``heuristic-any`` is
#: the heuristic of any ruleset on every ruleset, the editions included (the general path
#: of the ``-any`` bots, :mod:`meio.bots.registry`)
POLICIES = {"random": POLICY_RANDOM, "heuristic": POLICY_HEURISTIC,
            "heuristic-any": K.POLICY_RULES_HEURISTIC}
#: how often the heuristic playout policy plays a uniformly random action instead,
#: so that repeated playouts of one world explore different lines
HEURISTIC_EPSILON = 0.05


@dataclass(frozen=True, slots=True, eq=False)
class CoreTables:
    """One configuration as the core's arrays (:mod:`meio.sim.core`): ``cfg`` the
    table (players, partnership, edition), ``ruleset[row, card]`` the rules (each half's
    doubled card values, suits, flags, pile effects, and the ruleset's numbers), the deck's
    card ids,
    the editions' heuristic's trick strengths by half (row 0: first half; zeros for a
    ruleset that heuristic does not play), ``heuristic`` the core's policy that
    ``"heuristic"`` names for this ruleset, and ``rounds`` how many rounds a match may
    take at most (the width of a batch's per-round arrays).

    The two editions are presets of the ruleset data (``config.ruleset``,
    :func:`meio.engine.presets.standard`), read the same way as any variant."""

    config: MatchConfig
    cfg: I32
    ruleset: I32
    deck: I32
    strength: F64
    heuristic: int
    rounds: int

    def policy(self, name: str) -> int:
        """The core's number of the playout policy ``name`` for this ruleset."""
        code = policy_code(name)
        return self.heuristic if code == POLICY_HEURISTIC else code


def policy_code(policy: str) -> int:
    """The core's number for a policy name; a clear error for an unknown one."""
    try:
        return POLICIES[policy]
    except KeyError:
        known = ", ".join(sorted(POLICIES))
        raise ValueError(f"unknown playout policy {policy!r}; choose one of: {known}") from None


def epsilon_for(policy: int) -> float:
    """How often a playout policy plays a random action instead: the editions'
    heuristic :data:`HEURISTIC_EPSILON`; the heuristic of any ruleset none (it is the
    engine's heuristic bot, decision for decision)."""
    return HEURISTIC_EPSILON if policy == POLICY_HEURISTIC else 0.0


def table_key(config: MatchConfig) -> MatchConfig:
    """``config`` without what the tables do not depend on (the seed, the first
    leader), so every sampled world of one game shares one set of tables."""
    return dataclasses.replace(config, seed=0, first_leader=0)


def tables_for(config: MatchConfig) -> CoreTables:
    """The core's arrays for ``config``'s game. Built once per game and shared:
    search samples a world with a fresh seed for every playout position, so the
    cache is keyed on the game (:func:`table_key`), not on the whole config."""
    return build_tables(table_key(config))


#: a match on totals whose tie for the lowest is not shared plays on until it breaks;
#: the core gives up this many rounds after the last scheduled one
TIE_BREAK_ROUNDS = 20


def plays_variant(config: MatchConfig) -> bool:
    """Whether ``config`` is a variant that is not its edition's preset (a preset's game
    is the standard game, with the standard heuristic and results)."""
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


@lru_cache(maxsize=64)
def build_tables(config: MatchConfig) -> CoreTables:
    """The core's arrays for a :func:`table_key` config (cached)."""
    variant = config.ruleset  # the variant, or the edition's preset
    rules = config.rules
    fmt = config.match_format
    standard = not plays_variant(config)
    deck = np.array(C.cards_of(config.deck), dtype=np.int32)
    ruleset = np.zeros((K.R_ROWS, C.NUM_CARDS), dtype=np.int32)
    ruleset[K.R_VALUES] = rules.trick_values[0]
    ruleset[K.R_VALUES + 1] = rules.trick_values[1]
    ruleset[K.R_SUIT] = rules.suit_of
    ruleset[K.R_PILE] = rules.pile
    for card in range(C.NUM_CARDS):
        flags = 0
        if rules.wild >> card & 1:
            flags |= K.F_WILD
        if rules.free >> card & 1:
            flags |= K.F_FREE
        ruleset[K.R_FLAGS, card] = flags
    numbers = ruleset[K.R_NUMBERS]
    numbers[K.N_HAND] = variant.hand
    numbers[K.N_FIRST] = variant.first_half
    numbers[K.N_PACK] = variant.pack
    numbers[K.N_TRUMP] = variant.trump
    numbers[K.N_SCORING] = variant.scoring_form
    numbers[K.N_BONUS] = variant.bonus
    numbers[K.N_FORM] = 1 if fmt.form == "victories" else 0
    numbers[K.N_ROUNDS] = fmt.rounds
    numbers[K.N_TO_WIN] = fmt.to_win
    numbers[K.N_SHARED] = int(fmt.shared)
    numbers[K.N_LEADER] = variant.leader_rule
    numbers[K.N_ROUND_LIMIT] = VICTORY_ROUND_LIMIT * fmt.to_win
    numbers[K.N_WILD_NEXT] = 0 if config.options.declares else 1
    heuristic = POLICY_HEURISTIC if standard else K.POLICY_RULES_HEURISTIC
    numbers[K.N_HEURISTIC] = heuristic
    ruleset[K.R_RULE_STRENGTH : K.R_ROWS] = rule_heuristic_rows(rules)
    if standard:
        val2 = np.zeros((2, C.NUM_CARDS), dtype=np.int32)
        for half in (1, 2):
            for card in range(C.NUM_CARDS):
                val2[half - 1, card] = C.value2(card, half, config.edition, 0)
        strength = _strengths(deck, val2)
        rounds = K.MAX_ROUNDS
    else:
        strength = np.zeros((2, C.NUM_CARDS))
        if fmt.form == "victories":
            rounds = VICTORY_ROUND_LIMIT * fmt.to_win
        else:
            rounds = fmt.rounds + (0 if fmt.shared else TIE_BREAK_ROUNDS)
    cfg = np.array(
        [config.players, int(config.partnership), 0 if config.edition == "meio" else 1],
        dtype=np.int32,
    )
    for arr in (cfg, ruleset, deck, strength):
        arr.setflags(write=False)
    return CoreTables(config, cfg, ruleset, deck, strength, heuristic, rounds)


def rule_heuristic_rows(rules: CardRules) -> I32:
    """The card numbers of the heuristic of any ruleset (:mod:`meio.bots.variant_play`'s
    rule) for every card, as the ruleset rows :data:`~meio.sim.core.R_RULE_STRENGTH`
    onward: by half, twice the card's strength; its chance to take a trick times
    :data:`~meio.sim.core.CHANCE_SCALE`; and where a trick it wins goes (+1 H, -1 V,
    0 its winner chooses).

    The rule: a card's strength is its value in the half (a relative card 7), 15 more
    for a trump, 5 more for a wild; its chance is ``((strength + 2) / 32)`` clamped to
    [0, 1], squared. Strengths are multiples of 1/2, so every chance is a whole number
    of 1/4096ths and these ints are exact.

    >>> from meio.engine.presets import preset
    >>> rows = rule_heuristic_rows(preset("meio").card_rules)
    >>> ace_of_hearts = 1 * 15 + 14
    >>> int(rows[0, ace_of_hearts]), int(rows[2, ace_of_hearts]), int(rows[4, ace_of_hearts])
    (58, 3844, 1)
    """
    out = np.zeros((6, C.NUM_CARDS), dtype=np.int32)
    for half in (1, 2):
        for card in range(C.NUM_CARDS):
            if rules.relative[half - 1] >> card & 1:
                strength2 = 14
            else:
                strength2 = rules.values[half - 1][card]
                suit = rules.suit_of[card]
                if suit >= 0 and suit == rules.trump:
                    strength2 += 30
                elif suit < 0:
                    strength2 += 10
            x64 = min(64, max(0, strength2 + 4))  # 64 (strength + 2) / 32, clamped
            pile = pile_for(card, half, rules.pile)
            out[half - 1, card] = strength2
            out[2 + half - 1, card] = x64 * x64
            out[4 + half - 1, card] = 0 if pile == 0 else (1 if pile == 1 else -1)
    return out


def _strengths(deck: I32, val2: I32) -> F64:
    """How often each card of an edition may be expected to take a trick, by half.

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
