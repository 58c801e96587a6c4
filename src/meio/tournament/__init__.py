"""Duplicate tournaments between bots: same deals, bots rotated through the seats."""

from meio.tournament.dealset import (
    DEAL_SETS,
    Deal,
    DealSet,
    DealSetError,
    DealTable,
    load_deal_set,
)
from meio.tournament.leaderboard import Leaderboard, leaderboard
from meio.tournament.runner import (
    MatchResult,
    MatchTask,
    TournamentError,
    TournamentSpec,
    check_duplicates,
    lineups,
    make_player,
    play_deal,
    play_task,
    run_tournament,
    tasks_for,
    tournament_bot_kinds,
)
from meio.tournament.stats import BotStats, Summary, summarize

__all__ = [
    "DEAL_SETS",
    "BotStats",
    "Deal",
    "DealSet",
    "DealSetError",
    "DealTable",
    "Leaderboard",
    "MatchResult",
    "MatchTask",
    "Summary",
    "TournamentError",
    "TournamentSpec",
    "check_duplicates",
    "leaderboard",
    "lineups",
    "load_deal_set",
    "make_player",
    "play_deal",
    "play_task",
    "run_tournament",
    "summarize",
    "tasks_for",
    "tournament_bot_kinds",
]
