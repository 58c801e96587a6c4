"""Cards as small integers, hands as integer bitmasks.

Every card of both editions has one id in ``0..64``:

* an ordinary card is ``suit * 15 + rank`` with suits ``S H D C`` = ``0 1 2 3``
  and ranks ``0``–``9``, ``T`` = 10, ``J`` = 11, ``Q`` = 12, ``K`` = 13, ``A`` = 14;
* the five special cards are ``-1`` = 60, ``A+`` = 61, ``-2H`` = 62, ``+.5`` = 63,
  ``Q+`` = 64.

The id says which card it is, not what it is worth: the classic edition's Ace
has the same id as the MEIO deck's Ace but the value 1 (see :func:`value2`).
A set of cards (a hand, a pack, a deck) is an ``int`` with bit ``id`` set for
each card, so membership, union and "any card of this suit" are single
integer operations.

>>> parse_card("QS"), card_code(12)
(12, 'QS')
>>> cards_of(parse_cards("AH -1 3C"))
[29, 48, 60]
>>> format_cards(parse_cards("AH -1 3C"))
'AH 3C -1'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from meio.engine.errors import CardError

SUITS = "SHDC"
SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
SUIT_SYMBOLS = ("♠", "♥", "♦", "♣")
RANKS = "0123456789TJQKA"

MINUS_ONE = 60
A_PLUS = 61
MINUS_TWO_H = 62
PLUS_HALF = 63
Q_PLUS = 64
SPECIALS = (MINUS_ONE, A_PLUS, MINUS_TWO_H, PLUS_HALF, Q_PLUS)
SPECIAL_CODES = {MINUS_ONE: "-1", A_PLUS: "A+", MINUS_TWO_H: "-2H", PLUS_HALF: "+.5", Q_PLUS: "Q+"}
WILDS = (MINUS_ONE, A_PLUS, PLUS_HALF, Q_PLUS)
WILD_MASK = (1 << MINUS_ONE) | (1 << A_PLUS) | (1 << PLUS_HALF) | (1 << Q_PLUS)
NUM_CARDS = 65

#: bit masks of the cards of each suit, ``-2H`` counted as a heart; wilds belong to no suit
SUIT_MASKS: tuple[int, ...] = tuple(
    sum(1 << (s * 15 + r) for r in range(15)) | ((1 << MINUS_TWO_H) if s == HEARTS else 0)
    for s in range(4)
)

_CODE_TO_ID: dict[str, int] = {}
_ID_TO_CODE: list[str] = [""] * NUM_CARDS
for _s, _sc in enumerate(SUITS):
    for _r, _rc in enumerate(RANKS):
        _ID_TO_CODE[_s * 15 + _r] = _rc + _sc
for _cid, _code in SPECIAL_CODES.items():
    _ID_TO_CODE[_cid] = _code
for _cid, _code in enumerate(_ID_TO_CODE):
    _CODE_TO_ID[_code] = _cid

_SYMBOL_SUITS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}
_ALIASES = {"+0.5": "+.5", "0.5+": "+.5", "-2♥": "-2H", "Q+→": "Q+"}


def card_suit(card: int) -> int:
    """The suit of a card (``-2H`` is a heart); -1 for a wild card."""
    if card < 60:
        return card // 15
    return HEARTS if card == MINUS_TWO_H else -1


#: :func:`card_suit` of every card id as a table, for the loops that read it per card
#: (the editions' suits; a variant's are its ``CardRules.suit_of``)
SUIT_OF: tuple[int, ...] = tuple(card_suit(c) for c in range(NUM_CARDS))


def is_wild(card: int) -> bool:
    """Whether the card always follows suit (``-1``, ``A+``, ``+.5``, ``Q+``)."""
    return bool(WILD_MASK >> card & 1) if 0 <= card < NUM_CARDS else False


def card_code(card: int) -> str:
    """The record code of a card id, e.g. ``"QS"`` or ``"+.5"``."""
    if not 0 <= card < NUM_CARDS:
        raise CardError(template="{card} is not a card id", card=repr(card))
    return _ID_TO_CODE[card]


def parse_card(text: str) -> int:
    """The card id of a code. Accepts ``10H`` and suit symbols as well as ``TH``.

    >>> parse_card("-2H"), parse_card("10♥"), parse_card("th")
    (62, 25, 25)
    """
    raw = text.strip()
    code = _ALIASES.get(raw, raw)
    if code in _CODE_TO_ID:
        return _CODE_TO_ID[code]
    if code and code[-1] in _SYMBOL_SUITS:
        code = code[:-1] + _SYMBOL_SUITS[code[-1]]
    if code.startswith("10"):
        code = "T" + code[2:]
    up = code.upper()
    if up in _CODE_TO_ID and len(up) == 2:
        return _CODE_TO_ID[up]
    if up == "-2H":
        return MINUS_TWO_H
    raise CardError(template="{text} is not a card code", text=repr(text))


def mask_of(cards: Iterable[int]) -> int:
    """The bitmask of a collection of card ids."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_of(mask: int) -> list[int]:
    """The card ids in a bitmask, lowest id first."""
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def iter_cards(mask: int) -> Iterator[int]:
    """Iterate over the card ids in a bitmask, lowest id first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def count(mask: int) -> int:
    """The number of cards in a bitmask."""
    return mask.bit_count()


def parse_cards(text: str | Iterable[str]) -> int:
    """A bitmask from card codes, given as one string (spaces or commas) or a list."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    mask = 0
    for item in items:
        card = parse_card(item)
        if mask >> card & 1:
            raise CardError(template="{card} is listed twice", card=item)
        mask |= 1 << card
    return mask


def sort_key(card: int) -> tuple[int, int]:
    """Sort cards by suit (S H D C, specials last), then by rank."""
    if card >= 60:
        return (4, card)
    return (card // 15, card % 15)


def codes(mask: int) -> list[str]:
    """Card codes of a bitmask, in display order (suit, then rank, specials last)."""
    return [card_code(c) for c in sorted(cards_of(mask), key=sort_key)]


def format_cards(mask: int) -> str:
    """Card codes of a bitmask joined by spaces, in display order."""
    return " ".join(codes(mask))


def parse_suit(text: str) -> int:
    """The suit index of a letter or symbol."""
    t = text.strip()
    t = _SYMBOL_SUITS.get(t, t).upper()
    if len(t) == 1 and t in SUITS:
        return SUITS.index(t)
    raise CardError(template="{text} is not a suit (use S, H, D or C)", text=repr(text))


def value2(card: int, half: int, edition: str, previous2: int = 0) -> int:
    """Twice the value of a card in a trick, so that ``+.5`` stays an integer.

    ``half`` is 1 or 2; ``previous2`` is the doubled value of the card played just
    before it in the same trick (``None``-free: pass 0 when it leads, which gives
    ``+.5`` its lead value 0.5).
    """
    if card < 60:
        rank = card % 15
        if edition == "classic" and rank == 14:
            return 2
        return 2 * rank
    if card == MINUS_ONE:
        return -2 if half == 1 else 30
    if card == A_PLUS:
        return 30 if half == 1 else -2
    if card == MINUS_TWO_H:
        return -4
    if card == Q_PLUS:
        return 25
    return previous2 + 1
