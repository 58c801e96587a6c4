"""A bot decides from the view alone: other hidden cards, same view, same decision."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from meio.bots import bot_turn, make_bot
from meio.bots.base import Bot
from meio.bots.playout import evaluate_actions as python_evaluate
from meio.bots.search import Level, SearchBot
from meio.engine import MatchConfig, Phase, State, sample_world

TINY = Level(card_worlds=4, card_playouts=1, split_candidates=3, split_worlds=4,
             split_playouts=1)
#: search:4's machinery (inference, the compiled screen of every pack), small
TINY_EXPERT = Level(card_worlds=6, card_playouts=1, split_candidates=4, split_worlds=8,
                    split_playouts=1, pool=12, screen_worlds=1)
FACTORIES: list[Callable[[], Bot]] = [
    lambda: make_bot("heuristic", 5),
    lambda: make_bot("random", 5),
    lambda: SearchBot(5, budget=TINY, evaluate=python_evaluate),
    lambda: SearchBot(5, 4, budget=TINY_EXPERT),
]


@pytest.mark.parametrize("partnership", [False, True])
def test_decisions_do_not_depend_on_hidden_cards(partnership: bool) -> None:
    state = State.new(MatchConfig(players=4, partnership=partnership, seed=11))
    movers = [make_bot("heuristic", s) for s in range(4)]
    rng = random.Random(1)
    phases = set()
    checked = 0
    for step in range(60):
        if step % 5 == 0 or state.phase is Phase.PILE:
            seat = state.current_seat()
            view = state.view(seat)
            # a world this seat cannot tell from the real one, with other hidden cards
            hidden = [state.deal[s] for s in range(4) if s != seat]
            others = [sample_world(view, rng) for _ in range(8)]
            differing = [w for w in others if [w.deal[s] for s in range(4) if s != seat] != hidden]
            if not differing:
                bot_turn(state, movers)
                continue  # late in a round, every card may be known
            other = differing[0]
            assert other.view(seat) == view
            for make in FACTORIES:
                real = make().choose(view, view.legal_actions())
                imagined = make().choose(other.view(seat), other.view(seat).legal_actions())
                assert real == imagined
            phases.add(state.phase)
            checked += 1
        bot_turn(state, movers)
    assert Phase.SPLIT in phases and Phase.PLAY in phases and checked >= 8
