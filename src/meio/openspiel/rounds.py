"""The rounds before the one in play, rebuilt from a view: they are public."""

from __future__ import annotations

from meio.engine import View
from meio.engine import actions as A
from meio.engine.tricks import pile_for


def public_rounds(view: View) -> tuple[list[tuple[tuple[int, ...], int, int]],
                                       list[tuple[int, int]]]:
    """The deal and the actions of each round before ``view``'s, rebuilt from their
    public results: every card dealt in them was played, and the pack a seat chose
    is what its pack's player played in the second half (the set-aside cards are
    the rest of the deck). Splits come in seat order, as OpenSpiel's turns give them."""
    cfg = view.config
    n = cfg.players
    deals: list[tuple[tuple[int, ...], int, int]] = []
    history: list[tuple[int, int]] = []
    for result in view.rounds:
        halves = [[0] * n, [0] * n]
        plays: list[tuple[int, int]] = []
        for k, trick in enumerate(result.tricks):
            half = 0 if k < 7 else 1
            for i, (seat, card) in enumerate(trick.plays):
                halves[half][seat] |= 1 << card
                declared = i == 0 and trick.declared >= 0
                plays.append((seat, A.declare(card, trick.declared) if declared else card))
            winning = next(c for s, c in trick.plays if s == trick.winner)
            # a +.5 win: its winner chose the pile
            if pile_for(winning, half + 1, cfg.rules.pile) == 0:
                plays.append((trick.winner, A.PILE_1 if trick.pile == 1 else A.PILE_2))
        packs = [halves[1][(j + 2) % 4 if cfg.partnership else j] for j in range(n)]
        hands = tuple(halves[0][j] | packs[j] for j in range(n))
        dealt = 0
        for hand in hands:
            dealt |= hand
        deals.append((hands, cfg.deck & ~dealt, result.leader))
        history.extend((j, A.pack_action(packs[j])) for j in range(n))
        history.extend(plays)
    return deals, history
