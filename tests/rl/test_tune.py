"""``meio train --variant`` (meio.rl.tune): its examples' inputs are the deciding seat's
view alone (the engine's ``observe_any``, unchanged by re-dealing the hidden cards), its
targets are what the ruleset's heuristic makes of each action in the engine, the
teacher's candidate packs are the heuristic's ranking, training from a network keeps
its function until it learns, and a tiny run writes a network that plays the ruleset
to the end."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from meio.bots.attributes import observe_any
from meio.bots.general import GENERAL_POLICY, OUTPUTS, PICK_BASE, GeneralBot, load_general
from meio.bots.variant_play import choose as heuristic_choose
from meio.bots.variant_play import ranked_packs
from meio.engine import MatchConfig, State, sample_world
from meio.engine import cards as C
from meio.engine.ruleset_file import load_variant
from meio.rl import tune, tunefit
from meio.rl.table import make_table
from meio.sim import core as K
from meio.sim.convert import CorePosition, arrays_to_state

ROOT = Path(__file__).resolve().parents[2]
SIX_SEVEN = load_variant(ROOT / "examples/variants/six-seven.toml")
INVENTED = load_variant(ROOT / "bench/rulesets/invented-special.toml")
NO_TRUMP = load_variant(ROOT / "bench/rulesets/no-trump.toml")
#: 3 players, two of three specials drawn (3 cards set aside) and hidden, one invented
HIDDEN = load_variant(Path(__file__).resolve().parent / "rulesets" / "invented.toml")


def _state(variant: object, table: tune.Table, kept: tune.Kept) -> State:
    """The engine state of a kept round-1 position (its set-aside cards: the rest of
    the match's deck)."""
    t = make_table(players=table.players, partnership=table.partnership, ruleset=variant)
    deck = C.mask_of(int(c) for c in t.deck(kept.combo))
    dealt = C.mask_of(int(c) for p in range(table.players) for c in
                      kept.position[K.DEAL + K.HAND_MAX * p: K.DEAL + K.HAND_MAX * p + t.hand])
    config = t.config(kept.combo, int(kept.position[K.ROUND_LEADER]))
    return arrays_to_state(CorePosition(config, kept.position.copy(), deck & ~dealt))


@pytest.mark.parametrize(("variant", "table"), [
    (SIX_SEVEN, tune.Table(4, False)), (SIX_SEVEN, tune.Table(4, True)),
    (HIDDEN, tune.Table(3, False)),
], ids=["six-seven-4", "six-seven-4p", "hidden-specials-3"])
def test_each_input_is_the_deciding_seats_view_and_nothing_hidden(variant: object,
                                                                  table: tune.Table) -> None:
    data, kept = tune.collect(variant, table, 1e9, envs=4, worlds=2, candidates=2,  # type: ignore[arg-type]
                              steps=60, keep_positions=True)
    rng = random.Random(5)
    checked = redealt = picks = 0
    for i, k in enumerate(kept):
        if k.round:
            continue  # the engine state of a later round needs the earlier ones
        view = _state(variant, table, k).view(k.seat)
        x = observe_any(view, picked=k.picked)
        assert np.array_equal(x.astype(np.float16), data.x[i]), i
        world = sample_world(view, rng)
        redealt += world.hands != _state(variant, table, k).hands
        assert np.array_equal(observe_any(world.view(k.seat), picked=k.picked), x)
        checked += 1
        picks += data.kind[i] == tune.PICK
    assert checked > 20 and picks and redealt


def test_a_card_target_is_what_the_heuristic_makes_of_each_action() -> None:
    table = tune.Table(4, False)
    data, kept = tune.collect(NO_TRUMP, table, 1e9, envs=8, worlds=2, candidates=2,
                              steps=40, keep_positions=True)
    cards = [i for i in np.flatnonzero(data.kind == tune.CARD) if kept[i].round == 0][:4]
    assert cards
    for i in cards:
        k = kept[i]
        state = _state(NO_TRUMP, table, k)
        legal = state.legal_actions(k.seat)
        assert sorted(np.flatnonzero(data.mask[i])) == sorted(legal)
        for action in legal:
            world = state.clone()
            world.apply(action, k.seat)
            while not world.rounds:
                seat = world.current_seat()
                view = world.view(seat)
                world.apply(heuristic_choose(view, view.legal_actions()), seat)
            assert data.target[i, action] == world.rounds[0].scores[k.seat], (i, action)
        best = min(data.target[i, a] for a in legal)
        assert data.value[i] >= best  # the heuristic's own action's result


def test_a_split_is_taught_as_picks_of_one_of_the_candidate_packs() -> None:
    data, kept = tune.collect(SIX_SEVEN, tune.Table(4, False), 0.0, envs=4, worlds=4,
                              candidates=3, keep_positions=True)
    picks = np.flatnonzero(data.kind == tune.PICK)
    assert len(picks) == 4  # each environment's first pick
    for i in picks:
        k = kept[i]
        hand = C.mask_of(int(c) for c in k.position[K.DEAL + K.HAND_MAX * k.seat:
                                                     K.DEAL + K.HAND_MAX * k.seat + 13])
        assert data.mask[i, :PICK_BASE].sum() == 0
        assert C.mask_of(int(c) - PICK_BASE for c in np.flatnonzero(data.mask[i])) == hand
        pack = C.mask_of(int(c) - PICK_BASE for c in np.flatnonzero(data.target[i]))
        assert np.isclose(data.target[i].sum(), 1.0) and pack.bit_count() == 7
        t = make_table(ruleset=SIX_SEVEN)
        config = t.config(k.combo, int(k.position[K.ROUND_LEADER]))
        assert pack in ranked_packs(hand, config, 3)


@pytest.mark.parametrize("variant", [SIX_SEVEN, INVENTED, NO_TRUMP, HIDDEN],
                         ids=["six-seven", "invented", "no-trump", "hidden-3"])
def test_the_candidate_packs_are_the_heuristics_ranking(variant: object) -> None:
    players = 3 if variant is HIDDEN else 4
    t = make_table(players=players, ruleset=variant)
    rng = random.Random(2)
    for k in range(12):
        combo = k % len(t.combos)
        deck = [int(c) for c in t.deck(combo)]
        rng.shuffle(deck)
        hand = C.mask_of(deck[:t.hand])
        config = t.config(combo, 0)
        assert tune.candidate_packs(hand, config, t.ruleset, 6) == ranked_packs(hand, config, 6)


def test_training_keeps_the_networks_function_until_it_learns(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    data, _ = tune.collect(SIX_SEVEN, tune.Table(4, False), 1e9, envs=4, worlds=2,
                           candidates=2, steps=100)
    out = tmp_path / "same.npz"
    report = tunefit.fit(data, out, minutes=0.001, lr=0.0)
    before, after = load_general(GENERAL_POLICY), load_general(out)
    x = data.x[:50].astype(np.float32)
    # the inputs that never varied were folded into the bias and back: the same trunk
    assert np.allclose(before.trunk(x), after.trunk(x), atol=0.05)
    picks = slice(PICK_BASE, OUTPUTS)
    assert np.allclose(before.logits(x)[:, picks], after.logits(x)[:, picks], atol=0.05)
    # the play logits: the imitation head (the start's) times the weight, values still 0
    assert report.weight in tunefit.WEIGHTS
    assert np.allclose(after.logits(x)[:, :PICK_BASE],
                       report.weight * before.logits(x)[:, :PICK_BASE], atol=0.05)
    learned = tmp_path / "learned.npz"
    tunefit.fit(data, learned, minutes=0.05)
    assert not np.allclose(load_general(learned).trunk(x), before.trunk(x), atol=0.05)


def test_a_tiny_improve_writes_a_network_that_plays_the_ruleset_to_the_end(
        tmp_path: Path) -> None:
    pytest.importorskip("torch")
    out = tmp_path / "tuned.npz"
    lines: list[str] = []
    report = tune.improve(INVENTED, out, minutes=0.15, jobs=1, log=lines.append)
    assert report.examples > 100 and load_general(out).hidden == 256
    assert any("examples" in line for line in lines)
    bot = GeneralBot(out)
    config = MatchConfig(edition=INVENTED.edition, players=4, variant=INVENTED,
                         options=INVENTED.options, seed=8)
    state = State.new(config)
    while not state.is_over:
        seat = state.current_seat()
        view = state.view(seat)
        state.apply(bot.choose(view, view.legal_actions()), seat)
    assert state.rounds


def test_bad_settings_are_refused_in_words() -> None:
    from meio.engine.presets import preset

    with pytest.raises(tune.TuneError, match="edition"):
        tune.improve(preset("meio"), Path("x.npz"), minutes=1)
    with pytest.raises(tune.TuneError, match="minutes"):
        tune.improve(SIX_SEVEN, Path("x.npz"), minutes=0)
    with pytest.raises(tune.TuneError, match="jobs"):
        tune.improve(SIX_SEVEN, Path("x.npz"), jobs=0)
    assert OUTPUTS == PICK_BASE + 65
