"""Inference: the weights of sampled worlds follow what the other seats did."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from meio.bots import bot_turn, make_bot
from meio.bots.inference import (
    OpponentModel,
    Reader,
    decisions,
    effective_size,
    infer_worlds,
    resample,
    temper,
    world_weights,
)
from meio.engine import MatchConfig, Phase, State, View, sample_world
from meio.engine import cards as C
from meio.engine.tricks import winning_index


def _heuristic_game(seed: int, players: int = 4) -> tuple[State, list[object]]:
    state = State.new(MatchConfig(players=players, seed=seed))
    return state, [make_bot("heuristic", s) for s in range(players)]


def _void_position() -> tuple[State, View, int, int]:
    """A position where some seat ``j`` has shown a void in suit ``s`` this half,
    seen by another seat that still has unseen cards of ``s`` to place."""
    for seed in range(40):
        state, bots = _heuristic_game(seed)
        while not state.rounds:
            bot_turn(state, bots)  # type: ignore[arg-type]
            if state.phase is not Phase.PLAY:
                continue
            me = state.to_move
            view = state.view(me)
            for j, suits in enumerate(view.voids()):
                for s in suits:
                    unseen = view.config.deck & ~view.played & ~view.hand & ~view.pack
                    if j != me and unseen & C.SUIT_MASKS[s] & ~C.WILD_MASK:
                        return state, view, j, s
    raise AssertionError("no void shown in 40 deals")


def test_a_seat_that_showed_a_void_gets_no_card_of_that_suit() -> None:
    _, view, j, suit = _void_position()
    suit_cards = C.SUIT_MASKS[suit] & ~C.WILD_MASK
    worlds = infer_worlds(view, 40, 80, random.Random(3))
    assert all(not w.hands[j] & suit_cards for w in worlds)

    # a world that hands the seat a card of that suit cannot explain its play: weight 0
    reader = Reader(view)
    rng = random.Random(4)
    for _ in range(50):
        world = sample_world(view, rng)
        others = [k for k in range(4) if k not in (j, view.seat)]
        donor = next((k for k in others if world.hands[k] & suit_cards), None)
        spare = world.hands[j] & ~C.WILD_MASK & ~suit_cards
        if donor is None or not spare:
            continue
        c = C.cards_of(world.hands[donor] & suit_cards)[0]
        d = C.cards_of(spare)[0]
        swap = (1 << c) | (1 << d)
        for holding in (world.hands, world.deal):
            holding[j] ^= swap
            holding[donor] ^= swap
        assert reader.log_likelihood(world) == -math.inf
        assert math.isfinite(reader.log_likelihood(sample_world(view, rng)))
        return
    raise AssertionError("found no world to doctor")


def _ducks(games: int) -> list[tuple[View, int, int]]:
    """Plays where seat ``j`` followed low under an opponent's winning card of the led
    suit while the top card of that suit was still out, each with the view of the next
    seat (who does not hold that top card)."""
    found = []
    for seed in range(games):
        state, bots = _heuristic_game(seed)
        while not state.rounds:
            if state.phase is Phase.PLAY and state.current_trick and state.led_suit >= 0:
                j, led = state.to_move, state.led_suit
                rules = state.config.rules
                values = rules.trick_values[state.half - 1]
                cards = [c for _, c in state.current_trick]
                win, _ = winning_index(cards, led, values, rules.suit_of, rules.trump)
                top = max((c for c in C.cards_of(state.config.deck & C.SUIT_MASKS[led])
                           if not C.is_wild(c)), key=lambda c: values[c])
                _, card = bot_turn(state, bots)  # type: ignore[arg-type]
                ducked = (C.card_suit(card) == led and not C.is_wild(card)
                          and C.card_suit(cards[win]) == led and values[card] < values[cards[win]])
                observer = (j + 1) % 4
                if (ducked and state.phase is Phase.PLAY and state.half == 1
                        and not (state.view(observer).played >> top & 1)
                        and not ((state.hands[observer] | state.packs[observer]) >> top & 1)):
                    found.append((state.view(observer), j, top))
                continue
            bot_turn(state, bots)  # type: ignore[arg-type]
    return found


def test_a_seat_that_ducked_is_less_likely_to_hold_the_top_card() -> None:
    ratios = []
    for view, j, top in _ducks(6):
        reader = Reader(view)
        duck = [d for d in reader.decisions if d.seat == j][-1]
        rng = random.Random(len(ratios))
        pool = [sample_world(view, rng) for _ in range(120)]
        has = np.array([bool(w.hands[j] >> top & 1) for w in pool])
        if has.all() or not has.any():
            continue
        likelihood = np.array([math.exp(reader.play_likelihood(w, duck)) for w in pool])
        # P(holds the top card | the duck) against P(holds it) before the duck was seen
        posterior = float((likelihood * has).sum() / likelihood.sum())
        ratios.append(posterior / float(has.mean()))
    assert len(ratios) >= 10
    assert sum(r < 1 for r in ratios) >= 0.65 * len(ratios)
    assert float(np.mean(np.log(ratios))) < -0.05


def test_weights_are_uniform_before_anyone_plays_and_vary_after() -> None:
    state, bots = _heuristic_game(2)
    while state.phase is Phase.SPLIT:
        bot_turn(state, bots)  # type: ignore[arg-type]
    view = state.view(state.to_move)
    rng = random.Random(0)
    worlds = [sample_world(view, rng) for _ in range(30)]
    # the other seats' splits already tell something
    assert np.ptp(world_weights(view, worlds)) > 0
    split_view = State.new(MatchConfig(players=4, seed=2)).view(0)
    assert Reader(split_view).decisions == []
    assert not Reader(split_view).has_evidence
    for _ in range(6):
        bot_turn(state, bots)  # type: ignore[arg-type]
    later = state.view(state.to_move)
    assert [d.seat for d in decisions(later)] == [
        s for t in later.tricks for s, _ in t.plays if s != later.seat
    ] + [s for s, _ in later.current_trick if s != later.seat]


def test_tempering_keeps_enough_worlds_and_resampling_is_reproducible() -> None:
    log_w = np.array([0.0, -1.0, -30.0, -60.0, -math.inf, -2.0, -90.0, -5.0])
    w = temper(log_w, 0.5)
    assert w.sum() == pytest.approx(1.0)
    assert w[4] == 0.0
    assert effective_size(w) >= 0.5 * 7 - 1e-6
    assert list(np.argsort(-w)[:3]) == [0, 1, 5]  # order kept
    full = temper(np.array([0.0, -0.1, -0.2]), 0.25)  # enough worlds already: untempered
    assert full[0] / full[1] == pytest.approx(math.exp(0.1))
    items = [State.new(MatchConfig(players=4, seed=s)) for s in range(8)]
    a = resample(items, w, 20, random.Random(7))
    b = resample(items, w, 20, random.Random(7))
    assert [id(x) for x in a] == [id(x) for x in b]
    assert items[4] not in a
    with pytest.raises(ValueError):
        OpponentModel(noise=0.0)
