"""The bot levels people choose from: four names a player understands, each with its
strength in one line, the same words in every client (the web page translates them).

The other bot kinds (``search:1``, ``search:3``, ``search:5``, ``search:6``,
``learned``, ``ppo``, plug-ins) stay available to tournaments, the command line and the
web lobby's list of kinds; a seat holding one is named by its kind.

>>> [level.name for level in LEVELS]
['beginner', 'easy', 'strong', 'expert']
>>> level_name("heuristic"), level_name("search:4"), level_name("search:1")
('easy', 'expert', 'search:1')
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class BotLevel:
    """A level: the bot kind that plays it, its name and how strong it is."""

    kind: str
    name: str
    strength: str


#: weakest first; the strengths are the duplicate tournaments of docs/benchmarks.md
#: ("Bot strength and decision times") and docs/bots.md
LEVELS: tuple[BotLevel, ...] = (
    BotLevel("random", "beginner", "plays any allowed card at random"),
    BotLevel("heuristic", "easy",
             "plays by rules of thumb; scores better than a beginner in 3 deals of 4"),
    BotLevel("search", "strong",
             "thinks ahead by trying possible deals; better than easy in 4 deals of 5"),
    BotLevel("expert", "expert", "the strongest and slowest; better than strong"),
)

#: kinds that play exactly as a level
_SAME = {"search:2": "search", "search:4": "expert"}


def level_of(kind: str) -> BotLevel | None:
    """The level a bot kind plays at, or None for a kind that is not one."""
    kind = _SAME.get(kind, kind)
    return next((level for level in LEVELS if level.kind == kind), None)


def level_name(kind: str) -> str:
    """What a seat of this bot kind is called: its level's name, else the kind."""
    level = level_of(kind)
    return kind if level is None else level.name
