"""``search:5`` and ``search:6`` on any ruleset: off the editions they stand on the
network for any ruleset (its prior, its packs beside the ruleset heuristic's, its
playouts in the core for ``search:6``), play generated rulesets to the end and read no
hidden card."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from tests.bots.helpers import check_blind_to_hidden_cards, engine_playouts

from meio.bots import bot_turn, make_bot
from meio.bots import netcore as N
from meio.bots.attributes import observe_any
from meio.bots.general import GENERAL_POLICY, GeneralBot, cached_general
from meio.bots.inference import infer_positions
from meio.bots.netsearch import (
    NET_LEVEL,
    NET_PLAYOUT_LEVEL,
    NetSearchBot,
    general_top_packs,
)
from meio.bots.search import decision_seed, objective
from meio.bots.variant_play import VARIANT_BOTS, check_variant_bot, ranked_packs
from meio.engine import MatchConfig, Phase, State, sample_world
from meio.engine import actions as A
from meio.engine.errors import ConfigError
from meio.engine.ruleset import Variant
from meio.engine.ruleset_file import load_variant
from meio.rl.general import random_ruleset

ROOT = Path(__file__).resolve().parents[2]
SIX_SEVEN = load_variant(ROOT / "examples" / "variants" / "six-seven.toml")
#: the machinery of search:5 (pool, halving over the candidates) at a test's budget
SMALL = NET_LEVEL._replace(card_worlds=3, split_worlds=8, pool=6)
SMALL_NET = NET_PLAYOUT_LEVEL._replace(card_worlds=3, split_worlds=8, pool=6)


def _table(variant: Variant, players: int, partnership: bool = False,
           seed: int = 1) -> MatchConfig:
    return MatchConfig(edition=variant.edition, players=players, partnership=partnership,
                       variant=variant, options=variant.options, seed=seed)


def _drawn(players: int, partnership: bool, seed: int) -> Variant:
    """A generated ruleset (meio.rl.general's draw) with a deck for the table, whose
    specials are shown (where the core plays a network)."""
    rng = random.Random(seed)
    while True:
        variant = random_ruleset(rng)
        if (players in variant.players and (variant.partnership or not partnership)
                and variant.options.reveal_specials):
            return variant


def _to_split_and_play(config: MatchConfig, seed: int) -> tuple[State, State]:
    """A state at a seat's split and one in play with at least two legal actions."""
    state = State.new(config)
    movers = [make_bot("heuristic", s) for s in range(config.players)]
    split = state.clone()
    while state.phase is Phase.SPLIT or len(state.legal_actions()) < 2:
        bot_turn(state, movers)
    for _ in range(seed):
        bot_turn(state, movers)
    while len(state.legal_actions()) < 2:
        bot_turn(state, movers)
    return split, state


@pytest.mark.parametrize("playouts", ["heuristic", "network"])
@pytest.mark.parametrize(("players", "partnership"), [(3, False), (4, False), (4, True)],
                         ids=["3", "4", "partnership"])
def test_search_5_and_6_play_a_generated_ruleset_to_the_end(
        playouts: str, players: int, partnership: bool,
        monkeypatch: pytest.MonkeyPatch) -> None:
    played_out: list[int] = []
    real = N.NetPlayouts.positions

    def spy(self: N.NetPlayouts, *args: object, **kwargs: object) -> np.ndarray:
        played_out.append(1)
        return real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(N.NetPlayouts, "positions", spy)
    variant = _drawn(players, partnership, 11 + players + partnership)
    config = _table(variant, players, partnership, seed=7)
    budget = SMALL_NET if playouts == "network" else SMALL
    bots = [NetSearchBot(s, budget=budget, playouts=playouts, sure=1.1)
            for s in range(players)]
    state = State.new(config)
    phases = set()
    while not state.is_over:
        phases.add(state.phase)
        bot_turn(state, bots)  # each action applied through the engine's checks
    assert {Phase.SPLIT, Phase.PLAY} <= phases
    assert all(len(r.scores) == players for r in state.rounds)
    # it stood on the network for any ruleset (the editions' network refuses this deck)
    assert all(b.general_path == str(GENERAL_POLICY) for b in bots)
    # search:6 played its worlds out with that network in the core, search:5 did not
    assert bool(played_out) == (playouts == "network")


def test_off_the_editions_the_prior_is_the_network_for_any_ruleset() -> None:
    config = _table(SIX_SEVEN, 4, seed=3)
    _, state = _to_split_and_play(config, 5)
    view = state.view(state.current_seat())
    legal = list(view.legal_actions())
    bot = NetSearchBot(1, budget=SMALL)
    logits = cached_general(str(GENERAL_POLICY)).logits(observe_any(view)).astype(np.float64)
    chosen = logits[legal]
    want = np.exp(chosen - chosen.max())
    np.testing.assert_allclose(bot.prior(view, legal), want / want.sum(), rtol=1e-4)
    # when the network is sure no search is run: its choice, as learned's
    sure = NetSearchBot(1, budget=SMALL, sure=0.0)
    options, scores = sure.card_values(view, legal)
    assert options == [GeneralBot().choose(view, legal)] and list(scores) == [0.0]


def test_the_sparse_first_layer_gives_the_networks_logits() -> None:
    policy = cached_general(str(GENERAL_POLICY))
    w1, b1, w2, b2, w3, b3 = policy.weights
    for state in (_to_split_and_play(_table(SIX_SEVEN, 4, seed=s), s)[1] for s in range(3)):
        x = observe_any(state.view(state.current_seat()))
        dense = np.maximum(np.maximum(x @ w1 + b1, 0.0) @ w2 + b2, 0.0) @ w3 + b3
        np.testing.assert_allclose(policy.logits(x), dense, rtol=1e-4, atol=1e-4)
        # a batch takes the dense product, row for row the same
        np.testing.assert_allclose(policy.logits(np.stack([x, x]))[1], dense,
                                   rtol=1e-4, atol=1e-4)


def test_off_the_editions_the_split_races_the_networks_packs_and_the_heuristics() -> None:
    config = _table(SIX_SEVEN, 4, seed=4)
    split, _ = _to_split_and_play(config, 0)
    view = split.view(2)
    bot = NetSearchBot(1, budget=SMALL)
    packs = bot.candidate_packs(view)
    network = general_top_packs(cached_general(str(GENERAL_POLICY)), view, 4)
    assert packs[:4] == network and len(set(packs)) == len(packs) == 8
    assert network[0] == cached_general(str(GENERAL_POLICY)).pack(view)  # its greedy pack
    assert packs[4:] == [p for p in ranked_packs(view.hand, config, 8)
                         if p not in network][:4]
    assert all(p & ~view.hand == 0 and p.bit_count() == SIX_SEVEN.pack for p in packs)
    action = bot.choose(view, view.legal_actions())
    assert A.pack_of(action) in packs
    with pytest.raises(ValueError, match="at the split"):
        general_top_packs(cached_general(str(GENERAL_POLICY)), _to_split_and_play(
            config, 1)[1].view(0), 3)


@pytest.mark.parametrize(("players", "partnership"), [(4, False), (4, True), (3, False)],
                         ids=["4", "partnership", "3"])
def test_search_6s_playouts_off_the_editions_are_the_general_networks(
        players: int, partnership: bool) -> None:
    """The core's playouts with the folded network for any ruleset play each world out as
    the NumPy network does, at the split (the other seats' splits are the network's too)
    and in play."""
    variant = _drawn(players, partnership, 5) if partnership else SIX_SEVEN
    config = _table(variant, players, partnership, seed=8)
    playouts = N.NetPlayouts(cached_general(str(GENERAL_POLICY)))
    split, state = _to_split_and_play(config, 3)
    fresh = State.new(config)
    seat = fresh.current_seat()
    packs = ranked_packs(fresh.hands[seat], config, 3)
    actions = [A.pack_action(p) for p in packs]
    got = playouts.states([fresh], actions, seat, N.MatchSoFar())
    np.testing.assert_allclose(got, engine_playouts([fresh], actions, seat, lambda _: GeneralBot()))
    seat = state.current_seat()
    view = state.view(seat)
    legal = list(view.legal_actions())[:3]
    rng = random.Random(2)
    worlds = [state] + [sample_world(view, rng) for _ in range(2)]
    got = playouts.states(worlds, legal, seat, N.MatchSoFar.of(view))
    np.testing.assert_allclose(got, engine_playouts(worlds, legal, seat, lambda _: GeneralBot()))
    assert split.phase is Phase.SPLIT


def test_search_6_plays_a_variants_worlds_out_with_the_general_network() -> None:
    config = _table(SIX_SEVEN, 4, seed=9)
    _, state = _to_split_and_play(config, 6)
    seat = state.current_seat()
    view = state.view(seat)
    legal = list(view.legal_actions())
    six = NetSearchBot(1, budget=SMALL_NET, playouts="network", sure=1.1)
    five = NetSearchBot(1, budget=SMALL_NET, sure=1.1)
    options, scores = six.card_values(view, legal)
    assert options == five.card_values(view, legal)[0]  # the network's likeliest
    rng = random.Random(decision_seed(1, view))
    deck, positions = infer_positions(view, SMALL_NET.card_worlds, SMALL_NET.pool, rng,
                                      six.model)
    playouts = N.NetPlayouts(cached_general(str(GENERAL_POLICY)))
    want = objective(playouts.positions(deck, positions, options, seat,
                                        N.MatchSoFar.of(view)), view)
    np.testing.assert_allclose(scores, want)


def test_the_decisions_of_search_5_and_6_on_a_variant_do_not_depend_on_hidden_cards() -> None:
    """The no-leak check: a look-alike state whose other seats hold other hidden cards
    gets the same decision, at the split and in play, with either playouts."""
    config = _table(SIX_SEVEN, 4, seed=13)
    state = State.new(config)
    movers = [make_bot("heuristic", s) for s in range(4)]
    makers = [lambda: NetSearchBot(5, budget=SMALL, sure=1.1),
              lambda: NetSearchBot(5, budget=SMALL_NET, playouts="network", sure=1.1)]
    phases, compared = check_blind_to_hidden_cards(state, movers, makers, steps=40, every=5,
                                                   rng=random.Random(2))
    assert Phase.SPLIT in phases and Phase.PLAY in phases and compared >= 5


def test_search_5_and_6_play_variants_where_their_editions_versions_do_not() -> None:
    config = _table(SIX_SEVEN, 4)
    assert {"search:5", "search:6"} <= set(VARIANT_BOTS)
    check_variant_bot("search:5", config)
    check_variant_bot("search:6", config)
    # the versioned names keep their meaning (the editions' network), as learned-v7;
    # search:5:PATH stands on the editions' network at PATH alone
    for kind in ("search:5-v1", "search:6-v1", "search:5:some.npz", "search:6:some.npz"):
        with pytest.raises(ConfigError, match="does not play variants"):
            check_variant_bot(kind, config)
        check_variant_bot(kind, MatchConfig(players=4))
    state = State.new(config)
    view = state.view(state.current_seat())
    alone = NetSearchBot(1, budget=SMALL, general=None)
    with pytest.raises(ConfigError, match="does not play variants"):
        alone.choose(view, view.legal_actions())
    # an edition's table is played on the editions' network whatever general is
    standard = State.new(MatchConfig(players=4, seed=2)).view(1)
    assert alone.candidate_packs(standard) == NetSearchBot(1).network.top_packs(standard, 8)
