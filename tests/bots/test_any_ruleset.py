"""Strong play on any ruleset: the sampler deals by the ruleset and leaks nothing, and
every bot that plays variants plays a randomly generated ruleset to the end."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from tests.bots.helpers import check_blind_to_hidden_cards
from tests.sim.test_core_variants import variants

from meio.bots import bot_turn, make_bot
from meio.bots.base import Bot
from meio.bots.search import Level, SearchBot
from meio.bots.variant_play import VARIANT_BOTS, check_variant_bot, ranked_packs
from meio.engine import MatchConfig, Phase, State, sample_world
from meio.engine.errors import ConfigError
from meio.engine.presets import is_standard
from meio.engine.ruleset import Variant

SAMPLER_SETTINGS = settings(
    max_examples=60, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


def _table(variant: Variant, data: st.DataObject) -> MatchConfig:
    players = data.draw(st.sampled_from(variant.players))
    partnership = players == 4 and variant.partnership and data.draw(st.booleans())
    return MatchConfig(edition=variant.edition, players=players, partnership=partnership,
                       variant=variant, options=variant.options,
                       seed=data.draw(st.integers(0, 2**20)))


def _played(config: MatchConfig, steps: int, seed: int) -> State:
    state = State.new(config)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        seat = state.current_seat()
        legal = state.legal_actions(seat)
        state.apply(legal[rng.randrange(len(legal))], seat)
    return state


@SAMPLER_SETTINGS
@given(variants(), st.data())
def test_worlds_of_a_generated_ruleset_look_the_same_to_the_seat(
    variant: Variant, data: st.DataObject
) -> None:
    assume(not is_standard(variant))
    config = _table(variant, data)
    state = _played(config, data.draw(st.integers(0, 120)), data.draw(st.integers(0, 99)))
    assume(not state.is_over)
    seat = state.current_seat()
    view = state.view(seat)
    rng = random.Random(3)
    voids = view.voids()
    for _ in range(4):
        world = sample_world(view, rng)
        assert world.view(seat) == view
        assert world.deal[seat] == state.deal[seat]
        for other in range(config.players):
            for suit in voids[other]:
                # a void seat holds no card that must follow that suit
                assert world.hands[other] & config.rules.suit_masks[suit] & ~config.rules.free \
                    == 0


@SAMPLER_SETTINGS
@given(variants(), st.data())
def test_the_sampler_of_a_generated_ruleset_reads_no_hidden_card(
    variant: Variant, data: st.DataObject
) -> None:
    """The no-leak check of the general sampler: swap the other seats' hidden cards
    (a look-alike real state) and the sampler returns the very same worlds."""
    assume(not is_standard(variant))
    config = _table(variant, data)
    state = _played(config, data.draw(st.integers(0, 120)), data.draw(st.integers(0, 99)))
    assume(not state.is_over)
    seat = state.current_seat()
    view = state.view(seat)
    rng = random.Random(17)
    lookalike = None
    for _ in range(30):
        world = sample_world(view, rng)
        if world.hands != state.hands or world.packs != state.packs:
            lookalike = world
            break
    assume(lookalike is not None)
    assert lookalike is not None
    assert lookalike.view(seat) == view
    for k in range(3):
        a = sample_world(view, random.Random(k))
        b = sample_world(lookalike.view(seat), random.Random(k))
        assert (a.deal, a.packs, a.aside) == (b.deal, b.packs, b.aside)


#: the search levels' machinery at a test's budget (inference pool, compiled screen)
SMALL = Level(card_worlds=3, card_playouts=1, split_candidates=3, split_worlds=4,
              split_playouts=1)
SMALL_EXPERT = Level(card_worlds=3, card_playouts=1, split_candidates=4, split_worlds=6,
                     split_playouts=1, pool=6, screen_worlds=1)


#: search:5's and search:6's machinery (the network's prior and packs, halving) likewise
SMALL_NET = SMALL_EXPERT._replace(split_candidates=4, screen_worlds=0)


def _player(kind: str, seed: int) -> Bot:
    if kind in ("search:5", "search:6"):
        from meio.bots.netsearch import NetSearchBot

        playouts = "network" if kind == "search:6" else "heuristic"
        return NetSearchBot(seed, budget=SMALL_NET, playouts=playouts, name=kind)
    if kind.startswith("search:") or kind in ("search", "expert"):
        level = 4 if kind == "expert" else int(kind.partition(":")[2] or 2)
        budget = SMALL_EXPERT if level == 4 else SMALL
        return SearchBot(seed, level, budget=budget)
    return make_bot(kind, seed)


@settings(max_examples=4, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(variants(), st.data())
def test_every_variant_bot_plays_a_generated_ruleset_to_the_end(
    variant: Variant, data: st.DataObject
) -> None:
    assume(not is_standard(variant))
    config = _table(variant, data)
    state = State.new(config)
    kinds = list(VARIANT_BOTS)
    played: list[str] = []
    while not state.is_over:
        kind = kinds[len(played) % len(kinds)]  # each turn the next kind, in turn
        bot_turn(state, [_player(kind, len(played))] * config.players)
        played.append(kind)
    assert set(played) == set(kinds[: len(played)])


def test_the_search_levels_play_a_variant_in_the_real_budget() -> None:
    """search:1 and expert with their own budgets on the 12-card invented variant."""
    from tests.bots.test_variant_play import ODD

    config = MatchConfig(players=3, seed=5, variant=ODD)
    state = State.new(config)
    bots = [make_bot("search:1", 1), make_bot("expert", 2), make_bot("heuristic", 3)]
    phases = set()
    for _ in range(14):
        phases.add(state.phase)
        bot_turn(state, bots)
    assert Phase.SPLIT in phases and Phase.PLAY in phases
    assert all(p.bit_count() == ODD.pack for p in state.packs)


def test_the_split_candidates_of_a_variant_start_with_its_heuristic_pack() -> None:
    from tests.bots.test_variant_play import ODD

    config = MatchConfig(players=4, seed=9, variant=ODD)
    hand = State.new(config).hands[0]
    packs = ranked_packs(hand, config, 10)
    assert len(set(packs)) == 10
    assert all(p & ~hand == 0 and p.bit_count() == ODD.pack for p in packs)
    with pytest.raises(ValueError, match="dealt cards"):
        ranked_packs(hand & (hand - 1), config, 3)


def test_only_the_network_bots_refuse_a_variant_in_one_line() -> None:
    from tests.bots.test_variant_play import ODD

    config = MatchConfig(players=3, variant=ODD)
    for kind in VARIANT_BOTS:
        check_variant_bot(kind, config)
    for kind in ("learned-v7", "ppo", "search:5-v1", "search:5:some.npz", "learned:some.npz"):
        with pytest.raises(ConfigError, match=r"^the .* bot does not play variants") as info:
            check_variant_bot(kind, config)
        assert "\n" not in str(info.value)
        check_variant_bot(kind, MatchConfig(players=3))


def test_a_bots_decision_on_a_variant_does_not_depend_on_hidden_cards() -> None:
    """The bots' no-leak check on an invented variant (12 cards, a 7/5 split, a special
    that goes to the other half): a look-alike state with other hidden cards gets the
    same decision from each bot, search and expert included."""
    from tests.bots.test_variant_play import ODD

    config = MatchConfig(players=4, seed=13, variant=ODD)
    state = State.new(config)
    movers = [make_bot("heuristic", s) for s in range(4)]
    makers = [lambda: make_bot("heuristic", 5), lambda: make_bot("random", 5),
              lambda: SearchBot(5, 1, budget=SMALL), lambda: SearchBot(5, 4, budget=SMALL_EXPERT)]
    phases, _ = check_blind_to_hidden_cards(state, movers, makers, steps=48, every=4,
                                            rng=random.Random(2))
    assert Phase.SPLIT in phases and Phase.PLAY in phases


def test_search_deals_a_variants_card_worlds_in_bulk(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every search level on a variant takes its uniform card worlds from the world pool,
    as the standard game's weighed ones (issue 37's cost), not one sample_world at a
    time."""
    from tests.bots.test_variant_play import ODD

    from meio.bots import search

    config = MatchConfig(players=4, seed=21, variant=ODD)
    state = State.new(config)
    movers = [make_bot("heuristic", s) for s in range(4)]
    while state.phase is Phase.SPLIT or len(state.legal_actions()) < 2:
        bot_turn(state, movers)
    view = state.view(state.current_seat())

    def refuse(*_: object) -> State:
        raise AssertionError("a card world was dealt one at a time")

    monkeypatch.setattr(search, "sample_world", refuse)
    for bot in (SearchBot(5, 1, budget=SMALL), SearchBot(5, 4, budget=SMALL_EXPERT)):
        options, scores = bot.card_values(view, view.legal_actions())
        assert options == list(view.legal_actions()) and len(scores) == len(options)
