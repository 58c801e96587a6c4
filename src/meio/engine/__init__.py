"""The MEIO rules engine: cards, configuration, state, views, sampling and records."""

from meio.engine import actions, cards
from meio.engine.config import Edition, MatchConfig, TableOptions, WildLead
from meio.engine.errors import (
    CardError,
    ConfigError,
    IllegalActionError,
    MeioError,
    RecordError,
)
from meio.engine.legal import PackChoices, Phase, legal_plays
from meio.engine.sampling import sample_world
from meio.engine.scoring import RoundResult, eligible_leaders
from meio.engine.state import Outcome, State, replay_actions, replay_steps
from meio.engine.tricks import Trick
from meio.engine.view import View

__all__ = [
    "CardError",
    "ConfigError",
    "Edition",
    "IllegalActionError",
    "MatchConfig",
    "MeioError",
    "Outcome",
    "PackChoices",
    "Phase",
    "RecordError",
    "RoundResult",
    "State",
    "TableOptions",
    "Trick",
    "View",
    "WildLead",
    "actions",
    "cards",
    "eligible_leaders",
    "legal_plays",
    "replay_actions",
    "replay_steps",
    "sample_world",
]
