"""The OpenSpiel game playing variants, and the preset ``mini`` solved: OpenSpiel's
checks, the sorted deal, resampling, CFR and the exact exploitability of the bots."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import meio.openspiel  # noqa: E402  (registers "meio")
from meio.bots import attributes as AT  # noqa: E402
from meio.engine import ConfigError, IllegalActionError  # noqa: E402
from meio.engine import actions as A  # noqa: E402
from meio.engine import cards as C  # noqa: E402
from meio.openspiel.solve import (  # noqa: E402
    bot_policy,
    bot_probabilities,
    decision_states,
    refused_bots,
    solve,
)

ROOT = Path(__file__).resolve().parents[2]
MINI = {"players": 2, "variant": "mini", "reward": "victory"}


@pytest.fixture(scope="module")
def mini() -> pyspiel.Game:
    return pyspiel.load_game("meio", MINI)


@pytest.fixture(scope="module")
def tree(mini: pyspiel.Game) -> tuple[dict[str, object], object]:
    return decision_states(mini)


@pytest.mark.parametrize("params", [
    MINI,
    {"players": 2, "variant": "mini"},  # rewards minus the round score
    {**MINI, "split_mode": "sequential"},
    {"players": 2, "variant": str(ROOT / "examples" / "variants" / "mini.toml")},
    {"players": 4, "variant": str(ROOT / "examples" / "variants" / "six-seven.toml"),
     "one_round": True},
    {"players": 4, "variant": str(ROOT / "examples" / "variants" / "six-seven.toml"),
     "partnership": True, "reward": "victory", "split_mode": "sequential"},
    {"players": 3, "variant": str(ROOT / "tests" / "rl" / "rulesets" / "invented.toml"),
     "one_round": True},
    {"players": 4, "variant": str(ROOT / "tests" / "rl" / "rulesets" / "no-trump.toml"),
     "one_round": True, "split_mode": "sequential"},
], ids=["mini", "mini-score", "mini-sequential", "mini-toml", "six-seven",
        "six-seven-partnership", "invented", "no-trump"])
def test_openspiels_random_simulation_test_passes_on_variants(
        params: dict[str, object]) -> None:
    game = pyspiel.load_game("meio", params)
    # a variant's observation is the attribute encoding of the seat's view
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    seat = state.current_player()
    assert np.array_equal(np.array(state.observation_tensor(seat), dtype=np.float32),
                          AT.observe_any(state.engine.view(seat)))
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_the_variant_sets_the_games_sizes_and_its_deck() -> None:
    game = pyspiel.load_game("meio", MINI)
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    assert game.params.hand == 3 and game.params.first_half == 2
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert [bin(h).count("1") for h in state.engine.hands] == [3, 3]
    assert len(state.legal_actions()) == 3  # C(3, 1) packs
    assert len(state.information_state_tensor()) == meio.openspiel.ANY_INFO_SIZE
    # the standard game stays general-sum, scored by minus the round scores
    assert pyspiel.load_game("meio", {"players": 2}).get_type().utility == \
        pyspiel.GameType.Utility.GENERAL_SUM


def test_bad_variant_parameters_are_refused_in_one_line() -> None:
    cases = [
        ({"variant": "nope"}, "unknown variant 'nope': name a preset"),
        ({"variant": "mini"}, "the variant 'mini' is for 2 players, not 4"),
        ({"variant": "mini", "players": 2, "edition": "classic"},
         "edition is the variant's own"),
        ({"players": 3, "reward": "victory"}, "reward 'victory' is for two sides"),
        ({"reward": "points"}, "reward is 'score' or 'victory'"),
        ({"variant": "/nowhere/v.toml"}, "cannot read the variant file"),
    ]
    for params, message in cases:
        with pytest.raises(ConfigError, match=message) as info:
            meio.openspiel.parameters_of(params)
        assert "\n" not in str(info.value)


def test_each_hand_is_dealt_in_card_order_with_every_deal_equally_likely(
        mini: pyspiel.Game) -> None:
    # one chance history per deal: C(6, 3) = 20 hands for seat 0 (seat 1 has the rest),
    # each reached with chance 1/20, times the leader's 1/2
    deals: dict[tuple[tuple[int, ...], int], float] = {}
    stack = [(mini.new_initial_state(), 1.0)]
    while stack:
        state, p = stack.pop()
        if not state.is_chance_node():
            key = (tuple(state.engine.hands), state.engine.round_leader)
            assert key not in deals  # one chance history each
            deals[key] = p
            continue
        outcomes = state.chance_outcomes()
        assert math.isclose(sum(q for _, q in outcomes), 1.0)
        stack.extend((state.child(a), p * q) for a, q in outcomes)
    assert len(deals) == 2 * math.comb(6, 3)
    assert all(math.isclose(p, 1 / 40) for p in deals.values())
    state = mini.new_initial_state()
    state.apply_action(0)  # the leader
    low = state.chance_outcomes()[-1][0]
    state.apply_action(low)
    with pytest.raises(IllegalActionError, match="in card order"):
        state.apply_action(state.chance_outcomes()[0][0] - 1)


def test_the_mini_games_tree_has_the_size_docs_rl_gives(tree: tuple) -> None:
    states, size = tree
    assert (size.histories, size.terminals, size.decisions) == (14879, 3168, 11680)
    assert size.infostates == (4990, 4990) and len(states) == 9980


def _twins(mini: pyspiel.Game) -> list[tuple[object, object]]:
    """Pairs of decision states with one information state and different histories
    (seat 1 split otherwise), where the seat to act has a choice."""
    by_key: dict[str, object] = {}
    pairs = []
    stack = [mini.new_initial_state()]
    while stack and len(pairs) < 12:
        state = stack.pop()
        if state.is_terminal():
            continue
        if not state.is_chance_node() and len(state.legal_actions()) > 1:
            key = state.information_state_string()
            seen = by_key.setdefault(key, state)
            if seen is not state and seen.history() != state.history():
                pairs.append((seen, state))
        stack.extend(state.child(a) for a in state.legal_actions())
    return pairs


def test_a_bots_policy_depends_on_its_information_state_alone(mini: pyspiel.Game) -> None:
    pairs = _twins(mini)
    assert len(pairs) >= 6
    for one, two in pairs:
        assert one.engine.packs != two.engine.packs or one.engine.hands != two.engine.hands
        for kind in ("random", "heuristic", "ismcts", "search:1", "search:4", "advisor"):
            got = bot_probabilities(kind, one, seed=3, simulations=8)
            assert got == bot_probabilities(kind, two, seed=3, simulations=8), kind
            assert {a for a, _ in got} <= set(one.legal_actions())
            assert math.isclose(sum(p for _, p in got), 1.0)


def test_resampling_a_variant_keeps_the_infostate_and_draws_the_hidden_split(
        mini: pyspiel.Game) -> None:
    rng = np.random.RandomState(4)
    checked = 0
    for _ in range(30):
        state = mini.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                a, p = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(a, p=p)))
                continue
            seat = state.current_player()
            other = 1 - seat
            if state.engine.packs[other] and not state.engine.tricks:
                key = state.information_state_string(seat)
                played = {c for _, c in state.engine.current_trick}
                dealt = state.engine.round_starts()[-1].deal[other]
                could = {1 << c for c in C.cards_of(dealt) if c not in played}
                packs = set()
                for s in range(24):
                    world = state.resample_from_infostate(seat, np.random.RandomState(s).rand)
                    assert world.information_state_string(seat) == key
                    assert world.engine.hands[seat] == state.engine.hands[seat]
                    assert world.history() == []  # no record of the true deal rides along
                    packs.add(world.engine.packs[other])
                assert packs == could  # any card of seat `other` it has not played yet
                checked += 1
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert checked >= 5


def test_uniform_random_has_the_exploitability_docs_rl_gives_and_cfr_lowers_it(
        mini: pyspiel.Game, tree: tuple) -> None:
    states, _ = tree
    uniform = bot_policy("random", states)
    assert pyspiel.nash_conv(mini, uniform) == pytest.approx(1.2225, abs=1e-9)
    points = [point for point, _ in solve(mini, 2, (1,))]
    assert [p.iteration for p in points] == [1, 2]
    assert points[0].exploitability == pytest.approx(0.61125, abs=1e-9)  # uniform
    assert points[1].exploitability < 0.33


def test_the_bots_that_cannot_play_a_variant_are_named_with_the_reason(
        mini: pyspiel.Game) -> None:
    refused = refused_bots(mini)
    any_names = {"heuristic-any", "search:1-any", "search:2-any", "search:3-any",
                 "search:4-any", "expert-any"}
    assert set(refused) == {"search", "expert", "learned", "ppo", "search:5", "search:6",
                            *any_names}
    # the general switch changes nothing on a variant: each -any bot is its level's row
    assert refused["expert-any"] == "plays as search:4 (that row)"
    assert all(refused[k] == f"plays as {k.removesuffix('-any')} (that row)"
               for k in any_names - {"expert-any"})
    assert "does not play variants" in refused["ppo"]
    # search:5 and search:6 play the variant (on the network for any ruleset), unmeasured
    assert all(refused[kind].startswith(f"the {kind} bot plays this variant but")
               for kind in ("search:5", "search:6"))
    # the other names of a level are that level's row; learned plays the network for
    # any ruleset off the editions, whose row is learned-any's
    assert refused["search"] == "plays as search:2 (that row)"
    assert refused["expert"] == "plays as search:4 (that row)"
    assert refused["learned"] == "plays as learned-any (that row)"
    with pytest.raises(ConfigError, match="a tabular policy is made of"):
        bot_probabilities("search", next(iter(decision_states(mini)[0].values())))


def test_the_advisors_policy_splits_as_the_advisor_and_plays_as_the_heuristic(
        tree: tuple) -> None:
    from meio.bots.advisor import advise_view
    from meio.engine import Phase
    from meio.openspiel.solve import ADVISOR_WORLDS

    states, _ = tree
    splits = plays = 0
    for state in states.values():
        if len(state.legal_actions()) < 2:
            continue
        seat = state.current_player()
        view = state.engine.view(seat)
        [(action, _)] = bot_probabilities("advisor", state, seed=2)
        if view.phase is Phase.SPLIT and splits < 4:
            best = advise_view(view, worlds=ADVISOR_WORLDS, seed=2).best.pack
            child = state.child(action)
            assert child.engine.packs[seat] == best
            splits += 1
        elif view.phase is not Phase.SPLIT and plays < 8:
            assert [(action, 1.0)] == bot_probabilities("heuristic", state, seed=2)
            plays += 1
        if splits == 4 and plays == 8:
            break
    assert (splits, plays) == (4, 8)


def test_a_heuristic_split_is_the_pack_number_of_its_pack(mini: pyspiel.Game) -> None:
    state = mini.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    [(action, _)] = bot_probabilities("heuristic", state)
    seat = state.current_player()
    state.apply_action(action)
    chosen = state.engine.packs[seat]
    view = state.engine.view(seat)
    from meio.bots import make_bot

    fresh = mini.new_initial_state()
    while fresh.is_chance_node():
        fresh.apply_action(fresh.chance_outcomes()[0][0])
    engine_action = make_bot("heuristic").choose(fresh.view(seat),
                                                 fresh.view(seat).legal_actions())
    assert A.pack_of(engine_action) == chosen and view.pack == chosen


def test_the_network_for_any_ruleset_is_a_pure_policy_of_its_greedy_choices(
        tree: tuple) -> None:
    """``learned-any``'s row: at each information state the one action the general
    network plays from the seat's view, splits included (a pack, then its number)."""
    from meio.bots import make_bot
    from meio.engine import Phase

    states, _ = tree
    bot = make_bot("learned-any", 0)
    splits = plays = 0
    for state in states.values():
        legal = state.legal_actions()
        if len(legal) < 2:
            continue
        seat = state.current_player()
        view = state.engine.view(seat)
        [(action, p)] = bot_probabilities("learned-any", state)
        assert p == 1.0 and action in legal
        chosen = bot.choose(view, view.legal_actions())
        if view.phase is Phase.SPLIT:
            assert state.child(action).engine.packs[seat] == A.pack_of(chosen)
            splits += 1
        else:
            assert action == chosen  # a play, declare or pile action is the engine's id
            plays += 1
        if splits >= 3 and plays >= 8:
            break
    assert splits >= 3 and plays >= 8
