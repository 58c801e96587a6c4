"""HTTP routes of the review of finished matches and of the puzzles.

**Reviews** (``GET /api/matches/{id}/review``): only a finished match has one, and it
shows no more than the match's published record. The first asker starts it; the work
runs in the bots' think pool (:class:`~meio.web.think.ThinkPool`) at the priority of
bots-only tables, one round and one pass at a time (the quick pass of every round, then
the deep one), so live tables come first and no review holds a worker for long. A match
has at most one review in flight, and an address at most one match under review (a
second is refused with ``review_busy`` until the first is done). Each pass is kept in
the database once done, so every later viewer reads it for nothing. The page polls:
``pending`` (nothing yet), ``quick`` (the quick pass, the deep one under way) or ``deep``.

**Puzzles** (``/api/puzzles/...``): the shipped set (:func:`meio.puzzles.shipped`); a
puzzle is sent as its seat's view (:func:`meio.engine.wire.view_json`) and nothing
else; an attempt is rated (:mod:`meio.puzzles.progress`) for the account, or for the
browser's own token when no one is signed in; only a solver's first attempt at a puzzle
is rated.
"""

from __future__ import annotations

import asyncio
import datetime
import logging
import random
from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, Field

from meio.review import Review
from meio.web import think
from meio.web.api import HubDep, _finished_state, client_address
from meio.web.auth import AccountDep
from meio.web.hub import Hub
from meio.web.learnstore import LearnStore
from meio.web.refusal import Refusal
from meio.web.schemas import AttemptResult, Progress, Puzzle, ReviewState, Router
from meio.web.store import hash_token

router = Router()
log = logging.getLogger("meio.web")
STATIC = Path(__file__).with_name("static")

STRICT = ConfigDict(strict=True, extra="forbid")


def review_part(record: dict[str, Any], depth: str, round_index: int) -> Review:
    """One round of a review at ``depth``: what a think-pool worker runs (plain data in)."""
    from meio.engine.record import Record
    from meio.review import BUDGETS, review_match

    return review_match(Record.from_json(record), budget=BUDGETS[depth], depth=depth,
                        rounds=[round_index])


class Reviews:
    """The reviews in flight on this server: one a match, one match an address."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.store = LearnStore(hub.store.engine)
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.by_address: dict[str, str] = {}
        #: matches whose review failed (the server's log says why): not tried again
        self.failed: set[str] = set()

    def start(self, match_id: str, record: dict[str, Any], address: str) -> None:
        if match_id in self.tasks:
            return
        other = self.by_address.get(address)
        if other is not None and other != match_id:
            raise Refusal(429, "review_busy",
                          "one review at a time: wait until the one you asked for is done")
        self.by_address[address] = match_id
        # charged to the asking address, as advice is: one visitor's reviews wait behind its
        # own share of the thinking, never ahead of other tables' bots
        share = think.Share(think.client_of(address), f"review:{match_id}", think.BOTS_ONLY)
        task = asyncio.get_running_loop().create_task(self._run(match_id, record, share))
        self.tasks[match_id] = task

        def done(finished: asyncio.Task[None]) -> None:
            self.tasks.pop(match_id, None)
            if not finished.cancelled() and finished.exception() is not None:
                log.error("the review of match %s failed", match_id,
                          exc_info=finished.exception())
                self.failed.add(match_id)
            if self.by_address.get(address) == match_id:
                del self.by_address[address]

        task.add_done_callback(done)

    async def _run(self, match_id: str, record: dict[str, Any], share: think.Share
                   ) -> None:
        from meio.review import joined

        kept = await asyncio.to_thread(self.store.review, match_id)
        depths = ("deep",) if kept is not None and kept[0] == "quick" else ("quick", "deep")
        for depth in depths:
            parts = [await self.hub.think.run(share, review_part, record, depth, r)
                     for r in range(len(record["rounds"]))]
            body = joined(parts).to_json()
            await asyncio.to_thread(self.store.keep_review, match_id, depth, body)


def _reviews(request: Request, hub: Hub) -> Reviews:
    state = request.app.state
    if getattr(state, "reviews", None) is None:
        state.reviews = Reviews(hub)
    reviews: Reviews = state.reviews
    return reviews


@router.get("/api/matches/{match_id}/review")
async def match_review(match_id: str, hub: HubDep, request: Request) -> ReviewState:
    """The review of a finished match: ``status`` and, once a pass is done, ``review``."""
    from meio.engine.record import Record

    m, state = await _finished_state(hub, match_id)  # 404 / 409 for the rest
    if state.config.variant is not None:
        raise Refusal(409, "not_reviewable", "reviews are for the meio and classic editions")
    reviews = _reviews(request, hub)
    kept = await asyncio.to_thread(reviews.store.review, m.id)
    if kept is not None and kept[0] == "deep":
        return ReviewState(status="deep", review=kept[1])
    if m.id in reviews.failed:
        return ReviewState(status="failed", review=None if kept is None else kept[1])
    reviews.start(m.id, Record.from_state(state).to_json(), client_address(request))
    if kept is None:
        return ReviewState(status="pending", review=None)
    return ReviewState(status="quick", review=kept[1])


# -- puzzles ----------------------------------------------------------------------------
@router.api_route("/puzzles", methods=["GET", "HEAD"], include_in_schema=False)
async def puzzles_page() -> FileResponse:
    return FileResponse(STATIC / "puzzles.html")


def _payload(entry_id: str | None = None, *, daily: bool = False) -> Puzzle:
    from meio.engine import actions as A
    from meio.engine import cards as C
    from meio.engine.errors import MeioError
    from meio.engine.wire import view_json
    from meio.puzzles import shipped

    puzzles = shipped()
    try:
        if daily:
            entry = puzzles.daily(datetime.datetime.now(datetime.UTC).date())
        elif entry_id is None:
            entry = random.choice(puzzles.puzzles)
        else:
            entry = puzzles.get(entry_id)
    except MeioError:
        raise Refusal(404, "no_puzzle", "no such puzzle") from None
    view = entry.view()
    # a split puzzle's packs to choose from: the seat's own cards, nothing hidden
    choices = [C.codes(A.pack_of(A.parse_action(c))) for c in entry.choices]
    return Puzzle(id=entry.id, set=puzzles.name, seat=entry.seat, kind=entry.kind,
                  edition=view.config.edition, view=view_json(view), choices=choices)


@router.get("/api/puzzles/daily")
async def daily_puzzle() -> Puzzle:
    """Today's puzzle (UTC): the same for everyone."""
    return await asyncio.to_thread(_payload, daily=True)


