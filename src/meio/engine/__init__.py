"""The MEIO rules engine: cards, configuration, state, views, sampling and records."""

from meio.engine import actions, cards
from meio.engine.config import Edition, MatchConfig
from meio.engine.errors import (
    CardError,
    ConfigError,
    IllegalActionError,
    MeioError,
    RecordError,
)
from meio.engine.sampling import sample_world
from meio.engine.state import PackChoices, Phase, RoundResult, State, eligible_leaders, legal_plays
from meio.engine.tricks import Trick
from meio.engine.view import View

__all__ = [
    "CardError",
    "ConfigError",
    "Edition",
    "IllegalActionError",
    "MatchConfig",
    "MeioError",
    "PackChoices",
    "Phase",
    "RecordError",
    "RoundResult",
    "State",
    "Trick",
    "View",
    "actions",
    "cards",
    "eligible_leaders",
    "legal_plays",
    "sample_world",
]
