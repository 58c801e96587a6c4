"""Puzzles mined from games: one action clearly best from the player's view
(:mod:`meio.puzzles.mine`), kept in sets (:mod:`meio.puzzles.collection`)."""

from meio.puzzles.collection import SHIPPED, Entry, PuzzleError, PuzzleSet, read_set, shipped

__all__ = ["SHIPPED", "Entry", "PuzzleError", "PuzzleSet", "read_set", "shipped"]
