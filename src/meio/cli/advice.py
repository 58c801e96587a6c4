"""The split advisor's explanation, as ``meio advise`` prints it, in the command's language.

:mod:`meio.bots.advisor` explains its answer in English (``Advice.explanation``,
``Candidate.reason``, kept so in the JSON output); this module writes the same
sentences from the same figures with every phrase looked up in the catalogue, so
the English text is word for word the advisor's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meio.engine import cards as C
from meio.i18n import _, decimal

if TYPE_CHECKING:
    from meio.bots.advisor import Advice, Candidate


def special_notes(pack: int, hand: int) -> list[str]:
    """What the pack does with each special card of the hand."""
    notes: list[str] = []
    if hand >> C.MINUS_ONE & 1:
        notes.append(
            _("-1 is packed where it is worth 15, a sure winner")
            if pack >> C.MINUS_ONE & 1
            else _("-1 is kept where it is worth -1, a sure loser")
        )
    if hand >> C.A_PLUS & 1:
        notes.append(
            _("A+ is packed where it is worth -1, a sure loser")
            if pack >> C.A_PLUS & 1
            else _("A+ is kept where it is worth 15, a sure winner")
        )
    if hand >> C.Q_PLUS & 1:
        notes.append(
            _("Q+ plays in the second half and sends a trick it wins to the first")
            if pack >> C.Q_PLUS & 1
            else _("Q+ plays in the first half and sends a trick it wins to the second")
        )
    if hand >> C.PLUS_HALF & 1:
        notes.append(
            _("+.5 (in the second half) lets you pick the pile when it wins")
            if pack >> C.PLUS_HALF & 1
            else _("+.5 (in the first half) lets you pick the pile when it wins")
        )
    return notes


def reason(candidate: Candidate, hand: int) -> str:
    """Why ``candidate`` scores as it does: how its halves weigh, and its special cards."""
    first, second = candidate.first_half_tricks, candidate.second_half_tricks
    gap = first - second
    if abs(gap) < 0.35:
        balance = _("the halves balance (about {first} and {second} tricks)")
    elif gap > 0:
        balance = _("the first half is heavier ({first} tricks against {second})")
    else:
        balance = _("the second half is heavier ({second} tricks against {first})")
    notes = special_notes(candidate.pack, hand)
    text = balance.format(first=decimal(first, 1), second=decimal(second, 1))
    return text + ("; " + "; ".join(notes) if notes else "")


def explanation(advice: Advice, hand: int) -> str:
    """The advisor's explanation of ``advice`` for the 13-card ``hand``."""
    best, chosen = advice.best, advice.chosen
    lines = [
        _("Best pack found: {pack} (keep {keep} for the first half).").format(
            pack=C.format_cards(best.pack), keep=C.format_cards(hand & ~best.pack)
        ),
        _("Expected round score {mean} (95% CI {low} to {high}): {reason}.").format(
            mean=decimal(best.mean), low=decimal(best.low), high=decimal(best.high),
            reason=reason(best, hand),
        ),
    ]
    gap = best.first_half_tricks - best.second_half_tricks
    if abs(gap) < 0.35:
        lines.append(
            _(
                "It balances because each half holds about the same winning power, so the "
                "tricks taken early can be matched late, and the cards left over let you "
                "win or duck to close any gap."
            )
        )
    elif gap > 0:
        lines.append(
            _(
                "No pack balances exactly; this one leaves the first half slightly heavier, "
                "which ducking can absorb."
            )
        )
    else:
        lines.append(
            _(
                "No pack balances exactly; this one leaves the second half slightly heavier, "
                "which ducking can absorb."
            )
        )
    if chosen is not None and chosen.pack != best.pack:
        lines.append(
            _(
                "Your pack {pack} scores {mean} on average ({delta} against the "
                "best): {reason}."
            ).format(
                pack=C.format_cards(chosen.pack),
                mean=decimal(chosen.mean),
                delta=("+" if chosen.mean >= best.mean else "") + decimal(chosen.mean - best.mean),
                reason=reason(chosen, hand),
            )
        )
    elif chosen is not None:
        lines.append(_("Your pack is the best one found."))
    return " ".join(lines)
