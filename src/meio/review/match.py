"""The review of a finished match: every decision judged from its seat's view.

:func:`review_match` replays a finished record and judges each split, card, declared
suit and pile choice with :func:`~meio.review.judge.judge`, from the view the seat had
when it acted: the review shows no card the record does not show once the match is
over, and a match still in play cannot be reviewed at all.

A player's **accuracy** for the match is the mean, over their decisions that were not
forced, of ``100·exp(-cleared)``, where ``cleared`` is the loss the uncertainty cannot
explain away (``loss - margin``, at least 0) in points a round: 100 for a match with no
measurable loss, 61 for a decision that cleared half a point, 37 for one that cleared a
whole point. The JSON form is ``meio-review/1``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from meio.engine import State
from meio.engine.record import Record
from meio.review.judge import DEEP, THRESHOLDS, Budget, Judgement, ReviewError, judge

FORMAT = "meio-review/1"


@dataclass(frozen=True, slots=True)
class Decision:
    """One judged decision and where it stands in the match."""

    ply: int  #: its index in the match's ``(seat, action)`` history, from 0
    round: int  #: the round, from 0
    trick: int  #: the trick number (1–13; the split is trick 0)
    total_before: int  #: the seat's match total (its team's in partnership) before the round
    judgement: Judgement

    def to_json(self) -> dict[str, object]:
        j = self.judgement
        data: dict[str, object] = {"ply": self.ply, "round": self.round, "trick": self.trick}
        data.update(j.to_json())
        data["expected_total"] = None if j.forced else round(self.total_before + j.expected, 4)
        return data


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """One seat's match: its accuracy and its flags."""

    seat: int
    accuracy: float | None  #: None when every decision was forced
    decisions: int  #: decisions judged (forced ones left out)
    flags: dict[str, int]
    lost: float  #: points a match the flagged and unflagged decisions cleared in all

    def to_json(self) -> dict[str, object]:
        return {"seat": self.seat,
                "accuracy": None if self.accuracy is None else round(self.accuracy, 1),
                "decisions": self.decisions, "flags": self.flags, "lost": round(self.lost, 3)}


@dataclass(frozen=True, slots=True)
class Review:
    """A reviewed match: its decisions in play order and each seat's summary."""

    depth: str  #: the budget's name: ``quick``, ``deep`` or ``high``
    seed: int
    players: int
    decisions: tuple[Decision, ...]

    def summary(self, seat: int) -> SeatSummary:
        mine = [d.judgement for d in self.decisions
                if d.judgement.seat == seat and not d.judgement.forced]
        flags = {name: sum(1 for j in mine if j.flag == name) for name, _ in THRESHOLDS}
        accuracy = sum(j.accuracy for j in mine) / len(mine) if mine else None
        return SeatSummary(seat, accuracy, len(mine), flags, sum(j.cleared for j in mine))

    def to_json(self) -> dict[str, object]:
        from meio import __version__

        return {
            "format": FORMAT, "depth": self.depth, "seed": self.seed,
            "version": __version__,
            "thresholds": {name: value for name, value in THRESHOLDS},
            "seats": [self.summary(s).to_json() for s in range(self.players)],
            "decisions": [d.to_json() for d in self.decisions],
        }


def finished_state(record: Record) -> State:
    """The record replayed (every rule checked); a match still in play is refused."""
    state = record.to_state()
    if not state.is_over:
        raise ReviewError("only a finished match can be reviewed: this one is still in play")
    return state


def review_match(
    record: Record,
    *,
    budget: Budget = DEEP,
    depth: str = "deep",
    seed: int = 0,
    seats: Sequence[int] | None = None,
    rounds: Sequence[int] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Judge every decision of ``seats`` (all by default) in ``rounds`` (from 0; all by
    default) of a finished match.

    ``progress(done, total)`` is called after each decision. The review depends only
    on the record, the budget and ``seed``.
    """
    final = finished_state(record)
    config = final.config
    players = config.players
    wanted = set(range(players) if seats is None else seats)
    if not wanted <= set(range(players)):
        raise ReviewError(f"a {players}-player match has seats 0 to {players - 1}")
    chosen = set(range(len(record.rounds)) if rounds is None else rounds)
    deals = [(tuple(r.hands), r.aside, r.leader) for r in record.rounds]
    history = list(final.history)
    state = State.new(config, deals=deals)
    todo = []
    for seat, action in history:
        todo.append(seat in wanted and state.round_index in chosen)
        state.apply(action, seat)
    total = sum(todo)
    state = State.new(config, deals=deals)
    decisions: list[Decision] = []
    for ply, (seat, action) in enumerate(history):
        if todo[ply]:
            view = state.view(seat)
            team = (sum(r.team_scores[seat % 2] for r in state.rounds if r.team_scores)
                    if config.partnership else state.totals[seat])
            verdict = judge(view, action, budget, seed)
            trick = 0 if view.phase.name == "SPLIT" else view.trick_number
            decisions.append(Decision(ply, view.round_index, trick, team, verdict))
            if progress is not None:
                progress(len(decisions), total)
        state.apply(action, seat)
    return Review(depth, seed, players, tuple(decisions))


def joined(parts: Sequence[Review]) -> Review:
    """One review of the decisions of ``parts`` (say, one a round), in play order."""
    if not parts:
        raise ReviewError("there is no review to join")
    first = parts[0]
    decisions = sorted((d for p in parts for d in p.decisions), key=lambda d: d.ply)
    return Review(first.depth, first.seed, first.players, tuple(decisions))
