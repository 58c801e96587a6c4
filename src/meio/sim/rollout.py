"""Rollouts for search: score candidate actions by playing the round out many times.

>>> import random
>>> from meio.engine import MatchConfig, State
>>> st = State.new(MatchConfig(players=4, seed=2))
>>> for seat in range(4):
...     _ = st.apply(st.legal_actions(seat)[0], seat)
>>> legal = list(st.legal_actions())
>>> means = evaluate_actions([st], legal[:2], playouts=8, seed=1)
>>> means.shape
(2, 4)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from meio.engine import MatchConfig, Phase, State, TableOptions
from meio.engine import actions as A
from meio.engine import cards as C
from meio.sim import core as K
from meio.sim.convert import state_to_arrays
from meio.sim.tables import (
    HEURISTIC_EPSILON,
    I32,
    CoreTables,
    epsilon_for,
    policy_code,
    tables_for,
)

_MAX_PLAYOUTS = 1_000_000


def _acting_seat(state: State, action: int) -> int:
    """The seat an action is for: during the split, the seat holding the pack's cards."""
    if state.phase is Phase.SPLIT and A.is_pack(action):
        pack = A.pack_of(action)
        for seat in state.seats_to_act():
            if pack & ~state.hands[seat] == 0:
                return seat
        raise ValueError(
            f"{A.action_text(action)} is not the pack of any seat still to split"
        )
    return state.current_seat()


def evaluate_actions(
    states: Sequence[State],
    actions: Sequence[int],
    playouts: int,
    seed: int,
    policy: str = "heuristic",
) -> npt.NDArray[np.float64]:
    """Mean final round score of every seat after each candidate action.

    ``states`` are positions at the same decision point for the same seat (e.g.
    worlds drawn with :func:`meio.engine.sample_world`), ``actions`` are legal in
    each of them. Each action is applied in every state and the rest of the
    current round (splits still due and pile choices included) is played
    ``playouts`` times by ``policy``. Returns shape ``(len(actions), players)``:
    the mean |H - V| of each seat over all states and playouts, in partnership
    each seat's team score |H0 + H2 - V0 - V2|. Lower is better for that seat.

    Every action is played out on the same random streams, so the differences
    between rows measure the actions, not the luck of the playouts.
    """
    if not states:
        raise ValueError("evaluate_actions needs at least one state")
    if not actions:
        raise ValueError("evaluate_actions needs at least one candidate action")
    if not isinstance(playouts, int) or not 0 < playouts <= _MAX_PLAYOUTS:
        raise ValueError(f"playouts must be 1 to {_MAX_PLAYOUTS}, not {playouts!r}")
    policy_code(policy)  # a clear error for an unknown policy before any work
    first = states[0]
    config = first.config
    if first.phase is Phase.OVER:
        raise ValueError("the match is over: there is no round left to play out")
    seat = _acting_seat(first, actions[0])
    # worlds sampled under hidden specials (reveal_specials off) may hold different
    # specials: each group of worlds is played out with the tables of its own deck
    groups: dict[MatchConfig, list[int]] = {}
    for w, state in enumerate(states):
        other = state.config
        if (other.edition, other.players, other.partnership, other.options.wild_lead) != (
            config.edition, config.players, config.partnership, config.options.wild_lead
        ) or (config.options.reveal_specials and other.special_cards != config.special_cards):
            raise ValueError(f"state {w} is of another game than state 0")
        for action in actions:
            if not state.is_legal(action, seat) or _acting_seat(state, action) != seat:
                raise ValueError(
                    f"{A.action_text(action)} is not legal for seat {seat} in state {w}"
                )
        groups.setdefault(deck_config(other), []).append(w)
    kinds, values, packs = encode_actions(actions)
    seed = int(seed)
    total = np.zeros((len(actions), config.players))
    for group_config, members in groups.items():
        worlds = np.zeros((len(members), K.STATE_LEN), dtype=np.int32)
        for row, w in enumerate(members):
            worlds[row] = state_to_arrays(states[w]).array
        t = tables_for(group_config)
        code = t.policy(policy)
        means = core_means(t, worlds, kinds, values, packs, seat, playouts,
                           (seed + members[0]) & 0x7FFFFFFFFFFFFFFF, code)
        if len(groups) == 1:
            return np.asarray(means, dtype=np.float64)
        total += np.asarray(means, dtype=np.float64) * len(members)
    result: npt.NDArray[np.float64] = total / len(states)
    return result


