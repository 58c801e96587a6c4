"""Actions are plain ints: one flat space for search, masks and reinforcement learning.

==========================  ==============================================
``0..64``                   play that card id (following, or leading a non-wild)
``65..80``                  lead a wild and declare a suit: ``65 + 4 * slot + suit``
                            with slots ``-1, A+, +.5, Q+`` = ``0 1 2 3``
``81`` / ``82``             ``pile=1`` / ``pile=2`` after a trick won by ``+.5``
``PACK_FLAG | mask``        the split: ``mask`` is the 6-card second-half pack
==========================  ==============================================

Text forms are those of the game record: ``QS``, ``Q+=D``, ``pile=2``, and a
pack written ``pack:QS,JS,9H,8D,7C,6S``.

>>> a = parse_action("Q+=D"); a, action_text(a)
(79, 'Q+=D')
>>> action_text(parse_action("pack: AS KS QS JS TS 9S"))
'pack:9S,TS,JS,QS,KS,AS'
"""

from __future__ import annotations

from meio.engine import cards as C
from meio.engine.errors import CardError

DECLARE_BASE = 65
PILE_1 = 81
PILE_2 = 82
NUM_PLAY_ACTIONS = 83
PACK_FLAG = 1 << 65

WILD_SLOT = {C.MINUS_ONE: 0, C.A_PLUS: 1, C.PLUS_HALF: 2, C.Q_PLUS: 3}
SLOT_WILD = (C.MINUS_ONE, C.A_PLUS, C.PLUS_HALF, C.Q_PLUS)


def declare(card: int, suit: int) -> int:
    """The action leading wild ``card`` with declared ``suit``."""
    return DECLARE_BASE + 4 * WILD_SLOT[card] + suit


def pack_action(pack_mask: int) -> int:
    """The split action keeping ``pack_mask`` (6 cards) for the second half."""
    return PACK_FLAG | pack_mask


def is_pack(action: int) -> bool:
    return action >= PACK_FLAG


def pack_of(action: int) -> int:
    """The pack bitmask of a split action."""
    return action & (PACK_FLAG - 1)


def is_declare(action: int) -> bool:
    return DECLARE_BASE <= action < PILE_1


def is_pile(action: int) -> bool:
    return action in (PILE_1, PILE_2)


def card_of(action: int) -> int:
    """The card a play or declare action puts on the table; -1 for other actions."""
    if 0 <= action < DECLARE_BASE:
        return action
    if DECLARE_BASE <= action < PILE_1:
        return SLOT_WILD[(action - DECLARE_BASE) >> 2]
    return -1


def declared_suit(action: int) -> int:
    """The suit declared by a wild lead; -1 for other actions."""
    if DECLARE_BASE <= action < PILE_1:
        return (action - DECLARE_BASE) & 3
    return -1


def action_text(action: int) -> str:
    """The record text of an action."""
    if action >= PACK_FLAG:
        return "pack:" + ",".join(
            C.card_code(c) for c in sorted(C.cards_of(pack_of(action)), key=C.sort_key)
        )
    if 0 <= action < DECLARE_BASE:
        return C.card_code(action)
    if action < PILE_1:
        return f"{C.card_code(card_of(action))}={C.SUITS[declared_suit(action)]}"
    if action == PILE_1:
        return "pile=1"
    if action == PILE_2:
        return "pile=2"
    raise CardError(template="{action} is not an action", action=repr(action))


def parse_action(text: str) -> int:
    """The action of a record text (``QS``, ``Q+=D``, ``pile=2``, ``pack:...``)."""
    t = text.strip()
    low = t.lower().replace(" ", "")
    if low.startswith("pile="):
        if low == "pile=1":
            return PILE_1
        if low == "pile=2":
            return PILE_2
        raise CardError(template="{text}: the pile is 1 (first half) or 2 (second half)",
                        text=repr(text))
    if low.startswith("pack:") or low.startswith("pack("):
        body = t[5:].rstrip(")")
        return pack_action(C.parse_cards(body))
    if "=" in t:
        card_text, _, suit_text = t.rpartition("=")
        card = C.parse_card(card_text)
        if card not in WILD_SLOT:
            raise CardError(template="{text}: only a wild card (-1, A+, +.5, Q+) declares a suit",
                            text=repr(text))
        return declare(card, C.parse_suit(suit_text))
    return C.parse_card(t)
