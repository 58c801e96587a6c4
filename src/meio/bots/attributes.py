"""The attribute encoding: one seat's view of *any* ruleset as a flat ``float32`` vector.

Card ids are the fixed ``0..64`` of :mod:`meio.engine.cards` in every ruleset; a
variant redefines what a card id *is* (its suit, its values, whether it follows, where
a trick it wins goes) and may drop ranks. A network that reads only the card-id planes
of :mod:`meio.bots.observation` cannot tell a strong card from a weak one once the rules
move, so this encoding also says what each card is, in the ruleset's own terms
(:func:`card_attributes`), gives the ruleset's numbers (:func:`ruleset_numbers`), and
sums the attributes of the cards in each plane (the *pooled* block: a shared linear
encoder of each card, summed over a plane), so that "two trumps in hand, one of them
worth 14" reaches the network in the same inputs whatever the card ids are.

Everything is built from a :class:`meio.engine.View` (its public config and the seat's
own cards): no hidden card can leak (``tests/bots/test_attributes.py`` swaps the other
seats' hidden cards and finds the same vector). With ``reveal_specials`` off a seat does
not know which of the ruleset's specials are in the deck; those it has not seen get
the chance that each is in (the ``IN_DECK`` column).

**Card attributes**, shape ``(65, ATTRIBUTES)``, one row per card id (a card the deck
cannot hold has a row of zeros):

=========  ====  ==================================================================
column     size  what
=========  ====  ==================================================================
``SUIT``   4     its suit one-hot (``S H D C``; a fixed-suit special by its suit)
``SUITLESS`` 1   no suit of its own (a wild: it counts as the suit led)
``VALUE``  2     its value in half 1 and in half 2, / 15 (0 for a relative card)
``RELATIVE`` 2   per half: worth 0.5 above the card played just before it
``WILD``   1     a wild (led under ``wild_lead: declare`` it declares a suit)
``FREE``   1     may be played on any trick (the wilds, a special that does not follow)
``PILE``   2     a trick it wins: the winner chooses the pile; goes to the other half
``TRUMP``  1     of the trump suit
``IN_DECK`` 1    in this table's deck: 1 known, the chance for an unseen hidden special
``SPECIAL`` 1    one of the special ids 60..64
=========  ====  ==================================================================

**Ruleset numbers**, shape ``(NUMBERS,)`` (:func:`ruleset_numbers`): hand, first-half and
pack sizes / 15; the scoring form one-hot (difference, balance and bonus, squared);
the bonus / 3; the leader rule one-hot (most points, last trick, rotate); the table
size one-hot (2..5); partnership; the match form (1: victories); rounds / 3; victories
to win / 2; ties shared; ``wild_lead: next``; ``reveal_specials``; no trump suit;
specials in the deck / 5; deck size / 65; cards set aside / 15.

**The whole vector** (:func:`observe_any`, :data:`ANY_SIZE` = 1,941 entries):

==================  =====  ============================================================
offset              size   what
==================  =====  ============================================================
0                   716    the standard observation, unchanged (:func:`~meio.bots.
                           observation.observe`, :data:`~meio.bots.observation.OBS_SIZE`)
``ATTRS``           1,040  the card attributes of the table, flattened (card-major)
``NUMBERS``         25     the ruleset numbers
``POOLED``          10x16  per plane the sum of its cards' attribute rows, / 13; the
                           planes (:data:`POOL_PLANES`): own hand, own pack, the pack
                           received, the cards played this round by each relative seat
                           (5), the trick in progress, the unseen cards
==================  =====  ============================================================

Why this layout: the first 716 entries are the editions' observation, so a reader of
the standard tensors finds them where they were; the attribute table and the numbers
make the vector self-describing (an environment user gets the rules as data); the
pooled block is what lets a plain MLP generalise across rulesets, since without it the
network would have to learn the product "card id in plane" x "what that id is" from the
two blocks separately.

>>> from meio.engine import MatchConfig, State
>>> v = State.new(MatchConfig(players=4, seed=3)).view(2)
>>> x = observe_any(v)
>>> x.shape, x.dtype, ANY_SIZE
((1941,), dtype('float32'), 1941)
>>> hearts = sum(1 for c in C.iter_cards(v.hand) if v.config.rules.suit_of[c] == 1)
>>> int(round(float(x[POOLED + SUIT + 1] * 13))) == hearts  # the hand's hearts
True
"""

from __future__ import annotations

import functools

import numpy as np
import numpy.typing as npt

from meio.bots import observation as O
from meio.engine import View
from meio.engine import cards as C
from meio.engine.config import MatchConfig
from meio.engine.ruleset import (
    LEADER_RULES,
    SCORING_FORMS,
    CardRules,
    Variant,
)

F32 = npt.NDArray[np.float32]

#: the version id of this encoding (:mod:`meio.bots.versions`)
ENCODING = "meio-any-obs-v1"

