"""The network for any ruleset (meio.bots.general): its file, its play on any ruleset,
the ``learned`` level that keeps learned-v7 on the editions, and ``learned:PATH``."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from meio.bots import make_bot
from meio.bots.attributes import ANY_SIZE
from meio.bots.general import (
    GENERAL_POLICY,
    OUTPUTS,
    PICK_BASE,
    GeneralBot,
    GeneralPolicyError,
    LearnedLevelBot,
    is_general_file,
    load_general,
    save_general,
)
from meio.bots.learned import DEFAULT_POLICY, LearnedBot
from meio.engine import MatchConfig, Phase, State, sample_world
from meio.engine import actions as A
from meio.engine.ruleset_file import load_variant

ROOT = Path(__file__).resolve().parents[2]
SIX_SEVEN = load_variant(ROOT / "examples/variants/six-seven.toml")


def _tiny(path: Path, seed: int = 0, hidden: int = 8) -> Path:
    rng = np.random.default_rng(seed)
    shapes = {"w1": (ANY_SIZE, hidden), "b1": (hidden,), "w2": (hidden, hidden),
              "b2": (hidden,), "w3": (hidden, OUTPUTS), "b3": (OUTPUTS,),
              "wv": (hidden, 1), "bv": (1,)}
    save_general(path, {k: rng.normal(size=s) for k, s in shapes.items()})
    return path


def _table(variant=SIX_SEVEN, seed: int = 4, players: int = 4) -> MatchConfig:  # type: ignore[no-untyped-def]
    return MatchConfig(edition=variant.edition, players=players, variant=variant,
                       options=variant.options, seed=seed)


def test_a_general_file_round_trips_and_a_wrong_file_is_refused(tmp_path: Path) -> None:
    path = _tiny(tmp_path / "g.npz")
    policy = load_general(path)
    assert policy.hidden == 8 and policy.value_head is not None and is_general_file(path)
    assert not is_general_file(DEFAULT_POLICY) and not is_general_file(tmp_path / "none.npz")
    with pytest.raises(GeneralPolicyError, match="not a meio-any-policy/1 file"):
        load_general(DEFAULT_POLICY)
    with pytest.raises(GeneralPolicyError, match="no network file"):
        load_general(tmp_path / "none.npz")
    bad = {k: np.zeros((3, 3)) for k in ("w1", "b1", "w2", "b2", "w3", "b3")}
    save_general(tmp_path / "bad.npz", bad)
    with pytest.raises(GeneralPolicyError, match="reads 3 inputs"):
        load_general(tmp_path / "bad.npz")


def test_the_network_splits_by_the_rulesets_pack_size_and_plays_to_the_end(
        tmp_path: Path) -> None:
    path = _tiny(tmp_path / "g.npz", seed=1)
    config = _table()
    state = State.new(config)
    bots = [GeneralBot(path, s) for s in range(4)]
    while not state.is_over:
        seat = state.current_seat()
        view = state.view(seat)
        action = bots[seat].choose(view, view.legal_actions())
        if view.phase is Phase.SPLIT:
            assert A.pack_of(action).bit_count() == 7 and A.pack_of(action) & ~view.hand == 0
        state.apply(action, seat)
    assert state.rounds and all(len(r.scores) == 4 for r in state.rounds)


def test_the_pack_follows_the_pick_logits(tmp_path: Path) -> None:
    """With the pick outputs' biases set, the pack is the hand's highest-biased cards."""
    path = _tiny(tmp_path / "g.npz", seed=2)
    policy = load_general(path)
    w = list(policy.weights)
    w[4] = np.zeros_like(w[4])
    bias = np.zeros(OUTPUTS, dtype=np.float32)
    bias[PICK_BASE:] = np.arange(65, dtype=np.float32)  # higher card ids first
    w[5] = bias
    from meio.bots.general import GeneralPolicy

    view = State.new(_table()).view(0)
    pack = GeneralPolicy(tuple(w)).pack(view)
    hand = sorted(c for c in range(65) if view.hand >> c & 1)
    assert pack == sum(1 << c for c in hand[-7:])


def test_learned_keeps_learned_v7_on_an_edition_and_plays_the_general_network_elsewhere(
        ) -> None:
    level = LearnedLevelBot(3)
    v7 = LearnedBot(DEFAULT_POLICY, 3)
    general = GeneralBot(GENERAL_POLICY, 3)
    for config, twin in ((MatchConfig(players=4, seed=8), v7), (_table(seed=8), general)):
        state = State.new(config)
        rng = random.Random(1)
        for _ in range(40):
            seat = state.current_seat()
            view = state.view(seat)
            legal = view.legal_actions()
            assert level.choose(view, legal) == twin.choose(view, legal)
            state.apply(legal[rng.randrange(len(legal))], seat)


def test_learned_path_plays_a_general_file_on_a_variant(tmp_path: Path) -> None:
    path = _tiny(tmp_path / "g.npz")
    bot = make_bot(f"learned:{path}", 1)
    assert isinstance(bot, GeneralBot) and bot.name == f"learned:{path}"
    assert isinstance(make_bot("learned-any", 1), GeneralBot)
    assert make_bot("learned-any-v1", 1).name == "learned-any-v1"


def test_the_networks_choice_does_not_depend_on_hidden_cards() -> None:
    """A look-alike state (the other seats' cards dealt again) gets the same choices."""
    bot = GeneralBot(GENERAL_POLICY, 0)
    state = State.new(_table(seed=12))
    rng = random.Random(5)
    checked = 0
    for step in range(60):
        seat = state.current_seat()
        view = state.view(seat)
        legal = view.legal_actions()
        if step % 7 == 3 and view.phase is Phase.PLAY:
            world = sample_world(view, random.Random(step))
            if world.hands == state.hands:
                continue  # late in a round the unseen cards may have one place only
            other = world.view(seat)
            assert bot.choose(view, legal) == bot.choose(other, other.legal_actions())
            checked += 1
        state.apply(legal[rng.randrange(len(legal))], seat)
    assert checked >= 3
