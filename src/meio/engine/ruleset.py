"""A ruleset: the one description of the game that every layer reads.

A :class:`Variant` (a ruleset; the name designers know from their TOML files) fixes
the hand and the two pack sizes, the deck of each table size, the trump suit, the
special cards (described by their attributes, :class:`SpecialCard`), the scoring of
a round, the match format, who leads the next round and the table options. The two
editions and their table options are presets of it (:mod:`meio.engine.presets`);
a designer's file is read and checked by :mod:`meio.engine.ruleset_file`.

:class:`CardRules` is a ruleset's card facts as tables, one entry per card id: what
legality, the trick and pile rules (:mod:`meio.engine.tricks`) and the compiled core
read. Card ids stay those of :mod:`meio.engine.cards`: a ruleset has at most five
special cards, each taking one of the special ids 60..64 with its own attributes,
so action numbers and bitmasks are the same for every ruleset.

>>> from meio.engine.presets import preset
>>> r = preset("meio").card_rules
>>> r.suit_of[62], r.trump, r.pile[64], r.hand, r.pack
(1, 1, 2, 13, 6)
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Literal

from meio.engine import cards as C
from meio.engine.errors import ConfigError
from meio.engine.options import Edition, TableOptions
from meio.engine.tricks import RELATIVE

ScoringForm = Literal["difference", "balance_bonus", "squared"]
LeaderRule = Literal["most_points", "last_trick", "rotate"]
PileEffect = Literal["none", "winner_chooses", "other_half"]
MatchForm = Literal["totals", "victories"]

#: each name's index is its number in the plain-int rules (:mod:`meio.engine.scoring`'s
#: ``DIFFERENCE``..., ``MOST_POINTS``...; :mod:`meio.engine.tricks`' ``OWN_HALF``...)
SCORING_FORMS: tuple[str, ...] = ("difference", "balance_bonus", "squared")
LEADER_RULES: tuple[str, ...] = ("most_points", "last_trick", "rotate")
PILE_EFFECTS: tuple[str, ...] = ("none", "winner_chooses", "other_half")
MATCH_FORMS: tuple[str, ...] = ("totals", "victories")
#: the special ids a wild may take: a wild lead declares a suit, and only these four
#: ids have declare actions (:mod:`meio.engine.actions`)
WILD_CODES = ("-1", "A+", "+.5", "Q+")
SPECIAL_CODES = ("-1", "A+", "-2H", "+.5", "Q+")
ABOVE = "above"  #: a special's value: 0.5 above the card played just before it


@dataclass(frozen=True, slots=True)
class SpecialCard:
    """A special card by its attributes.

    ``values`` are its doubled values in half 1 and half 2 (``None``: 0.5 above the
    card played just before it in the trick, 0.5 when it leads); ``suit`` a fixed
    suit (0..3) or -1 for a wild (it follows any suit; led, it declares one under
    ``wild_lead: declare``); ``follows``, for a suited card, whether it obeys the
    follow rule as a card of its suit (``-2H``) or may be played on any trick; ``pile``
    where a trick it wins goes: its half (``none``), the winner's choice, or the other
    half."""

    code: str
    values: tuple[int | None, int | None]
    suit: int
    follows: bool
    pile: str
    name: str = ""

    @property
    def card(self) -> int:
        """The card id the special occupies."""
        return C.parse_card(self.code)


@dataclass(frozen=True, slots=True)
class Deck:
    """The deck of one table size: the ranks of each suit (rank indices, ``A`` = 14)
    and how many of the ruleset's special cards are drawn into it."""

    ranks: tuple[int, ...]
    specials: int


@dataclass(frozen=True, slots=True)
class MatchFormat:
    """How a match ends: ``totals`` after ``rounds`` rounds, lowest total wins (a tie
    shared when ``shared``, else more rounds until it breaks); or ``victories``: the
    first seat (or team) to ``to_win`` round victories wins."""

    form: str
    rounds: int = 3
    to_win: int = 2
    shared: bool = True


