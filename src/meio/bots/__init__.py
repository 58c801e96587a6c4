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
from meio.bots.levels import LEVELS, BotLevel, level_name, level_of

__all__ = [
    "LEVELS",
    "Bot",
    "BotLevel",
    "UnknownBotError",
    "bot_kinds",
    "bot_turn",
    "builtin_bots",
    "level_name",
    "level_of",
    "make_bot",
    "play_match",
    "register",
    "unregister",
]
