"""Pure-Python playouts: play a sampled world to the end of its round.

This is the reference implementation of the simulation contract the search bot
and the split advisor rely on (:func:`evaluate_actions`, the same signature as
``meio.sim.evaluate_actions``, which the bots use and which the tests check
against this one). Tests also use it directly to avoid compile time, and the
advisor uses :func:`play_out` for the per-half trick counts the compiled core
does not report.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from meio.bots.features import seen_from_state
from meio.bots.policy import choose_pack, choose_pile, choose_play
from meio.bots.variant_play import heuristic_action
from meio.engine import Phase, State, legal_plays
from meio.engine.presets import is_standard

Evaluator = Callable[..., npt.NDArray[np.float64]]
#: ``heuristic`` is the ruleset's; ``heuristic-any`` the heuristic of any ruleset
#: (:mod:`meio.bots.variant_play`) on every ruleset, the editions included
POLICIES = ("heuristic", "heuristic-any", "random")


def policy_action(state: State, policy: str, rng: random.Random) -> tuple[int, int]:
    """The ``(seat, action)`` the playout policy takes in ``state`` (a full world).
    The heuristic is the ruleset's (:mod:`meio.bots.variant_play` off the editions, and
    everywhere under ``heuristic-any``)."""
    phase = state.phase
    if policy == "heuristic-any" or (policy != "random"
                                     and not is_standard(state.config.ruleset)):
        seat = state.current_seat()
        return seat, heuristic_action(state, seat, state.legal_actions(seat))
    if phase is Phase.SPLIT:
        seat = state.current_seat()
        if policy == "random":
            choices = state.legal_actions(seat)
            return seat, choices[rng.randrange(len(choices))]
        return seat, choose_pack(state.hands[seat], state.config)
    if phase is Phase.PILE:
        seat = state.pending_pile
        if policy == "random":
            return seat, (81, 82)[rng.randrange(2)]
        return seat, choose_pile(seen_from_state(state, seat))
    seat = state.to_move
    legal = legal_plays(state.hands[seat], state.led_suit, state.config.options.declares,
                        bool(state.current_trick), state.config.rules)
    if len(legal) == 1:
        return seat, legal[0]
    if policy == "random":
        return seat, legal[rng.randrange(len(legal))]
    return seat, choose_play(seen_from_state(state, seat), legal)


def play_out(state: State, policy: str = "heuristic", rng: random.Random | None = None) -> State:
    """Play ``state`` (changed in place) to the end of its current round and return it."""
    if policy not in POLICIES:
        raise ValueError(f"unknown playout policy {policy!r}; choose one of: {', '.join(POLICIES)}")
    rng = rng or random.Random(0)
    rounds = len(state.rounds)
    while len(state.rounds) == rounds and not state.is_over:
        seat, action = policy_action(state, policy, rng)
        state.apply_unchecked(action, seat)
    return state


def round_scores(state: State) -> list[int]:
    """Each seat's score of the round just completed (its team's, in partnership)."""
    result = state.rounds[-1]
    if result.team_scores is not None:
        return [result.team_scores[s % 2] for s in range(state.config.players)]
    return list(result.scores)


def evaluate_actions(
    states: Sequence[State],
    actions: Sequence[int],
    playouts: int,
    seed: int,
    policy: str = "heuristic",
) -> npt.NDArray[np.float64]:
    """Mean final round score per seat (team score in partnership) after each action.

    Each action is applied in every world of ``states`` by the seat to act there
    (during the split: the lowest seat still to split), then the round is played
    out ``playouts`` times with ``policy``. Returns an array of shape
    ``(len(actions), players)``. The heuristic policy is deterministic, so it
    plays each world once whatever ``playouts`` says.
    """
    if not states or not actions:
        raise ValueError("evaluate_actions needs at least one world and one action")
    if playouts < 1:
        raise ValueError(f"playouts must be at least 1, not {playouts}")
    players = states[0].config.players
    totals = np.zeros((len(actions), players))
    rng = random.Random(seed)
    # the heuristic policy is deterministic: one playout per world says it all
    runs = playouts if policy == "random" else 1
    for world in states:
        seat = world.current_seat()
        for i, action in enumerate(actions):
            for _ in range(runs):
                st = world.clone()
                st.apply_unchecked(action, seat)
                play_out(st, policy, rng)
                totals[i] += round_scores(st)
    result: npt.NDArray[np.float64] = totals / (len(states) * runs)
    return result
