"""meio: the MEIO card game — rules engine, bots, simulation, terminal and web play."""

from meio.engine import (
    IllegalActionError,
    MatchConfig,
    MeioError,
    Phase,
    State,
    View,
    actions,
    cards,
    sample_world,
)

__version__ = "0.1.0"

__all__ = [
    "IllegalActionError",
    "MatchConfig",
    "MeioError",
    "Phase",
    "State",
    "View",
    "__version__",
    "actions",
    "cards",
    "sample_world",
]
