"""Persistence of reviews and puzzles (migration ``0010_reviews``).

A finished match's review is kept whole (``meio-review/1``, the quick pass until the
deep one replaces it), so a second viewer reads it and pays nothing. A puzzle's rating
and a solver's progress (:class:`~meio.puzzles.progress.Progress`, keyed by account or
by a hash of the browser's token) are rows of their own.
"""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import JSON, Float, ForeignKey, Integer, String
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Mapped, Session, mapped_column

from meio.puzzles.progress import Progress
from meio.ratings import Rating, RatingError
from meio.web.db import Base


class ReviewRow(Base):
    __tablename__ = "meio_reviews"
    match_id: Mapped[str] = mapped_column(String(32), ForeignKey("meio_matches.id"),
                                          primary_key=True)
    depth: Mapped[str] = mapped_column(String(8))
    body: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[float] = mapped_column(Float)


class PuzzleRatingRow(Base):
    __tablename__ = "meio_puzzle_ratings"
    puzzle_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)


class SolverRow(Base):
    __tablename__ = "meio_puzzle_solvers"
    solver: Mapped[str] = mapped_column(String(64), primary_key=True)
    progress: Mapped[dict[str, Any]] = mapped_column(JSON)
    updated_at: Mapped[float] = mapped_column(Float)


class LearnStore:
    """Reads and writes of reviews and puzzle ratings; each write one transaction."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def review(self, match_id: str) -> tuple[str, dict[str, Any]] | None:
        """The kept review of a match: ``(depth, body)``, or None."""
        with Session(self.engine) as s:
            row = s.get(ReviewRow, match_id)
            return None if row is None else (row.depth, row.body)

    def keep_review(self, match_id: str, depth: str, body: dict[str, Any]) -> None:
        """Keep a review; a deep one is never replaced by a quick one."""
        with Session(self.engine) as s, s.begin():
            row = s.get(ReviewRow, match_id)
            if row is None:
                s.add(ReviewRow(match_id=match_id, depth=depth, body=body,
                                created_at=time.time()))
            elif not (row.depth == "deep" and depth != "deep"):
                row.depth, row.body = depth, body

    def progress(self, solver: str) -> Progress:
        with Session(self.engine) as s:
            row = s.get(SolverRow, solver)
        if row is None:
            return Progress()
        try:
            return Progress.from_json(row.progress)
        except RatingError:
            return Progress()  # a row from an older form starts again rather than fail

    def puzzle_rating(self, puzzle_id: str) -> Rating:
        with Session(self.engine) as s:
            row = s.get(PuzzleRatingRow, puzzle_id)
            return Rating() if row is None else Rating(row.mu, row.sigma, row.games)

    def attempt(self, solver: str, puzzle_id: str,
                solved: bool) -> tuple[Progress, Rating, bool]:
        """Rate one attempt (in one transaction) and keep both ratings; a puzzle the
        solver has tried before is checked but not rated again (the third value says
        whether this attempt was rated), so no one farms a rating on a known answer."""
        with Session(self.engine) as s, s.begin():
            srow = s.get(SolverRow, solver)
            seen = list(srow.progress.get("seen", [])) if srow is not None else []
            try:
                mine = Progress() if srow is None else Progress.from_json(srow.progress)
            except RatingError:
                mine = Progress()
            prow = s.get(PuzzleRatingRow, puzzle_id)
            before = Rating() if prow is None else Rating(prow.mu, prow.sigma, prow.games)
            if puzzle_id in seen:
                return mine, before, False
            mine, after = mine.attempt(before, solved=solved)
            body = {**mine.to_json(), "seen": [*seen, puzzle_id]}
            if srow is None:
                s.add(SolverRow(solver=solver, progress=body, updated_at=time.time()))
            else:
                srow.progress, srow.updated_at = body, time.time()
            if prow is None:
                s.add(PuzzleRatingRow(puzzle_id=puzzle_id, mu=after.mu, sigma=after.sigma,
                                      games=after.games))
            else:
                prow.mu, prow.sigma, prow.games = after.mu, after.sigma, after.games
            return mine, after, True
