"""The one bot interface every caller uses: terminal, web, tournaments, RL baselines.

The bots by name (:func:`~meio.bots.make_bot`) are in :mod:`meio.bots.registry`,
which imports the bot modules; they import this module, never the registry.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from meio.engine import MatchConfig, State, View
from meio.engine.errors import MeioError


@runtime_checkable
class Bot(Protocol):
    """A player that sees only its seat's :class:`View` and the legal actions.

    ``choose`` returns one of ``legal``: the split (a pack action), a card (a
    declare action when leading a wild) or a pile choice after a ``+.5`` win.
    A bot is deterministic given its seed and the sequence of views it is shown.
    """

    name: str

    def choose(self, view: View, legal: Sequence[int]) -> int: ...


def seat_of(view: View) -> int:
    """The seat a view belongs to; a spectator's view has none, and a bot cannot play it."""
    if view.seat is None:
        raise MeioError("a bot decides for a seat: a spectator's view cannot be played")
    return view.seat


def bot_turn(state: State, bots: Sequence[Bot]) -> tuple[int, int]:
    """Let the bot whose seat acts next choose; apply it. Returns ``(seat, action)``."""
    seat = state.current_seat()
    view = state.view(seat)
    action = bots[seat].choose(view, view.legal_actions())
    state.apply(action, seat)
    return seat, action


def play_match(config: MatchConfig, bots: Sequence[Bot]) -> State:
    """Play a whole match with ``bots[seat]`` choosing for each seat."""
    if len(bots) != config.players:
        raise ValueError(f"{config.players} seats need {config.players} bots, not {len(bots)}")
    state = State.new(config)
    while not state.is_over:
        bot_turn(state, bots)
    return state
