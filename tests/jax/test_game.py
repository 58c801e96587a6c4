"""The JAX environment's own contracts: what a seat sees, illegal actions, refused
rulesets, and whole batches of random matches."""

from __future__ import annotations

import random
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from meio.engine import IllegalActionError, MatchConfig
from meio.engine.ruleset_file import parse_variant
from meio.jaxenv import (
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    GameState,
    JaxGame,
    UnsupportedRules,
    checked_step,
    random_matches,
)
from meio.jaxenv.play import pick
from meio.jaxenv.state import PLAY
from tests.jax.test_differential import compiled, play_lockstep


def swap_seats(state: GameState, a: int, b: int) -> GameState:
    """The same public position with seats ``a`` and ``b``'s hidden cards exchanged."""
    order = np.arange(state.hand.shape[0])
    order[[a, b]] = order[[b, a]]
    return state._replace(hand=state.hand[order], pack=state.pack[order],
                          dealt=state.dealt[order], deals=state.deals[:, order])


def midway(name: str, plays: int) -> GameState:
    """A match of table ``name`` after its split and ``plays`` random card plays."""
    _, init, step, mask_of = compiled(name)
    rng = random.Random(5)
    state = init(jax.random.key(3))
    while int(state.phase) != PLAY or plays:
        plays -= int(state.phase) == PLAY
        state = step(state, rng.choice(np.flatnonzero(np.asarray(mask_of(state))).tolist()))
    return state  # type: ignore[no-any-return]


def observe(name: str, state: GameState, seat: int) -> np.ndarray[Any, Any]:
    game = compiled(name)[0]
    return np.asarray(jax.jit(game.observe)(state, seat))


def test_a_seat_sees_its_own_cards_and_nothing_of_the_others_hidden_cards() -> None:
    state = midway("meio-4", 2)
    swapped = swap_seats(state, 1, 3)
    assert observe("meio-4", state, 0).shape == (OBSERVATION_SIZE,)
    np.testing.assert_array_equal(observe("meio-4", state, 0), observe("meio-4", swapped, 0))
    np.testing.assert_array_equal(observe("meio-4", state, 2), observe("meio-4", swapped, 2))
    # the seats whose cards moved see their new cards
    assert not np.array_equal(observe("meio-4", state, 1), observe("meio-4", swapped, 1))
    hand = observe("meio-4", state, 0)[:65]
    np.testing.assert_array_equal(hand, np.asarray(state.hand[0], np.float32))


def test_in_partnership_a_seat_sees_its_partners_pack_and_no_opponents_cards() -> None:
    name = "meio-4-partnership"
    state = midway(name, 1)
    np.testing.assert_array_equal(observe(name, state, 0),
                                  observe(name, swap_seats(state, 1, 3), 0))
    received = observe(name, state, 0)[130:195]
    np.testing.assert_array_equal(received, np.asarray(state.pack[2], np.float32))
    assert received.sum() == 6


def test_an_illegal_action_changes_nothing_and_checked_step_names_it() -> None:
    game, _, step, mask_of = compiled("meio-4")
    state = midway("meio-4", 1)
    illegal = int(np.flatnonzero(~np.asarray(mask_of(state)))[0])
    after = step(state, illegal)
    assert bool(after.illegal)
    for field in ("hand", "trick", "piles", "current", "phase"):
        np.testing.assert_array_equal(getattr(after, field), getattr(state, field))
    with pytest.raises(IllegalActionError, match=f"may not take action {illegal}"):
        checked_step(game, state, illegal)
    with pytest.raises(IllegalActionError, match="not an action"):
        checked_step(game, state, NUM_ACTIONS)
    batch = jax.tree.map(lambda x: jnp.stack([x, x]), state)
    with pytest.raises(ValueError, match="one match"):
        checked_step(game, batch, 0)


def test_rulesets_the_environment_cannot_hold_are_refused_with_the_reason() -> None:
    big = parse_variant('preset = "meio"\n[hand]\nsize = 14\nfirst_half = 8\npack = 6\n'
                        '[deck]\n2 = false\n3 = false\n5 = false\n[deck.4]\n'
                        'ranks = "23456789TJQKA"\nspecials = 4\n', "big.toml")
    with pytest.raises(UnsupportedRules, match="hands of 14 cards"):
        JaxGame(MatchConfig(players=4, variant=big))
    unshared = parse_variant('preset = "meio"\n[match.default]\nform = "totals"\n'
                             'shared = false\n', "unshared.toml")
    with pytest.raises(UnsupportedRules, match="shared = true"):
        JaxGame(MatchConfig(players=3, variant=unshared))
    with pytest.raises(UnsupportedRules, match="MatchConfig"):
        JaxGame("meio")  # type: ignore[arg-type]


def test_fixed_specials_deal_every_match_the_configs_deck_and_drawn_ones_vary() -> None:
    config = MatchConfig(players=3, seed=4)
    keys = jax.random.split(jax.random.key(0), 8)
    fixed = np.asarray(jax.vmap(JaxGame(config, draw_specials=False).init)(keys).deck)
    expected = [bool(config.deck >> c & 1) for c in range(65)]
    assert all(d.tolist() == expected for d in fixed)
    drawn = np.asarray(jax.vmap(JaxGame(config).init)(keys).deck)
    assert len({tuple(np.flatnonzero(d)) for d in drawn}) > 1
    assert all(d[60:].sum() == 3 and d.sum() == 39 for d in drawn)


def test_a_batch_of_random_matches_ends_every_match_with_winners_and_no_illegal_step() -> None:
    game = compiled("mini")[0]
    final = jax.jit(lambda key: random_matches(game, key, 16))(jax.random.key(7))
    assert bool(final.terminal.all()) and not bool(final.illegal.any())
    wins = np.asarray(final.wins)[:, :2]
    # mini: one round, one victory decides (a round of 3 tricks split 2/1 cannot tie)
    assert (wins.max(axis=1) == 1).all() and (np.asarray(final.rounds_done) == 1).all()
    np.testing.assert_array_equal(np.asarray(final.winners), wins == 1)


def test_the_lockstep_comes_across_pile_choices_and_declared_wild_leads() -> None:
    seen = {"piles_chosen": 0, "declares": 0}
    for seed in range(8):
        for key in seen:
            seen[key] += play_lockstep("meio-5", 77 + seed)[key]
        if all(seen.values()):
            break
    assert seen["piles_chosen"] > 0 and seen["declares"] > 0


def test_pick_draws_each_legal_action_alike_and_never_an_illegal_one() -> None:
    rng = np.random.default_rng(3)
    masks = rng.random((32, NUM_ACTIONS)) < 0.1
    masks[:, 5] = True
    counts = masks.sum(axis=1)
    for j in range(int(counts.max())):
        draws = (j + 0.5) / counts  # the j-th legal action's slice of [0, 1)
        chosen = np.asarray(jax.vmap(pick)(jnp.asarray(masks), jnp.asarray(draws)))
        for row, action in enumerate(chosen):
            assert masks[row, action]
            if j < counts[row]:
                assert action == np.flatnonzero(masks[row])[j]
