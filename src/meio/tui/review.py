"""The review beside ``meio view``: how each decision fared, judged from its seat's view.

The panel shows, for the action that led to the position on show, the expected round
score of that action and of the best one found, the points it lost with their margin,
and its flag; below, each seat's accuracy and the flagged decisions of the match. The
review (:mod:`meio.review`) is computed in a thread, the quick pass first, then the deep
one, and kept beside the record (``NAME.review.json``) so the next viewing pays nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from meio.engine.record import Record
from meio.i18n import _, decimal


def review_path(record: Path) -> Path:
    """Where the review of ``record`` is kept."""
    return record.with_name(record.name.removesuffix(".json") + ".review.json")


def read_review(record: Path) -> dict[str, Any] | None:
    """The kept deep review of ``record``, or None when there is none (or it is unreadable)."""
    try:
        data = json.loads(review_path(record).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if isinstance(data, dict) and data.get("format") == "meio-review/1" and \
            data.get("depth") == "deep":
        return data
    return None


class Stopped(Exception):
    """The review was stopped before it was done (the viewer closed)."""


def compute_review(record: Record, depth: str,
                   stop: Callable[[], bool] = lambda: False) -> dict[str, Any]:
    """The review of a finished match at ``depth`` (``quick`` or ``deep``), as JSON;
    raises :class:`Stopped` as soon as ``stop()`` says so (checked after each decision)."""
    from meio.review import BUDGETS, review_match

    def progress(_done: int, _total: int) -> None:
        if stop():
            raise Stopped

    return review_match(record, budget=BUDGETS[depth], depth=depth,
                        progress=progress).to_json()


def flag_text(flag: str | None) -> str:
    return {"blunder": _("blunder"), "mistake": _("mistake"),
            "inaccuracy": _("inaccuracy"), None: ""}[flag]


class ReviewPanel(Widget):
    """The review of the decision that led to the position on show (``step``)."""

    DEFAULT_CSS = """
    ReviewPanel { width: 42; height: 100%; border-left: solid $primary; padding-left: 1; }
    """

    step: reactive[int] = reactive(0)
    review: reactive[dict[str, Any] | None] = reactive(None)
    status: reactive[str] = reactive("")

    def render(self) -> Text:
        out = Text()
        out.append(_("Review") + "\n", style="bold")
        if self.review is None:
            out.append(self.status or _("press v to review the match"))
            return out
        data = self.review
        depth = _("quick") if data["depth"] == "quick" else _("deep")
        out.append(_("{depth} pass; {status}").format(depth=depth, status=self.status) + "\n",
                   style="dim")
        decision = next((d for d in data["decisions"] if d["ply"] == self.step - 1), None)
        if decision is not None:
            self._decision(out, decision)
        out.append("\n" + _("Accuracy") + "\n", style="bold")
        for s in data["seats"]:
            if s["accuracy"] is not None:
                flags = sum(s["flags"].values())
                out.append(_("seat {seat}: {accuracy}% ({flags} flagged)").format(
                    seat=s["seat"], accuracy=decimal(s["accuracy"], 1), flags=flags) + "\n")
        flagged = [d for d in data["decisions"] if d["flag"]]
        if flagged:
            out.append("\n" + _("Flagged (step, seat, move)") + "\n", style="bold")
            for d in flagged[:12]:
                out.append(f"{d['ply'] + 1:3d} {d['seat']} {d['action']} "
                           f"{flag_text(d['flag'])}\n", style="red" if
                           d["flag"] == "blunder" else "yellow")
        return out

    @staticmethod
    def _decision(out: Text, d: dict[str, Any]) -> None:
        out.append(_("seat {seat} played {action}").format(seat=d["seat"], action=d["action"])
                   + "\n")
        if d["forced"]:
            out.append(_("forced: the only legal move") + "\n", style="dim")
            return
        out.append(_("expected {value}, best {best} {best_value}").format(
            value=decimal(d["value"], 2), best=d["best"],
            best_value=decimal(d["best_value"], 2)) + "\n")
        out.append(_("lost {loss} ± {margin} ({worlds} worlds)").format(
            loss=decimal(d["loss"], 2), margin=decimal(d["margin"], 2),
            worlds=d["worlds"]) + "\n")
        if d["flag"]:
            out.append(flag_text(d["flag"]) + "\n",
                       style="bold red" if d["flag"] == "blunder" else "bold yellow")