@dataclass(frozen=True, slots=True)
class Variant:
    """A whole ruleset (see the module docstring): a preset
    (:func:`meio.engine.presets.preset`) or a designer's file
    (:func:`meio.engine.ruleset_file.load_variant`)."""

    name: str
    edition: Edition
    hand: int
    first_half: int
    trump: int
    decks: tuple[tuple[int, Deck], ...]
    partnership: bool
    specials: tuple[SpecialCard, ...]
    scoring: str
    bonus: int
    formats: tuple[tuple[str, MatchFormat], ...]
    leader: str
    options: TableOptions

    @property
    def pack(self) -> int:
        """Cards in the second-half pack."""
        return self.hand - self.first_half

    @property
    def players(self) -> tuple[int, ...]:
        """The table sizes the ruleset has a deck for."""
        return tuple(n for n, _ in self.decks)

    def deck_for(self, players: int) -> Deck:
        for n, deck in self.decks:
            if n == players:
                return deck
        raise ConfigError(
            f"the variant {self.name!r} has no deck for {players} players "
            f"(it has decks for {', '.join(str(n) for n in self.players)})",
            field="players",
        )

    def format_for(self, players: int, partnership: bool) -> MatchFormat:
        """The match format of a table: its own entry, else ``default``."""
        table = dict(self.formats)
        key = "partnership" if partnership else str(players)
        return table.get(key, table["default"])

    @property
    def special_pool(self) -> tuple[int, ...]:
        """The ids of the ruleset's special cards, lowest first."""
        return tuple(sorted(s.card for s in self.specials))

    @property
    def scoring_form(self) -> int:
        """The scoring form as :func:`meio.engine.scoring.balance` takes it."""
        return SCORING_FORMS.index(self.scoring)

    @property
    def leader_rule(self) -> int:
        """The leader rule as :func:`meio.engine.scoring.leader_seats` takes it."""
        return LEADER_RULES.index(self.leader)

    @property
    def card_rules(self) -> CardRules:
        """The ruleset's card tables (:func:`card_rules`, built once per ruleset)."""
        return card_rules(self)


@dataclass(frozen=True, slots=True)
class CardRules:
    """A ruleset's card facts as the engine reads them, one entry per card id.

    ``suit_of``: a card's suit, -1 for a wild; ``wild``: the wilds (led, they declare
    under ``wild_lead: declare``); ``free``: the cards that may be played on any trick
    (the wilds and the suited specials that do not follow); ``suit_masks``: per suit,
    the cards whose holder must follow that suit; ``values``: doubled values in each
    half (0 for a relative card); ``relative``: per half, the cards worth 0.5 above
    the card before them; ``pile``: each card's pile effect (0 none, 1 the winner
    chooses, 2 the other half: :func:`meio.engine.tricks.pile_for`); ``trump``: the
    trump suit or -1; ``trick_values``: per half, ``values`` with
    :data:`~meio.engine.tricks.RELATIVE` for the relative cards (what
    :func:`meio.engine.tricks.winning_index` and the compiled core read)."""

    suit_of: tuple[int, ...]
    wild: int
    free: int
    suit_masks: tuple[int, ...]
    values: tuple[tuple[int, ...], tuple[int, ...]]
    relative: tuple[int, int]
    pile: tuple[int, ...]
    trump: int
    hand: int
    first_half: int
    pack: int
    trick_values: tuple[tuple[int, ...], tuple[int, ...]]


@functools.lru_cache(maxsize=256)
def card_rules(variant: Variant) -> CardRules:
    """The :class:`CardRules` of a ruleset (built once per ruleset)."""
    n = C.NUM_CARDS
    suit_of = [c // 15 if c < 60 else -1 for c in range(n)]
    ace_low = variant.edition == "classic"
    values: list[list[int]] = [[0] * n, [0] * n]
    for c in range(60):
        rank = c % 15
        for h in (0, 1):
            values[h][c] = 2 if ace_low and rank == 14 else 2 * rank
    wild = free = 0
    relative = [0, 0]
    pile = [0] * n
    masks = [sum(1 << (s * 15 + r) for r in range(15)) for s in range(4)]
    for s in variant.specials:
        card = s.card
        suit_of[card] = s.suit
        if s.suit < 0:
            wild |= 1 << card
            free |= 1 << card
        elif s.follows:
            masks[s.suit] |= 1 << card
        else:
            free |= 1 << card
        for h in (0, 1):
            v = s.values[h]
            if v is None:
                relative[h] |= 1 << card
            else:
                values[h][card] = v
        pile[card] = PILE_EFFECTS.index(s.pile)
    trick = [tuple(RELATIVE if relative[h] >> c & 1 else values[h][c] for c in range(n))
             for h in (0, 1)]
    return CardRules(
        tuple(suit_of), wild, free, tuple(masks), (tuple(values[0]), tuple(values[1])),
        (relative[0], relative[1]), tuple(pile), variant.trump, variant.hand,
        variant.first_half, variant.pack, (trick[0], trick[1]),
    )
