"""Why an action is not allowed: a stable code, JSON-friendly parameters, an English sentence.

Each reason the rules give for refusing an action has a code (``must_follow``) and
an English template with ``{name}`` placeholders (``{card} does not follow the led
suit {suit}``). The engine builds a :class:`Reason` from the code and its
parameters and the English sentence from the template, in one place, so the two
never drift; clients that speak other languages translate the template (the
message id of their catalogues) and fill in the same parameters, showing cards
their own way.

Parameter kinds, by name: ``card`` a card code (``8D``), ``cards`` a list of card
codes, ``suit`` a suit letter (``S H D C``), ``seat``/``mover``/``n`` whole
numbers, ``seats`` a list of seat numbers, ``action`` an action as written.

>>> r = reason("must_follow", card="8D", suit="H")
>>> r.text
'8D does not follow the led suit H'
>>> r.code, dict(r.params)
('must_follow', {'card': '8D', 'suit': 'H'})
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from meio.engine.errors import IllegalActionError

#: a parameter's value: text, a whole number, or a list of either
Param = str | int | list[str] | list[int]

#: every reason code and its English template (the message id translators work from)
REASONS: dict[str, str] = {
    "not_an_action": "{action} is not an action",
    "match_over": "the match is over",
    "nothing_to_undo": "there is nothing to undo",
    "split_over": "the split is over: packs are chosen before the first trick",
    "no_seat": "there is no seat {seat}",
    "pack_chosen": "seat {seat} has already chosen its pack",
    "pack_not_in_hand": "the pack holds {cards}, not in seat {seat}'s hand",
    "pack_size": "a pack is exactly 6 cards, not {n}",
    "variant_pack_size": "a pack of this variant is exactly {size} cards, not {n}",
    "waiting_for_packs": "every player must choose a pack first (waiting for seat {seats})",
    "pile_not_now": (
        "a pile is chosen only by the winner of a trick taken by a card that lets its "
        "winner choose (+.5 in the editions)"
    ),
    "pile_other_seat": "only seat {seat}, who won the trick with {card}, chooses its pile",
    "pile_first": "seat {seat} must first choose the pile (pile=1 or pile=2)",
    "not_your_turn": "it is seat {mover}'s turn, not seat {seat}'s",
    "not_in_hand": "{card} is not in seat {seat}'s hand",
    "in_pack": "{card} is not in seat {seat}'s hand (it is in the second-half pack)",
    "no_declare_table": (
        "no suit is declared at this table (wild_lead: next): play {card} without '='"
    ),
    "declare_only_leading": (
        "a suit is declared only when leading a wild card; play {card} without '='"
    ),
    "wild_needs_suit": "leading the wild {card} needs a declared suit ({card}=S, =H, =D or =C)",
    "must_follow": "{card} does not follow the led suit {suit}",
}

#: how a list parameter is joined in the English sentence
_JOIN = {"cards": " ", "seats": ", "}


def placeholders(template: str) -> set[str]:
    """The ``{name}`` placeholders of a template.

    >>> sorted(placeholders(REASONS["not_your_turn"]))
    ['mover', 'seat']
    """
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def english_param(name: str, value: Param) -> str:
    """A parameter as the English sentence writes it (lists joined)."""
    if isinstance(value, list):
        return _JOIN.get(name, ", ").join(str(v) for v in value)
    return str(value)


@dataclass(frozen=True, slots=True)
class Reason:
    """Why an action is refused: ``code`` (a key of :data:`REASONS`) and its ``params``."""

    code: str
    params: Mapping[str, Param] = field(default_factory=dict)

    @property
    def text(self) -> str:
        """The English sentence (what :attr:`IllegalActionError.reason` holds)."""
        return fill(REASONS[self.code], self.params, english_param)


def fill(template: str, params: Mapping[str, Param], show: Callable[[str, Param], str]) -> str:
    """``template`` with each placeholder replaced by ``show(name, value)``."""
    return template.format_map({k: show(k, v) for k, v in params.items()})


def reason(code: str, **params: Param) -> Reason:
    """The :class:`Reason` ``code`` with ``params``; checks both against :data:`REASONS`."""
    template = REASONS[code]
    if set(params) != placeholders(template):
        raise KeyError(f"reason {code!r} takes {sorted(placeholders(template))}")
    return Reason(code, params)


def illegal(seat: int | None, action: object, why: Reason) -> IllegalActionError:
    """The :class:`IllegalActionError` for ``why``: its English sentence, code and params."""
    return IllegalActionError(seat, action, why.text, code=why.code, params=why.params)


__all__ = [
    "REASONS",
    "Param",
    "Reason",
    "english_param",
    "fill",
    "illegal",
    "placeholders",
    "reason",
]
