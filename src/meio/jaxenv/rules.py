"""A table's rules as the fixed arrays the JAX environment reads.

:class:`TableRules` is built once, in plain Python, from a
:class:`~meio.engine.MatchConfig`: the card facts come from the ruleset's
:class:`~meio.engine.ruleset.CardRules` (a standard edition reads its preset's, so
``meio`` and ``classic`` are data like any variant), the match format, scoring and
next-leader rule from the config. Whatever that data describes is played; the few
rulesets the fixed-shape environment cannot hold are refused with
:class:`UnsupportedRules`, naming why.

>>> from meio.engine import MatchConfig
>>> r = TableRules.of(MatchConfig(players=4, partnership=True))
>>> r.players, r.hand, r.pack, r.victories, r.to_win, len(r.special_pool)
(4, 13, 6, True, 2, 5)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from meio.engine import cards as C
from meio.engine.config import MatchConfig
from meio.engine.errors import ConfigError
from meio.engine.presets import preset
from meio.engine.ruleset import SCORING_FORMS, card_rules
from meio.engine.scoring import VICTORY_ROUND_LIMIT

#: the largest hand the compact action space holds: a split is one pick of the i-th
#: dealt card per step, ``i`` < 13
MAX_HAND = 13
#: seat slots of an observation (tables of 2 to 5 seats share one layout)
MAX_SEATS = 5
LEADER_RULES = ("most_points", "last_trick", "rotate")
#: a match on victories whose rounds never run out (the standard editions: a round
#: cannot tie there, so some side reaches its victories)
NO_LIMIT = 1 << 20

IntArray = npt.NDArray[np.int32]
BoolArray = npt.NDArray[np.bool_]


class UnsupportedRules(ConfigError):
    """A ruleset the JAX environment does not play; the message says which part."""


@dataclass(frozen=True, eq=False)
class TableRules:
    """Everything fixed for a batch of matches, as numpy arrays and ints.

    Card facts, one entry per card id (0..64): ``suit_of`` (-1: wild), ``wild`` (led,
    declares a suit under ``wild_lead: declare``), ``free`` (may be played on any
    trick), ``suit_masks`` (per suit, the cards whose holder must follow it),
    ``values`` (doubled, per half), ``relative`` (per half: worth 0.5 above the card
    before it), ``pile`` (0: its half, 1: the winner chooses, 2: the other half).
    ``base_deck``: the deck's ordinary cards; its specials are ``fixed_specials`` or,
    when that is empty, ``special_count`` drawn per match from ``special_pool``.
    """

    players: int
    partnership: bool
    declares: bool
    reveal_specials: bool
    hand: int
    first_half: int
    pack: int
    trump: int
    suit_of: IntArray
    wild: BoolArray
    free: BoolArray
    suit_masks: BoolArray
    values: IntArray
    relative: BoolArray
    pile: IntArray
    base_deck: BoolArray
    special_pool: IntArray
    special_count: int
    fixed_specials: IntArray
    scoring: int  #: index in :data:`meio.engine.ruleset.SCORING_FORMS`
    bonus: int
    victories: bool
    rounds: int
    to_win: int
    round_limit: int
    leader: int  #: index in :data:`LEADER_RULES`

    @classmethod
    def of(cls, config: MatchConfig, *, draw_specials: bool = True) -> TableRules:
        """The rules of ``config``'s table. ``draw_specials`` (default) draws each
        match's special cards from the ruleset's pool, as RULES.md §2 says; False
        plays every match with ``config.specials``.

        Raises :class:`UnsupportedRules` for a ruleset the environment cannot hold:
        a hand of more than 13 cards (the compact action space picks the i-th of at
        most 13 dealt cards), and a match on totals whose tie for the lowest is not
        shared (it plays on for an unbounded number of rounds)."""
        if not isinstance(config, MatchConfig):
            raise UnsupportedRules(f"a table is given as a MatchConfig, not {config!r}")
        if not config.specials_known:
            raise UnsupportedRules(
                "this config hides its special cards (a public view's config): the JAX "
                "environment deals matches, so it needs the full config"
            )
        variant = config.variant
        data = variant if variant is not None else preset(config.edition)
        name = data.name
        if config.hand_size > MAX_HAND:
            raise UnsupportedRules(
                f"the ruleset {name!r} deals hands of {config.hand_size} cards; the JAX "
                f"environment plays hands of at most {MAX_HAND} (its split is a pick of the "
                f"i-th dealt card, i < {MAX_HAND})"
            )
        cr = card_rules(data)
        n = config.players
        if variant is not None:
            fmt = variant.format_for(n, config.partnership)
            if fmt.form == "totals" and not fmt.shared:
                raise UnsupportedRules(
                    f"the ruleset {name!r} plays on after {fmt.rounds} rounds until one seat "
                    "alone has the lowest total; the JAX environment plays matches of a "
                    "bounded length (use shared = true)"
                )
            scoring, bonus, leader = variant.scoring, variant.bonus, variant.leader
            pool = variant.special_pool
            limit = VICTORY_ROUND_LIMIT * (config.victories_to_win or 1)
        else:
            scoring, bonus, leader = "difference", 0, "most_points"
            pool = C.SPECIALS if config.edition == "meio" else ()
            limit = NO_LIMIT
        specials_in = config.deck & sum(1 << s for s in C.SPECIALS)
        base = config.deck & ~specials_in
        return cls(
            players=n,
            partnership=config.partnership,
            declares=config.options.declares,
            reveal_specials=config.options.reveal_specials,
            hand=config.hand_size,
            first_half=config.first_half_size,
            pack=config.pack_size,
            trump=cr.trump,
            suit_of=np.array(cr.suit_of, np.int32),
            wild=_bits(cr.wild),
            free=_bits(cr.free),
            suit_masks=np.stack([_bits(m) for m in cr.suit_masks]),
            values=np.array(cr.values, np.int32),
            relative=np.stack([_bits(m) for m in cr.relative]),
            pile=np.array(cr.pile, np.int32),
            base_deck=_bits(base),
            special_pool=np.array(pool, np.int32),
            special_count=config.special_count,
            fixed_specials=np.array(() if draw_specials else config.special_cards, np.int32),
            scoring=SCORING_FORMS.index(scoring),
            bonus=bonus,
            victories=config.victories_to_win is not None,
            rounds=config.rounds or 0,
            to_win=config.victories_to_win or 0,
            round_limit=limit,
            leader=LEADER_RULES.index(leader),
        )

    @property
    def draws_specials(self) -> bool:
        """Whether each match draws its special cards (else ``fixed_specials``)."""
        return self.special_count > 0 and self.fixed_specials.size == 0


def _bits(mask: int) -> BoolArray:
    return np.array([bool(mask >> c & 1) for c in range(C.NUM_CARDS)], np.bool_)
