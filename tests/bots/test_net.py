"""The learned network three ways: the compiled core reads the view's observation off
its own positions, and PyTorch, NumPy and numba choose the same actions."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import numpy as np
import pytest
from tests.bots.helpers import engine_playouts

from meio.bots import make_bot
from meio.bots import netcore as N
from meio.bots import observation as O
from meio.bots.learned import LOCAL_ACTIONS, LearnedPolicy, load_policy, save_policy
from meio.bots.observation import OBS_SIZE, observe
from meio.engine import MatchConfig, Phase, State, TableOptions, View, sample_world
from meio.engine import actions as A
from meio.engine import cards as C
from meio.sim.convert import state_to_arrays

TABLES = [
    MatchConfig(players=2), MatchConfig(players=3), MatchConfig(players=4),
    MatchConfig(players=5), MatchConfig(players=4, partnership=True),
    MatchConfig(players=4, options=TableOptions(wild_lead="next")),
    MatchConfig(edition="classic", players=3),
]


@pytest.fixture(scope="module")
def network(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, LearnedPolicy]:
    rng = np.random.default_rng(7)
    hidden = 24
    shapes = {"w1": (OBS_SIZE, hidden), "b1": (hidden,), "w2": (hidden, hidden),
              "b2": (hidden,), "w3": (hidden, len(LOCAL_ACTIONS)), "b3": (len(LOCAL_ACTIONS),),
              "wv": (hidden, 1), "bv": (1,)}
    path = tmp_path_factory.mktemp("net") / "net.npz"
    # a layer's weights scaled by its inputs' count: the logits spread out, as a trained
    # network's do, rather than one action getting them all
    weights = {k: rng.normal(size=s) / (np.sqrt(s[0] / 8) if len(s) == 2 else 1.0)
               for k, s in shapes.items()}
    save_policy(path, weights, players=4)
    return path, load_policy(path)


@pytest.fixture(scope="module")
def match_network(network: tuple[Path, LearnedPolicy],
                  tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, LearnedPolicy]:
    """:func:`network` with its first layer's rows of the match so far (the totals and
    the victories) made large: a wrong total turns its choices."""
    _, policy = network
    names = ("w1", "b1", "w2", "b2", "w3", "b3")
    weights = {k: np.asarray(w, dtype=np.float64) for k, w in zip(names, policy.weights,
                                                                    strict=True)}
    weights["w1"][O.TOTALS:O.TOTALS + O.MAX_SEATS] *= 300.0
    weights["w1"][O.VICTORIES:O.VICTORIES + O.MAX_SEATS] *= 300.0
    path = tmp_path_factory.mktemp("net") / "match.npz"
    save_policy(path, weights, players=4)
    return path, load_policy(path)


def _random_states(config: MatchConfig, seed: int) -> list[State]:
    """Every state of a match played at random (splits included), in order."""
    rng = random.Random(seed)
    state = State.new(_with_seed(config, seed))
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


def _with_seed(config: MatchConfig, seed: int) -> MatchConfig:
    return dataclasses.replace(config, seed=seed, first_leader=None)


@pytest.mark.parametrize("config", TABLES, ids=lambda c: f"{c.edition}-{c.players}"
                         f"{'-team' if c.partnership else ''}-{c.options.wild_lead}")
def test_the_core_reads_each_seats_observation_off_its_position(config: MatchConfig) -> None:
    checked = {Phase.SPLIT: 0, Phase.PLAY: 0, Phase.PILE: 0}
    for seed in range(2):
        for state in _random_states(config, seed)[seed::2]:
            position = state_to_arrays(state).array
            for seat in range(config.players):
                view = state.view(seat)
                got = N.observe_position(position, config, seat, match=_match(state))
                np.testing.assert_allclose(got, observe(view), atol=1e-6)
                checked[view.phase] += 1
    assert checked[Phase.SPLIT] and checked[Phase.PLAY]


@pytest.mark.parametrize("config", TABLES[:6], ids=lambda c: f"{c.players}"
                         f"{'-team' if c.partnership else ''}-{c.options.wild_lead}")
def test_the_kernels_own_positions_read_as_the_views(config: MatchConfig) -> None:
    """The positions the kernels reach as they play (not converted from the engine): a
    trick waiting for its pile (``+.5``) stays in the kernel's trick until the pile is
    chosen, where the view shows no trick and no led suit."""
    from meio.sim import core as K
    from meio.sim.tables import tables_for

    t = tables_for(config)
    piles = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = State.new(_with_seed(config, seed))
        s = np.zeros(K.STATE_LEN, dtype=np.int32)
        hands = np.zeros((5, 13), dtype=np.int32)
        for p in range(config.players):
            hands[p] = C.cards_of(state.hands[p])
        K.start_round(s, t.cfg, t.ruleset, hands, state.round_leader)
        while not state.rounds:
            seat = state.current_seat()
            legal = state.legal_actions(seat)
            action = legal[rng.randrange(len(legal))]
            if state.phase is Phase.SPLIT:
                state.apply(action, seat)
                K.apply_split(s, t.cfg, t.ruleset, seat,
                              np.array(C.cards_of(A.pack_of(action)), dtype=np.int32))
                continue
            state.apply(action, seat)
            K.apply_action(s, t.cfg, t.ruleset, action)
            if state.rounds:
                break
            for q in range(config.players):
                np.testing.assert_allclose(
                    N.observe_position(s, config, q, match=_match(state)),
                    observe(state.view(q)), atol=1e-6)
            piles += state.phase is Phase.PILE
    assert piles  # some trick went to a pile its winner chose


def test_a_split_pick_is_read_off_the_position_too() -> None:
    config = MatchConfig(players=4, seed=5)
    state = State.new(config)
    view = state.view(1)
    picked = C.mask_of(C.cards_of(view.hand)[::3])
    got = N.observe_position(state_to_arrays(state).array, config, 1, picked=picked)
    np.testing.assert_array_equal(got, observe(view, picked=picked))


@pytest.mark.parametrize("config", TABLES[:5], ids=lambda c: f"{c.players}-{c.partnership}")
def test_numpy_and_the_compiled_core_choose_the_same_actions(
        config: MatchConfig, network: tuple[Path, LearnedPolicy]) -> None:
    _, policy = network
    decisions = 0
    for state in _random_states(config, 11)[:80]:
        seat = state.current_seat()
        view = state.view(seat)
        position = state_to_arrays(state).array
        if view.phase is Phase.SPLIT:
            core = A.pack_action(C.mask_of(N.core_split(position, config, seat, policy,
                                                        _match(state))))
        elif len(view.legal_actions()) > 1:
            core = N.core_action(position, config, policy, _match(state))
        else:
            continue
        assert core == policy.choose(view)
        decisions += 1
    assert decisions > 30


def test_pytorch_gives_the_numpy_logits_and_value(network: tuple[Path, LearnedPolicy]) -> None:
    torch = pytest.importorskip("torch")
    from meio.rl.distil import network_from

    _, policy = network
    net = network_from(policy.weights, policy.value_head)
    states = _random_states(MatchConfig(players=4), 3)[::7]
    obs = np.stack([observe(s.view(s.current_seat())) for s in states])
    with torch.no_grad():
        logits, value = net(torch.from_numpy(obs))
    np.testing.assert_allclose(logits.numpy(), policy.logits(obs), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(value.numpy() * 10.0, [policy.value(o) for o in obs],
                               rtol=1e-4, atol=1e-4)
    masks = [np.isin(LOCAL_ACTIONS, list(s.legal_actions(s.current_seat()))) for s in states]
    for row, mask, o in zip(logits.numpy(), masks, obs, strict=True):
        if mask.any():
            assert np.argmax(np.where(mask, row, -np.inf)) == np.argmax(
                np.where(mask, policy.logits(o), -np.inf))


@pytest.mark.parametrize("config", [MatchConfig(players=4), MatchConfig(players=3),
                                    MatchConfig(players=4, partnership=True)],
                         ids=["4", "3", "team"])
def test_a_game_of_the_compiled_network_is_the_python_bots_game(
        config: MatchConfig, match_network: tuple[Path, LearnedPolicy]) -> None:
    """Every round of each match, by a network that weighs the match so far heavily: from
    the second round on it reads the totals and victories, so the core's match
    bookkeeping must be the engine's."""
    path, policy = match_network
    out = N.simulate(config, 0, 3, 9, policy)
    bots = [make_bot(f"learned:{path}", p) for p in range(config.players)]
    later_rounds = 0
    for g in range(3):
        state = State.new(config)
        for r in range(int(out["rounds_played"][g])):
            hands = [C.mask_of(int(c) for c in out["deals"][g, r, p])
                     for p in range(config.players)]
            state.redeal(hands, config.deck & ~sum(hands), int(out["leaders"][g, r]))
            for p in out["split_orders"][g, r]:  # in seat order, as the engine asks
                seat = state.current_seat()
                assert seat == p
                view = state.view(seat)
                pack = bots[seat].choose(view, view.legal_actions())
                assert A.pack_of(pack) == C.mask_of(int(c) for c in out["splits"][g, r, seat])
                state.apply(pack, seat)
            for action in out["plays"][g, r, : out["nplays"][g, r]]:
                seat = state.current_seat()
                view = state.view(seat)
                assert bots[seat].choose(view, view.legal_actions()) == int(action) & 0xFF
                state.apply(int(action) & 0xFF, seat)
            assert state.rounds[r].piles == tuple(tuple(int(x) for x in p)
                                                  for p in out["piles"][g, r])
            later_rounds += r > 0
        assert state.is_over
    assert later_rounds  # the totals and victories of a match were read