# -- card attribute columns
SUIT = 0
SUITLESS = SUIT + 4
VALUE = SUITLESS + 1
RELATIVE = VALUE + 2
WILD = RELATIVE + 2
FREE = WILD + 1
PILE = FREE + 1
TRUMP = PILE + 2
IN_DECK = TRUMP + 1
SPECIAL = IN_DECK + 1
ATTRIBUTES = SPECIAL + 1

# -- ruleset number entries
N_HAND, N_FIRST, N_PACK = 0, 1, 2
N_SCORING = 3  # 3 one-hot
N_BONUS = N_SCORING + 3
N_LEADER = N_BONUS + 1  # 3 one-hot
N_PLAYERS = N_LEADER + 3  # 4 one-hot: 2..5
N_PARTNERSHIP = N_PLAYERS + 4
N_VICTORIES = N_PARTNERSHIP + 1
N_ROUNDS = N_VICTORIES + 1
N_TO_WIN = N_ROUNDS + 1
N_SHARED = N_TO_WIN + 1
N_WILD_NEXT = N_SHARED + 1
N_REVEAL = N_WILD_NEXT + 1
N_NO_TRUMP = N_REVEAL + 1
N_SPECIALS = N_NO_TRUMP + 1
N_DECK = N_SPECIALS + 1
N_ASIDE = N_DECK + 1
NUMBERS = N_ASIDE + 1

#: the planes whose cards the pooled block sums, in order
POOL_PLANES = ("hand", "pack", "received", "played0", "played1", "played2", "played3",
               "played4", "trick", "unseen")
POOL_HAND, POOL_PACK, POOL_RECEIVED, POOL_PLAYED = 0, 1, 2, 3
POOL_TRICK = POOL_PLAYED + O.MAX_SEATS
POOL_UNSEEN = POOL_TRICK + 1

# -- the whole vector
ATTRS = O.OBS_SIZE
NUMBERS_AT = ATTRS + C.NUM_CARDS * ATTRIBUTES
POOLED = NUMBERS_AT + NUMBERS
ANY_SIZE = POOLED + len(POOL_PLANES) * ATTRIBUTES
#: what the pooled sums are divided by
POOL_SCALE = 13.0
#: what values, hand sizes and set-aside counts are divided by
VALUE_SCALE = 15.0

_PLAIN = (1 << 60) - 1


def card_attributes(rules: CardRules, deck: int, maybe: dict[int, float] | None = None
                    ) -> F32:
    """The ``(65, ATTRIBUTES)`` attribute table of a ruleset's cards (the module
    docstring's columns). ``deck`` is the bitmask of the cards known to be in the deck;
    ``maybe`` gives the chance that each other card (a hidden special) is in it. A card
    in neither has a row of zeros.

    >>> from meio.engine.presets import preset
    >>> a = card_attributes(preset("meio").card_rules, C.parse_cards("-2H QH"))
    >>> [float(x) for x in (a[62, SUIT + 1], a[62, VALUE] * 15, a[62, TRUMP], a[27, VALUE] * 15)]
    [1.0, -2.0, 1.0, 12.0]
    """
    out = np.zeros((C.NUM_CARDS, ATTRIBUTES), dtype=np.float32)
    maybe = maybe or {}
    for card in range(C.NUM_CARDS):
        chance = 1.0 if deck >> card & 1 else maybe.get(card, 0.0)
        if chance <= 0.0:
            continue
        row = out[card]
        suit = rules.suit_of[card]
        if suit >= 0:
            row[SUIT + suit] = 1.0
            row[TRUMP] = 1.0 if suit == rules.trump else 0.0
        else:
            row[SUITLESS] = 1.0
        for h in (0, 1):
            if rules.relative[h] >> card & 1:
                row[RELATIVE + h] = 1.0
            else:
                row[VALUE + h] = rules.values[h][card] / 2 / VALUE_SCALE
        row[WILD] = float(rules.wild >> card & 1)
        row[FREE] = float(rules.free >> card & 1)
        effect = rules.pile[card]
        if effect:
            row[PILE + effect - 1] = 1.0
        row[IN_DECK] = chance
        row[SPECIAL] = 1.0 if card >= 60 else 0.0
    return out