def core_means(t: CoreTables, worlds: I32, kinds: I32, values: I32, packs: I32, seat: int,
               playouts: int, seed: int, policy: int) -> npt.NDArray[np.float64]:
    """The core's :func:`~meio.sim.core.evaluate` of candidate actions on core positions
    ``worlds`` at table ``t``, the playout policy ``policy`` (its code): the result and
    the kernel's scratch allocated here, since the kernel runs without numba's
    runtime."""
    players = int(t.cfg[K.CFG_PLAYERS])
    out = np.zeros((len(kinds), players))
    K.evaluate(t.cfg, t.ruleset, t.strength, worlds, kinds, values, packs, seat, playouts,
               seed, policy, playout_epsilon(policy), out, np.zeros(K.STATE_LEN, np.int32),
               np.zeros(1, np.uint64), np.zeros(K.LEGAL_MAX, np.int32),
               np.zeros(K.PACK_MAX, np.int32), np.zeros(players, np.int32))
    return out


def playout_epsilon(policy: int) -> float:
    """How often a search's heuristic playout plays a random action instead: every
    ruleset's heuristic explores (:data:`~meio.sim.tables.HEURISTIC_EPSILON`), so that
    repeated playouts of one world follow different lines (the rules heuristic of a
    variant is deterministic, and without it ``playouts`` would repeat one line)."""
    return epsilon_for(policy) if policy != K.POLICY_RULES_HEURISTIC else HEURISTIC_EPSILON


def encode_actions(actions: Sequence[int]) -> tuple[I32, I32, I32]:
    """The core's form of candidate actions: kind (1 a split), action, pack cards."""
    kinds = np.zeros(len(actions), dtype=np.int32)
    values = np.zeros(len(actions), dtype=np.int32)
    packs = np.zeros((len(actions), K.PACK_MAX), dtype=np.int32)
    for i, action in enumerate(actions):
        if A.is_pack(action):
            kinds[i] = 1
            cards = C.cards_of(A.pack_of(action))
            packs[i, : len(cards)] = cards
        else:
            values[i] = action
    return kinds, values, packs


def evaluate_positions(
    config: MatchConfig,
    positions: I32,
    actions: Sequence[int],
    seat: int,
    playouts: int,
    seed: int,
    policy: str = "heuristic",
) -> npt.NDArray[np.float64]:
    """:func:`evaluate_actions` for worlds that are already core positions
    (``positions[w]``, e.g. from :class:`meio.bots.pool.WorldPool`), all of one deck
    (``config``'s): the same result as ``evaluate_actions`` on the engine states those
    positions are, without building them. ``actions`` must be legal for ``seat`` in
    every position; unlike ``evaluate_actions`` this is not checked."""
    if len(positions) == 0 or not actions:
        raise ValueError("evaluate_positions needs at least one position and one action")
    if not isinstance(playouts, int) or not 0 < playouts <= _MAX_PLAYOUTS:
        raise ValueError(f"playouts must be 1 to {_MAX_PLAYOUTS}, not {playouts!r}")
    kinds, values, packs = encode_actions(actions)
    t = tables_for(config)
    code = t.policy(policy)
    return core_means(t, np.ascontiguousarray(positions, dtype=np.int32), kinds, values,
                      packs, seat, playouts, int(seed) & 0x7FFFFFFFFFFFFFFF, code)


def deck_config(config: MatchConfig) -> MatchConfig:
    """The config that fixes the core's tables: the deck and the rules, not the seed."""
    # a designer's ruleset carries its own options (a config must keep them)
    options = config.options if config.variant is not None else TableOptions(
        config.options.wild_lead)
    return dataclasses.replace(config, seed=0, first_leader=0, options=options)
