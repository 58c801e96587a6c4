"""The bots by name: the built-in kinds, plug-ins added with :func:`register`, and
:func:`make_bot`, which every caller uses to get a bot from its name.

This module sits above the bot modules (it imports them; they import only
:mod:`meio.bots.base`), so adding a bot is one line here and no circle.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from meio.bots.base import Bot
from meio.bots.versions import VERSION_NAMES, resolve
from meio.engine.errors import MeioError

BotFactory = Callable[[int], Bot]
#: bots added with :func:`register` (plug-ins, tests), besides the built-in ones
_REGISTRY: dict[str, BotFactory] = {}
#: the built-in bots, once :func:`builtin_bots` has been asked for them
_BUILTIN: dict[str, BotFactory] = {}


class UnknownBotError(MeioError, ValueError):
    """A bot kind that no one registered."""


def builtin_bots() -> dict[str, BotFactory]:
    """The bots that come with meio, by kind: ``random``, ``heuristic``, ``search``,
    ``search:1`` to ``search:4`` (``expert`` is ``search:4``), ``learned`` (the network
    distilled from search on an edition, the network for any ruleset elsewhere),
    ``learned-any`` (the network for any ruleset everywhere: :mod:`meio.bots.general`),
    ``ppo`` (the policy trained by PPO), ``search:5`` (search
    standing on the network) and ``search:6`` (the same, the network playing its worlds
    out); each of these names is an alias of a versioned name that never changes meaning
    (``learned-v7``, ``ppo-v1``, ``search:4-v1``: :mod:`meio.bots.versions`), which
    :func:`make_bot` takes too (menus list the short names only).

    **The general switch**: a bot with two players in it (the editions' one, tuned to
    their cards, and a general one) plays its general path on every ruleset, the
    editions included, under its name with ``-any``: ``heuristic-any`` (the heuristic of
    any ruleset), ``search:1-any`` to ``search:4-any`` and ``expert-any`` (search with that
    heuristic in its playouts and split), and ``learned-any`` (the network for any
    ruleset); :data:`meio.bots.variant_play.GENERAL_NAMES` maps each bot to it.

    >>> sorted(builtin_bots())  # doctest: +NORMALIZE_WHITESPACE
    ['expert', 'expert-any', 'heuristic', 'heuristic-any', 'learned', 'learned-any', 'ppo',
     'random', 'search', 'search:1', 'search:1-any', 'search:2', 'search:2-any', 'search:3',
     'search:3-any', 'search:4', 'search:4-any', 'search:5', 'search:6']
    """
    if _BUILTIN:  # built once: a server makes a bot for every bot move
        return dict(_BUILTIN)
    # imported here, not at the top: the search bot loads the simulation core
    from meio.bots.general import LearnedLevelBot, general_bot
    from meio.bots.heuristic import HeuristicBot
    from meio.bots.learned import ppo_bot
    from meio.bots.netsearch import net_playout_bot, net_search_bot
    from meio.bots.random_bot import RandomBot
    from meio.bots.search import DEFAULT_LEVEL, LEVELS, SearchBot

    out: dict[str, BotFactory] = {
        "random": RandomBot,
        "heuristic": HeuristicBot,
        "heuristic-any": partial(HeuristicBot, general=True),
        "search": partial(SearchBot, level=DEFAULT_LEVEL),
        "learned": LearnedLevelBot,
        "learned-any": general_bot,
        "ppo": ppo_bot,
    }
    for level in LEVELS:
        out[f"search:{level}"] = partial(SearchBot, level=level)
        out[f"search:{level}-any"] = partial(SearchBot, level=level, general=True,
                                             name=f"search:{level}-any")
    out["expert"] = partial(SearchBot, level=4, name="expert")
    out["expert-any"] = partial(SearchBot, level=4, name="expert-any", general=True)
    out["search:5"] = net_search_bot
    out["search:6"] = net_playout_bot
    _BUILTIN.update(out)
    return dict(out)


def _named(factory: BotFactory, name: str, seed: int) -> Bot:
    bot = factory(seed)
    bot.name = name
    return bot


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
    :mod:`meio.bots.learned`; a general network's file, as ``meio train --variant``
    writes, plays any ruleset: :mod:`meio.bots.general`), and ``"search:5:PATH"``
    (``"search:6:PATH"``) is ``search:5`` (``search:6``) standing on it (to make the next data set
    with an earlier network, or measure a new one).

    >>> make_bot("heuristic", 7).name
    'heuristic'
    """
    if kind.startswith("learned:"):
        from meio.bots.general import GeneralBot, is_general_file
        from meio.bots.learned import learned_bot

        path = kind.removeprefix("learned:")
        if is_general_file(path):  # a network for any ruleset (meio train --variant)
            return GeneralBot(path, seed)
        return learned_bot(kind, seed)
    if kind.startswith(("search:5:", "search:6:")):
        from meio.bots.netsearch import NetSearchBot

        playouts = "network" if kind.startswith("search:6:") else "heuristic"
        # stands on the editions' network at PATH alone: it refuses a variant
        return NetSearchBot(seed, path=kind[len("search:5:"):], general=None, name=kind,
                            playouts=playouts)
    factories = _factories()
    if kind not in factories and kind in VERSION_NAMES:
        # a versioned name: the bot of the alias it is the current version of
        return _named(factories[resolve(kind).alias], kind, seed)
    try:
        factory = factories[kind]
    except KeyError:
        known = ", ".join(sorted(factories) + list(VERSION_NAMES))
        raise UnknownBotError(f"unknown bot {kind!r}; choose one of: {known}") from None
    return factory(seed)