def test_search_5_searches_only_the_networks_likeliest_moves(
        network: tuple[Path, LearnedPolicy]) -> None:
    from meio.bots.netsearch import NetSearchBot

    path, _ = network
    bot = NetSearchBot(1, path=path, top=2, sure=0.999)
    searched = 0
    for state in _random_states(MatchConfig(players=4), 5)[:60]:
        seat = state.current_seat()
        view = state.view(seat)
        legal = list(view.legal_actions())
        if view.phase is Phase.SPLIT or len(legal) < 3:
            continue
        prior = bot.prior(view, legal)
        options, scores = bot.card_values(view, legal)
        likeliest = {legal[int(i)] for i in np.argsort(-prior)[:2]}
        if prior.max() >= 0.999:
            assert options == [legal[int(np.argmax(prior))]]
        else:
            assert set(options) == likeliest and len(scores) == 2
            searched += 1
        assert bot.choose(view, legal) in options
    assert searched >= 3


def _exact_pack_scores(policy: LearnedPolicy, view: View) -> dict[int, float]:
    """Every pack's score as the beam scores it, exactly: the best sum of its picks'
    log-probabilities over the orders of picking it (a pass over all 2,380 subsets
    of up to six of the 13 cards, smallest first)."""
    cards = C.cards_of(view.hand)
    best = {0: 0.0}
    for _ in range(6):
        grown: dict[int, float] = {}
        for picked, score in best.items():
            logits = policy.logits(observe(view, picked=picked))[-13:].astype(np.float64)
            open_ = [i for i, card in enumerate(cards) if not picked >> card & 1]
            chosen = logits[open_]
            logq = chosen - np.logaddexp.reduce(chosen)
            for i, lq in zip(open_, logq, strict=True):
                pack = picked | 1 << cards[i]
                grown[pack] = max(grown.get(pack, -np.inf), score + float(lq))
        best = grown
    return best


