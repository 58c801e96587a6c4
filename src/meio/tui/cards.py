"""Cards drawn as text: suit symbols and colours, special cards with their value.

A card face is three rows, six columns wide, so thirteen cards fit an 80-column
terminal::

    ╭────╮  ╔════╗
    │ Q♠ │  ║ Q+ ║
    ╰────╯  ╚12½═╝   (a special card: double border, its value in this half)

``ascii=True`` draws with ``+-|`` and the suit letters ``S H D C`` for terminals
without Unicode symbols. A variant's special cards (``rules``, the variant's
:class:`~meio.engine.ruleset.CardRules`) keep their code and show the value, the
suit and the wildness the variant gives them.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from meio.engine import cards as C
from meio.engine.presets import preset
from meio.engine.ruleset import CardRules
from meio.i18n import N_, _

CARD_WIDTH = 6
RED_SUITS = (C.HEARTS, C.DIAMONDS)
FACE = "on grey93"
SPECIAL_FACE = "on light_goldenrod1"
#: the box edition's cards: what a card is drawn by when no ruleset is named
BOX_RULES = preset("meio").card_rules


#: the suits' names, translated when shown (Portuguese: espadas, copas, ouros, paus)
SUIT_NAMES = (N_("spades"), N_("hearts"), N_("diamonds"), N_("clubs"))


def suit_symbol(suit: int, ascii: bool = False) -> str:
    """``♠ ♥ ♦ ♣`` (or ``S H D C`` in ASCII mode) for a suit index."""
    return C.SUITS[suit] if ascii else C.SUIT_SYMBOLS[suit]


def suit_name(suit: int) -> str:
    """A suit's name in the current language (``hearts``, ``copas``)."""
    return _(SUIT_NAMES[suit])


def card_label(card: int, ascii: bool = False, rules: CardRules = BOX_RULES) -> str:
    """A card's short name as players write it: ``Q♠``, ``10♥``, ``-2♥``, ``+.5``; a
    variant's ``-2H`` that is no heart keeps its plain code (``rules``: the ruleset's)."""
    if card >= 60:
        code = C.card_code(card)
        heart = rules.suit_of[card] == C.HEARTS
        return code[:-1] + suit_symbol(C.HEARTS, ascii) if card == C.MINUS_TWO_H and heart else code
    rank = C.RANKS[card % 15]
    return ("10" if rank == "T" else rank) + suit_symbol(card // 15, ascii)


def is_wild(card: int, rules: CardRules = BOX_RULES) -> bool:
    """Whether a card is a wild in the ruleset (``rules``; the box's four by default)."""
    return bool(rules.wild >> card & 1)


def card_suit(card: int, rules: CardRules = BOX_RULES) -> int:
    """A card's suit (-1 for a wild), as the ruleset (``rules``) gives it."""
    return rules.suit_of[card]


def card_style(card: int, rules: CardRules = BOX_RULES) -> str:
    """The colour of a card's label: red for ♥ ♦ (and ``-2♥``), magenta for a wild."""
    if is_wild(card, rules):
        return "bold magenta"
    return "bold red" if card_suit(card, rules) in RED_SUITS else "bold"


def half_value(doubled: int, ascii: bool = False) -> str:
    """A doubled value written as players read it: ``12½``, ``-½``, ``15``.

    >>> half_value(25), half_value(-1, ascii=True), half_value(30)
    ('12½', '-.5', '15')
    """
    sign = "-" if doubled < 0 else ""
    whole, half = divmod(abs(doubled), 2)
    if not half:
        return f"{sign}{whole}"
    return f"{sign}{whole or ''}{'.5' if ascii else '½'}"


def value_label(
    card: int, half: int, edition: str, ascii: bool = False, rules: CardRules = BOX_RULES
) -> str:
    """A special card's value in ``half`` as printed under it: ``15``, ``-1``, ``12½``, ``+½``
    (by the ruleset's values, ``rules``; ``edition`` is kept for the callers that name it)."""
    if rules.relative[half - 1] >> card & 1:
        return "+" + (".5" if ascii else "½")
    return half_value(rules.values[half - 1][card], ascii)


def card_text(
    card: int,
    ascii: bool = False,
    *,
    half: int = 0,
    edition: str = "meio",
    rules: CardRules = BOX_RULES,
) -> Text:
    """A card inline, coloured; with ``half`` given, a special card shows its value there."""
    text = Text(card_label(card, ascii, rules), style=card_style(card, rules))
    if half and card >= 60:
        text.append(f"({value_label(card, half, edition, ascii, rules)})", style="magenta")
    return text


def cards_text(
    cards: Sequence[int],
    ascii: bool = False,
    *,
    half: int = 0,
    edition: str = "meio",
    rules: CardRules = BOX_RULES,
) -> Text:
    """Several cards inline, separated by spaces."""
    out = Text()
    for i, card in enumerate(cards):
        if i:
            out.append(" ")
        out.append_text(card_text(card, ascii, half=half, edition=edition, rules=rules))
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
    rules: CardRules = BOX_RULES,
) -> list[Text]:
    """The three rows of a card drawn face up (each :data:`CARD_WIDTH` wide).

    ``highlight`` colours the border (the cursor); ``dim`` greys a card that may
    not be played now; ``rules``: a variant's cards.
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
    label = card_label(card, ascii, rules)
    label = (" " + label).ljust(4) if len(label) <= 2 else label.ljust(4)
    if dim:
        style = "grey50 " + face_bg
    elif is_wild(card, rules):
        style = "bold magenta " + face_bg
    elif card_suit(card, rules) in RED_SUITS:
        style = "bold red3 " + face_bg
    else:
        style = "bold black " + face_bg
    bottom = h * 4
    if special:
        value = value_label(card, half, edition, ascii, rules)[:4]
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
