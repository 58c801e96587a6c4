"""Packs that play alike: the answer of a split puzzle up to cards that touch.

Two of a seat's cards of one suit *touch* when no card another player may hold comes
between them in value: every card of that suit between them is the seat's own or is
not in the deck, and ``Q+`` (worth 12.5 in every suit) is not between them unless the
seat holds it or knows it is out of the deck. Cards that touch beat and lose to the
same cards of the others, and two cards of one seat never meet in a trick, so packing
one of them or the other is the same split: a pack is known by how many cards of each
run of touching cards it takes (and which special cards it takes, which never touch).
``+.5`` is the one exception this leaves aside: played after a card of the value
between two that touch, it would fall between them, in a trick they could not share.

>>> from meio.engine import MatchConfig, State
>>> from meio.engine import cards as C
>>> state = State.new(MatchConfig(edition="classic", players=4, seed=3))
>>> view = state.view(0)
>>> C.format_cards(view.hand)
'2S 5S 9S 4H 7H 8H 9H KH 9D QD 5C JC AC'
>>> a = C.parse_cards("7H 2S 5S 9S 9D QD")
>>> b = C.parse_cards("9H 2S 5S 9S 9D QD")  # 9H for 7H: 7H 8H 9H touch
>>> same_split(view, a, b), same_split(view, a, C.parse_cards("KH 2S 5S 9S 9D QD"))
(True, False)
"""

from __future__ import annotations

from meio.engine import View
from meio.engine import cards as C

#: the doubled value of ``Q+``, which sits between the Q and the K of every suit
_Q_PLUS2 = C.value2(C.Q_PLUS, 1, "meio")


def runs(view: View) -> list[int]:
    """The seat's ordinary cards (its whole deal: hand and pack) cut into runs of
    touching cards, as bitmasks; suits in order, each run from its lowest card."""
    edition = view.config.edition
    dealt = view.hand | view.pack
    ordinary = (1 << C.MINUS_ONE) - 1
    others = view.config.deck & ordinary & ~dealt
    q_plus_elsewhere = not dealt >> C.Q_PLUS & 1 and (
        C.Q_PLUS in view.specials or len(view.specials) < view.special_count)
    out: list[int] = []
    for suit in range(4):
        mine = sorted(C.iter_cards(dealt & C.SUIT_MASKS[suit] & ordinary),
                      key=lambda c: C.value2(c, 1, edition))
        theirs = [C.value2(c, 1, edition)
                  for c in C.iter_cards(others & C.SUIT_MASKS[suit])]
        if q_plus_elsewhere:
            theirs.append(_Q_PLUS2)
        run = 0
        low = 0
        for card in mine:
            value = C.value2(card, 1, edition)
            if run and any(low < v < value for v in theirs):
                out.append(run)
                run = 0
            run |= 1 << card
            low = value
        if run:
            out.append(run)
    return out


def pack_class(view: View, pack: int) -> tuple[int, ...]:
    """What a pack of the seat's cards is up to cards that touch: the special cards it
    takes (a mask), then how many cards of each run (:func:`runs`) it takes."""
    specials = pack & ~((1 << C.MINUS_ONE) - 1)
    return (specials, *((pack & run).bit_count() for run in runs(view)))


def same_split(view: View, a: int, b: int) -> bool:
    """Whether packs ``a`` and ``b`` (bitmasks of the seat's cards) are the same split
    up to cards that touch."""
    return pack_class(view, a) == pack_class(view, b)
