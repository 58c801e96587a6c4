"""The one bot interface every caller uses: terminal, web, tournaments, RL baselines."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from meio.engine import MatchConfig, State, View


@runtime_checkable
class Bot(Protocol):
    """A player that sees only its seat's :class:`View` and the legal actions.

    ``choose`` returns one of ``legal``: the split (a pack action), a card (a
    declare action when leading a wild) or a pile choice after a ``+.5`` win.
    A bot is deterministic given its seed and the sequence of views it is shown.
    """

    name: str

    def choose(self, view: View, legal: Sequence[int]) -> int: ...


BotFactory = Callable[[int], Bot]
_REGISTRY: dict[str, BotFactory] = {}


def register(kind: str, factory: BotFactory) -> None:
    """Make ``make_bot(kind, seed)`` build a bot with ``factory(seed)``."""
    _REGISTRY[kind] = factory


def bot_kinds() -> list[str]:
    """The names :func:`make_bot` accepts."""
    _load_builtin()
    return sorted(_REGISTRY)


def make_bot(kind: str, seed: int = 0) -> Bot:
    """A new bot of ``kind`` (``random``, ``heuristic``, ``search``, ...) seeded by ``seed``.

    ``"learned:PATH"`` plays the trained policy file at ``PATH`` (see
    :mod:`meio.bots.learned`)."""
    _load_builtin()
    if kind.startswith("learned:"):
        from meio.bots.learned import learned_bot

        return learned_bot(kind, seed)
    try:
        factory = _REGISTRY[kind]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        raise ValueError(f"unknown bot {kind!r}; choose one of: {known}") from None
    return factory(seed)


def _load_builtin() -> None:
    # importing the modules registers their bots; done lazily to keep imports cheap
    import importlib

    for module in ("meio.bots.random_bot", "meio.bots.heuristic", "meio.bots.search",
                   "meio.bots.learned"):
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise


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
