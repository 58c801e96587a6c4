"""Bots: one interface (:class:`Bot`), from random to search."""

from meio.bots.base import Bot, bot_turn, play_match
from meio.bots.levels import LEVELS, BotLevel, level_name, level_of
from meio.bots.registry import (
    UnknownBotError,
    bot_kinds,
    builtin_bots,
    make_bot,
    register,
    unregister,
)

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
