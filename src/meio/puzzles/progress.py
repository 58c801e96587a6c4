"""A solver's progress: a rating for the player and for each puzzle, and a streak.

An attempt is a two-player match between the solver and the puzzle, rated with the
openskill model the match ratings use (:func:`meio.ratings.rate`): solving it ranks
the solver first, missing it ranks the puzzle first. Both start at openskill's
25 ± 25/3, so a puzzle that beats many solvers climbs and a solver who solves hard
puzzles climbs faster. The streak counts puzzles solved in a row; a miss ends it.

>>> p = Progress()
>>> p, puzzle = p.attempt(Rating(), solved=True)
>>> p.streak, p.best_streak, p.rating.mu > 25 > puzzle.mu
(1, 1, True)
>>> p, puzzle = p.attempt(puzzle, solved=False)
>>> p.streak, p.best_streak, p.solved, p.tried
(0, 1, 1, 2)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from meio.ratings import Rating, RatingError, rate


@dataclass(frozen=True, slots=True)
class Progress:
    """One solver's rating, streak and counts."""

    rating: Rating = field(default_factory=Rating)
    streak: int = 0
    best_streak: int = 0
    solved: int = 0
    tried: int = 0

    def attempt(self, puzzle: Rating, *, solved: bool) -> tuple[Progress, Rating]:
        """The solver's progress and the puzzle's rating after one attempt."""
        me, it = rate([self.rating, puzzle], [1, 2] if solved else [2, 1])
        streak = self.streak + 1 if solved else 0
        return (replace(self, rating=me, streak=streak, best_streak=max(self.best_streak,
                                                                         streak),
                        solved=self.solved + solved, tried=self.tried + 1), it)

    def to_json(self) -> dict[str, Any]:
        r = self.rating
        return {"mu": r.mu, "sigma": r.sigma, "games": r.games, "streak": self.streak,
                "best_streak": self.best_streak, "solved": self.solved, "tried": self.tried}

    @classmethod
    def from_json(cls, data: object) -> Progress:
        """Read what :meth:`to_json` wrote; raises :class:`RatingError` on anything else."""
        if not isinstance(data, dict):
            raise RatingError("puzzle progress is a JSON object")
        try:
            counts = [int(data[k]) for k in ("streak", "best_streak", "solved", "tried")]
            rating = Rating(float(data["mu"]), float(data["sigma"]), int(data["games"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise RatingError(f"puzzle progress is missing a field or has a bad one ({exc})"
                              ) from None
        if min(counts) < 0:
            raise RatingError("puzzle progress cannot count below 0")
        return cls(rating, *counts)