@router.get("/api/puzzles/next")
async def next_puzzle() -> Puzzle:
    return await asyncio.to_thread(_payload)


@router.get("/api/puzzles/{puzzle_id}")
async def one_puzzle(puzzle_id: str) -> Puzzle:
    if len(puzzle_id) > 64:
        raise Refusal(404, "no_puzzle", "no such puzzle")
    return await asyncio.to_thread(_payload, puzzle_id)


class Solver(BaseModel):
    model_config = STRICT
    #: the browser's own random token (for a solver who is not signed in)
    token: str = Field("", max_length=128)


class Attempt(Solver):
    action: str = Field(min_length=1, max_length=80)


def _solver(body: Solver, account: Any) -> str:
    if account is not None:
        return f"account:{account.id}"
    if len(body.token) < 16:
        raise Refusal(400, "no_solver", "sign in, or send the page's token, to be rated")
    return "token:" + hash_token(body.token)[:48]


def _progress_json(progress: Any) -> Progress:
    return Progress(rating=round(progress.rating.ordinal, 1),
                    provisional=progress.rating.provisional, streak=progress.streak,
                    best_streak=progress.best_streak, solved=progress.solved,
                    tried=progress.tried)


@router.post("/api/puzzles/progress")
async def puzzle_progress(body: Solver, hub: HubDep, request: Request,
                          account: AccountDep) -> Progress:
    progress = await asyncio.to_thread(_reviews(request, hub).store.progress,
                                       _solver(body, account))
    return _progress_json(progress)


@router.post("/api/puzzles/{puzzle_id}/attempt")
async def attempt(puzzle_id: str, body: Attempt, hub: HubDep, request: Request,
                  account: AccountDep) -> AttemptResult:
    """Check a move, rate the attempt, and tell the answer with the searched values."""
    from meio.engine.errors import MeioError
    from meio.puzzles import shipped

    solver = _solver(body, account)
    try:
        entry = shipped().get(puzzle_id)
    except MeioError:
        raise Refusal(404, "no_puzzle", "no such puzzle") from None
    try:
        action = entry.move(body.action)
    except (MeioError, ValueError):
        raise Refusal(400, "bad_move", "that is not a move") from None
    legal = await asyncio.to_thread(lambda: list(entry.view().legal_actions()))
    if action not in legal:
        raise Refusal(400, "illegal_move", "that move is not legal here")
    solved = entry.solves(action)
    progress, rating, rated = await asyncio.to_thread(
        _reviews(request, hub).store.attempt, solver, entry.id, solved)
    return AttemptResult(solved=solved, rated=rated, answer=entry.answer, theme=entry.theme,
                         options=[[a, v] for a, v in entry.options
                                  if not entry.choices or a in entry.choices],
                         progress=_progress_json(progress), puzzle_rating=round(rating.mu, 1))
