"""Bots: one interface (:class:`Bot`), from random to search."""

from meio.bots.base import Bot, bot_kinds, bot_turn, make_bot, play_match, register

__all__ = ["Bot", "bot_kinds", "bot_turn", "make_bot", "play_match", "register"]
