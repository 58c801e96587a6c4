"""The review as ``meio review`` prints it, in the command's language."""

from __future__ import annotations

from collections.abc import Iterator

from meio.engine.record import Record
from meio.i18n import _, decimal
from meio.review.match import Review


def flag_name(flag: str) -> str:
    return {"blunder": _("blunder"), "mistake": _("mistake"),
            "inaccuracy": _("inaccuracy")}[flag]


def review_lines(review: Review, record: Record) -> Iterator[str]:
    """A readable review: each seat's accuracy and flags, then every flagged decision."""
    yield _("Review ({depth}): decisions judged from each player's own view").format(
        depth=_("quick") if review.depth == "quick" else _("deep"))
    for seat in range(review.players):
        s = review.summary(seat)
        if s.accuracy is None:
            continue
        flags = ", ".join(f"{n} {flag_name(k)}" for k, n in s.flags.items() if n) or _("none")
        yield _("seat {seat}: accuracy {accuracy}%, flags: {flags}").format(
            seat=seat, accuracy=decimal(s.accuracy, 1), flags=flags)
    for d in review.decisions:
        j = d.judgement
        if j.flag is None:
            continue
        where = (_("round {round}, split") if d.trick == 0
                 else _("round {round}, trick {trick}")).format(round=d.round + 1, trick=d.trick)
        yield _("{where} (seat {seat}): {flag}: {action} lost {loss} ± {margin} points "
                "a round; better: {best} ({worlds} worlds)").format(
            where=where, seat=j.seat, flag=flag_name(j.flag), action=j.action,
            loss=decimal(j.loss, 2), margin=decimal(j.margin, 2), best=j.best,
            worlds=j.worlds)
