"""MEIO as an OpenSpiel game: ISMCTS plays whole rounds, resampling keeps secrets."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import meio.openspiel  # noqa: E402  (registers "meio")
import meio.rl  # noqa: E402
from meio.engine import cards as C  # noqa: E402


def _deal(state: object, rng: np.random.RandomState) -> None:
    while state.is_chance_node():  # type: ignore[attr-defined]
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)  # type: ignore[attr-defined]
        state.apply_action(int(rng.choice(outcomes, p=probs)))  # type: ignore[attr-defined]


@pytest.mark.parametrize("players,partnership,options", [
    (2, False, {}), (3, False, {}), (4, False, {}), (5, False, {}), (4, True, {}),
    (3, False, {"wild_lead": "next", "reveal_specials": False}),
])
def test_ismcts_plays_a_whole_round(players: int, partnership: bool,
                                    options: dict[str, object]) -> None:
    game = pyspiel.load_game("meio", {"players": players, "partnership": partnership,
                                      "one_round": True, **options})
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bots = [ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=2,
                             random_state=np.random.RandomState(s)) for s in range(players)]
    state = game.new_initial_state()
    rng = np.random.RandomState(players)
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            _deal(state, rng)
            continue
        state.apply_action(bots[state.current_player()].step(state))
        decisions += 1
    assert decisions >= 14 * players  # every split and every card of the round
    returns = state.returns()
    assert len(returns) == players and all(r <= 0 for r in returns)
    assert state.engine is not None and len(state.engine.rounds) == 1


def test_resampling_keeps_the_infostate_and_hides_other_hands() -> None:
    game = pyspiel.load_game("meio", {"players": 4})
    state = game.new_initial_state()
    rng = np.random.RandomState(0)
    _deal(state, rng)
    for _ in range(10):  # the splits and a few cards
        state.apply_action(int(rng.choice(state.legal_actions())))
    key = state.information_state_string(0)
    others = set()
    for _ in range(8):
        world = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert world.information_state_string(0) == key
        assert world.engine.hands[0] == state.engine.hands[0]
        others.add(world.engine.hands[1])
    assert len(others) > 1  # the hidden hands really are dealt anew


def test_tensors_and_parameters() -> None:
    game = pyspiel.load_game("meio", {"players": 3, "specials": "-1,A+,Q+",
                                      "one_round": True})
    state = game.new_initial_state()
    _deal(state, np.random.RandomState(2))
    assert len(state.observation_tensor(0)) == meio.rl.OBS_SIZE
    assert len(state.information_state_tensor(0)) == meio.openspiel.INFO_SIZE
    assert state.engine.config.special_cards == tuple(C.parse_card(c) for c in ("-1", "A+", "Q+"))
    for _ in range(3):
        state.apply_action(state.legal_actions()[0])
    key = state.information_state_string(0)
    assert "0:pack:" in key and "1:split" in key and "2:split" in key
    assert "1:pack:" not in key and "2:pack:" not in key
    with pytest.raises(Exception, match="partnership"):
        pyspiel.load_game("meio", {"players": 3, "partnership": True})


def test_evaluate_bots_plays_meio_with_openspiel_bots_and_the_ismcts_limit_is_openspiels(
        ) -> None:
    from open_spiel.python.algorithms import evaluate_bots

    game = pyspiel.load_game("meio", {"players": 3, "one_round": True})
    bots = [pyspiel.make_uniform_random_bot(seat, seat + 1) for seat in range(3)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots,
                                          np.random.RandomState(3))
    # minus each seat's round score: |H - V| with at most 13 tricks
    assert len(returns) == 3 and all(-13 <= r <= 0 and r == int(r) for r in returns)
    # the Python ISMCTSBot lacks restart_at for every game, not only for this one
    kuhn = pyspiel.load_game("kuhn_poker")
    rollouts = mcts.RandomRolloutEvaluator(1, np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(kuhn, rollouts, 2.0, 4, random_state=np.random.RandomState(1))
    with pytest.raises(pyspiel.SpielError, match="RestartAt"):
        evaluate_bots.evaluate_bots(kuhn.new_initial_state(), [bot, bot],
                                    np.random.RandomState(1))
