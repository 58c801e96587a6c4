"""The attribute encoding (meio.bots.attributes): what each card is in a ruleset, the
ruleset's numbers, and a seat's view of any ruleset as one vector that holds no hidden
card."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from tests.sim.test_core_variants import variants

from meio.bots import attributes as T
from meio.bots.observation import OBS_SIZE, observe
from meio.engine import MatchConfig, State, TableOptions, sample_world
from meio.engine import cards as C
from meio.engine.presets import is_standard, preset
from meio.engine.ruleset import Variant
from meio.engine.ruleset_file import load_variant, parse_variant

ROOT = Path(__file__).resolve().parents[2]


def _variant_table(variant: Variant, seed: int = 5, players: int = 4) -> MatchConfig:
    return MatchConfig(edition=variant.edition, players=players, variant=variant,
                       options=variant.options, seed=seed)


def test_the_box_cards_carry_their_printed_attributes() -> None:
    rules = preset("meio").card_rules
    a = T.card_attributes(rules, C.parse_cards("-1 -2H +.5 Q+ AH 3S"))
    minus_one, minus_two, half, q_plus = (C.parse_card(x) for x in ("-1", "-2H", "+.5", "Q+"))
    ace_h, three_s = C.parse_card("AH"), C.parse_card("3S")
    assert a[minus_one, T.SUITLESS] == a[minus_one, T.WILD] == a[minus_one, T.FREE] == 1
    assert a[minus_one, T.VALUE] * 15 == -1 and a[minus_one, T.VALUE + 1] * 15 == 15
    assert a[minus_two, T.SUIT + C.HEARTS] == a[minus_two, T.TRUMP] == 1
    assert a[minus_two, T.FREE] == 0 and a[minus_two, T.WILD] == 0  # -2H follows as a heart
    assert a[half, T.RELATIVE] == a[half, T.RELATIVE + 1] == 1 and a[half, T.PILE] == 1
    assert a[half, T.VALUE] == 0
    assert a[q_plus, T.PILE + 1] == 1 and a[q_plus, T.VALUE] * 15 == 12.5
    assert a[ace_h, T.TRUMP] == 1 and a[ace_h, T.VALUE] * 15 == 14
    assert a[three_s, T.TRUMP] == 0 and a[three_s, T.SUIT + C.SPADES] == 1
    assert (a[:, T.SPECIAL].nonzero()[0] >= 60).all()
    # a card the deck does not hold has a row of zeros
    assert not a[C.parse_card("A+")].any() and not a[C.parse_card("KS")].any()


def test_a_variant_redefines_a_card_id_and_the_attributes_follow() -> None:
    """The invented special sits on id 62 (-2H's): a diamond worth 13.5, free, other half."""
    variant = load_variant(ROOT / "bench/rulesets/invented-special.toml")
    config = _variant_table(variant)
    a = T.card_attributes(config.rules, config.deck)
    card = C.parse_card("-2H")
    assert a[card, T.SUIT + C.DIAMONDS] == 1 and a[card, T.SUIT + C.HEARTS] == 0
    assert a[card, T.VALUE] * 15 == a[card, T.VALUE + 1] * 15 == 13.5
    assert a[card, T.FREE] == 1 and a[card, T.WILD] == 0 and a[card, T.TRUMP] == 0
    assert a[card, T.PILE + 1] == 1


def test_without_trumps_no_card_is_a_trump_and_the_numbers_say_so() -> None:
    variant = load_variant(ROOT / "bench/rulesets/no-trump.toml")
    config = _variant_table(variant)
    assert not T.card_attributes(config.rules, config.deck)[:, T.TRUMP].any()
    assert T.table_numbers(config)[T.N_NO_TRUMP] == 1
    assert T.table_numbers(MatchConfig(players=4, seed=1))[T.N_NO_TRUMP] == 0


def test_the_ruleset_numbers_give_the_sizes_and_the_match() -> None:
    variant = load_variant(ROOT / "examples/variants/six-seven.toml")
    n = T.ruleset_numbers(variant, 4, False)
    assert (n[T.N_HAND] * 15, n[T.N_FIRST] * 15, n[T.N_PACK] * 15) == (13, 6, 7)
    classic = T.table_numbers(MatchConfig(edition="classic", players=3, seed=1))
    assert classic[T.N_PLAYERS + 1] == 1 and round(float(classic[T.N_ASIDE]) * 15) == 1
    part = T.table_numbers(MatchConfig(players=4, partnership=True, seed=1))
    assert part[T.N_PARTNERSHIP] == part[T.N_VICTORIES] == 1 and part[T.N_SPECIALS] * 5 == 4
    bonus = parse_variant('preset = "meio"\n[scoring]\nform = "balance_bonus"\nbonus = 2\n')
    b = T.ruleset_numbers(bonus, 3, False)
    assert b[T.N_SCORING + 1] == 1 and b[T.N_BONUS] * 3 == 2


def test_the_vector_starts_with_the_standard_observation_unchanged() -> None:
    state = State.new(MatchConfig(players=4, seed=11))
    view = state.view(1)
    x = T.observe_any(view)
    assert x.shape == (T.ANY_SIZE,) and x.dtype == np.float32
    assert np.array_equal(x[:OBS_SIZE], observe(view))
    assert np.array_equal(x[T.ATTRS:T.NUMBERS_AT].reshape(65, T.ATTRIBUTES),
                          T.view_attributes(view))


def test_the_pooled_block_sums_each_plane_and_a_split_pick_moves_a_card() -> None:
    state = State.new(MatchConfig(players=4, seed=2))
    view = state.view(0)
    card = C.cards_of(view.hand)[0]
    before = T.observe_any(view)
    after = T.observe_any(view, picked=1 << card)
    pooled = before[T.POOLED:].reshape(len(T.POOL_PLANES), T.ATTRIBUTES)
    moved = after[T.POOLED:].reshape(len(T.POOL_PLANES), T.ATTRIBUTES)
    assert round(float(pooled[T.POOL_HAND, T.IN_DECK]) * 13) == 13
    row = T.view_attributes(view)[card] / T.POOL_SCALE
    assert np.allclose(moved[T.POOL_HAND], pooled[T.POOL_HAND] - row)
    assert np.allclose(moved[T.POOL_PACK], pooled[T.POOL_PACK] + row)
    # the unseen cards: the deck less the hand (nothing played yet)
    assert round(float(pooled[T.POOL_UNSEEN, T.IN_DECK]) * 13) == 52 - 13


def test_hidden_specials_get_their_chance_not_the_truth() -> None:
    """With reveal_specials off a seat does not know which specials are in: each one it
    has not seen gets the same chance, the actual ones as the others."""
    config = MatchConfig(players=3, seed=4, options=TableOptions(reveal_specials=False))
    state = State.new(config)
    view = state.view(0)
    a = T.view_attributes(view)
    held = [c for c in C.cards_of(view.hand) if c >= 60]
    unseen = [c for c in C.SPECIALS if c not in held]
    chances = {float(a[c, T.IN_DECK]) for c in unseen}
    assert len(chances) == 1
    assert chances.pop() == (3 - len(held)) / len(unseen)
    assert all(a[c, T.IN_DECK] == 1 for c in held)


SETTINGS = settings(max_examples=40, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@SETTINGS
@given(variants(), st.data())
def test_swapping_the_other_seats_hidden_cards_changes_nothing(
    variant: Variant, data: st.DataObject
) -> None:
    """The no-leak check: a look-alike state (the other seats' hands, packs and set-aside
    cards dealt again, consistently with the seat's view) gives the same vector."""
    assume(not is_standard(variant))
    players = data.draw(st.sampled_from(variant.players))
    partnership = players == 4 and variant.partnership and data.draw(st.booleans())
    config = MatchConfig(edition=variant.edition, players=players, partnership=partnership,
                         variant=variant, options=variant.options,
                         seed=data.draw(st.integers(0, 2**20)))
    state = State.new(config)
    rng = random.Random(data.draw(st.integers(0, 99)))
    for _ in range(data.draw(st.integers(0, 60))):
        if state.is_over:
            break
        seat = state.current_seat()
        legal = state.legal_actions(seat)
        state.apply(legal[rng.randrange(len(legal))], seat)
    assume(not state.is_over)
    seat = state.current_seat()
    view = state.view(seat)
    lookalike = None
    for k in range(30):
        world = sample_world(view, random.Random(k))
        if world.hands != state.hands or world.packs != state.packs or world.aside != state.aside:
            lookalike = world
            break
    assume(lookalike is not None)
    assert lookalike is not None
    other = lookalike.view(seat)
    assert np.array_equal(T.observe_any(view), T.observe_any(other))
    picked = C.cards_of(view.hand)[0] if view.hand else 0
    assert np.array_equal(T.observe_any(view, picked=1 << picked),
                          T.observe_any(other, picked=1 << picked))
