"""The shipped rulesets: the two editions (``meio``, the box edition; ``classic``,
played with an ordinary deck) and ``mini``, a MEIO small enough to solve exactly
(docs/rl.md). A standard game is its edition's preset with the table's options
(:func:`standard`); a designer's file may start from a preset (``preset = "meio"``)
and change what it names (:mod:`meio.engine.ruleset_file`).

>>> v = preset("meio")
>>> v.hand, v.first_half, v.pack, len(v.specials), v.deck_for(4).specials
(13, 7, 6, 5, 4)
>>> is_standard(standard("classic", TableOptions(wild_lead="next")))
True
"""

from __future__ import annotations

import dataclasses
import functools

from meio.engine import cards as C
from meio.engine.errors import ConfigError
from meio.engine.options import Edition, TableOptions
from meio.engine.ruleset import Deck, MatchFormat, SpecialCard, Variant

#: the five special cards of the box edition, as a ruleset file's
#: ``[[special]] preset = CODE`` takes them
SPECIALS: dict[str, SpecialCard] = {
    "-1": SpecialCard("-1", (-2, 30), -1, True, "none", "-1/A+"),
    "A+": SpecialCard("A+", (30, -2), -1, True, "none", "A+/-1"),
    "-2H": SpecialCard("-2H", (-4, -4), C.HEARTS, True, "none", "-2 hearts"),
    "+.5": SpecialCard("+.5", (None, None), -1, True, "winner_chooses", "+0.5"),
    "Q+": SpecialCard("Q+", (25, 25), -1, True, "other_half", "Q+"),
}


def _ranks(letters: str) -> tuple[int, ...]:
    return tuple(sorted(C.RANKS.index(r) for r in letters))


_TOTALS = MatchFormat("totals", 3, 2, True)
_TO_TWO = MatchFormat("victories", 3, 2, True)

_RULESETS: dict[str, Variant] = {
    "meio": Variant(
        "meio", "meio", 13, 7, C.HEARTS,
        ((2, Deck(_ranks("9TJQKA"), 2)), (3, Deck(_ranks("6789TJQKA"), 3)),
         (4, Deck(_ranks("3456789TJQKA"), 4)), (5, Deck(_ranks("0123456789TJQKA"), 5))),
        True, tuple(SPECIALS.values()), "difference", 0,
        (("2", _TO_TWO), ("default", _TOTALS), ("partnership", _TO_TWO)),
        "most_points", TableOptions(),
    ),
    "classic": Variant(
        "classic", "classic", 13, 7, C.HEARTS,
        ((2, Deck(_ranks("A234567"), 0)), (3, Deck(_ranks("A23456789T"), 0)),
         (4, Deck(_ranks("A23456789TJQK"), 0))),
        True, (), "difference", 0,
        (("default", _TOTALS), ("partnership", _TO_TWO)),
        "most_points", TableOptions(),
    ),
    # 2 players, hands of 3 split 2/1 (so H - V still sums to an odd number and a
    # round cannot tie), the four Aces, -2H (a second trump, so hearts must be
    # followed) and Q+; one round a match
    "mini": Variant(
        "mini", "meio", 3, 2, C.HEARTS, ((2, Deck(_ranks("A"), 2)),),
        False, (SPECIALS["-2H"], SPECIALS["Q+"]), "difference", 0,
        (("default", MatchFormat("victories", 3, 1, True)),),
        "most_points", TableOptions(),
    ),
}

PRESETS: tuple[str, ...] = tuple(_RULESETS)


def preset(name: str) -> Variant:
    """The ruleset of a standard edition (``meio`` or ``classic``), or of a shipped
    ruleset (``mini``); :class:`ConfigError` for another name."""
    try:
        return _RULESETS[name]
    except KeyError:
        raise ConfigError(f"unknown preset {name!r} (use {', '.join(PRESETS)})",
                          field="variant") from None


@functools.lru_cache(maxsize=64)
def standard(edition: Edition, options: TableOptions) -> Variant:
    """The ruleset of a standard game: the edition's preset with the table's options."""
    base = preset(edition)
    return base if options == base.options else dataclasses.replace(base, options=options)


@functools.lru_cache(maxsize=256)
def is_standard(variant: Variant) -> bool:
    """Whether ``variant`` is its edition's preset but for its name and table options
    (so what holds of the edition holds of it)."""
    base = preset(variant.edition)
    return dataclasses.replace(variant, name=base.name, options=base.options) == base
