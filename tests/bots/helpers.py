"""Checks the bot tests share: blindness to hidden cards along a game, and the engine's
reference for a network's compiled playouts."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import numpy as np

from meio.bots import bot_turn
from meio.bots.base import Bot
from meio.bots.playout import round_scores
from meio.engine import Phase, State, sample_world


def check_blind_to_hidden_cards(state: State, movers: Sequence[Bot],
                                makers: Sequence[Callable[[], Bot]], *, steps: int,
                                every: int, rng: random.Random) -> tuple[set[Phase], int]:
    """Play ``steps`` turns of ``state`` with ``movers``; every ``every`` turns, deal a
    look-alike world with other hidden cards than the mover's (same view) and assert
    each bot of ``makers`` (fresh each time) decides the same in both. Returns the
    phases checked and how many positions were."""
    phases: set[Phase] = set()
    compared = 0
    for step in range(steps):
        if step % every == 0:
            seat = state.current_seat()
            view = state.view(seat)
            hidden = [state.deal[s] for s in range(state.config.players) if s != seat]
            other = next((w for w in (sample_world(view, rng) for _ in range(8))
                          if [w.deal[s] for s in range(state.config.players)
                              if s != seat] != hidden), None)
            if other is not None:
                assert other.view(seat) == view
                for make in makers:
                    assert make().choose(view, view.legal_actions()) == make().choose(
                        other.view(seat), other.view(seat).legal_actions())
                phases.add(state.phase)
                compared += 1
        bot_turn(state, movers)
    return phases, compared


def engine_playouts(worlds: list[State], actions: list[int], seat: int,
                    bot_of: Callable[[int], Bot]) -> np.ndarray:
    """The reference for a network's compiled playouts: each world, after each action,
    played to the end of its round by ``bot_of(seat)`` in every seat under the engine's
    rules; the mean round score of each seat after each action."""
    players = worlds[0].config.players
    bots = [bot_of(p) for p in range(players)]
    total = np.zeros((len(actions), players))
    for world in worlds:
        for i, action in enumerate(actions):
            state = world.clone()
            rounds = len(state.rounds)
            state.apply(action, seat)
            while len(state.rounds) == rounds and not state.is_over:
                mover = state.current_seat()
                view = state.view(mover)
                state.apply(bots[mover].choose(view, view.legal_actions()), mover)
            total[i] += round_scores(state)
    return total / len(worlds)
