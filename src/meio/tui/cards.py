"""Cards drawn as text: suit symbols and colours, special cards with their value.

A card face is three rows, six columns wide, so thirteen cards fit an 80-column
terminal::

    ╭────╮  ╔════╗
    │ Q♠ │  ║ Q+ ║
    ╰────╯  ╚12½═╝   (a special card: double border, its value in this half)

``ascii=True`` draws with ``+-|`` and the suit letters ``S H D C`` for terminals
without Unicode symbols.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from meio.engine import cards as C
from meio.i18n import N_, _

CARD_WIDTH = 6
RED_SUITS = (C.HEARTS, C.DIAMONDS)
FACE = "on grey93"
SPECIAL_FACE = "on light_goldenrod1"


#: the suits' names, translated when shown (Portuguese: espadas, copas, ouros, paus)
SUIT_NAMES = (N_("spades"), N_("hearts"), N_("diamonds"), N_("clubs"))


def suit_symbol(suit: int, ascii: bool = False) -> str:
    """``♠ ♥ ♦ ♣`` (or ``S H D C`` in ASCII mode) for a suit index."""
    return C.SUITS[suit] if ascii else C.SUIT_SYMBOLS[suit]


def suit_name(suit: int) -> str:
    """A suit's name in the current language (``hearts``, ``copas``)."""
    return _(SUIT_NAMES[suit])


def card_label(card: int, ascii: bool = False) -> str:
    """A card's short name as players write it: ``Q♠``, ``10♥``, ``-2♥``, ``+.5``."""
    if card >= 60:
        code = C.card_code(card)
        return code[:-1] + suit_symbol(C.HEARTS, ascii) if card == C.MINUS_TWO_H else code
    rank = C.RANKS[card % 15]
    return ("10" if rank == "T" else rank) + suit_symbol(card // 15, ascii)


def card_style(card: int) -> str:
    """The colour of a card's label: red for ♥ ♦ (and ``-2♥``), magenta for a wild."""
    if C.is_wild(card):
        return "bold magenta"
    return "bold red" if C.card_suit(card) in RED_SUITS else "bold"


def value_label(card: int, half: int, edition: str, ascii: bool = False) -> str:
    """A special card's value in ``half`` as printed under it: ``15``, ``-1``, ``12½``, ``+½``."""
    half_sign = ".5" if ascii else "½"
    if card == C.PLUS_HALF:
        return "+" + half_sign
    if card == C.Q_PLUS:
        return "12" + half_sign
    doubled = C.value2(card, half, edition)
    return str(doubled // 2)


def card_text(card: int, ascii: bool = False, *, half: int = 0, edition: str = "meio") -> Text:
    """A card inline, coloured; with ``half`` given, a special card shows its value there."""
    text = Text(card_label(card, ascii), style=card_style(card))
    if half and card >= 60:
        text.append(f"({value_label(card, half, edition, ascii)})", style="magenta")
    return text


def cards_text(
    cards: Sequence[int], ascii: bool = False, *, half: int = 0, edition: str = "meio"
) -> Text:
    """Several cards inline, separated by spaces."""
    out = Text()
    for i, card in enumerate(cards):
        if i:
            out.append(" ")
        out.append_text(card_text(card, ascii, half=half, edition=edition))
    return out


def sorted_cards(mask: int, edition: str = "meio") -> list[int]:
    """The cards of a bitmask in hand order: suit by suit (♠ ♥ ♦ ♣), low to high, specials last.

    In ``classic`` the Ace is the card "1", the lowest of its suit, and sorts first.

    >>> [C.card_code(c) for c in sorted_cards(C.parse_cards("AS 2S KS"), "classic")]
    ['AS', '2S', 'KS']
    >>> [C.card_code(c) for c in sorted_cards(C.parse_cards("AS 2S KS"))]
    ['2S', 'KS', 'AS']
    """
    if edition == "classic":
        return sorted(C.cards_of(mask), key=lambda c: (c // 15, -1 if c % 15 == 14 else c % 15))
    return sorted(C.cards_of(mask), key=C.sort_key)


def card_face(
    card: int,
    *,
    half: int,
    edition: str,
    ascii: bool = False,
    highlight: str = "",
    dim: bool = False,
) -> list[Text]:
    """The three rows of a card drawn face up (each :data:`CARD_WIDTH` wide).

    ``highlight`` colours the border (the cursor); ``dim`` greys a card that may
    not be played now.
    """
    special = card >= 60
    if ascii:
        tl, tr, bl, br, h, v = (
            ("#", "#", "#", "#", "=", "#") if special else ("+", "+", "+", "+", "-", "|")
        )
    elif special:
        tl, tr, bl, br, h, v = "╔", "╗", "╚", "╝", "═", "║"
    else:
        tl, tr, bl, br, h, v = "╭", "╮", "╰", "╯", "─", "│"
    border = highlight or ("magenta" if special else "grey50")
    if dim:
        border = "grey35"
    face_bg = SPECIAL_FACE if special else FACE
    label = card_label(card, ascii)
    label = (" " + label).ljust(4) if len(label) <= 2 else label.ljust(4)
    if dim:
        style = "grey50 " + face_bg
    elif C.is_wild(card):
        style = "bold magenta " + face_bg
    elif C.card_suit(card) in RED_SUITS:
        style = "bold red3 " + face_bg
    else:
        style = "bold black " + face_bg
    bottom = h * 4
    if special:
        value = value_label(card, half, edition, ascii)[:4]
        bottom = value + h * (4 - len(value))
    top_row = Text(tl + h * 4 + tr, style=border)
    mid = Text(v, style=border)
    mid.append(label, style=style)
    mid.append(v, style=border)
    bot = Text(bl, style=border)
    bot.append(bottom, style=("bold magenta" if special and not dim else border))
    bot.append(br, style=border)
    return [top_row, mid, bot]


def blank_rows(width: int = CARD_WIDTH) -> list[Text]:
    """Three rows of empty space the width of a card."""
    return [Text(" " * width) for _ in range(3)]


def join_rows(faces: Sequence[list[Text]], gap: int = 0) -> Text:
    """Lay card faces side by side into one multi-line :class:`Text`."""
    rows = max((len(f) for f in faces), default=0)
    out = Text()
    for r in range(rows):
        if r:
            out.append("\n")
        for i, face in enumerate(faces):
            if i and gap:
                out.append(" " * gap)
            out.append_text(face[r] if r < len(face) else Text(" " * CARD_WIDTH))
    return out
