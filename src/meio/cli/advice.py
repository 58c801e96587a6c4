"""The split advisor's explanation, as ``meio advise`` prints it, in the command's language.

:mod:`meio.bots.advisor` writes its explanation once, in English for ``Advice.explanation``
and ``Candidate.reason`` (kept so in the JSON output); this module has it write the same
sentences from the same figures with every phrase looked up in the catalogue and every
number written as the language writes it, and adds what is particular to the hand:
which of its cards are likely to take a trick in each half and which can duck, read
from the ruleset's own card values (so a variant's cards are judged by its rules).
"""

from __future__ import annotations

from meio.bots import advisor
from meio.engine import cards as C
from meio.engine.config import MatchConfig
from meio.engine.presets import is_standard
from meio.i18n import _, decimal

#: a card likely to take a trick in a half: a trump of at least this doubled value
#: (a jack), or any card of at least :data:`HIGH` (a king, the box ``Q+`` and ``A+``)
TRUMP_HIGH, HIGH = 22, 25
#: a card to duck with: not a trump, and at most this doubled value (a five)
LOW = 10


def reason(candidate: advisor.Candidate, hand: int) -> str:
    """Why ``candidate`` scores as it does: how its halves weigh, and its special cards."""
    return advisor.reason(candidate.pack, candidate.first_half_tricks,
                          candidate.second_half_tricks, hand, _, decimal)


def roles(cards: int, half: int, config: MatchConfig) -> tuple[list[int], list[int]]:
    """The cards of ``cards`` likely to take a trick in ``half`` (1 or 2), strongest
    first, and those to duck with, lowest first, by ``config``'s card values.

    >>> from meio.engine import MatchConfig
    >>> cfg = MatchConfig(players=4, specials=(60, 61, 63, 64), seed=1)
    >>> win, duck = roles(C.parse_cards("AS KH 2D 3C -1"), 1, cfg)
    >>> C.format_cards(C.mask_of(win)), C.format_cards(C.mask_of(duck))
    ('AS KH', '2D 3C -1')
    """
    rules = config.rules
    values = rules.values[half - 1]
    relative = rules.relative[half - 1]
    win, duck = [], []
    for card in C.cards_of(cards):
        if relative >> card & 1:
            continue  # worth 0.5 above the card before it: neither
        value = values[card]
        trump = rules.trump >= 0 and rules.suit_of[card] == rules.trump
        if value >= HIGH or (trump and value >= TRUMP_HIGH):
            win.append(card)
        elif not trump and value <= LOW:
            duck.append(card)
    win.sort(key=lambda c: -values[c])
    duck.sort(key=lambda c: values[c])
    return win, duck


def _cards(cards: list[int]) -> str:
    return C.format_cards(C.mask_of(cards)) if cards else _("none")


def hand_note(best: advisor.Candidate, hand: int, config: MatchConfig) -> str:
    """What the best pack does with this hand's cards: each half's likely winners and
    its cards to duck with, and how to play the heavier half."""
    keep = hand & ~best.pack
    win1, duck1 = roles(keep, 1, config)
    win2, duck2 = roles(best.pack, 2, config)
    text = _("First half ({keep}): likely winners {win1}, cards to duck with {duck1}. "
             "Pack for the second half ({pack}): likely winners {win2}, cards to duck "
             "with {duck2}.").format(
        keep=C.format_cards(keep), win1=_cards(win1), duck1=_cards(duck1),
        pack=C.format_cards(best.pack), win2=_cards(win2), duck2=_cards(duck2))
    gap = best.first_half_tricks - best.second_half_tricks
    if abs(gap) < 0.35:
        more = _("With {n1} likely winners kept and {n2} packed, what the first half "
                 "takes the second can match.").format(n1=len(win1), n2=len(win2))
    elif gap > 0:
        more = _("The first half is heavier: give tricks away there with {cards}.").format(
            cards=_cards(duck1[:2] or win1[-1:]))
    else:
        more = _("The second half is heavier: give tricks away there with {cards}.").format(
            cards=_cards(duck2[:2] or win2[-1:]))
    return f"{text} {more}"


def explanation(advice: advisor.Advice, hand: int, config: MatchConfig | None = None) -> str:
    """The advisor's explanation of ``advice`` for ``hand``: its figures and, given the
    table's ``config``, what the best pack does with this hand's cards."""
    specials = config is None or is_standard(config.ruleset)
    note = None if config is None else hand_note(advice.best, hand, config)
    return advisor.explanation(advice.best, advice.chosen, hand, _, decimal, specials, note)