def ruleset_numbers(variant: Variant, players: int, partnership: bool) -> F32:
    """The ``(NUMBERS,)`` numbers of a ruleset at a table (the module docstring's list).

    >>> from meio.engine.presets import preset
    >>> n = ruleset_numbers(preset("meio"), 4, False)
    >>> n.shape, [float(x) for x in (n[N_HAND] * 15, n[N_PLAYERS + 2], n[N_SPECIALS] * 5)]
    ((25,), [13.0, 1.0, 4.0])
    """
    out = np.zeros(NUMBERS, dtype=np.float32)
    deck = variant.deck_for(players)
    fmt = variant.format_for(players, partnership)
    out[N_HAND] = variant.hand / VALUE_SCALE
    out[N_FIRST] = variant.first_half / VALUE_SCALE
    out[N_PACK] = variant.pack / VALUE_SCALE
    out[N_SCORING + SCORING_FORMS.index(variant.scoring)] = 1.0
    out[N_BONUS] = variant.bonus / 3.0
    out[N_LEADER + LEADER_RULES.index(variant.leader)] = 1.0
    out[N_PLAYERS + players - 2] = 1.0
    out[N_PARTNERSHIP] = float(partnership)
    out[N_VICTORIES] = 1.0 if fmt.form == "victories" else 0.0
    out[N_ROUNDS] = fmt.rounds / 3.0
    out[N_TO_WIN] = fmt.to_win / 2.0
    out[N_SHARED] = float(fmt.shared)
    out[N_WILD_NEXT] = 0.0 if variant.options.declares else 1.0
    out[N_REVEAL] = float(variant.options.reveal_specials)
    out[N_NO_TRUMP] = 1.0 if variant.trump < 0 else 0.0
    out[N_SPECIALS] = deck.specials / 5.0
    size = 4 * len(deck.ranks) + deck.specials
    out[N_DECK] = size / C.NUM_CARDS
    out[N_ASIDE] = (size - players * variant.hand) / VALUE_SCALE
    return out


def table_numbers(config: MatchConfig) -> F32:
    """:func:`ruleset_numbers` of a table's ruleset, size and partnership."""
    return ruleset_numbers(config.ruleset, config.players, config.partnership)


def known_deck(view: View) -> tuple[int, dict[int, float]]:
    """The deck as ``view``'s seat knows it: the bitmask of the cards known to be in it
    (the ordinary cards and the specials it knows of) and, for each of the ruleset's
    specials it has not seen while some are hidden, the chance that it is in."""
    config = view.config
    known = O.known_specials(view)
    deck = (config.deck & _PLAIN) | C.mask_of(known)
    unseen = [c for c in config.ruleset.special_pool if c not in known]
    missing = O.special_count(view) - len(known)
    maybe = {c: missing / len(unseen) for c in unseen} if unseen and missing > 0 else {}
    return deck, maybe


def view_attributes(view: View) -> F32:
    """The attribute table of the cards as ``view``'s seat knows the deck (read-only: it
    is built once per ruleset and deck)."""
    deck, maybe = known_deck(view)
    return _attributes(view.config.rules, deck, tuple(sorted(maybe.items())))


@functools.lru_cache(maxsize=256)
def _attributes(rules: CardRules, deck: int, maybe: tuple[tuple[int, float], ...]) -> F32:
    out = card_attributes(rules, deck, dict(maybe))
    out.setflags(write=False)
    return out


def plane_masks(view: View, picked: int = 0) -> tuple[int, ...]:
    """The bitmasks of the planes the pooled block sums (:data:`POOL_PLANES`), with the
    cards of a sequential split's ``picked`` moved from the hand to the pack; the unseen
    plane is every card of the deck the seat has not seen (hidden specials not
    included: their chance is in their attribute rows)."""
    me = view.seat if view.seat is not None else 0
    n = view.config.players
    played = [0] * O.MAX_SEATS
    for trick in view.tricks:
        for seat, card in trick.plays:
            played[(seat - me) % n] |= 1 << card
    trick_cards = 0
    for seat, card in view.current_trick:
        played[(seat - me) % n] |= 1 << card
        trick_cards |= 1 << card
    hand = view.hand & ~picked
    pack = view.pack | picked
    seen = hand | pack | view.received
    for mask in played:
        seen |= mask
    deck, _ = known_deck(view)
    return (hand, pack, view.received, *played, trick_cards, deck & ~seen)


def observe_any(view: View, *, picked: int = 0, out: F32 | None = None) -> F32:
    """The ``float32`` vector (:data:`ANY_SIZE` entries) of a seat's view of any
    ruleset (the module docstring's layout). ``picked``: the cards already chosen in a
    sequential split, as in :func:`~meio.bots.observation.observe`."""
    if out is None:
        out = np.zeros(ANY_SIZE, dtype=np.float32)
    O.observe(view, picked=picked, out=out[:O.OBS_SIZE])
    attrs = view_attributes(view)
    out[ATTRS:NUMBERS_AT] = attrs.reshape(-1)
    out[NUMBERS_AT:POOLED] = table_numbers(view.config)
    pooled = out[POOLED:].reshape(len(POOL_PLANES), ATTRIBUTES)
    for p, mask in enumerate(plane_masks(view, picked)):
        cards = C.cards_of(mask)
        pooled[p] = attrs[cards].sum(axis=0) / POOL_SCALE if cards else 0.0
    return out


__all__ = ["ANY_SIZE", "ATTRIBUTES", "ATTRS", "ENCODING", "FREE", "IN_DECK", "NUMBERS",
           "NUMBERS_AT", "PILE", "POOLED", "POOL_PLANES", "POOL_SCALE", "RELATIVE", "SPECIAL",
           "SUIT", "SUITLESS", "TRUMP", "VALUE", "VALUE_SCALE", "WILD", "card_attributes",
           "known_deck", "observe_any", "plane_masks", "ruleset_numbers", "table_numbers",
           "view_attributes"]
