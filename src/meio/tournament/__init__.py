"""Duplicate tournaments between bots: same deals, bots rotated through the seats."""

from meio.tournament.runner import (
    MatchResult,
    MatchTask,
    TournamentSpec,
    check_duplicates,
    lineups,
    play_task,
    run_tournament,
    tasks_for,
)
from meio.tournament.stats import BotStats, Summary, summarize

__all__ = [
    "BotStats",
    "MatchResult",
    "MatchTask",
    "Summary",
    "TournamentSpec",
    "check_duplicates",
    "lineups",
    "play_task",
    "run_tournament",
    "summarize",
    "tasks_for",
]
