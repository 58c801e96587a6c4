"""Bots: one interface (:class:`Bot`), from random to search."""

from meio.bots.base import (
    Bot,
    UnknownBotError,
    bot_kinds,
    bot_turn,
    builtin_bots,
    make_bot,
    play_match,
    register,
    unregister,
)

__all__ = [
    "Bot",
    "UnknownBotError",
    "bot_kinds",
    "bot_turn",
    "builtin_bots",
    "make_bot",
    "play_match",
    "register",
    "unregister",
]
