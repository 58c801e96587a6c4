"""``to_move`` has one meaning in the state and in every view: the one seat to act
next (the ``+.5`` winner while it chooses a pile), -1 during the split and after
the match."""

from __future__ import annotations

import random

from meio.engine import MatchConfig, Phase, State


def test_to_move_is_the_same_in_the_state_and_every_view_in_every_phase() -> None:
    seen: set[Phase] = set()
    for seed in range(6):
        config = MatchConfig(players=4, specials=(60, 61, 63, 64), seed=seed)
        state = State.new(config)
        rng = random.Random(seed)
        while True:
            seen.add(state.phase)
            if state.phase in (Phase.SPLIT, Phase.OVER):
                assert state.to_move == -1
            elif state.phase is Phase.PILE:
                assert state.to_move == state.pending_pile == state.current_seat()
            else:
                assert state.to_move == state.current_seat() >= 0
            views = [state.view(seat) for seat in range(config.players)]
            for view in (*views, state.spectator_view()):
                assert view.to_move == state.to_move
            if state.is_over:
                break
            seat = state.seats_to_act()[0]
            state.apply(rng.choice(list(state.legal_actions(seat))), seat)
    assert seen == set(Phase)  # every phase came up, the pile choice included
