"""The network for any ruleset in the compiled core: the kernels' folded first layer is
the Python encoding's (observe_any), they choose the NumPy bot's actions on variants,
and whole games of a variant play out with it."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import numpy as np
import pytest

from meio.bots import netcore as N
from meio.bots.attributes import ANY_SIZE, observe_any
from meio.bots.general import OUTPUTS, GeneralPolicy, load_general, save_general
from meio.bots.learned import DEFAULT_POLICY, load_policy
from meio.engine import MatchConfig, Phase, State
from meio.engine import actions as A
from meio.engine import cards as C
from meio.engine.ruleset_file import load_variant, parse_variant
from meio.sim.convert import state_to_arrays

ROOT = Path(__file__).resolve().parents[2]
RULESETS = [
    load_variant(ROOT / "examples/variants/six-seven.toml"),
    load_variant(ROOT / "bench/rulesets/invented-special.toml"),
    load_variant(ROOT / "bench/rulesets/no-trump.toml"),
    # a 12-card hand split 8/4, classic cards, partnership on victories
    parse_variant('preset = "classic"\ntrump = "S"\n[hand]\nsize = 12\nfirst_half = 8\n'
                  'pack = 4\n', "odd"),
]


def _tables() -> list[MatchConfig]:
    out = []
    for v in RULESETS:
        out.append(MatchConfig(edition=v.edition, players=4, variant=v, options=v.options))
    v = RULESETS[3]
    out.append(MatchConfig(edition=v.edition, players=4, partnership=True, variant=v,
                           options=v.options))
    v = RULESETS[1]
    out.append(MatchConfig(edition=v.edition, players=3, variant=v, options=v.options))
    return out


TABLES = _tables()


@pytest.fixture(scope="module")
def network(tmp_path_factory: pytest.TempPathFactory) -> GeneralPolicy:
    rng = np.random.default_rng(3)
    hidden = 16
    shapes = {"w1": (ANY_SIZE, hidden), "b1": (hidden,), "w2": (hidden, hidden),
              "b2": (hidden,), "w3": (hidden, OUTPUTS), "b3": (OUTPUTS,)}
    weights = {k: rng.normal(size=s) / (np.sqrt(s[0] / 8) if len(s) == 2 else 1.0)
               for k, s in shapes.items()}
    path = tmp_path_factory.mktemp("any") / "any.npz"
    save_general(path, weights)
    return load_general(path)


def _states(config: MatchConfig, seed: int) -> list[State]:
    rng = random.Random(seed)
    state = State.new(dataclasses.replace(config, seed=seed, first_leader=None))
    out = []
    while not state.is_over:
        out.append(state.clone())
        seat = state.current_seat()
        legal = state.legal_actions(seat)
        state.apply(legal[rng.randrange(len(legal))], seat)
    return out


def _match(state: State) -> N.MatchSoFar:
    view = state.view(0)
    return N.MatchSoFar(tuple(view.totals), tuple(view.victories or ()), view.round_index)


@pytest.mark.parametrize("config", TABLES, ids=lambda c: f"{c.ruleset.name}-{c.players}"
                         f"{'-team' if c.partnership else ''}")
def test_the_kernels_first_layer_is_the_python_encodings(
        config: MatchConfig, network: GeneralPolicy) -> None:
    w1, b1 = network.weights[0], network.weights[1]
    checked = 0
    for state in _states(config, 1)[::3]:
        position = state_to_arrays(state).array
        for seat in range(config.players):
            view = state.view(seat)
            picked = 0
            if view.phase is Phase.SPLIT and not view.split_done[seat]:
                picked = C.mask_of(C.cards_of(view.hand)[::4])
            want = observe_any(view, picked=picked).astype(np.float64) @ w1 + b1
            got = N.general_preactivation(position, config, seat, network, picked=picked,
                                          match=_match(state))
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
            checked += 1
    assert checked > 40


@pytest.mark.parametrize("config", TABLES[:4], ids=lambda c: c.ruleset.name)
def test_numpy_and_the_core_choose_the_same_actions_on_a_variant(
        config: MatchConfig, network: GeneralPolicy) -> None:
    decisions = 0
    for state in _states(config, 5)[:90]:
        seat = state.current_seat()
        view = state.view(seat)
        position = state_to_arrays(state).array
        if view.phase is Phase.SPLIT:
            core = A.pack_action(C.mask_of(N.core_split(position, config, seat, network,
                                                        _match(state))))
        elif len(view.legal_actions()) > 1:
            core = N.core_action(position, config, network, _match(state))
        else:
            continue
        assert core == network.choose(view)
        decisions += 1
    assert decisions > 30


def test_whole_variant_matches_play_in_the_core(network: GeneralPolicy) -> None:
    config = TABLES[0]
    out = N.simulate(config, 0, 6, 1, network)
    assert (out["rounds_played"] >= 1).all()
    assert out["splits"].shape[-1] == 7 and out["deals"].shape[-1] == 13
    # the piles of every round played hold all 13 tricks
    for g in range(6):
        for r in range(int(out["rounds_played"][g])):
            assert int(out["piles"][g, r].sum()) == 13
    # the same seed, the same games; one network seat against the ruleset's heuristic
    again = N.simulate(config, 0, 6, 1, network)
    assert np.array_equal(out["plays"], again["plays"])
    mixed = N.simulate(config, 0, 6, 1, network, net_seats=0b0001)
    assert not np.array_equal(out["plays"], mixed["plays"])


def test_the_editions_network_refuses_a_variant_in_the_core() -> None:
    with pytest.raises(ValueError, match="network for any ruleset"):
        N.simulate(TABLES[0], 0, 1, 1, load_policy(DEFAULT_POLICY))
