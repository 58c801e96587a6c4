"""The post-game review: each decision of a finished match judged from what its seat
could see (:mod:`meio.review.judge`, :mod:`meio.review.match`)."""

from meio.review.judge import (
    BUDGETS,
    DEEP,
    HIGH,
    QUICK,
    THRESHOLDS,
    Budget,
    Judgement,
    Option,
    ReviewError,
    judge,
)
from meio.review.match import (
    FORMAT,
    Decision,
    Review,
    SeatSummary,
    finished_state,
    joined,
    review_match,
)

__all__ = [
    "BUDGETS",
    "DEEP",
    "FORMAT",
    "HIGH",
    "QUICK",
    "THRESHOLDS",
    "Budget",
    "Decision",
    "Judgement",
    "Option",
    "Review",
    "ReviewError",
    "SeatSummary",
    "finished_state",
    "joined",
    "judge",
    "review_match",
]
