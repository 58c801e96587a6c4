"""The one bot interface every caller uses: terminal, web, tournaments, RL baselines."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
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


BotFactory = Callable[[int], Bot]
#: bots added with :func:`register` (plug-ins, tests), besides the built-in ones
_REGISTRY: dict[str, BotFactory] = {}
#: the built-in bots, once :func:`builtin_bots` has been asked for them
_BUILTIN: dict[str, BotFactory] = {}


class UnknownBotError(MeioError, ValueError):
    """A bot kind that no one registered."""


def builtin_bots() -> dict[str, BotFactory]:
    """The bots that come with meio, by kind: ``random``, ``heuristic``, ``search``,
    ``search:1`` to ``search:4`` (``expert`` is ``search:4``) and ``learned`` (the
    shipped trained policy).

    >>> sorted(builtin_bots())  # doctest: +NORMALIZE_WHITESPACE
    ['expert', 'heuristic', 'learned', 'random', 'search', 'search:1', 'search:2',
     'search:3', 'search:4']
    """
    if _BUILTIN:  # built once: a server makes a bot for every bot move
        return dict(_BUILTIN)
    # imported here, not at the top: the search bot loads the simulation core
    from meio.bots.heuristic import HeuristicBot
    from meio.bots.learned import default_learned_bot
    from meio.bots.random_bot import RandomBot
    from meio.bots.search import DEFAULT_LEVEL, LEVELS, SearchBot

    out: dict[str, BotFactory] = {
        "random": RandomBot,
        "heuristic": HeuristicBot,
        "search": partial(SearchBot, level=DEFAULT_LEVEL),
        "learned": default_learned_bot,
    }
    for level in LEVELS:
        out[f"search:{level}"] = partial(SearchBot, level=level)
    out["expert"] = partial(SearchBot, level=4, name="expert")
    _BUILTIN.update(out)
    return dict(out)


def register(kind: str, factory: BotFactory) -> None:
    """Make ``make_bot(kind, seed)`` build a bot with ``factory(seed)``."""
    _REGISTRY[kind] = factory


def unregister(kind: str) -> None:
    """Forget a bot added with :func:`register` (nothing happens for an unknown kind)."""
    _REGISTRY.pop(kind, None)


def _factories() -> dict[str, BotFactory]:
    return {**builtin_bots(), **_REGISTRY}


def bot_kinds() -> list[str]:
    """The names :func:`make_bot` accepts."""
    return sorted(_factories())


def make_bot(kind: str, seed: int = 0) -> Bot:
    """A new bot of ``kind`` (``random``, ``heuristic``, ``search``, ...) seeded by ``seed``.

    ``"learned:PATH"`` plays the trained policy file at ``PATH`` (see
    :mod:`meio.bots.learned`).

    >>> make_bot("heuristic", 7).name
    'heuristic'
    """
    if kind.startswith("learned:"):
        from meio.bots.learned import learned_bot

        return learned_bot(kind, seed)
    factories = _factories()
    try:
        factory = factories[kind]
    except KeyError:
        known = ", ".join(sorted(factories))
        raise UnknownBotError(f"unknown bot {kind!r}; choose one of: {known}") from None
    return factory(seed)


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