def test_the_networks_best_packs_come_from_a_beam_over_its_picks(
        network: tuple[Path, LearnedPolicy]) -> None:
    _, policy = network
    found = 0
    for seed in range(6):
        view = State.new(MatchConfig(players=4, seed=seed)).view(seed % 4)
        packs = policy.top_packs(view, 16)
        assert len(set(packs)) == 16
        assert all(C.count(p) == 6 and p & ~view.hand == 0 for p in packs)
        assert packs[0] == A.pack_of(policy.choose(view))
        exact = _exact_pack_scores(policy, view)
        ranked = sorted(exact, key=lambda p: -exact[p])
        found += ranked[0] in packs
        # the beam's packs are among the best by the exact score, not the worst
        assert np.median([ranked.index(p) for p in packs]) < 100
        assert policy.top_packs(view, 1) == packs[:1]
    assert found >= 5
    view = State.new(MatchConfig(players=4, seed=0)).view(0)
    with pytest.raises(ValueError, match="1 or more"):
        policy.top_packs(view, 0)


def test_search_5_races_the_networks_best_packs_at_the_split(
        network: tuple[Path, LearnedPolicy], monkeypatch: pytest.MonkeyPatch) -> None:
    from meio.bots.netsearch import NetSearchBot
    from meio.bots.search import SearchBot

    path, policy = network
    view = State.new(MatchConfig(players=4, seed=2)).view(1)
    raced: list[list[int]] = []
    halving = SearchBot._halving

    def spy(self: SearchBot, view: View, packs: list[int], *rest: object) -> int:
        raced.append(list(packs))
        return halving(self, view, packs, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(SearchBot, "_halving", spy)
    bot = NetSearchBot(1, path=path)
    action = bot.choose(view, view.legal_actions())
    assert raced == [policy.top_packs(view, 8)]
    assert A.pack_of(action) in raced[0]
    # another network, other packs: search:5:PATH stands on the network at PATH
    raced.clear()
    other = make_bot(f"search:5:{path}", 1)
    assert isinstance(other, NetSearchBot) and other.name == f"search:5:{path}"
    other.choose(view, view.legal_actions())
    shipped = make_bot("search:5", 1)
    shipped.choose(view, view.legal_actions())
    assert raced[0] == policy.top_packs(view, 8) and raced[1] != raced[0]


def test_search_5_takes_a_budget_in_place_of_search_4s(
        network: tuple[Path, LearnedPolicy]) -> None:
    from meio.bots.netsearch import NetSearchBot
    from meio.bots.search import LEVELS

    path, _ = network
    small = LEVELS[4]._replace(card_worlds=3, split_worlds=2)
    assert NetSearchBot(1, path=path, budget=small).budget == small
    # the weights are read once a process, not for every bot a server builds
    assert NetSearchBot(1, path=path).network is NetSearchBot(2, path=path).network
    level = NetSearchBot(1, path=path).budget
    assert level == LEVELS[4]._replace(split_candidates=8, split_worlds=128, screen_worlds=0)


@pytest.mark.parametrize("config", TABLES, ids=lambda c: f"{c.edition}-{c.players}"
                         f"{'-team' if c.partnership else ''}-{c.options.wild_lead}")
def test_the_networks_playouts_in_the_core_are_the_python_bots(
        config: MatchConfig, network: tuple[Path, LearnedPolicy]) -> None:
    path, policy = network
    playouts = N.NetPlayouts(policy)
    phases = set()
    for seed in range(3):
        states = _random_states(config, 40 + seed)
        for state in states[3 + seed::9]:
            seat = state.current_seat()
            legal = list(state.legal_actions(seat))
            actions = legal[:: max(1, len(legal) // 3)][:3]
            # the decision in a few worlds: the same position with the hidden hands
            # dealt again, as a search would see them
            view = state.view(seat)
            rng = random.Random(seed)
            worlds = [state] + [sample_world(view, rng) for _ in range(2)]
            if state.phase is Phase.SPLIT:  # worlds where the others have split
                worlds = [state]
            match = N.MatchSoFar.of(view)
            got = playouts.states(worlds, actions, seat, match)
            want = engine_playouts(worlds, actions, seat,
                                   lambda p: make_bot(f"learned:{path}", p))
            np.testing.assert_allclose(got, want)
            phases.add(state.phase)
    assert {Phase.SPLIT, Phase.PLAY} <= phases


def test_network_playouts_refuse_what_the_core_cannot_play(
        network: tuple[Path, LearnedPolicy]) -> None:
    _, policy = network
    playouts = N.NetPlayouts(policy)
    state = State.new(MatchConfig(players=4, seed=1))
    match = N.MatchSoFar()
    with pytest.raises(ValueError, match="at least one"):
        playouts.states([], [1], 0, match)
    hidden = MatchConfig(players=4, seed=1, options=TableOptions(reveal_specials=False))
    position = state_to_arrays(state).array[None]
    with pytest.raises(ValueError, match="specials known"):
        playouts.positions(hidden.public(), position, [state.legal_actions(0)[0]], 0, match)


def test_search_6_plays_the_inferred_worlds_out_with_the_network(
        network: tuple[Path, LearnedPolicy]) -> None:
    from meio.bots.inference import infer_positions
    from meio.bots.netsearch import NET_PLAYOUT_LEVEL, NetSearchBot
    from meio.bots.search import decision_seed, objective

    path, policy = network
    bot = NetSearchBot(1, path=path, playouts="network", sure=0.999)
    heuristic = NetSearchBot(1, path=path, budget=NET_PLAYOUT_LEVEL, sure=0.999)
    assert bot.budget == NET_PLAYOUT_LEVEL and bot.budget.card_worlds < heuristic.budget.pool
    playouts = N.NetPlayouts(policy)
    compared = differs = 0
    for state in _random_states(MatchConfig(players=4), 11)[:80]:
        seat = state.current_seat()
        view = state.view(seat)
        legal = list(view.legal_actions())
        if view.phase is Phase.SPLIT or len(legal) < 2:
            continue
        options, scores = bot.card_values(view, legal)
        plain, plain_scores = heuristic.card_values(view, legal)
        assert options == plain  # the same candidates: the network's likeliest
        if len(options) < 2:
            continue
        rng = random.Random(decision_seed(1, view))
        config, positions = infer_positions(view, 48, 320, rng, bot.model)
        want = objective(playouts.positions(config, positions, options, seat,
                                            N.MatchSoFar.of(view)), view)
        np.testing.assert_allclose(scores, want)
        compared += 1
        differs += not np.allclose(scores, plain_scores)
        searched = (view, legal, seat)
        assert bot.choose(view, legal) == options[int(np.argmin(scores))]
    assert compared >= 5 and differs >= compared // 2
    # a budget without a pool plays uniform worlds, as search:4's levels without one do
    view, legal, seat = searched
    uniform = NetSearchBot(1, path=path, playouts="network", sure=0.999,
                           budget=NET_PLAYOUT_LEVEL._replace(card_worlds=6, pool=0))
    options, scores = uniform.card_values(view, legal)
    rng = random.Random(decision_seed(1, view))
    worlds = [sample_world(view, rng) for _ in range(6)]
    want = objective(playouts.states(worlds, options, seat, N.MatchSoFar.of(view)), view)
    np.testing.assert_allclose(scores, want)


def test_search_6_races_packs_in_worlds_the_network_plays_out(
        network: tuple[Path, LearnedPolicy], monkeypatch: pytest.MonkeyPatch) -> None:
    from meio.bots.netsearch import NetSearchBot

    path, policy = network
    calls: list[int] = []
    real = N.NetPlayouts.states

    def spy(self: N.NetPlayouts, states: list[State], *rest: object) -> np.ndarray:
        calls.append(len(states))
        return real(self, states, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(N.NetPlayouts, "states", spy)
    view = State.new(MatchConfig(players=4, seed=2)).view(1)
    small = NetSearchBot(1, path=path, playouts="network").budget._replace(split_worlds=8)
    bot = NetSearchBot(1, path=path, playouts="network", budget=small)
    action = bot.choose(view, view.legal_actions())
    assert A.pack_of(action) in policy.top_packs(view, 8)
    assert len(calls) == 3 and sum(calls) > 0  # three rounds of halving over eight packs


def test_search_6_falls_back_to_search_5s_playouts_where_the_core_cannot_play_them(
        network: tuple[Path, LearnedPolicy]) -> None:
    from meio.bots.netsearch import NET_PLAYOUT_LEVEL, NetSearchBot, core_plays_network

    path, _ = network
    config = MatchConfig(players=4, seed=3, options=TableOptions(reveal_specials=False))
    state = State.new(config)
    bots = [make_bot("heuristic", p) for p in range(4)]
    while state.phase is not Phase.PLAY or len(state.legal_actions()) < 2:
        seat = state.current_seat()
        view = state.view(seat)
        state.apply(bots[seat].choose(view, view.legal_actions()), seat)
    seat = state.current_seat()
    view = state.view(seat)
    assert not core_plays_network(view.config) and core_plays_network(MatchConfig(players=4))
    small = NET_PLAYOUT_LEVEL._replace(card_worlds=6, pool=12)
    six = NetSearchBot(1, path=path, playouts="network", budget=small, sure=1.1)
    five = NetSearchBot(1, path=path, budget=small, sure=1.1)
    legal = list(view.legal_actions())
    got, want = six.card_values(view, legal), five.card_values(view, legal)
    assert got[0] == want[0]
    np.testing.assert_allclose(got[1], want[1])


def test_search_6_is_a_bot_kind_that_stands_on_a_given_network(
        network: tuple[Path, LearnedPolicy]) -> None:
    from meio.bots import bot_kinds
    from meio.bots.netsearch import NetSearchBot

    path, _ = network
    assert "search:6" in bot_kinds()
    shipped = make_bot("search:6", 1)
    assert isinstance(shipped, NetSearchBot) and shipped.playouts == "network"
    other = make_bot(f"search:6:{path}", 1)
    assert isinstance(other, NetSearchBot) and other.name == f"search:6:{path}"
    assert other.playouts == "network" and other.network is not shipped.network
    assert make_bot(f"search:5:{path}", 1).playouts == "heuristic"  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="playouts must be one of"):
        NetSearchBot(1, path=path, playouts="random")


def test_the_networks_kernels_are_never_older_than_the_files_they_compile_from() -> None:
    # numba keys netcore's disk cache on netcore.py alone: at import it takes the stamp of
    # the core (and, through the core, the engine's rules) and of the observation's
    # offsets when they are newer, so an edit there recompiles these kernels by itself
    import os

    from meio.engine import scoring, tricks
    from meio.sim import core

    own = os.stat(N.__file__).st_mtime_ns
    for source in (core, O, tricks, scoring):
        assert source.__file__ is not None
        assert os.stat(source.__file__).st_mtime_ns <= own, source.__name__
